/// The lines of a song on a time axis, for finding what is current at any moment.
///
/// Lines are half-open intervals `[start, end)` sorted by start. The line at `t` is the last one
/// whose start is at or before `t`; of several lines with the same start (a duet), the cursor
/// names the last and ``group(of:)`` gives them all. Time after a line's end and before the next
/// start is a gap; time before the first line or at or after ``end`` is outside the lyrics.
public struct Timeline: Sendable {
    /// The lines, in order (the same as ``Lyrics/lines``).
    public let lines: [LyricLine]

    /// For each position `i` in `0...lines.count`, the first sung line at index ≥ i.
    private let nextSung: [Int?]
    /// The latest end of any line.
    public let end: Timestamp

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
            next[index] = lines[index].isSung ? index : next[index + 1]
        }
        nextSung = next
        var running: [Timestamp] = []
        running.reserveCapacity(lines.count)
        for line in lines { running.append(max(running.last ?? line.end, line.end)) }
        runningEnd = running
        end = running.last ?? .zero
    }

    /// For each line, the latest end among it and the lines before it.
    private let runningEnd: [Timestamp]
    /// How many lines back an overlapping line is looked for.
    private static let overlapLookBack = 64

    /// The indices of the lines that start together with line `index` (itself included), in order.
    public func group(of index: Int) -> ClosedRange<Int> {
        var first = index
        var last = index
        while first > 0, lines[first - 1].start == lines[index].start { first -= 1 }
        while last + 1 < lines.count, lines[last + 1].start == lines[index].start { last += 1 }
        return first...last
    }

    /// What is on screen at `t`.
    ///
    /// A binary search finds the last line whose start is ≤ `t` (O(log n)).
    ///
    /// - Returns: a cursor whose `index` is that line (`nil` before the first line; still the last
    ///   line after ``end``), `isInterlude` when nothing is sung (before the first line, on a gap or
    ///   credit line, after the line's end, or at or after ``end``), and `nextIndex`, the first sung
    ///   line starting after `t`.
    public func cursor(at t: Timestamp) -> Cursor {
        // First line whose start is > t.
        var low = 0
        var high = lines.count
        while low < high {
            let mid = (low + high) / 2
            if lines[mid].start <= t { low = mid + 1 } else { high = mid }
        }
        var index = low > 0 ? low - 1 : nil
        let isInterlude: Bool
        if var found = index {
            // A line that ended before `t` may sit inside a longer line that started earlier and is
            // still sung (a short echo inside a long line): that one is on screen.
            if t >= lines[found].end, t < runningEnd[found] {
                var back = found - 1
                while back >= 0, found - back <= Self.overlapLookBack {
                    if lines[back].isSung, t < lines[back].end { found = back; break }
                    back -= 1
                }
                index = found
            }
            isInterlude = !lines[found].isSung || t >= lines[found].end || t >= end
        } else {
            isInterlude = true
        }
        return Cursor(time: t, index: index, isInterlude: isInterlude, nextIndex: nextSung[low])
    }
}
