/// TTML lyrics (stub, being written).
public enum TTML {
    public static func parse(_ text: String, encoding: String = "utf-8") throws(LyricsError) -> Lyrics {
        throw .invalid("not valid TTML: not implemented")
    }
}
