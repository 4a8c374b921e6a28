/// Where a moment falls in a ``Timeline``: the current line, whether it is an interlude, and what
/// comes next. Produced by ``Timeline/cursor(at:)``.
public struct Cursor: Hashable, Sendable {
    /// The moment this cursor describes.
    public var time: Timestamp
    /// Index into ``Timeline/lines`` of the line on screen: the last line whose start is ≤ `time`
    /// (or an earlier, longer line still sung around it); `nil` before the first line. After the
    /// timeline's end it stays on the last line (check ``isInterlude``).
    public var index: Int?
    /// `true` when no lyric is being sung: before the first line, on a gap (blank) line, or at or after
    /// the timeline's end.
    public var isInterlude: Bool
    /// Index of the first sung line (not a gap, not a credit) that starts after `time`; `nil` when none is left.
    public var nextIndex: Int?

    public init(time: Timestamp, index: Int?, isInterlude: Bool, nextIndex: Int?) {
        self.time = time
        self.index = index
        self.isInterlude = isInterlude
        self.nextIndex = nextIndex
    }
}
