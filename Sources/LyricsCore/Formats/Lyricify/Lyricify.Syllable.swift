extension Lyricify {
    /// Turns Lyricify Syllable text into ``Lyrics``: reads tags and rows, settles each row's words,
    /// attaches backing rows to their main rows, names duet sides, applies the offset and sorts.
    ///
    /// The prop is two ternary digits (Lyricify-Docs' table): prop / 3 says whether the row is
    /// backing vocals (0 unset, 1 no, 2 yes), prop % 3 which side sings it (0 unset, 1 left, 2 right).
    ///
    /// Decisions (where Lyricify-Lyrics-Helper, Unilyric and AMLL differ):
    /// - **Props other than 0–8** (`[9]`, `[-1]`, `[]`, `[99999999999999999999]`) are prop 0, as in
    ///   AMLL: the row is read, neither backing nor on a side. (Lyricify reads `[10]` as backing on
    ///   the left; Unilyric makes it a main line for v1; a strict reader rejects it.) Blanks around
    ///   the digits are allowed (`[ 4 ]`).
    /// - **Sides**: left is agent `v1`, right `v2` (Unilyric; AMLL calls right "duet"); unset leaves
    ///   the line without an agent. The agents used are listed in ``Lyrics/agents``.
    /// - **Backing rows** (prop 6–8) attach to the row before them in file order, as backing runs
    ///   (``LyricLine/backgrounds``), one pair of wrapping brackets removed (AMLL; Unilyric keeps
    ///   them). Several in a row all attach to the same main row (Lyricify keeps only the last,
    ///   Unilyric promotes the second to a main line): the model holds several runs (at most
    ///   ``Limits/maxBackings``; a further one becomes a main line). A backing row with no row before
    ///   it is a main line, brackets kept as written, its side naming its agent.
    /// - **Unset rows in brackets** (props 0–2) follow Lyricify's neighbour rule: such a row is the
    ///   backing of the row before it when that row is not backing itself (explicitly, or unset and
    ///   bracketed) and has no backing yet, and the row after it is not backing either (the last row
    ///   of the file qualifies). "Bracketed" means one pair wraps the whole text (``Brackets/wrap(_:)``).
    /// - **Zero-time separators.** A `(0,0)` stamp whose text is only spaces or punctuation
    ///   (`Hello(1000,500) (0,0)World(1500,500)`, as the AMLL TTML tool used to export) joins the word
    ///   before it (Unilyric, the TTML tool's own fixer); first in a row, it joins the next word.
    /// - **Stray `(0,0)` words** with real text, in a row whose other words are timed, follow on from
    ///   the word before them (or take the first timed start): the rule every reader shares,
    ///   ``Word/place(_:lineStart:lineEnd:)``, so that they cannot pull the line to 0.
    /// - **Text after the last stamp** (a tail, such as the `)` closing a bracketed row) joins the last
    ///   word; regex-based peers drop it, a strict reader rejects the row.
    /// - **Whitespace** settles into words as in YRC (``TimedSegment/words(_:maxWords:)``): a timed
    ///   space joins the word before it; the line is trimmed.
    /// - **Line span**: first word start to last word end (Unilyric, AMLL). A row without a single
    ///   stamp (`[4]Bad(a,b)`, `[4]x(1000,-10)`) or without text gives no line.
    /// - **Mixed files**: QRC rows `[start,duration]text(s,d)…` read as prop-0 rows (their header is
    ///   ignored, the words decide the span), as Lyricify does with its mixed demo file.
    /// - Tags `[key:value]` anywhere; lines that are neither rows nor tags (`#comment`, `{…}`, LRC
    ///   lines, plain text) are skipped.
    enum Syllable {
        /// Which side of a duet view sings a row.
        enum Side: Int {
            case unset, left, right
            var agent: String? { self == .left ? "v1" : self == .right ? "v2" : nil }
        }

        /// A row read from the file, before backing rows are attached.
        struct Row {
            /// Whether the prop marks the row as backing vocals: `nil` unset, `false` no, `true` yes.
            var backing: Bool?
            var side: Side
            /// The row as a line, in file times.
            var line: LyricLine

            var bracketed: Bool { Brackets.wrap(line.text) }
            /// Lyricify's "is not background vocals": explicitly not, or unset and not bracketed.
            var isNotBacking: Bool { backing == false || (backing == nil && !bracketed) }
        }

        /// What ``read(_:)`` found: rows in file order, tags, and the first row that had text but
        /// no stamp (evidence for an error when nothing else is read).
        struct Reading {
            var rows: [Row] = []
            var tags: [String: String] = [:]
            var unstamped: (line: Int, text: String)?
        }

        static func parse(_ text: String, encoding: String, options: ReadOptions) throws(LyricsError) -> Lyrics {
            let reading = read(NumberedLines.of(text))
            guard !reading.rows.isEmpty else { throw failure(reading, in: "Lyricify Syllable") }
            return Tags.lyrics(.lys, encoding: encoding, tags: reading.tags, lines: assemble(reading.rows), options: options)
        }

        /// The error for a reading without rows.
        static func failure(_ reading: Reading, in format: String) -> LyricsError {
            guard let unstamped = reading.unstamped else { return .noTimedLines }
            return .invalid("not valid \(format): line \(unstamped.line): no word stamp (start,duration) in '\(unstamped.text)'")
        }

        /// Reads tags and rows from physical lines (the whole file, or a Quick Export lyrics section).
        static func read(_ lines: [(number: Int, text: Substring)]) -> Reading {
            var reading = Reading()
            for (number, line) in lines where line.utf8.count <= Limits.maxLineBytes {
                let scalars = Array(line.unicodeScalars)
                if let prop = SyllableSyntax.prop(scalars) {
                    guard reading.rows.count < Limits.maxLines else { continue }
                    let scanned = SyllableSyntax.scanWords(scalars, from: prop.end)
                    if let row = row(prop: prop.value, scanned) {
                        reading.rows.append(row)
                    } else if scanned.stamps == 0, reading.unstamped == nil, let value = prop.value, (0...8).contains(value),
                              !String(scanned.tail).trimmingWhitespace().isEmpty {
                        reading.unstamped = (number, String(String.UnicodeScalarView(scalars.prefix(40))))
                    }
                } else if let tag = MetadataTag.parse(scalars) {
                    reading.tags[tag.key] = tag.value
                }
            }
            return reading
        }

        /// The row a prop and a scanned body give, or `nil` when it has no timed text.
        static func row(prop: Int?, _ scanned: SyllableSyntax.Words) -> Row? {
            let words = words(scanned)
            guard let start = words.map(\.start).min(), let end = words.map(\.end).max() else { return nil }
            let value = prop.flatMap { (0...8).contains($0) ? $0 : nil } ?? 0
            let backing: Bool? = value < 3 ? nil : value >= 6
            let side = Side(rawValue: value % 3) ?? .unset
            let line = LyricLine(start: start, end: end, text: words.map(\.text).joined(), words: words, agent: side.agent)
            return Row(backing: backing, side: side, line: line)
        }

        /// A row's words: zero-time separators joined to their neighbours, stray `(0,0)` words given
        /// a time, the tail joined to the last word, whitespace settled.
        static func words(_ scanned: SyllableSyntax.Words) -> [Word] {
            var segments: [TimedSegment] = []
            var carried = String.UnicodeScalarView()
            for segment in scanned.segments {
                var text = carried
                text.append(contentsOf: segment.text)
                carried = String.UnicodeScalarView()
                if segment.start == 0, segment.duration == 0, isSeparator(text) {
                    if segments.isEmpty { carried = text } else { segments[segments.count - 1].text.append(contentsOf: text) }
                    continue
                }
                segments.append(TimedSegment(start: segment.start, end: segment.start + segment.duration, text: text))
            }
            guard !segments.isEmpty else { return [] }
            segments[segments.count - 1].text.append(contentsOf: carried)
            segments[segments.count - 1].text.append(contentsOf: scanned.tail)

            // A row has no start of its own: its first placed word's is the line's.
            let placed = Word.place(segments.map { Word.Stamp(start: $0.start, end: $0.end, text: $0.text) }, lineStart: nil, lineEnd: nil)
            for (index, times) in placed.enumerated() { (segments[index].start, segments[index].end) = (times.start, times.end) }
            return TimedSegment.words(segments, maxWords: Limits.maxWords)
        }

        /// Main lines in file order with their backing runs attached (see the decisions above).
        static func assemble(_ rows: [Row]) -> [LyricLine] {
            // Explicit backing rows first, as Lyricify does: they join the row kept before them.
            var kept: [Row] = []
            for row in rows {
                if row.backing == true, let last = kept.last, last.line.backgrounds.count < Limits.maxBackings {
                    attach(row, to: &kept[kept.count - 1])
                } else {
                    kept.append(row)
                }
            }
            // Then the neighbour rule for unset rows in brackets.
            var result: [Row] = []
            for (index, row) in kept.enumerated() {
                if row.backing == nil, let previous = result.last, row.bracketed, previous.isNotBacking,
                   previous.line.backgrounds.isEmpty, index + 1 == kept.count || kept[index + 1].isNotBacking {
                    attach(row, to: &result[result.count - 1])
                } else {
                    result.append(row)
                }
            }
            return result.map(\.line)
        }

        private static func attach(_ row: Row, to main: inout Row) {
            var (text, words) = Brackets.unwrapped(row.line.text, words: row.line.words)
            // A backing row stamped only `(0,0)` cannot be placed: it follows on from its main line's
            // words (Word.place's rule), so it cannot pull the line to 0.
            if main.line.start.milliseconds > 0, words.allSatisfy({ $0.start.milliseconds == 0 && $0.end.milliseconds == 0 }) {
                let at = main.line.words.last?.end ?? main.line.end
                words = words.map { word in
                    var word = word
                    (word.start, word.end) = (at, at)
                    return word
                }
            }
            guard let start = words.map(\.start).min(), let end = words.map(\.end).max(), !text.isEmpty else { return }
            main.line.backgrounds.append(LyricLine.Backing(start: start, end: end, text: text, words: words))
        }

        /// Whether `text` is only whitespace and punctuation (or nothing).
        private static func isSeparator(_ text: String.UnicodeScalarView) -> Bool {
            text.allSatisfy { scalar in
                switch scalar.properties.generalCategory {
                case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                     .initialPunctuation, .finalPunctuation, .otherPunctuation, .spaceSeparator:
                    return true
                default:
                    return scalar.properties.isWhitespace
                }
            }
        }
    }
}
