/// ASS/SSA subtitles read as karaoke lyrics.
public enum ASS {
    /// Parses an ASS/SSA script.
    public static func parse(_ text: String, encoding: String = "utf-8") throws(LyricsError) -> Lyrics {
        throw .invalid("ASS is not read yet")
    }

    /// Whether `text` (its first lines) is an ASS/SSA script (used by the sniffer).
    static func isScript(_ lines: [Substring]) -> Bool { false }
}
