extension TTML {
    /// Turns a read ``Document`` into ``Lyrics``: settles whitespace into words, widens line times
    /// to their syllables, joins head texts to their lines, strips the backing vocals' parentheses.
    enum Assembly {
        static func lyrics(from document: Document, encoding: String, limits: Limits) throws(LyricsError) -> Lyrics {
            var agents = document.agents
            var lines: [LyricLine] = []
            for line in document.lines {
                let (text, settled) = settle(line.main)
                // A syllable stamped 0 (or otherwise outside its line) follows on from the one before.
                let words = settled.placed(lineStart: line.begin, lineEnd: line.end)
                let head = line.key.flatMap { document.head[$0] }
                var backgrounds: [LyricLine.Backing] = []
                for run in line.backgrounds {
                    let (bgText, bgSettled) = withoutParentheses(settle(run))
                    // A run stamped 0 in a later line cannot be placed: it follows on from the main
                    // line's words (Word.place's rule for runs), so it cannot pull its line to 0.
                    let lineStart = line.begin ?? words.first?.start.milliseconds
                    let stray = run.begin == 0 && (lineStart ?? 0) > 0
                    let (runBegin, runEnd) = stray ? (nil, nil) : (run.begin, run.end)
                    let follow = words.last?.end.milliseconds ?? lineStart
                    let bgWords = bgSettled.placed(lineStart: runBegin ?? (stray ? follow : line.begin), lineEnd: runEnd ?? line.end)
                    guard !bgText.isEmpty else { continue }
                    let start = runBegin ?? bgWords.first?.start.milliseconds ?? follow ?? line.begin
                    let end = runEnd ?? bgWords.map(\.end.milliseconds).max() ?? line.end
                    guard let start, let end else { continue }
                    // The head's backing-vocal texts belong to the first run.
                    let first = backgrounds.isEmpty
                    backgrounds.append(LyricLine.Backing(
                        start: Timestamp(milliseconds: start), end: Timestamp(milliseconds: max(start, end)),
                        text: bgText, words: bgWords,
                        translation: run.translations.first?.text ?? (first ? head?.backgroundTranslation : nil),
                        romanisation: run.romanisation ?? (first ? head?.backgroundRomanisation : nil)))
                }
                guard !text.isEmpty || !backgrounds.isEmpty else { continue }
                // The line covers its syllables and its backing vocals (AMLL's rule).
                let starts = [line.begin, words.first?.start.milliseconds] + backgrounds.map { Optional($0.start.milliseconds) }
                let ends = [line.end, words.map(\.end.milliseconds).max()] + backgrounds.map { Optional($0.end.milliseconds) }
                guard let start = starts.compactMap({ $0 }).min(), let end = ends.compactMap({ $0 }).max() else { continue }
                let translations = translations(inline: line.main.translations, head: head?.translations ?? [])
                if let agent = line.agent, !agents.contains(where: { $0.id == agent }), agents.count < 64 {
                    agents.append(Lyrics.Agent(id: agent, kind: .person))
                }
                // A line of backing vocals only shows them as its text.
                let promoted = text.isEmpty ? backgrounds.removeFirst() : nil
                lines.append(LyricLine(
                    start: Timestamp(milliseconds: start), end: Timestamp(milliseconds: max(start, end)),
                    text: promoted?.text ?? text,
                    translation: translations.first?.text, words: promoted?.words ?? words,
                    romanisation: line.main.romanisation ?? head?.romanisation,
                    agent: line.agent,
                    translations: translations.count > 1 || translations.first?.language != nil ? translations : [],
                    backgrounds: backgrounds))
            }
            guard !lines.isEmpty else { throw .noTimedLines }
            lines = lines.sortedByStart()

            var tags = document.tags
            if let title = document.title { tags["title"] = title }
            if let language = document.language { tags["lang"] = language }
            let metadata = Lyrics.Metadata(
                title: document.title ?? tags["musicName"], artist: tags["artists"], album: tags["album"],
                language: document.language, length: document.length.map(Timestamp.init))
            return Lyrics(format: .ttml, encoding: encoding, tags: tags, metadata: metadata, agents: agents, lines: lines)
        }

        /// A line's translations: inline ones first, then the head's, one per language; a head
        /// replacement takes the place of the inline translation of its language (or of one that
        /// names no language).
        static func translations(inline: [LyricLine.Translation], head: [HeadTranslation]) -> [LyricLine.Translation] {
            var result = inline
            for entry in head {
                let translation = LyricLine.Translation(language: entry.language, text: entry.text)
                // A translation that names no language is taken for the one of the other's language.
                if let index = result.firstIndex(where: { $0.language == entry.language || $0.language == nil || entry.language == nil }) {
                    if entry.replaces { result[index] = translation }
                } else {
                    result.append(translation)
                }
            }
            return result
        }

