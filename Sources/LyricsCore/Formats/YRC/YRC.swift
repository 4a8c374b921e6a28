/// NetEase's word-timed YRC format (stub, being written).
public enum YRC {
    /// Whether `line` starts with a YRC line header `[start,duration]`.
    static func isLineHeader(_ line: Substring) -> Bool { false }

    public static func parse(_ text: String, encoding: String = "utf-8") throws(LyricsError) -> Lyrics {
        throw .invalid("not valid YRC: not implemented")
    }
}
