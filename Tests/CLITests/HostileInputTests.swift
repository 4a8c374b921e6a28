import Foundation
import TestSupport
import XCTest

/// Bad and hostile inputs, one per row: each must end with the expected exit code, one line
/// `error: <path>: <reason>` and no output file. Large inputs are generated here, not stored.
final class HostileInputTests: CLITestCase {
    struct Case {
        var name: String
        var lyrics: [UInt8]
        var extra: [String] = []
        var reason: String
    }

    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testBadLyricsTable() throws {
        var junk = [UInt8]()
        var seed: UInt64 = 42
        for _ in 0..<4096 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            junk.append(UInt8(truncatingIfNeeded: seed >> 33))
        }
        let cases = [
            Case(name: "binary junk", lyrics: junk, reason: "not valid utf-8, gb18030 or windows-1252 text"),
            Case(name: "UTF-16 with a lone surrogate", lyrics: [0xFF, 0xFE] + Array("[00:01.00]a".utf16).flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] } + [0x00, 0xD8, 0x62, 0x00],
                 reason: "not valid utf-16le text"),
            Case(name: "invalid UTF-8 in a forced encoding", lyrics: bytes("[00:01.00]ok ") + [0xFF, 0xFE], extra: ["--encoding", "utf-8"],
                 reason: "not valid utf-8 text"),
            Case(name: "file over the size limit", lyrics: bytes(String(repeating: "[00:01.00]la la la\n", count: 100)),
                 extra: ["--max-lyrics-bytes", "1000"], reason: "more than the limit of 1000"),
            Case(name: "too many lines", lyrics: bytes((0..<50).map { String(format: "[00:%02d.00]x", $0) }.joined(separator: "\n")),
                 extra: ["--max-lyrics-lines", "10"], reason: "more than the limit of 10"),
            Case(name: "tags only", lyrics: bytes("[ti:Nothing]\n[ar:Nobody]\n"), reason: "no timed lyric lines"),
            Case(name: "only NUL bytes", lyrics: [UInt8](repeating: 0, count: 300), reason: "no timed lyric lines"),
            Case(name: "only blank stamps", lyrics: bytes("[00:01.00]\n[00:02.00]\n"), reason: "no timed lyric line has any text"),
        ]
        for c in cases {
            let path = temp("case.lrc")
            try Data(c.lyrics).write(to: URL(fileURLWithPath: path))
            let out = temp("out.png")
            let result = try run(["frame", cover, path, "--at", "1", "-o", out, "--preset", "classic"] + c.extra)
            XCTAssertEqual(result.status, 1, "\(c.name): \(result.stderr)")
            let message = result.stderr.trimmingCharacters(in: .newlines)
            XCTAssertFalse(message.contains("\n"), "\(c.name): one line")
            XCTAssertTrue(message.hasPrefix("error: \(path): "), "\(c.name): \(message)")
            XCTAssertTrue(message.contains(c.reason), "\(c.name): '\(message)' should say '\(c.reason)'")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "\(c.name): no output")
        }
    }

    func testHostileTextRendersCleanly() throws {
        let long = String(repeating: "long line ", count: 1_000)
        let marks = "a" + String(repeating: "\u{0301}", count: 5_000)
        let lrc = try write("""
            [00:01.00]\(long)
            [00:02.00]controls\u{1B}[31m\u{7}\u{7F} zero\u{200B}width\u{200D}join e\u{0301}\u{0323}
            [00:03.00]\(marks)
            [00:04.00]end
            """, to: "hostile.lrc")
        for at in ["1", "2", "3"] {
            let out = temp("h\(at).png"), report = temp("h\(at).json")
            let result = try run(["frame", cover, lrc, "--at", at, "-o", out, "--report", report])
            XCTAssertEqual(result.status, 0, result.stderr)
            let json = try json(report)
            XCTAssertEqual(json["missing_glyphs"] as? Int, 0, "@\(at): controls are removed, not drawn as boxes")
            for box in try XCTUnwrap(json["boxes"] as? [[String: Any]]) {
                let x = try XCTUnwrap(box["x"] as? Double), y = try XCTUnwrap(box["y"] as? Double)
                let w = try XCTUnwrap(box["width"] as? Double), h = try XCTUnwrap(box["height"] as? Double)
                XCTAssertTrue(x >= 0 && y >= 0 && x + w <= 1080 && y + h <= 1920, "@\(at): \(box)")
            }
        }
    }

    func testTwoHundredThousandLinesStayQuick() throws {
        var text = "[ti:Long]\n"
        for i in 0..<200_000 { text += String(format: "[%02d:%02d.%02d]line %d\n", i / 6000, (i / 100) % 60, i % 100, i) }
        let lrc = try write(text, to: "long.lrc")
        let start = Date()
        let result = try run(["frame", cover, lrc, "--at", "1:40", "-o", temp("long.png"), "--preset", "classic",
                              "--max-lyrics-lines", "300000"])
        XCTAssertEqual(result.status, 0, result.stderr)
        // A guard against work that grows with the square of the lines (that would take hours),
        // not a speed measure.
        let seconds = Date().timeIntervalSince(start)
        print("200 000 lines: \(String(format: "%.1f", seconds)) s")
        XCTAssertLessThan(seconds, 20 * Sanitizers.allowance)
        let refused = try run(["frame", cover, lrc, "--at", "1", "-o", temp("refused.png")])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("200000 timed lines, more than the limit of 100000"), refused.stderr)
    }

    func testUnusableFontIsSkippedWithAWarning() throws {
        let folder = temp("fonts")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let good = try Data(contentsOf: Self.package.appendingPathComponent("fonts/NotoSans-Regular.ttf"))
        try good.prefix(4000).write(to: URL(fileURLWithPath: folder + "/Truncated.ttf"))
        try Data("not a font".utf8).write(to: URL(fileURLWithPath: folder + "/Junk.otf"))
        let result = try run(["frame", cover, lyrics, "--at", "10", "-o", temp("f.png"), "--fonts-dir", folder])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("warning: \(folder)/Truncated.ttf: not a usable font, skipped"), result.stderr)
        XCTAssertTrue(result.stderr.contains("warning: \(folder)/Junk.otf: not a usable font, skipped"), result.stderr)
    }

    func testClosedPipeDoesNotKillTheProcess() throws {
        let (process, out, _) = try start(["inspect", lyrics])
        try out.fileHandleForReading.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit, "ended normally, not by SIGPIPE")
    }

    // MARK: Disk faults (a small tmpfs; needs root and mount, skipped elsewhere)

    func mountTmpfs(_ path: String, options: String) throws -> Bool {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", options, "tmpfs", path]
        mount.standardError = FileHandle.nullDevice
        guard (try? mount.run()) != nil else { return false }
        mount.waitUntilExit()
        return mount.terminationStatus == 0
    }

    func unmount(_ path: String) {
        let umount = Process()
        umount.executableURL = URL(fileURLWithPath: "/bin/umount")
        umount.arguments = [path]
        try? umount.run()
        umount.waitUntilExit()
    }

    func testFullDiskMidBatchLeavesCompleteFramesAndAConsistentManifest() throws {
        let disk = temp("disk")
        guard getuid() == 0, try mountTmpfs(disk, options: "size=3m") else { throw XCTSkip("cannot mount a tmpfs here") }
        defer { unmount(disk) }
        let dir = disk + "/frames"
        let result = try run(["lines", cover, lyrics, "-o", dir, "--jobs", "2"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("no space left on device"), result.stderr)
        let names = try files(dir)
        XCTAssertFalse(names.contains { $0.contains(".tmp-") }, "no partial file: \(names)")
        let pngs = names.filter { $0.hasSuffix(".png") }
        XCTAssertFalse(pngs.isEmpty, "some frames fit before the disk filled")
        if names.contains("manifest.json") {
            let manifest = try json(dir + "/manifest.json")
            XCTAssertEqual(manifest["complete"] as? Bool, false)
            let listed = Set((manifest["frames"] as? [[String: Any]] ?? []).compactMap { $0["file"] as? String })
            XCTAssertEqual(listed, Set(pngs), "the manifest lists exactly the frames on disk")
        }
    }

    func testReadOnlyFolderFailsCleanly() throws {
        let disk = temp("ro")
        guard getuid() == 0, try mountTmpfs(disk, options: "size=1m,ro") else { throw XCTSkip("cannot mount a tmpfs here") }
        defer { unmount(disk) }
        let frame = try run(["frame", cover, lyrics, "--at", "1", "-o", disk + "/out.png"])
        XCTAssertEqual(frame.status, 1)
        XCTAssertTrue(frame.stderr.contains("read-only file system"), frame.stderr)
        let batch = try run(["lines", cover, lyrics, "-o", disk + "/frames"])
        XCTAssertEqual(batch.status, 1)
        XCTAssertTrue(batch.stderr.hasPrefix("error: \(disk)/frames: "), batch.stderr)
        XCTAssertEqual(try files(disk), [])
    }
}
