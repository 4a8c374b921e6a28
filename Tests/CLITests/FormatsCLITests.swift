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
}
