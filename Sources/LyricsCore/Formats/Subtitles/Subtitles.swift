/// SubRip and WebVTT subtitles (stub, being written).
public enum Subtitles {
    public enum Dialect: Hashable, Sendable { case srt, webVTT }

    /// Whether `line` is a cue timing line `hh:mm:ss,mmm --> hh:mm:ss,mmm`.
    static func isCueTiming(_ line: Substring) -> Bool { false }

    public static func parse(_ text: String, dialect: Dialect, encoding: String = "utf-8") throws(LyricsError) -> Lyrics {
        throw .invalid("not valid subtitles: not implemented")
    }
}
