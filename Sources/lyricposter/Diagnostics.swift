import LyricPoster
import LyricsCore

/// The command's words for the engine's errors: the library's reason, with the flag or command
/// that helps where one does (the library's errors name no flag).
enum Diagnostics {
    /// `<path>: <reason>`, as `error:` prints it.
    static func message(_ error: PosterError) -> String {
        "\(error.path): \(reason(error))"
    }

    static func reason(_ error: PosterError) -> String {
        switch error {
        case .input(_, .tooLarge):
            return error.reason + " (see --max-lyrics-bytes or --max-cover-pixels)"
        case .lyrics(_, .undecodable(let name)):
            return "not valid \(name) text (binary data, or another encoding: name it with --encoding)"
        case .tooManyLines:
            return error.reason + " (see --max-lyrics-lines)"
        case .cover(_, .tooLarge):
            return error.reason + " (see --max-cover-pixels)"
        case .cardDoesNotFit(_, _, let width, let height):
            return error.reason + (height < 1920 || width > height ? " or a taller preset (--preset lockscreen)" : "")
        case .lineChoice(_, .pastTheEnd(let range, let available)):
            return "--lines \(LineChoice.describe(range)): the lyrics have \(available) line\(available == 1 ? "" : "s") (see inspect --text)"
        case .lineChoice(_, .nothingSungAfter(let time)):
            return "--at \(time): no line is sung at or after that time"
        case .lineChoice(_, .emptyQuote):
            return "--quote is empty"
        default:
            return error.reason
        }
    }
}
