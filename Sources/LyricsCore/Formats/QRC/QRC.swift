/// QQ Music's QRC.
public enum QRC {
    public static func parse(_ text: String, encoding: String = "utf-8",
                             options: ReadOptions = .init()) throws(LyricsError) -> Lyrics {
        throw .invalid("QRC is not read yet")
    }
}
