import ArgumentParser
import Foundation
import LyricPoster
import MediaTags
import PosterGraphics

@main
struct LyricPosterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lyricposter",
        abstract: "Render lyric posters: a cover with the current lyric line and its neighbours.",
        discussion: manualText,
        version: versionText,
        subcommands: [FrameCommand.self, CardCommand.self, ServeCommand.self, LinesCommand.self, SequenceCommand.self, SheetCommand.self, VideoCommand.self, CatalogCommand.self, FollowCommand.self, ControlCommand.self, InspectCommand.self, ConvertCommand.self, ThemesCommand.self]
    )

    nonisolated static func main() async {
        // A reader that goes away (`lyricposter inspect x.lrc | head`) must not kill the process
        // mid-write: with SIGPIPE ignored, the write fails and the command ends normally.
        signal(SIGPIPE, SIG_IGN)
        // On Linux the Swift runtime reads a program's arguments from /proc/self/cmdline: without
        // /proc (a bare chroot, a container started without it) they would all be lost, and the
        // command line silently taken as empty.
        if access("/proc/self/cmdline", R_OK) != 0 {
            FileHandle.standardError.write(Data("error: /proc is not mounted, so lyricposter cannot read its arguments (mount proc first: mount -t proc proc /proc)\n".utf8))
            Foundation.exit(1)
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(nil)
            // No command named: the usage, as a usage error.
            if command is LyricPosterCommand, let message = commandMistake(arguments) { usageError(message) }
            Quiet.isOn = isQuiet(command)
            if var command = command as? AsyncParsableCommand { try await command.run() } else { try command.run() }
        } catch {
            // What the parser refused because the first word names no command: say which are.
            if let message = commandMistake(arguments) { usageError(message) }
            exit(for: error, arguments: arguments)
        }
    }

    /// What `ParsableCommand.exit(withError:)` does, in the house style: `error:` in lower case, and
    /// an option the command does not take named as such even where the parser saw it as an extra
    /// input first (`lines … --at 3` reads as three inputs).
    static func exit(for error: Error, arguments: [String]) -> Never {
        let code = exitCode(for: error)
        var text = fullMessage(for: error)
        if code == .success {
            if !text.isEmpty { print(text) }
            Foundation.exit(code.rawValue)
        }
        if code == .validationFailure, let unknown = unknownOption(arguments) {
            text = "error: " + unknown + "\n" + (text.split(separator: "\n").filter { !$0.hasPrefix("Error: ") }.joined(separator: "\n"))
        }
        if text.hasPrefix("Error: ") { text = "error: " + text.dropFirst("Error: ".count) }
        if !text.isEmpty { FileHandle.standardError.write(Data((text + "\n").utf8)) }
        Foundation.exit(code.rawValue)
    }

    /// The first `--name` that the command named first in `arguments` does not take, said with the
    /// commands that take it; nil when every option is known.
    static func unknownOption(_ arguments: [String]) -> String? {
        guard let name = arguments.first,
              let command = configuration.subcommands.first(where: { $0.configuration.commandName == name }) else { return nil }
        let known = optionNames(command)
        for token in arguments.dropFirst() {
            if token == "--" { break }
            guard token.hasPrefix("--"), token.count > 2 else { continue }
            let option = String(token.split(separator: "=", maxSplits: 1)[0])
            if known.contains(option) { continue }
            let takers = configuration.subcommands.filter { optionNames($0).contains(option) }.compactMap { $0.configuration.commandName }
            let hint = takers.isEmpty ? "" : " (\(takers.joined(separator: ", ")) take\(takers.count == 1 ? "s" : "") it)"
            return "unknown option '\(option)' for \(name)\(hint); see 'lyricposter \(name) --help'"
        }
        return nil
    }

    /// The long option names a command takes, from the names column of its help's OPTIONS (hidden
    /// options too; one line an option, however long).
    static func optionNames(_ command: ParsableCommand.Type) -> Set<String> {
        var names: Set<String> = ["--help", "--version", "--experimental-dump-help", "--generate-completion-script"]
        var inOptions = false
        for line in helpMessage(for: command, includeHidden: true, columns: 100_000).split(separator: "\n") {
            if !line.hasPrefix(" ") {
                inOptions = line == "OPTIONS:"
                continue
            }
            let entry = line.drop { $0 == " " }
            guard inOptions, entry.hasPrefix("-") else { continue }
            // "-o, --output <file>", "--karaoke/--no-karaoke": the names, up to the description.
            let column = entry.components(separatedBy: "  ").first ?? ""
            for word in column.split(whereSeparator: { " ,/".contains($0) }) where word.hasPrefix("--") {
                names.insert(String(word))
            }
        }
        return names
    }

    /// `message` on stderr, and exit 64.
    static func usageError(_ message: String) -> Never {
        FileHandle.standardError.write(Data(message.utf8))
        Foundation.exit(64)
    }

    /// Subcommand names, for the checks below.
    static var commandNames: [String] { configuration.subcommands.compactMap { $0.configuration.commandName } }

    /// For a command line the parser took as naming no command, or refused: the usage, or the
    /// nearest command's name when the first word (also after `help`) is no command's, for exit
    /// 64 (a usage error, as for a bad flag); nil when the first word is a command's.
    static func commandMistake(_ arguments: [String]) -> String? {
        let names = commandNames + ["help"]
        guard let first = arguments.first else {
            return helpMessage() + "\nerror: no command given (see the list above)\n"
        }
        let named = first == "help" ? arguments.dropFirst().first : first
        guard let word = named, !word.hasPrefix("-"), !names.contains(word) else { return nil }
        let guess = names.filter { $0 != "help" }.min { distance(word, $0) < distance(word, $1) }
        let hint = guess.flatMap { distance(word, $0) <= max(2, word.count / 3) || $0.hasPrefix(word) ? " (did you mean '\($0)'?)" : nil } ?? ""
        return "error: unknown command '\(word)'\(hint); the commands: \(commandNames.joined(separator: ", "))\n"
    }

    /// Edit distance (insertions, deletions, substitutions) between two words.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var next = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                next[j] = min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            row = next
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}

