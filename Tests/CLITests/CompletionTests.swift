import Foundation
import XCTest

/// The bash completion script `lyricposter --generate-completion-script bash` writes (and `make
/// install` installs), run by bash the way a <TAB> runs it: inputs complete to files of the kinds
/// the tool reads, named values to their names.
final class CompletionTests: CLITestCase {
    /// What bash offers for the command line `words` (the last one being completed) in `folder`.
    func complete(_ words: [String], in folder: String) throws -> [String] {
        let script = temp("completion.bash")
        let generated = try run(["--generate-completion-script", "bash"])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        try generated.stdout.write(toFile: script, atomically: true, encoding: .utf8)
        let harness = temp("harness.sh")
        try """
        shopt -s extglob
        source "$1"; shift
        COMP_WORDS=(lyricposter "$@")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        COMP_LINE="${COMP_WORDS[*]}"
        COMP_POINT=${#COMP_LINE}
        COMPREPLY=()
        _lyricposter lyricposter "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s\\n' "${COMPREPLY[@]}"
        """.write(toFile: harness, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [harness, script] + words
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.isEmpty }.sorted()
    }

    func testTabCompletesFilesAndNames() throws {
        let folder = temp("music")
        try FileManager.default.createDirectory(atPath: folder + "/album", withIntermediateDirectories: true)
        for name in ["cover.jpg", "song.lrc", "song.flac", "notes.pdf", "clip.mp4"] {
            FileManager.default.createFile(atPath: folder + "/" + name, contents: Data())
        }
        for (words, expected) in [
            (["frame", "cov"], ["cover.jpg"]),
            (["frame", "cover.jpg", "so"], ["song.flac", "song.lrc"]),
            (["frame", "no"], []),
            (["frame", "--cover", ""], ["album", "cover.jpg"]),
            (["frame", "--lyrics", "s"], ["song.lrc"]),
            (["frame", "--theme", ""], ["block", "card", "classic", "immersive", "minimal", "paper"]),
            (["frame", "--preset", "st"], ["story"]),
            (["frame", "--translations", ""], ["hide", "only", "show"]),
            (["frame", "-o", "c"], ["cover.jpg"]),
            (["video", "song.flac", "--transition", ""], ["fade", "none", "scroll"]),
            (["video", "song.flac", "--chapters", ""], ["lines", "sections"]),
            (["video", "song.flac", "-o", "c"], ["clip.mp4"]),
            (["sequence", "song.flac", "-o", ""], ["album"]),
            (["convert", "song.lrc", "--to", "s"], ["srt"]),
            (["convert", "so"], ["song.flac", "song.lrc"]),
            (["inspect", ""], ["album", "song.flac", "song.lrc"]),
            (["serve", ""], ["album"]),
            (["catalog", ""], ["album", "song.flac"]),
        ] {
            XCTAssertEqual(try complete(words, in: folder), expected, words.joined(separator: " "))
        }
    }
}
