import ArgumentParser
import Foundation
import LyricPoster
import MediaTags
import PosterGraphics

@main
struct LyricPosterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lyricposter",
        abstract: "Render lyric posters: a cover with the current lyric line and its neighbours.",
        version: versionText,
        subcommands: [FrameCommand.self, CardCommand.self, ServeCommand.self, LinesCommand.self, SequenceCommand.self, SheetCommand.self, VideoCommand.self, CatalogCommand.self, FollowCommand.self, InspectCommand.self, ConvertCommand.self, ThemesCommand.self]
    )

    static func main() {
        // A reader that goes away (`lyricposter inspect x.lrc | head`) must not kill the process
        // mid-write: with SIGPIPE ignored, the write fails and the command ends normally.
        signal(SIGPIPE, SIG_IGN)
        main(nil)
    }
}

/// `lyricposter --version`: the tool's version and the C libraries it was built with.
let versionText = (["lyricposter \(LyricPosterVersion.current)", "built with:"]
    + (LibraryVersions.all + ["TagLib " + MediaTags.taglibVersion]).map { "  " + $0 }).joined(separator: "\n")

enum LyricPosterVersion {
    static let current = "0.1.0"
}

/// Prints `error: <path>: <reason>` and exits 1: the one way bad input ends a command.
func fail(_ error: PosterError) -> ExitCode {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    return ExitCode(1)
}

func warn(_ message: String) {
    FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
}