/// What `lyricposter --help` and the manual page say beyond the command list: the usage and
/// examples first, then exit codes, the backdrop cache and where the rest is written. (The theme
/// file's keys are in `lyricposter themes --help`.) ASCII only: the manual's generator drops
/// other characters.
let manualText = """
    Usage: lyricposter <command> <cover> <lyrics> [options], or an audio file in place of the \
    cover and the lyrics (its tags, sidecar .lrc and folder cover give both).

    Examples:
      lyricposter frame cover.jpg song.lrc --at 1:23.4 -o now.png
      lyricposter card song.flac --lines 5-7 --preset feed
      lyricposter video song.flac -o song.mp4
      lyricposter follow
      lyricposter serve ~/Music

    Exit codes: 0 done; 1 an input or output could not be used (the one-line error names the file \
    and the reason); 3 catalog: some songs failed (the rest are done; see its report); 64 a usage \
    error (an unknown command or option, a bad flag value, inputs in the wrong order); 130 \
    interrupted (batches resume where they stopped when run again).

    Backdrop cache: each cover's prepared backdrop is kept between runs in \
    $XDG_CACHE_HOME/lyricposter/backdrops (else ~/.cache/lyricposter/backdrops), 256 MiB at most, \
    the least recently used removed first, so a cover seen before starts faster. It never changes \
    a picture. LYRICPOSTER_NO_CACHE=1 turns it off; removing the folder is always safe.

    The README (installed as /usr/share/doc/lyricposter/README.md) and the pages beside it in \
    docs/ have the formats (formats.md), the catalogue on clusters (catalogues.md), serve's HTTP \
    API (serve.md), theme files (themes.md) and the performance figures (performance.md).
    """

/// `lyricposter --version`: the tool's version and the C libraries it was built with.
let versionText = (["lyricposter \(LyricPosterVersion.current)", "built with:"]
    + (LibraryVersions.all + ["TagLib " + MediaTags.taglibVersion]).map { "  " + $0 }).joined(separator: "\n")

enum LyricPosterVersion {
    static let current = "0.1.0"
}

/// Prints `error: <path>: <reason>` (with the flag that helps, if one does) and exits 1: the
/// one way bad input ends a command.
func fail(_ error: PosterError) -> ExitCode {
    FileHandle.standardError.write(Data("error: \(Diagnostics.message(error))\n".utf8))
    return ExitCode(1)
}

/// `-q`/`--quiet`, for the commands that have no batch options (every command takes it).
struct QuietOptionGroup: ParsableArguments {
    @Flag(name: [.customShort("q"), .long], help: "Print only errors and warnings (no notes, no output path).")
    var quiet = false
}

/// Whether the command line asked for quiet: set once from the parsed command, before it runs,
/// so that notes anywhere can follow it. Every command declares the flag.
enum Quiet {
    nonisolated(unsafe) static var isOn = false
}

/// A command, parsed, says whether it was asked to be quiet (`-q`/`--quiet`).
protocol QuietCommand {
    var isQuiet: Bool { get }
}

/// Whether `command` was asked to be quiet (outside any actor, so that the cast finds only
/// conformances usable anywhere and `command` may then run on any executor).
nonisolated func isQuiet(_ command: any ParsableCommand) -> Bool {
    (command as? QuietCommand)?.isQuiet ?? false
}

extension FrameCommand: QuietCommand { var isQuiet: Bool { picture.quiet } }
extension CardCommand: QuietCommand { var isQuiet: Bool { picture.quiet } }
extension ServeCommand: QuietCommand { var isQuiet: Bool { quietOption.quiet } }
extension LinesCommand: QuietCommand { var isQuiet: Bool { batch.quiet } }
extension SequenceCommand: QuietCommand { var isQuiet: Bool { batch.quiet } }
extension SheetCommand: QuietCommand { var isQuiet: Bool { batch.quiet } }
extension VideoCommand: QuietCommand { var isQuiet: Bool { runOptions.quiet } }
extension CatalogCommand: QuietCommand { var isQuiet: Bool { quiet } }
extension FollowCommand: QuietCommand { var isQuiet: Bool { quietOption.quiet } }
extension InspectCommand: QuietCommand { var isQuiet: Bool { quietOption.quiet } }
extension ConvertCommand: QuietCommand { var isQuiet: Bool { quietOption.quiet } }
extension ThemesCommand: QuietCommand { var isQuiet: Bool { quietOption.quiet } }

/// Something the user may not expect, though nothing is wrong: `note: …` on stderr (not with -q).
func note(_ message: String) {
    guard !Quiet.isOn else { return }
    FileHandle.standardError.write(Data("note: \(message)\n".utf8))
}

func warn(_ message: String) {
    FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
}
