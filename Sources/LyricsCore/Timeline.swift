/// The lines of a song on a time axis, for finding what is current at any moment.
///
/// Lines are half-open intervals `[start, end)` that tile the song from the first line's start to
/// ``end``: each ends where the next begins. The line current at `t` is the last one whose start is
/// at or before `t`; of several lines with the same start, only the last is ever current.
public struct Timeline: Sendable {
    /// The lines, in order (the same as ``Lyrics/lines``).
    public let lines: [LyricLine]

    /// For each position `i` in `0...lines.count`, the first non-blank line at index ≥ i.
    private let nextNonBlank: [Int?]

    /// Builds the timeline of `lyrics`. The lines are expected sorted by start, as the parser
    /// produces them.
    public init(_ lyrics: Lyrics) {
        self.init(lines: lyrics.lines)
    }

    /// Builds a timeline from lines sorted by start.
    public init(lines: [LyricLine]) {
        self.lines = lines
        var next = [Int?](repeating: nil, count: lines.count + 1)
        for index in lines.indices.reversed() {
            next[index] = lines[index].text.isEmpty ? next[index + 1] : index
        }
        nextNonBlank = next
    }

    /// The end of the last line: the song's end as far as the lyrics know (`zero` with no lines).
    public var end: Timestamp { lines.last?.end ?? .zero }

    /// What is on screen at `t`.
    ///
    /// A binary search finds the last line whose start is ≤ `t` (O(log n)).
    ///
    /// - Returns: a cursor whose `index` is that line (`nil` before the first line; still the last
    ///   line after ``end``), `isInterlude` when nothing is sung (before the first line, on a gap line,
    ///   or at or after ``end``), and `nextIndex`, the first non-blank line starting after `t`.
    public func cursor(at t: Timestamp) -> Cursor {
        // First line whose start is > t.
        var low = 0
        var high = lines.count
        while low < high {
            let mid = (low + high) / 2
            if lines[mid].start <= t { low = mid + 1 } else { high = mid }
        }
        let index = low > 0 ? low - 1 : nil
        let isInterlude: Bool
        if let index {
            isInterlude = lines[index].text.isEmpty || t >= end
        } else {
            isInterlude = true
        }
        return Cursor(time: t, index: index, isInterlude: isInterlude, nextIndex: nextNonBlank[low])
    }
}
