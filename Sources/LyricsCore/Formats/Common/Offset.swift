extension Lyrics {
    /// The lyrics with a file's `[offset:]` applied to every time (lines, words, backing vocals):
    /// subtracted or added as `sign` says (held at the ends of `Int` rather than overflowing), and
    /// recorded in ``offsetMs``.
    func applyingOffset(_ offset: Int, sign: OffsetSign) -> Lyrics {
        guard offset != 0 else { return self }
        let delta = sign == .subtract ? (offset == .min ? .max : -offset) : offset
        func move(_ t: Timestamp) -> Timestamp { Timestamp(milliseconds: t.milliseconds.adding(saturating: delta)) }
        func move(_ words: [Word]) -> [Word] {
            words.map { var word = $0; word.start = move(word.start); word.end = move(word.end); return word }
        }
        var result = self
        result.offsetMs = offset
        for index in result.lines.indices {
            result.lines[index].start = move(result.lines[index].start)
            result.lines[index].end = move(result.lines[index].end)
            result.lines[index].words = move(result.lines[index].words)
            for run in result.lines[index].backgrounds.indices {
                result.lines[index].backgrounds[run].start = move(result.lines[index].backgrounds[run].start)
                result.lines[index].backgrounds[run].end = move(result.lines[index].backgrounds[run].end)
                result.lines[index].backgrounds[run].words = move(result.lines[index].backgrounds[run].words)
            }
        }
        return result
    }
}

extension Int {
    /// `self + other`, held at `Int.max`/`Int.min` instead of trapping on overflow.
    func adding(saturating other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
