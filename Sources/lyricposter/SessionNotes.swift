import LyricPoster

extension PosterSession.Note {
    /// The note as the CLI prints it: the library's words, and the flags that change the outcome.
    var withFlagHints: String {
        switch self {
        case .themeFontMissing(let family, let searched):
            let reach = searched ? "it is not installed on this machine either" : "--system-fonts reaches the machine's fonts"
            return Self.themeFontHeadline(family) + " (\(reach); --fonts-dir adds a folder)"
        default:
            return description
        }
    }
}
