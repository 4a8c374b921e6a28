extension LRC {
    /// Turns decoded LRC text into ``Lyrics``: splits lines, scans each one, groups same-stamp lines
    /// into original + translation, sorts, applies the offset and fills in ends.
    ///
    /// Decisions (each one a place where real parsers disagree, LRC.md §4, §7, §8):
    /// - **Fan-out.** `[t1][t2]text` gives one line per time tag.
    /// - **Same stamp.** The first non-blank line with a given time tag is the original; each later
    ///   non-blank line with the same tag and a *different* text is a translation of it (NetEase/QQ
    ///   bilingual export), even when not adjacent. A third, fourth… such line is appended to the
    ///   translation with `"\n"`. A translation equal to the placeholder `//` is dropped.
    /// - **Duplicates.** A line whose (time tag, text) was already seen, as an original or a
    ///   translation, is dropped.
    /// - **Gaps.** A time tag with no text is kept as a blank line, once per tag; it is dropped when a
    ///   non-blank line has the same tag (it would be hidden or hide that line; SPL's "end marker").
    /// - **LRCX.** `[t][tr:lang]text` adds `text` as a translation of the line at `t`, whatever the
    ///   order of the lines; an attachment with no line at `t` is dropped; `[tt]`, `[fu]`, `[roma]` are
    ///   dropped.
    /// - **Order.** Lines are sorted stably by the time as written, so equal times keep file order.
    /// - **Offset.** The last `[offset:]` anywhere in the file applies to every time, lines and words;
    ///   results below zero become zero.
    struct Parser {
        var options: Options

        func parse(_ text: String, encoding: String) throws(LyricsError) -> Lyrics {
            var tags: [String: String] = [:]
            var book = Book()
            for line in Self.physicalLines(of: text) {
                let syntax = LineScanner.scan(line)
                for tag in syntax.tags { tags[tag.key] = tag.value }
                switch syntax.content {
                case .none, .ignoredAttachment:
                    break
                case .translation(let translation):
                    for stamp in syntax.stamps { book.attach(translation, at: stamp) }
                case .text(let body):
                    for stamp in syntax.stamps { book.add(body, at: stamp) }
                }
            }
            let entries = book.entries()
            guard !entries.isEmpty else { throw .noTimedLines }

            let offset = tags["offset"].flatMap(TagValue.offset) ?? 0
            var lyrics = Lyrics(encoding: encoding, tags: tags, offsetMs: offset)
            lyrics.lines = resolve(entries, offset: offset, length: lyrics.length)
            return lyrics
        }

        /// Splits at LF, CR, CRLF and NUL (blank lines between CR and LF are harmless: they carry no
        /// time tag). Strips a `xx||`/`xxx||` language prefix at the very start of the text and U+FEFF
        /// at the start of every line (some files carry a BOM at the start of random lines).
        static func physicalLines(of text: String) -> [Substring] {
            var scalars = Substring(text).unicodeScalars
            while scalars.first == "\u{FEFF}" { scalars.removeFirst() }
            if let prefixEnd = languagePrefixEnd(scalars) { scalars = scalars[prefixEnd...] }
            return scalars
                .split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\0" })
                .map { line in
                    var line = line
                    while line.first == "\u{FEFF}" { line.removeFirst() }
                    return Substring(line)
                }
        }

        /// End of an ID3-style language prefix (`eng||`, `en||`: 2–3 ASCII letters and `||`), if any.
        private static func languagePrefixEnd(_ scalars: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView.Index? {
            var index = scalars.startIndex
            var letters = 0
            while index < scalars.endIndex, letters < 4,
                  ("a"..."z").contains(scalars[index]) || ("A"..."Z").contains(scalars[index]) {
                letters += 1
                index = scalars.index(after: index)
            }
            guard (2...3).contains(letters) else { return nil }
            for _ in 0..<2 {
                guard index < scalars.endIndex, scalars[index] == "|" else { return nil }
                index = scalars.index(after: index)
            }
            return index
        }

        /// Sorts, applies the offset, fills ends and word ends.
        private func resolve(_ entries: [Entry], offset: Int, length: Timestamp?) -> [LyricLine] {
            let sorted = entries.enumerated()
                .sorted { ($0.element.stamp, $0.offset) < ($1.element.stamp, $1.offset) }
                .map(\.element)
            let display: (Int) -> Int = { [sign = options.offsetSign] stamp in
                max(0, sign == .subtract ? stamp - offset : stamp + offset)
            }
            let starts = sorted.map { display($0.stamp) }
            var lines: [LyricLine] = []
            lines.reserveCapacity(sorted.count)
            for (index, entry) in sorted.enumerated() {
                let start = starts[index]
                let end: Int
                if index + 1 < starts.count {
                    end = starts[index + 1]
                } else if entry.text.isEmpty {
                    // A trailing blank marks the end of the song.
                    end = max(start, length?.milliseconds ?? start)
                } else if let length, length.milliseconds > start {
                    end = length.milliseconds
                } else {
                    let lastWordEnd = entry.words.compactMap(\.end).map(display).max() ?? start
                    end = max(start + Self.lastLineDefaultMs, lastWordEnd)
                }
                let words = entry.words.map { word in
                    let wordStart = display(word.start)
                    return Word(
                        start: Timestamp(milliseconds: wordStart),
                        end: Timestamp(milliseconds: max(wordStart, word.end.map(display) ?? end)),
                        text: word.text
                    )
                }
                lines.append(LyricLine(
                    start: Timestamp(milliseconds: start),
                    end: Timestamp(milliseconds: end),
                    text: entry.text,
                    translation: entry.translations.isEmpty ? nil : entry.translations.joined(separator: "\n"),
                    words: words
                ))
            }
            return lines
        }

        /// How long the last line lasts when the file gives no `[length:]` after it.
        static let lastLineDefaultMs = 5000
    }
}

extension LRC.Parser {
    /// One line of lyrics before sorting, times as written.
    struct Entry {
        var stamp: Int
        var text: String
        var words: [PendingWord]
        var translations: [String] = []
    }

    /// A word whose end is `nil` until the line's end is known.
    struct PendingWord {
        var start: Int
        var end: Int?
        var text: String
    }

    /// Collects entries in file order and applies the same-stamp rules described on ``LRC/Parser``.
    struct Book {
        private var list: [Entry] = []
        private var original: [Int: Int] = [:]          // stamp → index in `list` of its original
        private var seen: [Int: Set<String>] = [:]       // stamp → texts already used there
        private var blanks: Set<Int> = []
        private var attachments: [(stamp: Int, text: String)] = []

        mutating func add(_ body: LRC.LineSyntax.Body, at stamp: Int) {
            let (text, words) = Self.words(of: body, lineStamp: stamp)
            if text.isEmpty {
                if blanks.insert(stamp).inserted { list.append(Entry(stamp: stamp, text: "", words: [])) }
                return
            }
            guard seen[stamp, default: []].insert(text).inserted else { return }
            if let index = original[stamp] {
                if text != Self.placeholder { list[index].translations.append(text) }
            } else {
                original[stamp] = list.count
                list.append(Entry(stamp: stamp, text: text, words: words))
            }
        }

        mutating func attach(_ translation: String, at stamp: Int) {
            attachments.append((stamp, translation))
        }

        /// The entries in file order, attachments applied, hidden blanks removed.
        func entries() -> [Entry] {
            var list = self.list
            var seen = self.seen
            for attachment in attachments where !attachment.text.isEmpty && attachment.text != Self.placeholder {
                guard let index = original[attachment.stamp],
                      seen[attachment.stamp, default: []].insert(attachment.text).inserted
                else { continue }
                list[index].translations.append(attachment.text)
            }
            return list.filter { !$0.text.isEmpty || original[$0.stamp] == nil }
        }

        /// NetEase's "no translation" placeholder.
        private static let placeholder = "//"

        /// Display text and words of a body.
        ///
        /// Without word tags the text is the body trimmed. With word tags, text before the first tag
        /// (if not blank) is a word starting at the line's stamp; each tag starts a word that ends at
        /// the next tag; a tag followed by nothing (or only spaces) just ends the word before it.
        /// Whitespace moves to the end of the word before it, and whitespace on both sides of a tag
        /// (A2 style `<t> word <t> word`) is kept once, so the words join into the display text.
        static func words(of body: LRC.LineSyntax.Body, lineStamp: Int) -> (String, [LRC.Parser.PendingWord]) {
            guard let first = body.words.first else {
                return (String(body.leading.trimmingWhitespace()), [])
            }
            var segments: [LRC.Parser.PendingWord] = []
            if !body.leading.trimmingWhitespace().isEmpty {
                segments.append(.init(start: lineStamp, end: first.stamp, text: body.leading))
            }
            for (index, tag) in body.words.enumerated() {
                let end = index + 1 < body.words.count ? body.words[index + 1].stamp : nil
                segments.append(.init(start: tag.stamp, end: end, text: tag.text))
            }

            var words: [LRC.Parser.PendingWord] = []
            for var segment in segments {
                let scalars = segment.text.unicodeScalars
                let lead = scalars.prefix(while: \.properties.isWhitespace)
                if !lead.isEmpty {
                    segment.text = String(scalars[lead.endIndex...])
                    if let last = words.indices.last,
                       words[last].text.unicodeScalars.last?.properties.isWhitespace == false {
                        words[last].text += String(lead)
                    }
                }
                if segment.text.isEmpty { continue }
                words.append(segment)
            }
            if let last = words.indices.last {
                words[last].text = String(words[last].text.trimmingWhitespace())
            }
            return (words.map(\.text).joined(), words)
        }
    }
}
