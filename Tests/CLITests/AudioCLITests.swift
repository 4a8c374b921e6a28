import Foundation
import TestSupport
import XCTest

/// Audio files as input: every command takes one, the parts come from sidecars, tags and folder
/// images in the documented order, and bad tags are one-line errors.
final class AudioCLITests: CLITestCase {
    func audio(_ name: String) throws -> String { try AudioFixtures.path(name) }

    /// Copies fixture `name` into a fresh folder as `as`, with the given other files beside it.
    func folder(with name: String, as copy: String, beside files: [String: Data] = [:]) throws -> String {
        let dir = work.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try audio(name), toPath: dir.appendingPathComponent(copy).path)
        for (file, data) in files { try data.write(to: dir.appendingPathComponent(file)) }
        return dir.appendingPathComponent(copy).path
    }

    func inspect(_ arguments: [String]) throws -> [String: Any] {
        let result = try run(["inspect"] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    func source(_ json: [String: Any]) -> [String?] {
        let source = json["source"] as? [String: Any]
        return [source?["lyrics"] as? String, source?["cover"] as? String]
    }

    func testEveryFormatGivesLyricsCoverAndLength() throws {
        let expected: [(String, String, String)] = [
            ("tagged.mp3", "sylt", "apic"), ("txxx.mp3", "txxx:USLT", "-"), ("tagged.flac", "vorbis:LYRICS", "flac:picture"),
            ("tagged.ogg", "vorbis:LYRICS", "vorbis:METADATA_BLOCK_PICTURE"),
            ("tagged.opus", "vorbis:UNSYNCEDLYRICS", "vorbis:METADATA_BLOCK_PICTURE"), ("tagged.m4a", "mp4:©lyr", "mp4:covr"),
        ]
        for (file, lyrics, cover) in expected {
            let json = try inspect([try audio(file)])
            XCTAssertEqual(source(json), [lyrics, cover == "-" ? nil : cover], file)
            let audio = try XCTUnwrap(json["audio"] as? [String: Any], file)
            XCTAssertEqual(Double(audio["length_ms"] as? Int ?? 0), 3000, accuracy: 120, file)
            let lines = try XCTUnwrap(json["lines"] as? [[String: Any]], file)
            XCTAssertEqual(lines.count, 3, file)
            XCTAssertEqual(lines.first?["start_ms"] as? Int, lyrics == "sylt" ? 400 : 500, file)
        }
    }

    func testSYLTOnlyWhereItAgreesWithTheText() throws {
        XCTAssertEqual(source(try inspect([try audio("sylt-disagree.mp3")])).first, "uslt")
    }

    func testPrecedenceSidecarTagsFolder() throws {
        let lrc = Data("[00:00.20]From the sidecar\n[00:01.00]Second\n".utf8)
        let png = try Data(contentsOf: URL(fileURLWithPath: fixture("rgb8.png")))
        // A sidecar (any case) beats the tags; the embedded picture beats the folder image.
        let song = try folder(with: "tagged.mp3", as: "Song.mp3", beside: ["song.LRC": lrc, "Cover.PNG": png])
        XCTAssertEqual(source(try inspect([song])), ["sidecar:song.LRC", "apic"])
        // --lyrics beats the sidecar.
        let other = work.appendingPathComponent("other.lrc").path
        try Data("[00:00.10]Override\n".utf8).write(to: URL(fileURLWithPath: other))
        XCTAssertEqual(source(try inspect([song, "--lyrics", other])).first, "file:" + other)
        // No picture in the tags: the folder image, whatever its case.
        let bare = try folder(with: "bare.mp3", as: "track.mp3", beside: ["track.lrc": lrc, "FOLDER.jpg": try Data(contentsOf: URL(fileURLWithPath: fixture("baseline.jpg")))])
        XCTAssertEqual(source(try inspect([bare])), ["sidecar:track.lrc", "file:FOLDER.jpg"])
        // cover comes before folder, whatever the image type (a WebP here).
        let webp = try folder(with: "bare.mp3", as: "t.mp3", beside: ["t.srt": Data("1\n00:00:00,500 --> 00:00:02,000\nA cue\n".utf8),
                                                                      "folder.png": png, "cover.WEBP": try Data(contentsOf: URL(fileURLWithPath: fixture("lossless.webp")))])
        XCTAssertEqual(source(try inspect([webp])), ["sidecar:t.srt", "file:cover.WEBP"])
        XCTAssertEqual(try run(["frame", webp, "--at", "1", "-o", work.appendingPathComponent("w.png").path]).status, 0)
        let out = work.appendingPathComponent("bare.png").path
        let frame = try run(["frame", bare, "--at", "0.5", "-o", out, "--preset", "square"])
        XCTAssertEqual(frame.status, 0, frame.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
    }

    func testEveryCommandTakesAnAudioFile() throws {
        let song = try audio("tagged.flac")
        let png = work.appendingPathComponent("f.png").path
        XCTAssertEqual(try run(["frame", song, "--at", "1.6", "-o", png, "--preset", "square"]).status, 0)
        let lines = work.appendingPathComponent("lines").path
        let result = try run(["lines", song, "-o", lines, "--preset", "square", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: lines + "/manifest.json"))) as? [String: Any])
        XCTAssertEqual((manifest["frames"] as? [Any])?.count, 4)  // the intro and three lines
        XCTAssertEqual(try run(["sheet", song, "-o", work.appendingPathComponent("s.png").path, "--quiet"]).status, 0)
        XCTAssertEqual(try run(["sequence", song, "--fps", "2", "-o", work.appendingPathComponent("seq").path, "--quiet"]).status, 0)
        // --cover overrides the embedded picture.
        let covered = try run(["frame", song, "--at", "1", "--cover", fixture("rgb8.png"), "-o", png, "--report", work.appendingPathComponent("r.json").path])
        XCTAssertEqual(covered.status, 0, covered.stderr)
    }

    /// A sequence of an audio file stops with the audio: the fixture is 3 s long and its last line,
    /// at 2.5 s, has no end of its own (its default end ran 1.5 s past the audio before).
    func testASequenceOfAnAudioFileStopsWithTheAudio() throws {
        let folder = work.appendingPathComponent("seq").path
        let result = try run(["sequence", try audio("tagged.flac"), "--fps", "10", "-o", folder, "--size", "90x160", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let manifest = try json(folder + "/manifest.json")
        let ticks = try XCTUnwrap(manifest["ticks"] as? [[String: Any]])
        XCTAssertEqual(ticks.count, 30, "10 fps over the 3 s of audio")
        let frames = try XCTUnwrap(manifest["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.last?["end_ms"] as? Int, 3000)
        // --to still goes where it is told.
        let longer = work.appendingPathComponent("seq-to").path
        XCTAssertEqual(try run(["sequence", try audio("tagged.flac"), "--fps", "10", "--to", "4", "-o", longer, "--size", "90x160", "--quiet"]).status, 0)
        XCTAssertEqual((try json(longer + "/manifest.json")["ticks"] as? [Any])?.count, 40)
    }

    func testBadAudioInputsAreOneLineErrors() throws {
        let cases: [(String, String)] = [
            ("plain.mp3", "uslt: the lyrics are plain text without times"),
            ("text-picture.mp3", "apic: not a PNG, JPEG or WebP image"),
            ("bare.mp3", "no lyrics: none embedded and no sidecar"),
            ("not-audio.mp3", "not an audio file"),
            ("huge-apic.mp3", "no lyrics"),  // the 200 MB picture frame is not read
        ]
        for (file, message) in cases {
            let out = work.appendingPathComponent(file + ".png").path
            let result = try run(["frame", try audio(file), "--at", "1", "-o", out])
            XCTAssertEqual(result.status, 1, "\(file): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("error: \(try audio(file))"), "\(file): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(file): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        }
        // An embedded picture over the pixel limit names the audio file and the tag.
        let limited = try run(["frame", try audio("tagged.mp3"), "--at", "1", "--max-cover-pixels", "100",
                               "-o", work.appendingPathComponent("l.png").path])
        XCTAssertEqual(limited.status, 1)
        XCTAssertTrue(limited.stderr.hasPrefix("error: \(try audio("tagged.mp3")): apic: image is 64×64 pixels, more than the limit of 100"),
                      limited.stderr)
        // Cut short after its tag: the tag still reads (or the file is refused); never a crash.
        let truncated = try run(["frame", try audio("truncated.mp3"), "--at", "1", "-o", work.appendingPathComponent("t.png").path])
        XCTAssertTrue(truncated.status == 0 || (truncated.status == 1 && truncated.stderr.split(separator: "\n").count == 1), truncated.stderr)
        // Unsynchronised lyrics are shown as such by inspect.
        let plain = try inspect([try audio("plain.mp3")])
        XCTAssertEqual(plain["format"] as? String, "text")
        XCTAssertEqual(plain["unsynced"] as? String, "A plain line\nAnother plain line\n")
        XCTAssertEqual((plain["lines"] as? [Any])?.count, 0)
    }

    func testAFolderOfSongsRendersEachAndReportsTheOnesWithoutLyrics() throws {
        let library = work.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        for (name, copy) in [("tagged.flac", "02 river.flac"), ("tagged.m4a", "01 harbour.m4a"), ("bare.mp3", "03 silent.mp3")] {
            try FileManager.default.copyItem(atPath: try audio(name), toPath: library.appendingPathComponent(copy).path)
        }
        try Data("not audio".utf8).write(to: library.appendingPathComponent("notes.txt"))
        let out = work.appendingPathComponent("out").path
        let result = try run(["lines", library.path, "-o", out, "--preset", "square", "--quiet"])
        XCTAssertEqual(result.status, 1, "one song has no lyrics")
        XCTAssertTrue(result.stderr.contains("03 silent.mp3: no lyrics"), result.stderr)
        XCTAssertTrue(result.stderr.contains("2 of 3 songs rendered; skipped 1: 03 silent.mp3"), result.stderr)
        let folders = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        XCTAssertEqual(folders, ["01 harbour", "02 river"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/01 harbour/manifest.json"))
        // Several files, sheets: one per song; all good → exit 0.
        let sheets = work.appendingPathComponent("sheets").path
        let sheet = try run(["sheet", library.appendingPathComponent("01 harbour.m4a").path,
                             library.appendingPathComponent("02 river.flac").path, "-o", sheets, "--quiet"])
        XCTAssertEqual(sheet.status, 0, sheet.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sheets).sorted(), ["01 harbour.png", "02 river.png"])
        // One song at a time for frame.
        XCTAssertEqual(try run(["frame", library.path, "--at", "1"]).status, 64)
    }

    func testInputCountsAreUsageErrors() throws {
        for arguments in [["frame", "--at", "1"], ["frame", cover, lyrics, "extra.lrc", "--at", "1"],
                          ["frame", cover, lyrics, "--cover", cover, "--at", "1"]] {
            XCTAssertEqual(try run(arguments).status, 64, "\(arguments)")
        }
    }
}
