/// Lyricify's three formats: Syllable (`.lys`), Lines (`.lyl`) and Quick Export (`.lqe`).
public enum Lyricify {
    /// Parses Lyricify Syllable text.
    public static func parseSyllable(_ text: String, encoding: String = "utf-8",
                                     options: ReadOptions = .init()) throws(LyricsError) -> Lyrics {
        throw .invalid("Lyricify Syllable is not read yet")
    }

    /// Parses Lyricify Lines text.
    public static func parseLines(_ text: String, encoding: String = "utf-8",
                                  options: ReadOptions = .init()) throws(LyricsError) -> Lyrics {
        throw .invalid("Lyricify Lines is not read yet")
    }

    /// Parses Lyricify Quick Export text.
    public static func parseQuickExport(_ text: String, encoding: String = "utf-8",
                                        options: ReadOptions = .init()) throws(LyricsError) -> Lyrics {
        throw .invalid("Lyricify Quick Export is not read yet")
    }

    /// Which Lyricify format `text` is in, judged from its content, or `nil` (used by the sniffer).
    static func sniff(_ lines: [Substring]) -> LyricsFormat? { nil }
}
