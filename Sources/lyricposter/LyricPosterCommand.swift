import ArgumentParser
import Foundation
import LyricPoster

@main
struct LyricPosterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lyricposter",
        abstract: "Render lyric posters: a cover with the current lyric line and its neighbours.",
        version: "0.1.0",
        subcommands: [FrameCommand.self, LinesCommand.self, SequenceCommand.self, SheetCommand.self, VideoCommand.self, FollowCommand.self, InspectCommand.self, ThemesCommand.self]
    )

    static func main() {
        // A reader that goes away (`lyricposter inspect x.lrc | head`) must not kill the process
        // mid-write: with SIGPIPE ignored, the write fails and the command ends normally.
        signal(SIGPIPE, SIG_IGN)
        main(nil)
    }
}

/// Prints `error: <path>: <reason>` and exits 1: the one way bad input ends a command.
func fail(_ error: PosterError) -> ExitCode {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    return ExitCode(1)
}

func warn(_ message: String) {
    FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
}
