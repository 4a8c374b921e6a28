extension LRC {
    /// Turns decoded LRC text into ``Lyrics``: splits lines, scans each one, sorts out what shares a
    /// stamp (original, translation, romanisation, or a second voice), sorts, applies the offset and
    /// fills in ends.
    ///
    /// Decisions (each one a place where real parsers disagree, LRC.md §4, §7, §8):
    /// - **Fan-out.** `[t1][t2]text` gives one line per time tag, unless `t2` follows `t1` within
    ///   ``TimeTag/delayedWordWindowMs``: then it is one line at `t1` whose first word starts at `t2`.
    /// - **Copies.** A line whose text leads another stamp (a sung line repeated at the stamp of a
    ///   different line) stays a line of its own there, never that line's translation.
    /// - **Same stamp.** The distinct non-blank texts at one stamp, in file order, are sorted out by
    ///   ``Book/sortOut(_:bilingual:romanisedAfter:)``: a Latin-only line before a CJK one is that
    ///   line's romanisation (LDDC's order), as is one after it that reads as its pinyin, romaji or
    ///   Korean romanisation in a file that mostly does so (line, romaji, translation); a later line
    ///   is a translation when it is in another script than the first, or when the file pairs
    ///   (nearly) every stamp (a bilingual export); otherwise it is a line of its own, sung at the
    ///   same time (a duet). A translation equal to `//` is dropped.
    /// - **Untimed line after a timed one** (`[t]line` then `(translated line)`): the translation of
    ///   the line above, unless another untimed line follows it (a block of plain text). After the
    ///   file's last stamp it counts only in a file that does this elsewhere too, or in a Unicode
    ///   file when it is not a site's note (a URL, `欢迎访问…`); legacy-encoded files end with such
    ///   notes, which are dropped.
    /// - **Lenticular brackets** closing a line (`text【translation】`, `text〖translation〗`) hold a
    ///   translation when at least a quarter of the file's lines end so; otherwise they are lyrics.
    /// - **Duplicates.** A (time tag, text) pair seen before is dropped.
    /// - **Gaps.** A time tag with no text is kept as a blank line, once per tag; it is dropped when a
    ///   non-blank line has the same tag (it would be hidden or hide that line; SPL's "end marker").
    /// - **LRCX.** `[t][tr:lang]text` adds `text` as a translation of the line at `t`, whatever the
    ///   order of the lines; an attachment with no line at `t` is dropped; `[roma]` is the line's
    ///   romanisation; `[tt]` times the line's words and `[fu]` gives them furigana (``LRC/LRCX``).
    /// - **Ends.** A trailing word stamp (`…words[01:19.453]`) ends the line there when that is
    ///   before the next line; otherwise a line ends where the next (later) stamp begins.
    /// - **Credits.** The leading (and trailing) lines that read as credits (`作词 : …`) get the
    ///   credit role, as do NetEase's JSON credit lines (`{"t":0,"c":[{"tx":"作词: "},…]}`).
    /// - **Order.** Lines are sorted stably by the time as written, so equal times keep file order.
    /// - **Instrumental.** A file of tags only with `[au: instrumental]` (LRCLIB's mark) reads as
    ///   instrumental lyrics (no lines, ``Lyrics/isInstrumental``).
    /// - **Offset.** The last `[offset:]` anywhere in the file applies to every time, lines and words;
    ///   results may be negative (a line before the song starts).
    struct Parser {
        var options: Options
        /// Read word stamps as ESLyric does (``LRC/parseESLyric(_:encoding:options:)``).
        var eslyric = false

        func parse(_ text: String, encoding: String) throws(LyricsError) -> Lyrics {
            var tags: [String: String] = [:]
            var book = Book()
            book.stampsAreBoundaries = eslyric
            // Entries written by the previous physical line, and an untimed line waiting to learn
            // whether it stands alone after them (then it is their translation).
            var previousTimed: [Int] = []
            var pending: (entries: [Int], text: String)?
            var pendingIsAlone = true
            func settle() {
                if let held = pending, pendingIsAlone { book.attachUntimed(held.text, to: held.entries) }
                pending = nil
                pendingIsAlone = true
            }
            for line in Self.physicalLines(of: text) {
                let syntax = LineScanner.scan(line)
                for tag in syntax.tags { tags[tag.key] = tag.value }
                if case .untimed(let text) = syntax.content {
                    // NetEase's JSON credit lines (`{"t":0,"c":[{"tx":"作词: "},…]}`) are timed credits.
                    if text.hasPrefix("{"), let credit = JSONCredit(Substring(text)) {
                        settle()
                        book.addCredit(credit.text, at: credit.start)
                        previousTimed = []
                        continue
                    }
                    if pending != nil || Self.holdsTimeTag(text) || text.hasPrefix("[") {
                        // A run of untimed lines, a broken timed line (`[1:2:3text`) or a bracketed
                        // label (`[Chorus]`) is no translation.
                        pendingIsAlone = false
                    } else if !previousTimed.isEmpty {
                        pending = (previousTimed, text)
                    }
                    previousTimed = []
                    continue
                }
                settle()
                previousTimed = []
                switch syntax.content {
                case .none, .untimed:
                    break
                case .timing(let value):
                    for stamp in syntax.stamps { book.attach(value, as: .timing, at: stamp) }
                case .furigana(let value):
                    for stamp in syntax.stamps { book.attach(value, as: .furigana, at: stamp) }
                case .translation(let translation, let language):
                    for stamp in syntax.stamps { book.attach(translation, language: language, at: stamp) }
                case .romanisation(let romanisation):
                    for stamp in syntax.stamps { book.attach(romanisation: romanisation, at: stamp) }
                case .text(let body):
                    previousTimed = syntax.stamps.compactMap { book.add(body, at: $0) }
                }
            }
            // Free text after the file's last stamp is the last line's translation only in a file
            // that writes translations so elsewhere (SPL), or in a Unicode file: legacy GBK/Big5/
            // Shift-JIS files predate that use and end with a site's note (`欢迎访问…`, OSD's
            // lrc_gbk.lrc), which is dropped as classic players drop untimed text.
            if let held = pending, pendingIsAlone, book.untimedCount == 0, !encoding.lowercased().hasPrefix("utf") || Credits.isSiteNote(held.text) {
                pending = nil
            }
            settle()
            let entries = book.entries()
            if entries.isEmpty, tags["au"]?.trimmingWhitespace().lowercased() == "instrumental" {
                // LRCLIB's `[au: instrumental]`: a song without words, not a file without times.
                var lyrics = Lyrics(format: .lrc, encoding: encoding, tags: tags, metadata: Lyrics.Metadata(tags: tags), lines: [])
                lyrics.isInstrumental = true
                return lyrics
            }
            guard !entries.isEmpty else { throw .noTimedLines }

            let offset = tags["offset"].flatMap(TagValue.offset) ?? 0
            var metadata = Lyrics.Metadata(tags: tags)
            metadata.length = metadata.length ?? tags["total"].flatMap(TagValue.milliseconds).map(Timestamp.init)
            var lines = resolve(entries, offset: offset, length: metadata.length)
            Credits.mark(&lines)
            return Lyrics(format: .lrc, encoding: encoding, tags: tags, metadata: metadata, offsetMs: offset, lines: lines)
        }

        /// Whether `text` holds a time tag somewhere (`eng||[00:02.00]b`): a timed line the scanner
        /// could not read, not a translation.
        static func holdsTimeTag(_ text: String) -> Bool {
            // One pass: each closing bracket is checked against the last opening one before it.
            let scalars = Array(text.unicodeScalars)
            var open: (index: Int, close: Unicode.Scalar)?
            for (index, scalar) in scalars.enumerated() {
                switch scalar {
                case "[": open = (index, "]")
                case "<": open = (index, ">")
                case "]", ">":
                    if let o = open, o.close == scalar, index - o.index - 1 <= TimeTag.maxBodyLength,
                       TimeTag.milliseconds(scalars[(o.index + 1)..<index]) != nil { return true }
                    open = nil
                default: break
                }
            }
            return false
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
                sign == .subtract ? stamp - offset : stamp + offset
            }
            let starts = sorted.map { display($0.stamp) }
            var lines: [LyricLine] = []
            lines.reserveCapacity(sorted.count)
            var nextDifferent = 0  // index of the first later start after the current run of equal starts
            for (index, entry) in sorted.enumerated() {
                let start = starts[index]
                if nextDifferent <= index {
                    nextDifferent = index + 1
                    while nextDifferent < starts.count, starts[nextDifferent] == start { nextDifferent += 1 }
                }
                let explicitEnd = entry.end.map(display).flatMap { $0 >= start ? $0 : nil }
                var end: Int
                if nextDifferent < starts.count {
                    end = min(starts[nextDifferent], explicitEnd ?? .max)
                } else if let explicitEnd {
                    end = explicitEnd
                } else if entry.text.isEmpty {
                    // A trailing blank marks the end of the song.
                    end = max(start, length?.milliseconds ?? start)
                } else if let length, length.milliseconds > start {
                    end = length.milliseconds
                } else {
                    let lastWordEnd = entry.words.compactMap(\.end).map(display).max() ?? start
                    end = max(start + Self.lastLineDefaultMs, lastWordEnd)
                }
                end = max(end, start)
                let words = entry.words.map { word in
                    let wordStart = display(word.start)
                    return Word(
                        start: Timestamp(milliseconds: wordStart),
                        end: Timestamp(milliseconds: max(wordStart, word.end.map(display) ?? end)),
                        text: word.text,
                        ruby: word.ruby
                    )
                }
                lines.append(LyricLine(
                    start: Timestamp(milliseconds: start),
                    end: Timestamp(milliseconds: end),
                    text: entry.text,
                    translation: entry.translations.isEmpty ? nil : entry.translations.joined(separator: "\n"),
                    words: words,
                    role: entry.isCredit ? .credit : .lyric,
                    romanisation: entry.romanisation,
                    // LRCX names its translations' languages: then each is kept on its own.
                    translations: entry.languages.contains { $0 != nil }
                        ? zip(entry.translations, entry.languages).map { LyricLine.Translation(language: $1, text: $0) } : []
                ))
            }
            return lines
        }

        /// How long the last line lasts when the file gives no `[length:]` after it.
        static let lastLineDefaultMs = 5000
    }
}
