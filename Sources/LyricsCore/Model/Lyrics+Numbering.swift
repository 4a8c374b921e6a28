/// Lyric line numbers as people pick lines by (`card --lines 3-5`, the first column of
/// `inspect --text`): 1-based, counting sung lines only, in file order. Credits and gaps have none.
extension Lyrics {
    /// The index into ``lines`` of each numbered line: `numberedLines[n - 1]` is line number `n`.
    public var numberedLines: [Int] { lines.indices.filter { lines[$0].isSung } }

    /// The number of each line (nil for credits and gaps), by index into ``lines``.
    public var lineNumbers: [Int?] {
        var next = 0
        return lines.map { line in
            guard line.isSung else { return nil }
            next += 1
            return next
        }
    }
}
