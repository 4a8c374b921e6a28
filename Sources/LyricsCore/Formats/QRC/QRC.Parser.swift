extension QRC {
    /// Turns a QRC body into ``Lyrics``.
    ///
    /// Decisions (where Lyricify, LDDC, Unilyric and AMLL differ):
    /// - **Header vs words**: a line covers both its header's interval and its words (as YRC); a
    ///   word stamped `(0,0)` in a later line follows on from the word before it (the shared rule,
    ///   ``Word/place(_:lineStart:lineEnd:)``).
    /// - **Whitespace**: whitespace-only words are dropped and their space kept by the word before;
    ///   empty words `(t,d)` are dropped; text after the last stamp joins the last word.
    /// - **Backing vocals**: a line wrapped in parentheses between unwrapped ones is the backing
    ///   run of the line before it (``BackingLines``; Lyricify's convention).
    /// - **Tags** are read only as whole `[key:value]` lines, before any stamp is looked for, so a
    ///   `[kana:]` stream that holds stamps is never taken for lyrics.
    /// - **Offset**: `[offset:]` is applied as ``ReadOptions/offsetSign`` says (Lyricify subtracts).
    enum Parser {
        static func parse(_ text: String, encoding: String, options: ReadOptions) throws(LyricsError) -> Lyrics {
            var tags: [String: String] = [:]
            var lines: [LyricLine] = []
            for (_, line) in NumberedLines.of(text) {
                guard line.utf8.count <= Limits.maxLineBytes else { continue }
                let scalars = Array(line.unicodeScalars)
                if let body = scan(scalars) {
                    if lines.count < Limits.maxLines, let lyric = lyricLine(body) { lines.append(lyric) }
                } else if let tag = MetadataTag.parse(scalars) {
                    tags[tag.key] = tag.value
                }
            }
            guard !lines.isEmpty else { throw .noTimedLines }
            Credits.mark(&lines)
            lines = BackingLines.attach(lines).map(BackingLines.covering)
            lines = lines.sortedByStart()
            let lyrics = Lyrics(format: .qrc, encoding: encoding, tags: tags, metadata: Lyrics.Metadata(tags: tags), lines: lines)
            return lyrics.applyingOffset(tags["offset"].flatMap(LRC.TagValue.offset) ?? 0, sign: options.offsetSign)
        }

        /// A line header and its words (each word's text before its stamp).
        struct Body {
            var header: YRC.LineSyntax.Header
            var words: [TimedSegment] = []
        }

        /// Reads `[start,duration]` then `text(start,duration)…`, or `nil` when the line does not
        /// start with a header or is a tag. Linear: each `(` reads a bounded number of scalars.
        static func scan(_ scalars: [Unicode.Scalar]) -> Body? {
            let first = YRC.LineSyntax.skipBlanks(scalars, from: 0)
            guard let header = YRC.LineSyntax.header(scalars, at: first) else { return nil }
            var body = Body(header: header)
            var pending = String.UnicodeScalarView()
            var index = header.end
            while index < scalars.count {
                if scalars[index] == "(", let stamp = YRC.LineSyntax.numbers(scalars, from: index + 1, count: 2, close: ")") {
                    let start = stamp.values[0], end = stamp.values[0] + stamp.values[1]
                    if body.words.count < Limits.maxWords {
                        body.words.append(TimedSegment(start: start, end: end, text: pending))
                    } else {
                        let last = body.words.count - 1
                        body.words[last].text.append(contentsOf: pending)
                        body.words[last].end = max(body.words[last].end, end)
                    }
                    pending = .init()
                    index = stamp.end
                    continue
                }
                pending.append(scalars[index])
                index += 1
            }
            if !pending.isEmpty {
                if body.words.isEmpty {
                    // A header with text and no stamps: one untimed-word line.
                    body.words.append(TimedSegment(start: header.start, end: header.start + header.duration, text: pending))
                } else {
                    body.words[body.words.count - 1].text.append(contentsOf: pending)
                }
            }
            return body
        }

        /// The line a body gives, or `nil` when it has no text.
        static func lyricLine(_ body: Body) -> LyricLine? {
            let header = body.header
            var segments = body.words
            let placed = Word.place(segments.map { Word.Stamp(start: $0.start, end: $0.end, text: $0.text) },
                                    lineStart: header.start, lineEnd: header.start + header.duration)
            for (index, times) in placed.enumerated() { (segments[index].start, segments[index].end) = (times.start, times.end) }
            let words = TimedSegment.words(segments, maxWords: Limits.maxWords)
            guard let firstStart = words.map(\.start.milliseconds).min(), let lastEnd = words.map(\.end.milliseconds).max()
            else { return nil }
            let start = min(header.start, firstStart)
            let end = max(header.start + header.duration, lastEnd, start)
            return LyricLine(start: Timestamp(milliseconds: start), end: Timestamp(milliseconds: end),
                             text: words.map(\.text).joined(), words: words)
        }
    }
}
