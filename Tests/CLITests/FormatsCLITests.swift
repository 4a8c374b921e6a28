import Foundation
import XCTest

/// Lyric formats on the command line: detection, `--format`, `--romanisation`, and the new
/// `inspect` fields.
final class FormatsCLITests: CLITestCase {
    let ttml = "samples/river-lights/river-lights.ttml"
    let riverCover = "samples/river-lights/cover.png"

    func testInspectDetectsTTMLAndPrintsTheNewFields() throws {
        let result = try run(["inspect", ttml])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["format"] as? String, "ttml")
        let agents = try XCTUnwrap(json["agents"] as? [[String: Any]])
        XCTAssertEqual(agents.compactMap { $0["id"] as? String }, ["v1", "v2", "v1000"])
        let lines = try XCTUnwrap(json["lines"] as? [[String: Any]])
        XCTAssertEqual(lines.count, 12)
        XCTAssertEqual(lines[1]["role"] as? String, "lyric")
        XCTAssertEqual(lines[1]["romanisation"] as? String, "kimi no koe wo matte ita")
        XCTAssertEqual(lines[1]["agent"] as? String, "v1")
        XCTAssertEqual((lines[1]["background"] as? [String: Any])?["text"] as? String, "待ってた")
        XCTAssertTrue(lines[0]["background"] is NSNull)
        // The LRC samples say what they are too.
        XCTAssertTrue(try run(["inspect", lyrics]).stdout.contains(#""format": "lrc""#))
    }

    func testForcedFormatThatDoesNotFitIsAOneLineError() throws {
        let result = try run(["inspect", lyrics, "--format", "ttml"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("error: \(lyrics): not valid TTML: line "), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        let yrc = try run(["inspect", ttml, "--format", "yrc"])
        XCTAssertEqual(yrc.status, 1)
        XCTAssertTrue(yrc.stderr.hasPrefix("error: \(ttml): "), yrc.stderr)
    }

    func testBadFormatAndRomanisationFlagsAreUsageErrors() throws {
        for arguments in [["inspect", ttml, "--format", "docx"],
                          ["frame", riverCover, ttml, "--at", "20", "--format", "lyrics"],
                          ["frame", riverCover, ttml, "--at", "20", "--romanisation", "maybe"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
        }
    }

    func testRomanisationHideDropsTheSubLine() throws {
        func boxes(_ extra: [String]) throws -> [String] {
            let out = temp("r.png"), report = temp("r.json")
            let result = try run(["frame", riverCover, ttml, "--at", "21.6", "--preset", "square", "-o", out, "--report", report] + extra)
            XCTAssertEqual(result.status, 0, result.stderr)
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
            return (json["boxes"] as? [[String: Any]] ?? []).compactMap { $0["role"] as? String }
        }
        let shown = try boxes([])
        XCTAssertTrue(shown.contains("romanisation") && shown.contains("background") && shown.contains("translation"), "\(shown)")
        let hidden = try boxes(["--romanisation", "hide"])
        XCTAssertFalse(hidden.contains("romanisation"), "\(hidden)")
        XCTAssertTrue(hidden.contains("translation"))
    }

    func testLinesRendersATTMLSong() throws {
        let dir = temp("river")
        let result = try run(["lines", riverCover, ttml, "-o", dir, "--preset", "square", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))) as? [String: Any])
        let frames = try XCTUnwrap(manifest["frames"] as? [[String: Any]])
        // 12 lines, an intro, interludes after the lines whose end leaves a silence of 4 s or more, and the outro.
        XCTAssertGreaterThanOrEqual(frames.count, 14, "\(frames.count)")
    }

    /// A Kugou `.krc` made the way Kugou makes them (zlib, then the XOR key), by Python's zlib.
    func makeKRC(_ text: String, at path: String) throws {
        let script = """
            import sys, zlib
            key = bytes([0x40,0x47,0x61,0x77,0x5E,0x32,0x74,0x47,0x51,0x36,0x31,0x2D,0xCE,0xD2,0x6E,0x69])
            z = zlib.compress(b'\\xef\\xbb\\xbf' + sys.stdin.buffer.read(), 9)
            open(sys.argv[1], 'wb').write(b'krc1' + bytes(b ^ key[i % 16] for i, b in enumerate(z)))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testEncryptedKRCRendersInspectsAndConverts() throws {
        let krc = temp("song.krc")
        try makeKRC("[ti:Paper Kites]\n[1000,1500]<0,500,0>Paper <500,1000,0>kites\n[3000,2000]<0,2000,0>climb\n", at: krc)
        let inspect = try run(["inspect", krc])
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssertTrue(inspect.stdout.contains(#""format": "krc""#), inspect.stdout)
        XCTAssertTrue(inspect.stdout.contains("Paper kites"))
        let out = temp("krc.png")
        let frame = try run(["frame", riverCover, krc, "--at", "1.2", "--preset", "square", "-o", out])
        XCTAssertEqual(frame.status, 0, frame.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
        let ttmlOut = temp("song.ttml")
        let convert = try run(["convert", krc, "-o", ttmlOut])
        XCTAssertEqual(convert.status, 0, convert.stderr)
        let back = try run(["inspect", ttmlOut])
        XCTAssertTrue(back.stdout.contains(#""format": "ttml""#) && back.stdout.contains("Paper kites"), back.stdout)
    }

    func testADamagedKRCIsAOneLineError() throws {
        let krc = temp("bad.krc")
        try Data("krc1".utf8 + [0x01, 0x02, 0x03]).write(to: URL(fileURLWithPath: krc))
        let result = try run(["inspect", krc])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("error: \(krc): not valid KRC: the lyrics do not inflate"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }

    func testAnEncodingGuessBetweenTwoIsNoted() throws {
        let file = temp("guess.lrc")
        try Data(Array("[00:01.00]x ".utf8) + [0xC4, 0xE3] + Array(" y\n".utf8)).write(to: URL(fileURLWithPath: file))
        let result = try run(["inspect", file])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("\(file): read as windows-1252 text, though it also reads as gb18030"), result.stderr)
        XCTAssertTrue(result.stderr.contains("--encoding"))
        let forced = try run(["inspect", file, "--encoding", "gb18030"])
        XCTAssertEqual(forced.stderr, "")
        XCTAssertTrue(forced.stdout.contains("x 你 y"))
    }
}
