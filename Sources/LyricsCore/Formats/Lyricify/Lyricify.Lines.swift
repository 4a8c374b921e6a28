extension Lyricify {
    /// Turns Lyricify Lines text into ``Lyrics``.
    ///
    /// ```
    /// file = "[type:LyricifyLines]"? (tag | row | other)*
    /// row  = blank* "[" number "," number "]" text        number = blank* digit{1,12} blank*
    /// ```
    ///
    /// The first number is the start, the second the **end** (not a duration), both absolute
    /// milliseconds. The header is a tag like any other (`type` in ``Lyrics/tags``); it is not
    /// required.
    ///
    /// Decisions (where Lyricify-Lyrics-Helper, Unilyric and AMLL differ):
    /// - **End before start** (`[2000,1000]`): the line lasts zero milliseconds, from its start
    ///   (Unilyric keeps such rows with a warning; a line never ends before it starts here).
    /// - **Text** is trimmed; a row with no text gives no line (AMLL).
    /// - **Backing.** A row wholly in brackets (`(oh)`, `（oh）`, one pair wrapping all of it) is
    ///   the backing vocals of the main row before it in file order (AMLL treats every such row as
    ///   backing), its brackets removed; several such rows all join that main row (at most
    ///   ``Limits/maxBackings``). With no main row before it, it is a main line, brackets kept. A phrase in brackets at the end of a row
    ///   (Lyricify's "in main line" export) stays part of the row's text: it has no time of its own.
    /// - **Overlapping rows** are kept as they are; lines are sorted stably by start.
    /// - **Malformed rows** (`[-1,2000]`, `[NaN,NaN]`, thirteen-digit numbers) are skipped; one is
    ///   reported only when nothing in the file could be read. Other lines (`#comment`, `{…}`,
    ///   plain text) are skipped.
    enum Lines {
        static func parse(_ text: String, encoding: String, options: ReadOptions) throws(LyricsError) -> Lyrics {
            let reading = read(NumberedLines.of(text))
            guard !reading.lines.isEmpty else {
                if let broken = reading.broken {
                    throw .invalid("not valid Lyricify Lines: line \(broken.line): malformed row header '\(broken.header)'")
                }
                throw .noTimedLines
            }
            return Tags.lyrics(.lyl, encoding: encoding, tags: reading.tags, lines: reading.lines, options: options)
        }

        /// What ``read(_:)`` found: main lines in file order (backing runs attached), tags, and the
        /// first malformed row header.
        struct Reading {
            var lines: [LyricLine] = []
            var tags: [String: String] = [:]
            var broken: (line: Int, header: String)?
        }

        /// Reads tags and rows from physical lines (the whole file, or a Quick Export lyrics section).
        static func read(_ physical: [(number: Int, text: Substring)]) -> Reading {
            var reading = Reading()
            var rows = 0
            for (number, line) in physical where line.utf8.count <= Limits.maxLineBytes {
                let scalars = Array(line.unicodeScalars)
                guard let header = header(scalars) else {
                    if let tag = MetadataTag.parse(scalars) {
                        reading.tags[tag.key] = tag.value
                    } else if reading.broken == nil, let broken = brokenHeader(scalars) {
                        reading.broken = (number, broken)
                    }
                    continue
                }
                let text = String(String(String.UnicodeScalarView(scalars[header.index...])).trimmingWhitespace())
                guard !text.isEmpty, rows < Limits.maxLines else { continue }
                rows += 1
                let start = Timestamp(milliseconds: header.start)
                let end = Timestamp(milliseconds: max(header.start, header.end))
                if Brackets.wrap(text), let last = reading.lines.last, last.backgrounds.count < Limits.maxBackings {
                    let inner = Brackets.unwrapped(text)
                    if !inner.isEmpty {
                        reading.lines[reading.lines.count - 1].backgrounds.append(LyricLine.Backing(start: start, end: end, text: inner))
                    }
                } else {
                    reading.lines.append(LyricLine(start: start, end: end, text: text))
                }
            }
            return reading
        }

        /// `[start,end]` at the start of a line (after blanks): the two numbers and the index just
        /// past the `]`.
        static func header(_ scalars: [Unicode.Scalar]) -> (start: Int, end: Int, index: Int)? {
            var index = skipBlanks(scalars, from: 0)
            guard index < scalars.count, scalars[index] == "[" else { return nil }
            index += 1
            var values = [0, 0]
            for number in 0..<2 {
                index = skipBlanks(scalars, from: index)
                var digits = 0
                while index < scalars.count, ("0"..."9").contains(scalars[index]) {
                    digits += 1
                    guard digits <= Limits.maxDigits else { return nil }
                    values[number] = values[number] * 10 + Int(scalars[index].value - 48)
                    index += 1
                }
                index = skipBlanks(scalars, from: index)
                guard digits > 0, index < scalars.count, scalars[index] == (number == 0 ? "," : "]") else { return nil }
                index += 1
            }
            return (values[0], values[1], index)
        }

        /// Whether the line starts like a row header (`[`, a comma and no colon before a `]` within 40
        /// scalars) without being one; the bracketed part as evidence.
        static func brokenHeader(_ scalars: [Unicode.Scalar]) -> String? {
            let open = skipBlanks(scalars, from: 0)
            guard open < scalars.count, scalars[open] == "[" else { return nil }
            let window = scalars[open..<min(scalars.count, open + 40)]
            guard let close = window.firstIndex(of: "]"), window[open..<close].contains(","),
                  !window[open..<close].contains(":") else { return nil }
            return String(String.UnicodeScalarView(scalars[open...close]))
        }

        private static func skipBlanks(_ scalars: [Unicode.Scalar], from index: Int) -> Int {
            var index = index
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
            return index
        }
    }
}