        /// A run's display text and words.
        ///
        /// Whitespace between syllables becomes one space at the end of the syllable before it —
        /// when it is written on one line of the file (`<span>a</span> <span>b</span>`) or at a
        /// syllable's edge (`<span>a </span>`); whitespace that holds a line break is the file's
        /// indentation and counts for nothing. Untimed text joins the syllable before it (or the
        /// first one). Without syllables the text is the run's plain text, whitespace collapsed.
        static func settle(_ run: Run) -> (String, [Word]) {
            var words: [(text: String, begin: Int, end: Int, ruby: String)] = []
            var leading = ""
            func spaceAfterLast() {
                if let last = words.indices.last, words[last].text.last != " " { words[last].text += " " }
            }
            for piece in run.pieces {
                switch piece {
                case .text(let text):
                    if text.unicodeScalars.allSatisfy(Reader.isSpace) {
                        if !text.isEmpty, !text.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) { spaceAfterLast() }
                    } else {
                        let edges = edgeSpaces(text)
                        if edges.leading { spaceAfterLast() }
                        let core = Reader.collapsed(text) + (edges.trailing ? " " : "")
                        if words.isEmpty { leading += (leading.isEmpty || leading.last == " " ? "" : " ") + core }
                        else { words[words.count - 1].text += core }
                    }
                case .word(let text, let begin, let end, let ruby):
                    let edges = edgeSpaces(text)
                    let core = Reader.collapsed(text)
                    if core.isEmpty {
                        if edges.leading { spaceAfterLast() }
                        continue
                    }
                    if edges.leading { spaceAfterLast() }
                    words.append((core + (edges.trailing ? " " : ""), begin, max(begin, end), Reader.collapsed(ruby)))
                }
            }
            guard !words.isEmpty else {
                return (Reader.collapsed(leading), [])
            }
            if !leading.isEmpty { words[0].text = leading + words[0].text }
            words[0].text = String(words[0].text.drop { $0 == " " })
            words[words.count - 1].text = String(words[words.count - 1].text.trimmingWhitespace())
            let kept = words.filter { !$0.text.isEmpty }.map {
                Word(start: Timestamp(milliseconds: $0.begin), end: Timestamp(milliseconds: $0.end), text: $0.text,
                     ruby: $0.ruby.isEmpty ? nil : $0.ruby)
            }
            return (kept.map(\.text).joined(), kept)
        }

        /// Whether `text` starts and ends with whitespace that stays on one line of the file.
        private static func edgeSpaces(_ text: String) -> (leading: Bool, trailing: Bool) {
            let head = text.unicodeScalars.prefix(while: Reader.isSpace)
            let tail = text.unicodeScalars.reversed().prefix(while: Reader.isSpace)
            func onOneLine(_ scalars: some Sequence<Unicode.Scalar>) -> Bool { !scalars.contains { $0 == "\n" || $0 == "\r" } }
            return (!head.isEmpty && onOneLine(head), !tail.isEmpty && onOneLine(tail))
        }

        /// Backing vocals without one pair of parentheses around the whole text (`(oh oh)` → `oh
        /// oh`, also full-width); `(a) b (c)` is left as it is.
        static func withoutParentheses(_ settled: (String, [Word])) -> (String, [Word]) {
            var (text, words) = settled
            guard let first = text.first, let last = text.last, text.count >= 2,
                  (first == "(" && last == ")") || (first == "（" && last == "）") else { return settled }
            var depth = 0
            for (index, character) in text.enumerated() {
                if character == "(" || character == "（" { depth += 1 }
                if character == ")" || character == "）" {
                    depth -= 1
                    if depth == 0, index < text.count - 1 { return settled }  // the first pair closes early
                }
            }
            guard !words.isEmpty else { return (String(text.dropFirst().dropLast().trimmingWhitespace()), []) }
            words[0].text = String(words[0].text.dropFirst())
            words[words.count - 1].text = String(words[words.count - 1].text.dropLast())
            words = words.filter { !$0.text.isEmpty }
            if let firstIndex = words.indices.first {
                words[firstIndex].text = String(words[firstIndex].text.drop { $0.isWhitespace })
            }
            if let lastIndex = words.indices.last {
                words[lastIndex].text = String(words[lastIndex].text.trimmingWhitespace())
            }
            words = words.filter { !$0.text.isEmpty }
            return (words.map(\.text).joined(), words)
        }
    }
}
