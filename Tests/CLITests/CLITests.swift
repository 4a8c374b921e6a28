import Foundation
import TestSupport
import XCTest

/// Help, exit codes, messages and files of `frame` and `inspect`.
final class CLITests: CLITestCase {
    /// The manifests have exactly the keys the README shows: `lines` without `fps` and `ticks`,
    /// `sequence` with them.
    func testManifestsMatchTheReadme() throws {
        XCTAssertEqual(try run(["lines", cover, lyrics, "-o", temp("lines"), "--size", "90x160", "-q"]).status, 0)
        XCTAssertEqual(try run(["sequence", cover, lyrics, "--fps", "1", "--to", "5", "-o", temp("seq"), "--size", "90x160", "-q"]).status, 0)
        let lines = try json(temp("lines") + "/manifest.json"), sequence = try json(temp("seq") + "/manifest.json")
        let common: Set = ["version", "kind", "width", "height", "cover", "lyrics", "tags", "complete", "frames"]
        XCTAssertEqual(Set(lines.keys), common)
        XCTAssertEqual(Set(sequence.keys), common.union(["fps", "ticks"]))
        let frame = try XCTUnwrap((lines["frames"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(frame.keys), ["index", "file", "start_ms", "end_ms", "line_index", "text", "translation", "sha256",
                                         "input_sha256", "missing_glyphs", "boxes"])
        let tick = try XCTUnwrap((sequence["ticks"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(tick.keys), ["index", "time_ms", "frame"])
        let readme = try String(contentsOfFile: Self.package.path + "/README.md", encoding: .utf8)
        XCTAssertFalse(readme.contains("\"fps\": null, \"ticks\": null"))
    }

    /// Each option's help says its default once (the parser adds "(default: …)"; the text must
    /// not say it again), and none bakes in this machine's core count.
    func testEachOptionStatesOneDefault() throws {
        let cores = String(ProcessInfo.processInfo.activeProcessorCount)
        for command in ["frame", "card", "serve", "lines", "sequence", "sheet", "video", "catalog", "follow", "inspect", "convert", "themes"] {
            let help = try run([command, "--help"]).stdout
            guard let options = help.components(separatedBy: "OPTIONS:").last else { continue }
            for option in options.components(separatedBy: "\n  -").dropFirst() {
                let text = option.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                XCTAssertLessThanOrEqual(text.components(separatedBy: "default").count - 1, 1, "\(command): -\(text)")
                XCTAssertFalse(text.contains("(default: \(cores))"), "\(command): -\(text)")
            }
        }
    }

    /// Help examples are whole commands, never wrapped mid-command at 80 columns.
    func testHelpExamplesDoNotWrap() throws {
        for command in ["frame", "card", "serve", "lines", "sequence", "sheet", "video", "catalog", "follow", "inspect", "convert", "themes"] {
            let help = try run([command, "--help"], environment: ["COLUMNS": "80"]).stdout
            let lines = help.components(separatedBy: "\n")
            guard let usage = lines.firstIndex(where: { $0.hasPrefix("USAGE:") }) else { return XCTFail("\(command): no usage") }
            var inExamples = false
            for line in lines[..<usage] {
                if line.hasPrefix("Examples: ") { inExamples = true }
                if inExamples, line.isEmpty { inExamples = false }
                if inExamples {
                    XCTAssertTrue(line.hasPrefix("Examples: lyricposter ") || line.hasPrefix("          lyricposter "), "\(command): a wrapped example: \(line)")
                }
            }
        }
    }

    /// `themes --json` lists every theme; `themes --preview COVER` draws them all side by side
    /// into one PNG, the same bytes each time.
    func testThemesAsJSONAndAPreviewOfEveryTheme() throws {
        var result = try run(["themes", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let themes = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(themes.compactMap { $0["name"] as? String }, ["card", "classic", "immersive", "minimal", "block", "paper"])
        XCTAssertEqual(themes.filter { $0["default"] as? Bool == true }.count, 1)
        let out = temp("themes.png")
        result = try run(["themes", "--preview", Self.package.path + "/" + cover, "-o", out, "--preset", "square"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let png = try Data(contentsOf: URL(fileURLWithPath: out))
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        func be32(_ at: Int) -> Int { png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        XCTAssertEqual(be32(16), 6 * 270 + 7 * 16, "six square cells of 270 px and their gaps")
        XCTAssertEqual(try run(["themes", "--preview", Self.package.path + "/" + cover, "-o", temp("again.png"), "--preset", "square"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: temp("again.png"))), png)
        result = try run(["themes", "-o", out])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.hasPrefix("error: -o and --preset go with --preview COVER"), result.stderr)
        result = try run(["themes", "--preview", temp("missing.jpg"), "-o", temp("m.png")])
        XCTAssertEqual(result.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp("m.png")))
    }

    // MARK: Help and usage

    func testHelpListsCommandsAndOptions() throws {
        let top = try run(["--help"])
        XCTAssertEqual(top.status, 0)
        XCTAssertTrue(top.stdout.contains("frame"))
        XCTAssertTrue(top.stdout.contains("inspect"))
        // Where the tool writes besides its outputs, and how to stop it, is in the help itself.
        let words = top.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for text in ["$XDG_CACHE_HOME/lyricposter/backdrops", "256 MiB at most", "LYRICPOSTER_NO_CACHE=1 turns it off"] {
            XCTAssertTrue(words.contains(text), "--help says \(text)")
        }
        // It opens with a usage and examples (whole at 80 columns), not with the theme file's keys
        // (those are in `themes --help`).
        let narrow = try run(["--help"], environment: ["COLUMNS": "80"]).stdout
        let overview = narrow.components(separatedBy: "\n\n")
        XCTAssertTrue(overview.count > 2 && overview[1].hasPrefix("Usage: lyricposter <command>"), narrow)
        XCTAssertTrue(overview[2].hasPrefix("Examples:\n  lyricposter frame "), narrow)
        for example in overview[2].split(separator: "\n").dropFirst() {
            XCTAssertTrue(example.hasPrefix("  lyricposter "), "an example wraps: \(example)")
        }
        XCTAssertFalse(top.stdout.contains("line_progress"))
        XCTAssertTrue(try run(["themes", "--help"]).stdout.contains("line_progress}"))
        // Every help text is ASCII: the man page's generator drops other characters.
        let dump = try run(["--experimental-dump-help"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertEqual(dump.stdout.unicodeScalars.filter { !$0.isASCII }.map(String.init).joined(), "", "non-ASCII in the help")
        XCTAssertFalse(dump.stdout.contains("\\u"), "non-ASCII (escaped) in the help")
        let frame = try run(["frame", "--help"])
        XCTAssertEqual(frame.status, 0)
        for option in ["--at", "--preset", "--size", "--before", "--after", "--report", "--lang", "--fonts-dir",
                       "--system-fonts", "--encoding", "-o"] {
            XCTAssertTrue(frame.stdout.contains(option), "frame --help lacks \(option)")
        }
    }

    func testBadFlagsAreUsageErrors() throws {
        let cases: [[String]] = [
            ["frame", cover, lyrics],                                    // no --at
            ["frame", cover, lyrics, "--at", "soon"],                    // bad time
            ["frame", cover, lyrics, "--at", "1", "--preset", "poster"], // unknown preset
            ["frame", cover, lyrics, "--at", "1", "--size", "12x"],      // bad size
            ["frame", cover, lyrics, "--at", "1", "--preset", "square", "--size", "100x100"],
            ["frame", cover, lyrics, "--at", "1", "--before", "-2"],
            ["frobnicate"],
            ["frame", cover, lyrics, "--at", "1", "-o", ""],
            ["frame", cover, lyrics, "--at", "1", "--max-cover-pixels", "9223372036854775807"],
            ["frame", cover, lyrics, "--at", "1", "--offset-sign", "sideways"],
        ]
        for arguments in cases {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.isEmpty)
        }
    }

    // MARK: Success

    func testFrameWritesPNGAndReport() throws {
        let out = temp("now.png"), report = temp("now.json")
        let result = try run(["frame", cover, lyrics, "--at", "0:31.5", "--preset", "square", "-o", out, "--report", report])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, out + "\n")
        let png = try Data(contentsOf: URL(fileURLWithPath: out))
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        XCTAssertEqual(json["width"] as? Int, 1080)
        XCTAssertEqual(json["height"] as? Int, 1080)
        XCTAssertEqual(json["time_ms"] as? Int, 31_500)
        XCTAssertEqual(json["missing_glyphs"] as? Int, 0)
        XCTAssertNotNil(json["line_index"] as? Int)
        let boxes = try XCTUnwrap(json["boxes"] as? [[String: Any]])
        let roles = Set(boxes.compactMap { $0["role"] as? String })
        XCTAssertTrue(roles.isSuperset(of: ["current", "previous", "next", "title", "artist"]), "\(roles)")
        for box in boxes {
            for key in ["text", "x", "y", "width", "height", "font_size", "color"] { XCTAssertNotNil(box[key], key) }
            XCTAssertNotNil((box["color"] as? String)?.range(of: "^#[0-9A-F]{8}$", options: .regularExpression))
        }
        // No temporary files are left next to the output.
        XCTAssertEqual(try files(), ["now.json", "now.png"])
    }

    func testTimeFormsAndDeterminism() throws {
        var outputs: [Data] = []
        for (i, at) in ["83.45", "1:23.45", "01:23.450", "83450ms"].enumerated() {
            let out = temp("t\(i).png")
            let result = try run(["frame", cover, lyrics, "--at", at, "--preset", "classic", "-o", out])
            XCTAssertEqual(result.status, 0, result.stderr)
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        XCTAssertEqual(Set(outputs).count, 1, "the same instant written four ways renders byte-identical PNGs")
    }

    /// Every process writes the same bytes. The PNG compressor once gave other (valid) bytes for
    /// the same pixels in about 1 process in 100, depending on where the process's memory landed:
    /// a single run, or one run compared with the next, does not show that; many processes do
    /// (96 of them caught that compressor about 3 times in 4).
    /// Two at a time, as `lines`, a catalogue or CI would run them, with the backdrop cache off so
    /// that each decodes, prepares and compresses everything itself.
    func testManyProcessesWriteTheSameBytes() throws {
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var outputs: [Int: Data] = [:]
            var failures: [String] = []
            func add(_ k: Int, _ bytes: Data?, _ failure: String) {
                lock.lock()
                defer { lock.unlock() }
                if let bytes { outputs[k] = bytes } else { failures.append(failure) }
            }
        }
        // Under the sanitizers (make test-sanitized) each process is several times slower, and the
        // point there is the parallel paths' memory and races, which fewer processes exercise too.
        let sanitized = Sanitizers.active
        let runs = sanitized ? 16 : 96
        let results = Results()
        let paths = (0..<runs).map { temp("same-\($0).png") }
        let arguments = ["frame", cover, lyrics, "--at", "0:40", "--theme", "block", "-o"]
        nonisolated(unsafe) let test = self
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for k in Swift.stride(from: lane, to: runs, by: 2) {
                do {
                    let result = try test.run(arguments + [paths[k]], environment: ["LYRICPOSTER_NO_CACHE": "1"])
                    results.add(k, result.status == 0 ? try Data(contentsOf: URL(fileURLWithPath: paths[k])) : nil, result.stderr)
                } catch {
                    results.add(k, nil, "\(error)")
                }
            }
        }
        results.lock.lock()
        let all = results.outputs, failures = results.failures
        results.lock.unlock()
        XCTAssertEqual(failures, [])
        XCTAssertEqual(all.count, runs)
        let distinct = Set(all.values)
        XCTAssertEqual(distinct.count, 1, "\(runs) processes wrote \(distinct.count) different files for the same frame")
    }

    func testInspectPrintsTheJSONContract() throws {
        let result = try run(["inspect", "samples/paper-lanterns/paper-lanterns.lrc"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["encoding"] as? String, "utf-8")
        XCTAssertEqual(json["offset_ms"] as? Int, 0)
        XCTAssertNotNil(json["tags"] as? [String: String])
        let lines = try XCTUnwrap(json["lines"] as? [[String: Any]])
        XCTAssertFalse(lines.isEmpty)
        XCTAssertTrue(lines.contains { $0["translation"] is String })
        XCTAssertTrue(lines.contains { ($0["words"] as? [Any])?.isEmpty == false })
        var previous = -1
        for line in lines {
            let start = try XCTUnwrap(line["start_ms"] as? Int), end = try XCTUnwrap(line["end_ms"] as? Int)
            XCTAssertGreaterThanOrEqual(start, previous)
            XCTAssertGreaterThanOrEqual(end, start)
            previous = start
        }
        let table = try run(["inspect", "--text", lyrics])
        XCTAssertEqual(table.status, 0)
        XCTAssertTrue(table.stdout.contains("Keep the windows down"))
    }

    // MARK: Bad input

    func assertFails(_ arguments: [String], path: String, reason: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try files()
        let result = try run(arguments)
        XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)", file: file, line: line)
        let message = result.stderr.trimmingCharacters(in: .newlines)
        XCTAssertFalse(message.contains("\n"), "one line: \(message)", file: file, line: line)
        XCTAssertTrue(message.hasPrefix("error: \(path): "), "'\(message)' should name \(path)", file: file, line: line)
        XCTAssertTrue(message.localizedCaseInsensitiveContains(reason), "'\(message)' should say '\(reason)'", file: file, line: line)
        XCTAssertEqual(try files(), before, "nothing written", file: file, line: line)
    }

    func testBadCoversFailWithOneLine() throws {
        let out = temp("out.png")
        let cases: [(String, String)] = [
            ("missing.png", "no such file"), ("empty.png", "file is empty"), ("not-an-image.png", "not a PNG, JPEG or WebP"),
            ("truncated.png", "corrupt PNG"), ("truncated.jpg", "corrupt JPEG"), ("corrupt.jpg", "corrupt JPEG"),
            ("bomb.png", "more than the limit"), ("bomb.jpg", "more than the limit"),
        ]
        for (name, reason) in cases {
            try assertFails(["frame", fixture(name), lyrics, "--at", "10", "-o", out], path: fixture(name), reason: reason)
        }
        try assertFails(["frame", "Tests", lyrics, "--at", "10", "-o", out], path: "Tests", reason: "folder")
    }

    func testBadLyricsFailWithOneLine() throws {
        let out = temp("out.png")
        let empty = try write("", to: "empty.lrc")
        let untimed = try write("just some words\nand more words\n[ti:No Times]\n", to: "untimed.lrc")
        try assertFails(["frame", cover, empty, "--at", "1", "-o", out], path: empty, reason: "empty")
        try assertFails(["frame", cover, untimed, "--at", "1", "-o", out], path: untimed, reason: "no timed")
        try assertFails(["frame", cover, temp("nope.lrc"), "--at", "1", "-o", out], path: temp("nope.lrc"), reason: "no such file")
        // inspect shows lyrics without times as unsynchronised (InputMistakesTests), not an error.
        XCTAssertEqual(try run(["inspect", untimed]).status, 0)
        let klingon = try run(["inspect", "--encoding", "klingon", lyrics])
        XCTAssertEqual(klingon.status, 64, "an unknown encoding is a bad flag")
        XCTAssertTrue(klingon.stderr.contains("unknown encoding 'klingon'"), klingon.stderr)
        let blank = try write("[ti:Only gaps]\n[00:01.00]\n[00:05.00]\n", to: "blank.lrc")
        try assertFails(["frame", cover, blank, "--at", "1", "-o", out], path: blank, reason: "no timed lyric line has any text")
    }

    func testThemes() throws {
        let list = try run(["themes"])
        XCTAssertEqual(list.status, 0)
        XCTAssertEqual(list.stdout.split(separator: "\n").map { String($0.prefix { $0 != " " }) },
                       ["card", "classic", "immersive", "minimal", "block", "paper"])
        let bad = try write(#"{"sizes": {"curent": 60}}"#, to: "bad.json")
        let out = temp("t.png")
        try assertFails(["frame", cover, lyrics, "--at", "1", "--theme", bad, "-o", out], path: bad, reason: "sizes.curent: unknown key")
        // An unknown theme name is a bad flag value, as an unknown preset is: one exit code (64).
        for (flag, value) in [("--theme", "fancy"), ("--preset", "fancy")] {
            let unknown = try run(["frame", cover, lyrics, "--at", "1", flag, value, "-o", out])
            XCTAssertEqual(unknown.status, 64, "\(flag) \(value): \(unknown.stderr)")
            XCTAssertTrue(unknown.stderr.contains("unknown \(flag.dropFirst(2)) 'fancy' (choose from"), unknown.stderr)
        }
        let good = try write(#"{"base": "minimal", "show": {"progress": true}}"#, to: "good.json")
        let report = temp("t.json")
        let result = try run(["frame", cover, lyrics, "--at", "1:00", "--theme", good, "-o", out, "--report", report,
                              "--preset", "square", "--title", "Custom Title"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let boxes = try XCTUnwrap(try json(report)["boxes"] as? [[String: Any]])
        XCTAssertEqual(boxes.first { $0["role"] as? String == "title" }?["text"] as? String, "Custom Title")
        XCTAssertNotNil(boxes.first { $0["role"] as? String == "elapsed" })
        XCTAssertNil(boxes.first { $0["role"] as? String == "previous" }, "minimal shows the current line alone")
    }

    func testReportFailureLeavesNoImage() throws {
        let out = temp("y.png")
        try assertFails(["frame", cover, lyrics, "--at", "1", "-o", out, "--report", temp("nodir/x.json")],
                        path: temp("nodir/x.json"), reason: "does not exist")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testDevicesArePassedOverAndSymlinksWrittenThrough() throws {
        try assertFails(["frame", cover, lyrics, "--at", "1", "-o", "/dev/null"], path: "/dev/null", reason: "not a regular file")
        let real = temp("real.png"), link = temp("link.png")
        try Data("old".utf8).write(to: URL(fileURLWithPath: real))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        XCTAssertEqual(try run(["frame", cover, lyrics, "--at", "1", "-o", link, "--preset", "classic"]).status, 0)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), real, "the link survives")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: real)).prefix(4), Data([0x89, 0x50, 0x4E, 0x47]))
    }

    func testLyricsFromStandardInput() throws {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["inspect", "-"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("[00:02.00]from a pipe\n".utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("\"text\": \"from a pipe\""))
    }

    func testOutputProblemsLeaveNothingBehind() throws {
        // Writing over an input is refused, and the input is untouched.
        let copy = temp("cover.jpg")
        try FileManager.default.copyItem(atPath: cover, toPath: copy)
        let original = try Data(contentsOf: URL(fileURLWithPath: copy))
        try assertFails(["frame", copy, lyrics, "--at", "1", "-o", copy], path: copy, reason: "overwrite the input")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), original)
        // A folder that does not exist.
        let nowhere = temp("no/such/dir/out.png")
        try assertFails(["frame", cover, lyrics, "--at", "1", "-o", nowhere], path: nowhere, reason: "does not exist")
    }

    func testUnwritableFolder() throws {
        guard getuid() != 0 else { throw XCTSkip("root can write into read-only folders") }
        let locked = temp("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked)
        let result = try run(["frame", cover, lyrics, "--at", "1", "-o", locked + "/out.png"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("permission denied"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: locked), [])
    }
}

extension CLITests {
    func testReportNamesSchemeContrastsAndCutsAndWarnsAboutDroppedLines() throws {
        let lrc = try write("[ti:Report]\n" + (0..<14).map { String(format: "[00:%02d.00]line number %d", $0 * 3, $0) }
            .joined(separator: "\n"), to: "report.lrc")
        let png = temp("report.png"), json = temp("report.json")
        let fits = try run(["frame", cover, lrc, "--at", "20", "-o", png, "--report", json, "--before", "1", "--after", "1"])
        XCTAssertEqual(fits.status, 0, fits.stderr)
        XCTAssertFalse(fits.stderr.contains("did not fit"), fits.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        XCTAssertTrue(["dark", "light"].contains(report["scheme"] as? String))
        let contrasts = try XCTUnwrap(report["contrasts"] as? [String: Double])
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(contrasts["current"]), 4.5)
        let boxes = try XCTUnwrap(report["boxes"] as? [[String: Any]])
        let current = try XCTUnwrap(boxes.first { $0["role"] as? String == "current" })
        XCTAssertEqual(current["cut"] as? Bool, false)
        XCTAssertEqual(current["lines"] as? Int, 1)
        // Ten lines either side cannot fit a square canvas: said once, on stderr, and still a frame.
        let crowded = try run(["frame", cover, lrc, "--at", "20", "-o", png, "--preset", "square", "--before", "10", "--after", "10"])
        XCTAssertEqual(crowded.status, 0, crowded.stderr)
        XCTAssertEqual(crowded.stderr.components(separatedBy: "did not fit").count - 1, 2, crowded.stderr)
        XCTAssertTrue(crowded.stderr.contains("--before 10"), crowded.stderr)
        // The phone preset renders at its native size.
        let phone = try run(["frame", cover, lrc, "--at", "20", "-o", png, "--preset", "phone", "--report", json])
        XCTAssertEqual(phone.status, 0, phone.stderr)
        let size = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        XCTAssertEqual(size["width"] as? Int, 1179)
        XCTAssertEqual(size["height"] as? Int, 2556)
    }
}
