import Foundation
import TestSupport
import XCTest

/// The usual slips with a song's inputs get an error that says what was meant, before anything is
/// read in earnest: the cover and lyrics swapped, a lyrics file beside an audio file, a lyrics file
/// alone. Exit 64, as for every usage error, and nothing written.
final class InputMistakesTests: CLITestCase {
    /// An option the command does not take is named as such, with the commands that take it,
    /// even after the inputs, where the parser first saw `--at 3` as a third input; every parser
    /// error reads `error:` in lower case and exits 64.
    func testUnknownOptionsAfterTheInputsAreNamedAndErrorsHaveOneStyle() throws {
        let dir = temp("lines")
        var result = try run(["lines", cover, lyrics, "--at", "3", "-o", dir])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.hasPrefix("error: unknown option '--at' for lines (frame, card take it)"), result.stderr)
        XCTAssertFalse(result.stderr.contains("too many inputs"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir))
        // --karaoke is listed and taken only where lines fill as they are sung.
        result = try run(["lines", cover, lyrics, "--no-karaoke", "-o", dir])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.hasPrefix("error: Unknown option '--no-karaoke'") || result.stderr.hasPrefix("error: unknown option '--no-karaoke'"), result.stderr)
        XCTAssertFalse(try run(["sheet", "--help"]).stdout.contains("karaoke"))
        XCTAssertEqual(try run(["frame", cover, lyrics, "--at", "10", "--no-karaoke", "-o", temp("k.png")]).status, 0)
        result = try run(["lines", cover, lyrics, "--at=3", "-o", dir])
        XCTAssertTrue(result.stderr.hasPrefix("error: unknown option '--at' for lines"), result.stderr)
        for arguments in [["frame", cover, lyrics, "--at", "xyz", "-o", temp("x.png")], ["frame", cover, lyrics, "--at", "1", "--bogus"],
                          ["frame", cover, lyrics, "--at", "1", "--jobs", "2"], ["sequence", cover, lyrics, "--fps", "0", "-o", dir]] {
            result = try run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("error: "), result.stderr)
            XCTAssertFalse(result.stderr.contains("Error:"), result.stderr)
        }
        // Help and --version still go to standard output with exit 0.
        result = try run(["frame", "--help"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.contains("OVERVIEW"))
    }

    /// The engine's errors name no flag (a library caller has none); the command adds the flag
    /// that helps to each, so its messages read as they always have.
    func testEngineErrorsGetTheCommandsFlagHints() throws {
        let binary = temp("binary.lrc")
        try Data([0x00, 0xFF, 0xFE, 0x00, 0x81, 0x00, 0xC3, 0x28]).write(to: URL(fileURLWithPath: binary))
        let cases: [([String], String)] = [
            (["frame", cover, binary, "--at", "1"], "\(binary): not valid utf-8, gb18030 or windows-1252 text (binary data, or another encoding: name it with --encoding)"),
            (["frame", cover, lyrics, "--at", "1", "--max-lyrics-lines", "2"], "timed lines, more than the limit of 2 (see --max-lyrics-lines)"),
            (["frame", cover, lyrics, "--at", "1", "--max-lyrics-bytes", "10"], "more than the limit of 10 (see --max-lyrics-bytes or --max-cover-pixels)"),
            (["frame", cover, lyrics, "--at", "1", "--max-cover-pixels", "100"], "more than the limit of 100 pixels (see --max-cover-pixels)"),
            (["card", cover, lyrics, "--lines", "998-999"], "--lines 998-999: the lyrics have"),
            (["card", cover, lyrics, "--at", "59:00"], "--at 59:00.000: no line is sung at or after that time"),
        ]
        for (arguments, message) in cases {
            let result = try run(arguments + ["-o", temp("hint.png")])
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("error: "), result.stderr)
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: temp("hint.png")))
        }
    }

    /// A cover and lyrics that share a stem (as `catalog` and `serve` pair them) need no -o: each
    /// command's default output says what it is and is never an input.
    func testDefaultOutputsNameWhatTheyAreAndNeverAnInput() throws {
        let folder = temp("same-stem")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.package.appendingPathComponent(fixture("palette.png")).path, toPath: folder + "/song.png")
        try FileManager.default.copyItem(atPath: Self.package.appendingPathComponent(lyrics).path, toPath: folder + "/song.lrc")
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/song.png"))
        let small = ["--size", "90x160"]

        var result = try run(["frame", "song.png", "song.lrc", "--at", "5"] + small, directory: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/song-00m05s.png"), result.stdout + result.stderr)
        result = try run(["frame", "song.png", "song.lrc", "--at", "1:23.4"] + small, directory: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/song-01m23.400s.png"), result.stdout + result.stderr)
        result = try run(["sheet", "song.png", "song.lrc", "-q"] + small, directory: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/song-sheet.png"))
        result = try run(["lines", "song.png", "song.lrc", "-q"] + small, directory: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/song-lines/manifest.json"))
        result = try run(["sequence", "song.png", "song.lrc", "--to", "2", "-q"] + small, directory: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        let manifest = try json(folder + "/song-sequence/manifest.json")
        XCTAssertEqual(manifest["fps"] as? Int, 30, "sequence's default frame rate")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/song.png")), before, "the cover is untouched")
    }

    /// What once passed in silence is said: a time after the song's end (the closing picture is
    /// drawn), a theme font that is not there (which fonts are used instead, and how to reach the
    /// machine's), and an output folder whose parent is missing (not a tree of folders made).
    func testNotesInsteadOfSilence() throws {
        var result = try run(["frame", cover, lyrics, "--at", "59:00", "-o", temp("late.png")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("note: --at 59:00.000 is after the end of the song (02:58.000): the closing picture is drawn"), result.stderr)
        result = try run(["frame", cover, lyrics, "--at", "1:00", "-o", temp("in.png")])
        XCTAssertEqual(result.stderr, "")

        let theme = try write("{\"base\": \"card\", \"font\": \"No Such Family\"}", to: "theme.json")
        result = try run(["frame", cover, lyrics, "--at", "10", "--theme", theme, "-o", temp("t.png")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("the theme's font \"No Such Family\" is not among the fonts, so the bundled Noto fonts are used (--system-fonts reaches the machine's fonts"), result.stderr)
        let present = try write("{\"base\": \"card\", \"font\": \"noto sans arabic\"}", to: "present.json")
        XCTAssertEqual(try run(["frame", cover, lyrics, "--at", "10", "--theme", present, "-o", temp("p.png")]).stderr, "")

        let deep = temp("a") + "/b/c"
        result = try run(["lines", cover, lyrics, "-o", deep, "--quiet"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "error: \(deep): folder \(temp("a"))/b does not exist (only the last folder of an output path is made)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp("a")), "no folder made")
        result = try run(["lines", cover, lyrics, "-o", temp("one-level"), "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// Every command takes -q/--quiet; with it a frame prints neither its path nor notes.
    func testEveryCommandTakesQuiet() throws {
        for command in ["frame", "card", "serve", "lines", "sequence", "sheet", "video", "catalog", "follow", "inspect", "convert", "themes"] {
            let dump = try run([command, "--experimental-dump-help"])
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
            let arguments = try XCTUnwrap((object["command"] as? [String: Any])?["arguments"] as? [[String: Any]])
            let names = arguments.flatMap { ($0["names"] as? [[String: Any]] ?? []).map { "\($0["kind"] ?? "")=\($0["name"] ?? "")" } }
            XCTAssertTrue(names.contains("long=quiet") && names.contains("short=q"), "\(command): \(names.filter { $0.contains("q") })")
        }
        let result = try run(["frame", cover, lyrics, "--at", "59:00", "-o", temp("q.png"), "-q"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout + result.stderr, "")
    }

    /// Lyrics without times are shown by inspect as unsynchronised (as an audio file's are), not
    /// refused; a poster still needs times.
    func testInspectShowsUntimedLyricsAsUnsynced() throws {
        let plain = try write("Just a line\nAnother line\n", to: "plain.txt")
        var result = try run(["inspect", plain])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["unsynced"] as? String, "Just a line\nAnother line\n")
        XCTAssertEqual((json["lines"] as? [Any])?.count, 0)
        XCTAssertTrue(result.stderr.contains("no timed lines, shown as unsynchronised lyrics"), result.stderr)
        result = try run(["inspect", plain, "--text", "-q"])
        XCTAssertEqual(result.stdout, "unsynced  2 lines (no times)\n          Just a line\n          Another line\n")
        XCTAssertEqual(result.stderr, "")
        result = try run(["frame", cover, plain, "--at", "1", "-o", temp("x.png")])
        XCTAssertEqual(result.status, 1, "a poster needs times")
    }

    /// Without /proc the Swift runtime cannot read the arguments (it reads /proc/self/cmdline):
    /// the binary says so and fails, instead of running as if it had none and exiting 0.
    func testWithoutProcTheBinaryFailsInOneLine() throws {
        let probe = try run(["-m", "--propagation", "private", "true"], executable: "/usr/bin/unshare")
        guard probe.status == 0 else { throw XCTSkip("cannot make a mount namespace here (unshare -m needs root): \(probe.stderr)") }
        let result = try run(["-m", "--propagation", "private", "sh", "-c", "umount -l /proc && exec \"$0\" frame cover.png song.lrc -o x.png",
                              Self.binary.path], executable: "/usr/bin/unshare")
        XCTAssertEqual(result.status, 1, result.stderr)
        // (A sanitizer's runtime adds lines of its own without /proc: the binary's is the first of
        // the rest, and its only error.)
        let lines = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("==") }
        XCTAssertEqual(lines.first, "error: /proc is not mounted, so lyricposter cannot read its arguments (mount proc first: mount -t proc proc /proc)")
        XCTAssertEqual(lines.filter { $0.hasPrefix("error:") }.count, 1, result.stderr)
    }

    func testSlipsWithTheInputsSayWhatWasMeant() throws {
        let audio = try AudioFixtures.path("tagged.mp3")
        let renamed = temp("cover.lrc")
        try FileManager.default.copyItem(atPath: Self.package.path + "/" + cover, toPath: renamed)
        for (inputs, message) in [
            ([lyrics, cover], "did you swap them? \(cover) is the image: give the cover first (COVER LYRICS)"),
            ([audio, lyrics], "an audio file goes alone: to use \(lyrics) with it, give --lyrics \(lyrics) (or --cover)"),
            ([lyrics], "\(lyrics) is a lyrics file: give its cover first (COVER LYRICS), or an audio file alone"),
            // The content decides what is an image, not the name.
            ([lyrics, renamed], "did you swap them? \(renamed) is the image"),
        ] {
            for command in [["frame", "--at", "3"], ["lines"], ["video"]] {
                let result = try run(command + inputs + ["-o", temp("out.png")])
                XCTAssertEqual(result.status, 64, "\(command) \(inputs)")
                XCTAssertTrue(result.stderr.contains(message), result.stderr)
                XCTAssertFalse(FileManager.default.fileExists(atPath: temp("out.png")))
            }
        }
        // A cover alone says what to add; --at takes -5 as a time and says why it is refused, and
        // a malformed time names the forms that are times.
        for (arguments, message) in [
            (["frame", cover, "--at", "3"], "\(cover) is a cover image: give the lyrics after it (COVER LYRICS), or an audio file alone"),
            (["frame", cover, lyrics, "--at", "-5"], "a time is 0 or later"),
            (["frame", cover, lyrics, "--at", "99:99"], "give 83.45, 1:23.45, 01:23.450, 1:02:03.5 or 83450ms"),
        ] {
            let result = try run(arguments + ["-o", temp("out.png")])
            XCTAssertEqual(result.status, 64, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: temp("out.png")))
        }
        // The right order still works, and an audio file with --lyrics.
        XCTAssertEqual(try run(["frame", cover, lyrics, "--at", "3", "--size", "96x160", "-o", temp("ok.png")]).status, 0)
        let withLyrics = try run(["frame", audio, "--lyrics", lyrics, "--at", "3", "--size", "96x160", "-o", temp("ok2.png")])
        XCTAssertEqual(withLyrics.status, 0, withLyrics.stderr)
    }

    /// No command, an unknown one (also after `help`): a usage error (64) naming the nearest
    /// command, not exit 0 or a bare "Unexpected argument".
    func testUnknownCommandsAreUsageErrorsWithTheNearestName() throws {
        for (arguments, message) in [
            (["fram"], "error: unknown command 'fram' (did you mean 'frame'?)"),
            (["sequnce", "x"], "error: unknown command 'sequnce' (did you mean 'sequence'?)"),
            (["vid"], "(did you mean 'video'?)"),
            (["help", "nothing"], "error: unknown command 'nothing'; the commands: frame, card"),
            ([], "error: no command given"),
        ] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 64, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
        }
        XCTAssertTrue(try run([]).stderr.contains("SUBCOMMANDS:"), "no command: the usage, on stderr")
        XCTAssertEqual(try run(["help", "frame"]).status, 0)
        XCTAssertEqual(try run(["--version"]).status, 0)
        XCTAssertEqual(try run(["themes"]).status, 0)
    }
}
