import Foundation
import XCTest

/// `lines`, `sequence` and `sheet`: frame counts, manifests consistent with the files, determinism,
/// resume, interruption and never touching files the tool did not write.
final class BatchTests: CLITestCase {
    /// A song with an intro, a long gap (interlude) and a short gap (no interlude).
    let song = """
    [ti:Batch Song]
    [ar:Testers]
    [length:00:40]
    [00:03.00]One
    [00:06.00]Two
    [00:09.00]
    [00:20.00]Three after a long break
    [00:23.00]
    [00:24.00]Four after a short breath
    [00:30.00]Five
    """

    func isCompletePNG(_ path: String) throws -> Bool {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let iend: [UInt8] = [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        return data.count > 20 && Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            && Array(data.suffix(8)) == iend
    }

    func testLinesWritesOneFramePerLinePlusInterludes() throws {
        let lrc = try write(song, to: "song.lrc")
        let dir = temp("frames")
        let result = try run(["lines", cover, lrc, "-o", dir, "--preset", "classic", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "--quiet prints nothing")
        let manifest = try json(dir + "/manifest.json")
        let frames = try XCTUnwrap(manifest["frames"] as? [[String: Any]])
        // Five lyric lines + the intro (0–3 s) + the 11 s gap; the 1 s breath is not an interlude.
        XCTAssertEqual(frames.count, 7)
        XCTAssertEqual(frames.map { $0["text"] as? String }, ["", "One", "Two", "", "Three after a long break",
                                                               "Four after a short breath", "Five"])
        XCTAssertEqual(frames.filter { $0["line_index"] is NSNull }.count, 2, "interludes have a null line_index")
        XCTAssertEqual(manifest["version"] as? Int, 1)
        XCTAssertEqual(manifest["width"] as? Int, 480)
        XCTAssertEqual(manifest["cover"] as? String, cover)
        XCTAssertEqual((manifest["tags"] as? [String: String])?["ti"], "Batch Song")

        var previousEnd = 0
        for (i, frame) in frames.enumerated() {
            let file = try XCTUnwrap(frame["file"] as? String)
            let start = try XCTUnwrap(frame["start_ms"] as? Int), end = try XCTUnwrap(frame["end_ms"] as? Int)
            XCTAssertEqual(frame["index"] as? Int, i)
            XCTAssertEqual(start, previousEnd, "frames tile the song without gaps")
            XCTAssertGreaterThan(end, start)
            previousEnd = end
            XCTAssertTrue(file.hasPrefix(String(format: "%04d-", i)), file)
            XCTAssertEqual(try sha256(dir + "/" + file), frame["sha256"] as? String, file)
            XCTAssertNotNil(frame["boxes"] as? [[String: Any]])
            XCTAssertEqual(frame["missing_glyphs"] as? Int, 0)
        }
        XCTAssertEqual(previousEnd, 40_000, "the last frame ends at [length:]")
        XCTAssertEqual(frames[1]["file"] as? String, "0001-00m03.000s.png")
        // The ffconcat script lists every frame with its duration.
        let concat = try String(contentsOfFile: dir + "/frames.ffconcat", encoding: .utf8)
        XCTAssertTrue(concat.hasPrefix("ffconcat version 1.0\n"))
        XCTAssertTrue(concat.contains("file '0000-00m00.000s.png'\nduration 3.000\n"))
        XCTAssertEqual(concat.components(separatedBy: "duration ").count - 1, 7)
        XCTAssertEqual(try files(dir).filter { $0.hasSuffix(".png") }.count, 7)
        XCTAssertFalse(try files(dir).contains { $0.contains(".tmp-") })
    }

    func testRerunIsDeterministicAndRendersNothingNew() throws {
        let lrc = try write(song, to: "song.lrc")
        let dir = temp("frames")
        XCTAssertEqual(try run(["lines", cover, lrc, "-o", dir, "--preset", "classic"]).status, 0)
        let first = try Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))
        let again = try run(["lines", cover, lrc, "-o", dir, "--preset", "classic"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("(0 rendered, 7 up to date)"), again.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json")), first)
        // --force renders everything again, to the same bytes, with one job or two.
        let forced = try run(["lines", cover, lrc, "-o", dir, "--preset", "classic", "--force", "--jobs", "1"])
        XCTAssertTrue(forced.stderr.contains("(7 rendered, 0 up to date)"), forced.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json")), first)
        // Changing an option re-renders only what it changes (here: everything, the neighbours).
        let changed = try run(["lines", cover, lrc, "-o", dir, "--preset", "classic", "--before", "1"])
        XCTAssertTrue(changed.stderr.contains("(7 rendered, 0 up to date)"), changed.stderr)
    }

    func testEditedLyricsRerenderOnlyWhatChangedAndRemoveStaleFrames() throws {
        let dir = temp("frames")
        let lrc = try write(song, to: "song.lrc")
        XCTAssertEqual(try run(["lines", cover, lrc, "-o", dir, "--preset", "classic", "--before", "0", "--after", "0"]).status, 0)
        // Drop the last line: its frame goes, and the lyrics' bytes changed, so the rest re-render.
        let shorter = song.replacingOccurrences(of: "[00:30.00]Five\n", with: "").replacingOccurrences(of: "[00:30.00]Five", with: "")
        try Data(shorter.utf8).write(to: URL(fileURLWithPath: lrc))
        let result = try run(["lines", cover, lrc, "-o", dir, "--preset", "classic", "--before", "0", "--after", "0"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(try files(dir).contains("0006-00m30.000s.png"), "a frame this tool wrote and no longer needs is removed")
        XCTAssertEqual(try files(dir).filter { $0.hasSuffix(".png") }.count, 6)
    }

    func testNeverOverwritesFilesItDidNotWrite() throws {
        let lrc = try write(song, to: "song.lrc")
        let dir = temp("frames")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let foreign = dir + "/0001-00m03.000s.png"
        try Data("mine".utf8).write(to: URL(fileURLWithPath: foreign))
        let notes = dir + "/notes.txt"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: notes))
        let refused = try run(["lines", cover, lrc, "-o", dir, "--preset", "classic"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.hasPrefix("error: \(foreign): "), refused.stderr)
        XCTAssertEqual(try String(contentsOfFile: foreign, encoding: .utf8), "mine")
        XCTAssertEqual(try files(dir), ["0001-00m03.000s.png", "notes.txt"], "nothing written")
        let forced = try run(["lines", cover, lrc, "-o", dir, "--preset", "classic", "--force"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(try isCompletePNG(foreign))
        XCTAssertEqual(try String(contentsOfFile: notes, encoding: .utf8), "keep", "unrelated files are left alone")
    }

    func testBadInputFailsBeforeAnyFrameIsWritten() throws {
        let dir = temp("frames")
        let result = try run(["lines", fixture("truncated.jpg"), lyrics, "-o", dir])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("error: \(fixture("truncated.jpg")): corrupt JPEG"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir))
        let usage = try run(["sequence", cover, lyrics, "-o", dir, "--fps", "0"])
        XCTAssertEqual(usage.status, 64)
    }

    func testSequenceMapsEveryTickAndRendersIdenticalFramesOnce() throws {
        let lrc = try write(song, to: "song.lrc")
        let dir = temp("seq")
        let result = try run(["sequence", cover, lrc, "--fps", "10", "-o", dir, "--preset", "classic", "--to", "12", "--transition", "none",
                              "--dense"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let manifest = try json(dir + "/manifest.json")
        XCTAssertEqual(manifest["fps"] as? Int, 10)
        let frames = try XCTUnwrap(manifest["frames"] as? [[String: Any]])
        let ticks = try XCTUnwrap(manifest["ticks"] as? [[String: Any]])
        XCTAssertEqual(ticks.count, 120, "12 s at 10 fps")
        XCTAssertEqual(frames.count, 4, "intro, One, Two, gap: each rendered once")
        XCTAssertEqual(try files(dir).filter { $0.hasSuffix(".png") }.count, 4)
        let frameIndices = Set(frames.compactMap { $0["index"] as? Int })
        for (k, tick) in ticks.enumerated() {
            XCTAssertEqual(tick["index"] as? Int, k)
            XCTAssertEqual(tick["time_ms"] as? Int, k * 100)
            XCTAssertTrue(frameIndices.contains(try XCTUnwrap(tick["frame"] as? Int)))
        }
        XCTAssertEqual(ticks[29]["frame"] as? Int, 0)
        XCTAssertEqual(ticks[30]["frame"] as? Int, 1)
        let dense = try files(dir + "/dense")
        XCTAssertEqual(dense.count, 120)
        XCTAssertEqual(dense.first, "00000.png")
        XCTAssertEqual(try sha256(dir + "/dense/00031.png"), frames[1]["sha256"] as? String)
        let concat = try String(contentsOfFile: dir + "/frames.ffconcat", encoding: .utf8)
        XCTAssertTrue(concat.contains("duration 3.000"), concat)
    }

    func testSheetWritesOneImage() throws {
        let lrc = try write(song, to: "song.lrc")
        let sheet = temp("sheet.png")
        let result = try run(["sheet", cover, lrc, "-o", sheet, "--columns", "3", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(try isCompletePNG(sheet))
        XCTAssertEqual(try files(), ["sheet.png", "song.lrc"])
    }

    func testInterruptionLeavesOnlyCompleteFramesAndAConsistentManifest() throws {
        try interrupt(with: SIGINT)
    }

    func testTerminationStopsAsCleanly() throws {
        try interrupt(with: SIGTERM)
    }

    func interrupt(with signal: Int32) throws {
        // A long song so that the run is still going when the signal arrives.
        var long = "[ti:Long]\n"
        for i in 0..<240 { long += String(format: "[%02d:%02d.00]Line number %d of a long song\n", i / 60, i % 60, i) }
        let lrc = try write(long, to: "long.lrc")
        let dir = temp("frames")
        let (process, _, err) = try start(["lines", cover, lrc, "-o", dir, "--jobs", "1", "--preset", "classic"])
        // Wait for the first frames, then interrupt.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let names = try? files(dir), names.filter({ $0.hasSuffix(".png") }).count >= 3 { break }
            usleep(20_000)
        }
        kill(process.processIdentifier, signal)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130, stderr)
        XCTAssertTrue(stderr.contains("stopped:"), stderr)
        let manifest = try json(dir + "/manifest.json")
        XCTAssertEqual(manifest["complete"] as? Bool, false)
        let frames = try XCTUnwrap(manifest["frames"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(frames.count, 3)
        XCTAssertLessThan(frames.count, 241)
        let pngs = try files(dir).filter { $0.hasSuffix(".png") }
        XCTAssertFalse(try files(dir).contains { $0.contains(".tmp-") }, "no temporary file left")
        XCTAssertEqual(Set(pngs), Set(frames.compactMap { $0["file"] as? String }), "the manifest lists exactly the frames on disk")
        for name in pngs { XCTAssertTrue(try isCompletePNG(dir + "/" + name), name) }
        // Resuming finishes the job and reuses what was done.
        let resumed = try run(["lines", cover, lrc, "-o", dir, "--preset", "classic"])
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertTrue(resumed.stderr.contains("\(frames.count) up to date"), resumed.stderr)
        XCTAssertEqual(try json(dir + "/manifest.json")["complete"] as? Bool, true)
    }
}
