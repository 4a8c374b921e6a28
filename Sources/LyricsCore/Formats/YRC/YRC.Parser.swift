extension YRC {
    /// Turns decoded YRC text into ``Lyrics``: reads each line, settles whitespace into words,
    /// widens lines to their words, sorts, and marks credits.
    ///
    /// Decisions (where peer parsers, AMLL, Accompanist and LDDC, differ):
    /// - **Header vs words.** The header gives the line's interval, but a line always covers its
    ///   words: it starts at the earlier of the header start and the first word start, and ends at
    ///   the later of start + duration and the last word end (Accompanist's rule; AMLL trusts the
    ///   header alone). Word times are absolute; no "relative offset" guess is made.
    /// - **Gaps.** A line ends where its header (or last word) says, not where the next line starts.
    /// - **Whitespace.** Whitespace at the start of a word's text moves to the end of the word before
    ///   it; a word that is only whitespace (a timed space) is dropped, its space kept by the word
    ///   before; the line's first and last word are trimmed, so the words join into the line's text.
    /// - **Zero-length words** (`(5000,0,0)，`) are kept as they are; a word stamped `(0,0,0)` in a
    ///   later line, or one that goes back before the word before it, follows on from that word
    ///   (the rule every reader shares, ``Word/place(_:lineStart:lineEnd:)``).
    /// - **Text before the first group** (not written by NetEase, but seen in hand edits) is a word
    ///   from the line's start to the first group.
    /// - **Empty lines.** A header with no text (`[1000,500]`, or only timed spaces) gives no line.
    /// - **Credits.** JSON credit lines are credits and last until the next line that starts later
    ///   (they carry no duration). Plain lines are marked by ``Credits/mark(_:)``.
    /// - **Order.** Lines are sorted stably by start, so equal starts keep file order.
    enum Parser {
        static func parse(_ text: String, encoding: String) throws(LyricsError) -> Lyrics {
            var tags: [String: String] = [:]
            var lines: [LyricLine] = []
            var fromJSON: [Bool] = []
            var broken: (line: Int, header: String)?
            for (number, line) in NumberedLines.of(text) {
                guard line.utf8.count <= Limits.maxLineBytes else { continue }
                let scalars = Array(line.unicodeScalars)
                let first = LineSyntax.skipBlanks(scalars, from: 0)
                if first < scalars.count, scalars[first] == "{" {
                    if lines.count < Limits.maxLines, let credit = JSONCredit(line) {
                        let start = Timestamp(milliseconds: credit.start)
                        lines.append(LyricLine(start: start, end: start, text: credit.text, role: .credit))
                        fromJSON.append(true)
                    }
                } else if let body = LineSyntax.scan(scalars) {
                    if lines.count < Limits.maxLines, let lyric = lyricLine(body) {
                        lines.append(lyric)
                        fromJSON.append(false)
                    }
                } else if let tag = MetadataTag.parse(scalars) {
                    tags[tag.key] = tag.value
                } else if broken == nil, let header = LineSyntax.brokenHeader(scalars) {
                    broken = (number, header)
                }
            }
            guard !lines.isEmpty else {
                if let broken { throw .invalid("not valid YRC: line \(broken.line): malformed line header '\(broken.header)'") }
                throw .noTimedLines
            }

            let order = lines.indices.sorted { (lines[$0].start, $0) < (lines[$1].start, $1) }
            lines = order.map { lines[$0] }
            fromJSON = order.map { fromJSON[$0] }
            endCredits(&lines, fromJSON: fromJSON)

            // JSON credits are credits whatever they say; only the plain lines are judged by their text.
            let plain = lines.indices.filter { !fromJSON[$0] }
            var plainLines = plain.map { lines[$0] }
            Credits.mark(&plainLines)
            for (index, line) in zip(plain, plainLines) { lines[index] = line }

            return Lyrics(format: .yrc, encoding: encoding, tags: tags, metadata: Lyrics.Metadata(tags: tags), lines: lines)
        }

        /// The line a header and its body give, or `nil` when it has no text.
        static func lyricLine(_ body: LineSyntax.Body) -> LyricLine? {
            let header = body.header
            let headerEnd = header.start + header.duration
            guard body.groups.first != nil else {
                let text = String(String(body.leading).trimmingWhitespace())
                guard !text.isEmpty else { return nil }
                return LyricLine(start: Timestamp(milliseconds: header.start), end: Timestamp(milliseconds: headerEnd), text: text)
            }
            // A stray `(0,0,0)` (or a word the line cannot hold) follows on from the word before it
            // (``Word/place(_:lineStart:lineEnd:)``), so it cannot pull the line back to 0.
            var segments = body.groups
            let placed = Word.place(segments.map { Word.Stamp(start: $0.start, end: $0.end, text: $0.text) }, lineStart: header.start, lineEnd: headerEnd)
            for (index, times) in placed.enumerated() { (segments[index].start, segments[index].end) = (times.start, times.end) }
            if let firstGroup = segments.first, !String(body.leading).trimmingWhitespace().isEmpty {
                let start = min(header.start, firstGroup.start)
                segments.insert(LineSyntax.Group(start: start, end: firstGroup.start, text: body.leading), at: 0)
            }
            let words = TimedSegment.words(segments, maxWords: Limits.maxWords)
            guard let firstStart = words.map(\.start.milliseconds).min(), let lastEnd = words.map(\.end.milliseconds).max()
            else { return nil }
            let start = min(header.start, firstStart)
            let end = max(headerEnd, lastEnd, start)
            return LyricLine(start: Timestamp(milliseconds: start), end: Timestamp(milliseconds: end),
                             text: words.map(\.text).joined(), words: words)
        }

        /// Gives each JSON credit (sorted lines) the start of the next line that starts later as
        /// its end, or its own start when none does.
        private static func endCredits(_ lines: inout [LyricLine], fromJSON: [Bool]) {
            var nextLater: Timestamp?
            var index = lines.count - 1
            while index >= 0 {
                if index + 1 < lines.count, lines[index + 1].start > lines[index].start { nextLater = lines[index + 1].start }
                if fromJSON[index] { lines[index].end = max(lines[index].start, nextLater ?? lines[index].start) }
                index -= 1
            }
        }
    }
}
