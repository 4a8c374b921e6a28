extension TTML {
    /// Turns a read ``Document`` into ``Lyrics``: settles whitespace into words, widens line times
    /// to their syllables, joins head texts to their lines, strips the backing vocals' parentheses.
    enum Assembly {
        static func lyrics(from document: Document, encoding: String, limits: Limits) throws(LyricsError) -> Lyrics {
            var agents = document.agents
            var lines: [LyricLine] = []
            for line in document.lines {
                let (text, words) = settle(line.main)
                let head = line.key.flatMap { document.head[$0] }
                var backgrounds: [LyricLine.Backing] = []
                for run in line.backgrounds {
                    let (bgText, bgWords) = withoutParentheses(settle(run))
                    guard !bgText.isEmpty else { continue }
                    let start = run.begin ?? bgWords.first?.start.milliseconds ?? line.begin
                    let end = run.end ?? bgWords.map(\.end.milliseconds).max() ?? line.end
                    guard let start, let end else { continue }
                    // The head's backing part belongs to the first run.
                    let headPart = backgrounds.isEmpty ? head : nil
                    backgrounds.append(LyricLine.Backing(
                        start: Timestamp(milliseconds: start), end: Timestamp(milliseconds: max(start, end)),
                        text: bgText, words: bgWords,
                        translation: run.translation ?? headPart?.backgroundTranslation,
                        romanisation: run.romanisation ?? headPart?.backgroundRomanisation))
                }
                guard !text.isEmpty || !backgrounds.isEmpty else { continue }
                // The line covers its syllables and its backing vocals (AMLL's rule).
                let starts = [line.begin, words.first?.start.milliseconds].compactMap { $0 } + backgrounds.map(\.start.milliseconds)
                let ends = [line.end, words.map(\.end.milliseconds).max()].compactMap { $0 } + backgrounds.map(\.end.milliseconds)
                guard let start = starts.min(), let end = ends.max() else { continue }
                var translation = line.main.translation ?? head?.translation
                if let head, head.translationReplaces, let replacement = head.translation { translation = replacement }
                // Languages are kept when the file names any (a lone unnamed translation is just the translation).
                let translations = line.main.translations.contains { $0.language != nil } ? line.main.translations : []
                if let agent = line.agent, !agents.contains(where: { $0.id == agent }), agents.count < 64 {
                    agents.append(Lyrics.Agent(id: agent, kind: .person))
                }
                // A line of backing vocals alone: its first run is the line.
                let lead = text.isEmpty ? backgrounds.removeFirst() : nil
                lines.append(LyricLine(
                    start: Timestamp(milliseconds: start), end: Timestamp(milliseconds: max(start, end)),
                    text: lead?.text ?? text,
                    translation: translation, words: lead?.words ?? words,
                    romanisation: line.main.romanisation ?? head?.romanisation,
                    agent: line.agent, translations: translations, backgrounds: backgrounds))
            }
            guard !lines.isEmpty else { throw .noTimedLines }
            lines = lines.enumerated()
                .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
                .map(\.element)

            var tags = document.tags
            if let title = document.title { tags["title"] = title }
            if let language = document.language { tags["lang"] = language }
            let metadata = Lyrics.Metadata(
                title: document.title ?? tags["musicName"], artist: tags["artists"], album: tags["album"],
                language: document.language, length: document.length.map(Timestamp.init))
            return Lyrics(format: .ttml, encoding: encoding, tags: tags, metadata: metadata, agents: agents, lines: lines)
        }

        /// A run's display text and words.
        ///
        /// Whitespace between syllables becomes one space at the end of the syllable before it —
        /// when it is written on one line of the file (`<span>a</span> <span>b</span>`) or at a
        /// syllable's edge (`<span>a </span>`); whitespace that holds a line break is the file's
        /// indentation and counts for nothing. Untimed text joins the syllable before it (or the
        /// first one). Without syllables the text is the run's plain text, whitespace collapsed.
        static func settle(_ run: Run) -> (String, [Word]) {
            var words: [(text: String, begin: Int, end: Int)] = []
            var leading = ""
            func spaceAfterLast() {
                if let last = words.indices.last, words[last].text.last != " " { words[last].text += " " }
            }
            for piece in run.pieces {
                switch piece {
                case .text(let text):
                    if text.allSatisfy(\.isWhitespace) {
                        if !text.isEmpty, !text.contains(where: \.isNewline) { spaceAfterLast() }
                    } else {
                        let edges = edgeSpaces(text)
                        if edges.leading { spaceAfterLast() }
                        let core = Reader.collapsed(text) + (edges.trailing ? " " : "")
                        if words.isEmpty { leading += (leading.isEmpty || leading.last == " " ? "" : " ") + core }
                        else { words[words.count - 1].text += core }
                    }
                case .word(let text, let begin, let end):
                    let edges = edgeSpaces(text)
                    let core = Reader.collapsed(text)
                    if core.isEmpty {
                        if edges.leading { spaceAfterLast() }
                        continue
                    }
                    if edges.leading { spaceAfterLast() }
                    words.append((core + (edges.trailing ? " " : ""), begin, max(begin, end)))
                }
            }
            guard !words.isEmpty else {
                return (Reader.collapsed(leading), [])
            }
            if !leading.isEmpty { words[0].text = leading + words[0].text }
            words[0].text = String(words[0].text.drop { $0 == " " })
            words[words.count - 1].text = String(words[words.count - 1].text.trimmingWhitespace())
            let kept = words.filter { !$0.text.isEmpty }.map {
                Word(start: Timestamp(milliseconds: $0.begin), end: Timestamp(milliseconds: $0.end), text: $0.text)
            }
            return (kept.map(\.text).joined(), kept)
        }

        /// Whether `text` starts and ends with whitespace that stays on one line of the file.
        private static func edgeSpaces(_ text: String) -> (leading: Bool, trailing: Bool) {
            let head = text.prefix { $0.isWhitespace }
            let tail = text.reversed().prefix { $0.isWhitespace }
            return (!head.isEmpty && !head.contains(where: \.isNewline), !tail.isEmpty && !tail.contains(where: \.isNewline))
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
