import Foundation
import LyricsCore
import XCTest

/// `lyricposter convert`: formats by extension and by name, what it refuses, standard output,
/// the notes on what a format drops, and the same bytes on every run.
final class ConvertCLITests: CLITestCase {
    let ttml = "samples/river-lights/river-lights.ttml"

    /// The lines of a lyrics file as LyricsCore reads it.
    func texts(_ path: String) throws -> [String] {
        try LyricsReader.load(Data(contentsOf: URL(fileURLWithPath: path))).lines.filter(\.isSung).map(\.text)
    }

    func testConvertsTheTTMLSampleToEachFormat() throws {
        let expected = try texts(ttml)
        XCTAssertEqual(expected.count, 12)
        for (name, extra, opening) in [("a.lrc", [], "[ti:"), ("b.lrc", ["--to", "elrc"], "[ti:"), ("c.ttml", [], "<?xml"),
                                        ("d.xml", [], "<?xml"), ("e.srt", [], "1\n00:00:12,000 --> "), ("f.vtt", [], "WEBVTT\n"),
                                        ("g.ass", [], "[Script Info]\n")] {
            let out = temp(name)
            let result = try run(["convert", ttml, "-o", out] + extra)
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", name)
            let text = try String(contentsOfFile: out, encoding: .utf8)
            XCTAssertTrue(text.hasPrefix(opening), "\(name): \(text.prefix(80))")
            if name.hasSuffix(".ass") { continue }  // read by ffmpeg below
            XCTAssertEqual(try texts(out), expected, name)
        }
        XCTAssertTrue(try String(contentsOfFile: temp("b.lrc"), encoding: .utf8).contains("[00:12.00]<00:12.00>川<00:12.55>の"))
        XCTAssertFalse(try String(contentsOfFile: temp("a.lrc"), encoding: .utf8).contains("<00:12.55>"))
        XCTAssertEqual(try files().filter { $0.hasPrefix(".") }, [], "no temporary files left")
    }

    /// Runs ffmpeg: its exit status, standard output and standard error.
    func ffmpeg(_ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
        try tool("ffmpeg", ["-v", "error"] + arguments)
    }

    /// The reference readers: ffmpeg reads the ASS script and finds every line, and libass (its
    /// subtitles filter) draws it.
    func testFFmpegAndLibassReadTheASSScript() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else { throw XCTSkip("ffmpeg is not installed") }
        let out = temp("song.ass")
        XCTAssertEqual(try run(["convert", ttml, "-o", out]).status, 0)
        let converted = try ffmpeg(["-i", out, "-f", "srt", "-"])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        XCTAssertEqual(converted.stderr, "")
        let srt = String(decoding: converted.stdout, as: UTF8.self)
        // Each line, its translation, romanisation and backing vocals are events of their own.
        let cues = srt.components(separatedBy: " --> ").count - 1
        let events = try String(contentsOfFile: out, encoding: .utf8).components(separatedBy: "\nDialogue: ").count - 1
        XCTAssertEqual(cues, events)
        XCTAssertEqual(events, 12 * 3 + 5)
        for text in try texts(ttml) { XCTAssertTrue(srt.contains(text), text) }
        XCTAssertTrue(srt.contains("00:00:12,000 --> 00:00:16,450"), String(srt.prefix(200)))
        // 21.5 s into the song, on black: the line, its translation, romanisation and backing vocals are drawn.
        let frame = try ffmpeg(["-f", "lavfi", "-i", "color=black:s=640x360:d=30", "-ss", "21.5", "-vf", "subtitles=\(out)",
                                "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        guard frame.status == 0 else { throw XCTSkip("ffmpeg has no subtitles filter (libass): \(frame.stderr)") }
        XCTAssertEqual(frame.stdout.count, 640 * 360)
        XCTAssertGreaterThan(frame.stdout.filter { $0 > 200 }.count, 600, "white text on the frame")
    }

    func testUnknownExtensionIsAOneLineUsageError() throws {
        let out = temp("song.docx")
        let result = try run(["convert", ttml, "-o", out])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stderr, "error: \(out): no lyrics format has this extension (choose .lrc, .ttml, .xml, .srt, .vtt, .ass, .lyricsfile, .yaml, .yml, or name the format with --to: lrc, elrc, ttml, srt, vtt, ass, lyricsfile)\n")
        XCTAssertEqual(try files(), [])
        let stdout = try run(["convert", ttml, "-o", "-"])
        XCTAssertEqual(stdout.status, 64)
        XCTAssertEqual(stdout.stderr, "error: -: standard output has no extension: name the format with --to (lrc, elrc, ttml, srt, vtt, ass, lyricsfile)\n")
        XCTAssertEqual(stdout.stdout, "")
        // A bad --to is a bad flag: argument-parser's usage error.
        let named = try run(["convert", ttml, "-o", temp("x.lrc"), "--to", "docx"])
        XCTAssertEqual(named.status, 64)
        XCTAssertTrue(named.stderr.contains("--to must be one of lrc, elrc, ttml, srt, vtt, ass"), named.stderr)
        XCTAssertEqual(try files(), [])
    }

