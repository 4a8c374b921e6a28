/// Kugou's KRC.
public enum KRC {
    public static func parse(_ text: String, encoding: String = "utf-8",
                             options: ReadOptions = .init()) throws(LyricsError) -> Lyrics {
        throw .invalid("KRC is not read yet")
    }
}
