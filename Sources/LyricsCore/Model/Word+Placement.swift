extension Word {
    /// A word's times as a file writes them, before they are checked against the line: a start,
    /// and an end when the format writes one (`nil`: the word lasts until the next word starts).
    struct Stamp: Equatable {
        var start: Int
        var end: Int?
        /// A timed space (text of only whitespace): placed like a word, but no word is judged
        /// against it (formats give such spaces the end of the word before them).
        var blank = false

        init(start: Int, end: Int?, blank: Bool = false) {
            self.start = start
            self.end = end
            self.blank = blank
        }

        init(start: Int, end: Int?, text: some Collection<Unicode.Scalar>) {
            self.init(start: start, end: end, blank: text.allSatisfy(\.properties.isWhitespace))
        }
    }

    /// The one rule every reader applies to word times (TTML, YRC, QRC, Lyricify Syllable, LRC with
    /// word stamps, ESLyric): a word the file could not place **follows on from the word before
    /// it**, or takes the line's start when it is the line's first word. It takes no time of its
    /// own unless the file gives it a later end (it starts where the word before it ended), so
    /// highlighting passes over it with its neighbour and the line is never pulled back to the
    /// song's start.
    ///
    /// A word cannot be placed when:
    /// - it starts at zero (`begin="00:00.000" end="00:00.000"`, `(0,0,0)`, `(0,0)`,
    ///   `<00:00.00>`) in a line that starts later;
    /// - it starts before the word before it, or at the same time as a word before it that has a
    ///   length (a stamp that goes backwards; timed spaces are not judged against);
    /// - it ends before the line starts.
    ///
    /// A word that starts before its line and ends inside it, or runs past the line's end, is
    /// placed: the line widens to cover it (each reader's rule).
    ///
    /// Placeable words keep their times; one without an end lasts until the next placeable word
    /// starts, else until the line's end (or its own start when the line has none).
    ///
    /// - Parameters:
    ///   - lineStart: the line's start as the file writes it (a header, `<p begin>`, the line's
    ///     stamp), or `nil` when the line has none of its own (then its first placeable word's).
    ///   - lineEnd: the line's end as the file writes it, or `nil`.
    /// - Returns: one `(start, end, placed)` per stamp, in order, with `end >= start`; `placed` is
    ///   `false` for a word that followed on.
    static func place(_ stamps: [Stamp], lineStart: Int?, lineEnd: Int?) -> [(start: Int, end: Int, placed: Bool)] {
        guard !stamps.isEmpty else { return [] }
        let start = lineStart ?? stamps.first(where: { $0.start != 0 || ($0.end ?? 0) != 0 })?.start ?? stamps[0].start
        var placeable: [Bool] = []
        var last: Stamp?
        for stamp in stamps {
            let zero = stamp.start == 0 && start > 0
            // Going back: before the last word's start, or at it when that word has a length.
            let backwards = last.map { stamp.start < $0.start || (stamp.start == $0.start && ($0.end ?? $0.start) > $0.start) } ?? false
            let before = lineStart != nil && stamp.start < start && (stamp.end ?? stamp.start) < start
            let ok = !(zero || backwards || before)
            placeable.append(ok)
            if ok, !stamp.blank { last = stamp }
        }
        // Ends first: an open end runs to the next placeable start (else the line's end).
        var ends: [Int] = stamps.map { $0.end ?? $0.start }
        var nextStart: Int? = nil
        for index in stamps.indices.reversed() {
            if stamps[index].end == nil { ends[index] = nextStart ?? lineEnd ?? stamps[index].start }
            if placeable[index] { nextStart = stamps[index].start }
        }
        // Then each word that cannot be placed follows on from the one before it; it keeps its own
        // end when that is later (ESLyric's `[0]word[end]`), else it takes no time.
        var result: [(start: Int, end: Int, placed: Bool)] = []
        var reached = start
        for index in stamps.indices {
            let begin = placeable[index] ? stamps[index].start : reached
            let end = max(begin, ends[index])
            result.append((begin, end, placeable[index]))
            reached = max(reached, end)
        }
        return result
    }
}

extension Array where Element == Word {
    /// These words with ``Word/place(_:lineStart:lineEnd:)`` applied to their times.
    func placed(lineStart: Int?, lineEnd: Int?) -> [Word] {
        let times = Word.place(map { Word.Stamp(start: $0.start.milliseconds, end: $0.end.milliseconds) },
                               lineStart: lineStart, lineEnd: lineEnd)
        return zip(self, times).map { word, time in
            var word = word
            word.start = Timestamp(milliseconds: time.start)
            word.end = Timestamp(milliseconds: time.end)
            return word
        }
    }
}
