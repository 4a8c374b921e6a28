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
    /// - **Zero-length words** (`(5000,0,0)，`) are kept as they are.
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
            for (number, line) in physicalLines(of: text) {
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
                } else if let tag = LineSyntax.tag(scalars) {
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

            let metadata = Lyrics.Metadata(
                title: tags["ti"], artist: tags["ar"], album: tags["al"], language: tags["la"],
                length: tags["length"].flatMap(LRC.TagValue.length))
            return Lyrics(format: .yrc, encoding: encoding, tags: tags, metadata: metadata, lines: lines)
        }

        /// The line a header and its body give, or `nil` when it has no text.
        static func lyricLine(_ body: LineSyntax.Body) -> LyricLine? {
            let header = body.header
            let headerEnd = header.start + header.duration
            guard let firstGroup = body.groups.first else {
                let text = String(String(body.leading).trimmingWhitespace())
                guard !text.isEmpty else { return nil }
                return LyricLine(start: Timestamp(milliseconds: header.start), end: Timestamp(milliseconds: headerEnd), text: text)
            }
            var segments = body.groups
            if !String(body.leading).trimmingWhitespace().isEmpty {
                let start = min(header.start, firstGroup.start)
                segments.insert(LineSyntax.Group(start: start, end: firstGroup.start, text: body.leading), at: 0)
            }
            let words = settle(segments)
            guard let firstStart = words.map(\.start.milliseconds).min(), let lastEnd = words.map(\.end.milliseconds).max()
            else { return nil }
            let start = min(header.start, firstStart)
            let end = max(headerEnd, lastEnd, start)
            return LyricLine(start: Timestamp(milliseconds: start), end: Timestamp(milliseconds: end),
                             text: words.map(\.text).joined(), words: words)
        }

        /// Words from groups: leading whitespace moves to the word before, whitespace-only groups
        /// are dropped, the last word is trimmed at its end (see the decisions above).
        static func settle(_ segments: [LineSyntax.Group]) -> [Word] {
            var kept: [LineSyntax.Group] = []
            for var segment in segments {
                let lead = segment.text.prefix(while: \.properties.isWhitespace)
                if !lead.isEmpty {
                    segment.text = String.UnicodeScalarView(segment.text[lead.endIndex...])
                    if let last = kept.indices.last, kept[last].text.last?.properties.isWhitespace == false {
                        kept[last].text.append(contentsOf: lead)
                    }
                }
                if segment.text.isEmpty { continue }
                kept.append(segment)
            }
            if kept.count > Limits.maxWords {
                // Only with text before the first group: it and the kept groups exceed the limit by one.
                let last = Limits.maxWords - 1
                for extra in kept[(last + 1)...] {
                    kept[last].text.append(contentsOf: extra.text)
                    kept[last].end = max(kept[last].end, extra.end)
                }
                kept.removeSubrange((last + 1)...)
            }
            if let last = kept.indices.last {
                while let scalar = kept[last].text.last, scalar.properties.isWhitespace { kept[last].text.removeLast() }
            }
            return kept.map { group in
                Word(start: Timestamp(milliseconds: group.start), end: Timestamp(milliseconds: max(group.start, group.end)),
                     text: String(group.text))
            }
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

        /// The physical lines with their 1-based numbers: split at LF, CR and CRLF (CRLF counts as
        /// one break), U+FEFF removed from the start of each line.
        static func physicalLines(of text: String) -> [(number: Int, text: Substring)] {
            let scalars = text.unicodeScalars
            var result: [(number: Int, text: Substring)] = []
            var lineStart = scalars.startIndex
            var index = lineStart
            var previousWasCR = false
            var number = 0
            func emit(upTo end: String.UnicodeScalarView.Index) {
                var line = scalars[lineStart..<end]
                while line.first == "\u{FEFF}" { line.removeFirst() }
                number += 1
                result.append((number, Substring(line)))
            }
            while index < scalars.endIndex {
                let scalar = scalars[index]
                if scalar == "\n" && previousWasCR {
                    lineStart = scalars.index(after: index)   // the LF of a CRLF
                } else if scalar == "\n" || scalar == "\r" {
                    emit(upTo: index)
                    lineStart = scalars.index(after: index)
                }
                previousWasCR = scalar == "\r"
                index = scalars.index(after: index)
            }
            if lineStart < scalars.endIndex { emit(upTo: scalars.endIndex) }
            return result
        }
    }
}