    func testRefusesToWriteOverTheInput() throws {
        let song = temp("song.lrc")
        try FileManager.default.copyItem(atPath: lyrics, toPath: song)
        let before = try Data(contentsOf: URL(fileURLWithPath: song))
        for target in [song, work.path + "/./song.lrc", work.path + "/../" + work.lastPathComponent + "/song.lrc"] {
            let result = try run(["convert", song, "-o", target])
            XCTAssertEqual(result.status, 1, target)
            XCTAssertEqual(result.stderr, "error: \(target): output would overwrite the input \(song)\n")
        }
        // Through a link too, and with another format named: the file is still the input.
        try FileManager.default.createSymbolicLink(atPath: temp("link.srt"), withDestinationPath: song)
        XCTAssertEqual(try run(["convert", song, "-o", temp("link.srt")]).status, 1)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: song)), before)
        XCTAssertEqual(try files(), ["link.srt", "song.lrc"])
    }

    func testRefusesToWriteOverAnAudioFilesSidecar() throws {
        let audio = temp("bells.mp3"), sidecar = temp("bells.lrc")
        try FileManager.default.copyItem(atPath: "samples/harbour-bells/harbour-bells.mp3", toPath: audio)
        try FileManager.default.copyItem(atPath: lyrics, toPath: sidecar)
        let result = try run(["convert", audio, "-o", sidecar])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "error: \(sidecar): output would overwrite the input \(sidecar)\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: sidecar)), try Data(contentsOf: URL(fileURLWithPath: lyrics)))
        // Without the sidecar, the embedded lyrics are converted, with the audio file's tags.
        try FileManager.default.removeItem(atPath: sidecar)
        XCTAssertEqual(try run(["convert", audio, "-o", temp("bells.vtt")]).status, 0)
        XCTAssertTrue(try String(contentsOfFile: temp("bells.vtt"), encoding: .utf8).contains("\nBells across the harbour\n"))
    }

    func testStandardOutputGetsTheSameText() throws {
        for format in ["lrc", "elrc", "ttml", "srt", "vtt", "ass"] {
            let file = temp("song.\(format == "elrc" ? "lrc" : format)")
            XCTAssertEqual(try run(["convert", ttml, "-o", file, "--to", format]).status, 0, format)
            let piped = try run(["convert", ttml, "-o", "-", "--to", format])
            XCTAssertEqual(piped.status, 0, format)
            XCTAssertEqual(piped.stdout, try String(contentsOfFile: file, encoding: .utf8), format)
            XCTAssertFalse(piped.stdout.contains("note:"), "notes go to stderr")
        }
        // Standard input as the input.
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["convert", "-", "-o", "-", "--to", "srt"]
        process.currentDirectoryURL = Self.package
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("[00:01.00]Tide\n[00:02.50]Turns\n".utf8))
        try input.fileHandleForWriting.close()
        let srt = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(srt, "1\n00:00:01,000 --> 00:00:02,500\nTide\n\n2\n00:00:02,500 --> 00:00:07,500\nTurns\n\n")
    }

    func testNotesSayWhatWasDroppedAndOnlyThen() throws {
        let srt = try run(["convert", ttml, "-o", temp("song.srt")])
        XCTAssertEqual(srt.status, 0)
        XCTAssertEqual(srt.stderr, """
            note: SRT carries no word timing: 12 lines lose their words
            note: SRT carries no backing vocals: 5 lines lose theirs
            note: SRT carries no romanisation: 12 lines lose theirs
            note: SRT carries no singers: 12 lines lose their singer
            note: SRT carries no title, artist, album, language or length: dropped

            """)
        let lrc = try run(["convert", ttml, "-o", temp("song.lrc")])
        XCTAssertTrue(lrc.stderr.hasPrefix("note: LRC carries no word timing: 12 lines lose their words (--to elrc keeps them)\n"), lrc.stderr)
        // Nothing dropped, nothing said.
        let same = try run(["convert", ttml, "-o", temp("again.ttml")])
        XCTAssertEqual(same.stderr, "")
        let plain = try run(["convert", lyrics, "-o", temp("night.lrc")])
        XCTAssertEqual(plain.stderr, "")
    }

    func testSameBytesOnEveryRun() throws {
        for source in [ttml, lyrics, "samples/paper-lanterns/paper-lanterns.lrc"] {
            for ext in ["lrc", "ttml", "srt", "vtt", "ass"] {
                let first = temp("1.\(ext)"), second = temp("2.\(ext)")
                XCTAssertEqual(try run(["convert", source, "-o", first]).status, 0)
                XCTAssertEqual(try run(["convert", source, "-o", second]).status, 0)
                XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: first)), try Data(contentsOf: URL(fileURLWithPath: second)), "\(source) \(ext)")
            }
        }
    }

    func testBadInputIsAOneLineError() throws {
        let untimed = try write("just words\nno times\n", to: "plain.lrc")
        let result = try run(["convert", untimed, "-o", temp("out.srt")])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "error: \(untimed): no timed lyric lines (not a lyric file?)\n")
        let gaps = try write("[00:01.00]\n[00:02.00]\n", to: "gaps.lrc")
        let empty = try run(["convert", gaps, "-o", temp("out.vtt")])
        XCTAssertEqual(empty.status, 1)
        XCTAssertEqual(empty.stderr, "error: \(gaps): nothing to write as WebVTT: no line with text\n")
        let missing = try run(["convert", ttml, "-o", temp("no/such/folder.srt")])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasPrefix("error: \(temp("no/such/folder.srt")): "), missing.stderr)
        XCTAssertEqual(try files(), ["gaps.lrc", "plain.lrc"])
    }

    func testHelpNamesTheFormats() throws {
        let help = try run(["convert", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("lrc, elrc, ttml, srt, vtt, ass"), help.stdout)
        XCTAssertTrue(try run(["--help"]).stdout.contains("convert"))
    }
}
