extension LRC.Parser {
    /// One line of lyrics before sorting, times as written.
    struct Entry {
        var stamp: Int
        var text: String
        var words: [PendingWord]
        /// A trailing word stamp: where the file says the line ends.
        var end: Int?
        var translations: [String] = []
        /// The language of each of ``translations`` (LRCX `[tr:lang]`), `nil` where none is named.
        var languages: [String?] = []
        var romanisation: String?
        /// A JSON credit line: a credit whatever it says, never grouped with lyrics at its stamp.
        var isCredit = false
        /// The text split from a translation appended in lenticular brackets, when it has one
        /// (applied only when the file does this often enough, see ``Book/entries()``).
        var appended: (main: String, translation: String)?
    }

    /// A word whose end is `nil` until the line's end is known.
    struct PendingWord {
        var start: Int
        var end: Int?
        var text: String
        /// A reading shown above the word (LRCX `[fu]`).
        var ruby: String? = nil
    }

    /// Collects entries in file order and sorts out what shares a stamp (see ``LRC/Parser``).
    struct Book {
        private var list: [Entry] = []
        private var seen: [Int: Set<String>] = [:]       // stamp → texts already used there
        private var blanks: Set<Int> = []
        private var attachments: [(stamp: Int, text: String, kind: Attachment)] = []
        private var untimed: [(entries: [Int], text: String)] = []
        /// ESLyric's reading: a stamp after a word is that word's end as well as the next one's
        /// start (see ``words(of:lineStamp:boundaries:)``).
        var stampsAreBoundaries = false

        /// Adds a timed line; returns its entry's index when it has text and is not a duplicate.
        mutating func add(_ body: LRC.LineSyntax.Body, at stamp: Int) -> Int? {
            let (text, words, end) = Self.words(of: body, lineStamp: stamp, boundaries: stampsAreBoundaries)
            if text.isEmpty {
                if blanks.insert(stamp).inserted { list.append(Entry(stamp: stamp, text: "", words: [])) }
                return nil
            }
            guard seen[stamp, default: []].insert(text).inserted else { return nil }
            var entry = Entry(stamp: stamp, text: text, words: words, end: end)
            if words.isEmpty { entry.appended = Self.appendedTranslation(text) }
            list.append(entry)
            return list.count - 1
        }

        /// A translation appended to its line in lenticular brackets, `text〖translation〗` or
        /// `text【translation】` (LyricsKit writes the latter): the text and the translation, or `nil`.
        /// Only a bracket that closes the line counts, with text before it and nothing bracketed
        /// inside it: `【Intro】hello`, `a【b】c` and a line that is only `【…】` are lyrics.
        static func appendedTranslation(_ text: String) -> (String, String)? {
            for (open, close) in [("〖", "〗"), ("【", "】")] where text.hasSuffix(close) {
                guard let start = text.range(of: open, options: .backwards) else { continue }
                let main = text[..<start.lowerBound].trimmingWhitespace()
                let inner = text[start.upperBound..<text.index(before: text.endIndex)].trimmingWhitespace()
                guard !main.isEmpty, !inner.isEmpty, !inner.contains(open), !inner.contains(close) else { continue }
                return (String(main), String(inner))
            }
            return nil
        }

        /// A JSON credit line at `stamp` (written as is, never grouped with lines at its stamp).
        mutating func addCredit(_ text: String, at stamp: Int) {
            guard seen[stamp, default: []].insert(text).inserted else { return }
            list.append(Entry(stamp: stamp, text: text, words: [], isCredit: true))
        }

        /// An LRCX `[tr]` or `[tr:lang]` attachment for the line at `stamp`.
        mutating func attach(_ translation: String, language: String? = nil, at stamp: Int) {
            attachments.append((stamp, translation, .translation(language: language)))
        }

        /// An LRCX `[tt]` (word timing) or `[fu]` (furigana) attachment for the line at `stamp`.
        mutating func attach(_ value: String, as kind: Attachment, at stamp: Int) {
            attachments.append((stamp, value, kind))
        }

        /// What an LRCX attachment gives its line.
        enum Attachment {
            case translation(language: String?)
            case romanisation
            /// `[tt]`: word timing.
            case timing
            /// `[fu]`: furigana.
            case furigana
        }

        /// An LRCX `[roma]` attachment for the line at `stamp`.
        mutating func attach(romanisation: String, at stamp: Int) {
            attachments.append((stamp, romanisation, .romanisation))
        }

        /// How many untimed lines were taken as translations so far.
        var untimedCount: Int { untimed.count }

        /// An untimed line that followed the timed `entries` on its own: their translation. One pair
        /// of enclosing parentheses or lenticular brackets is removed (syncedlyrics writes
        /// `(translated line)`, others `〖translated line〗`).
        mutating func attachUntimed(_ text: String, to entries: [Int]) {
            var text = Substring(text)
            for (open, close) in [("(", ")"), ("（", "）"), ("〖", "〗"), ("【", "】")] {
                if let first = text.first, let last = text.last, text.count >= 2, String(first) == open, String(last) == close,
                   !text.dropFirst().dropLast().contains(where: { String($0) == open || String($0) == close }) {
                    text = text.dropFirst().dropLast().trimmingWhitespace()
                    break
                }
            }
            untimed.append((entries, String(text)))
        }

        /// The entries in file order: same-stamp lines sorted out, attachments applied, hidden
        /// blanks removed.
        func entries() -> [Entry] {
            var list = self.list
            // A translation in lenticular brackets at the line's end is one when the file writes
            // them so on at least a quarter of its lines; a lone `歌名【Live】` stays the lyric.
            let lyricLines = list.filter { !$0.text.isEmpty && !$0.isCredit }.count
            let appended = list.filter { $0.appended != nil }.count
            if appended > 0, appended * 4 >= lyricLines {
                for index in list.indices {
                    guard let (text, translation) = list[index].appended else { continue }
                    list[index].text = text
                    list[index].translations.insert(translation, at: 0)
                }
            }
            var groups: [Int: [Int]] = [:]
            var order: [Int] = []
            for (index, entry) in list.enumerated() where !entry.text.isEmpty && !entry.isCredit {
                if groups[entry.stamp] == nil { order.append(entry.stamp) }
                groups[entry.stamp, default: []].append(index)
            }
            // A bilingual export pairs (nearly) every stamp; a duet only some.
            let paired = groups.values.filter { $0.count >= 2 }.count
            let bilingual = paired > 0 && paired * 4 >= groups.count * 3
            let romanisedAfter = Self.romanisesAfter(order.compactMap { groups[$0] }.filter { $0.count >= 2 }.map { $0.map { list[$0].text } })
            // Texts that lead some stamp are sung lines: a copy of one written at another line's
            // stamp (a repeated lyric keyed to where it is sung again) stays a line of its own.
            var leads: [String: Int] = [:]  // text → how many stamps it leads
            for stamp in order { if let first = groups[stamp]?.first { leads[list[first].text, default: 0] += 1 } }

            var absorbed = Set<Int>()
            var main: [Int: Int] = [:]  // stamp → index of the line that the stamp's extras attach to
            for stamp in order {
                let members = groups[stamp] ?? []
                let texts = members.map { list[$0].text }
                var roles = Self.sortOut(texts, bilingual: bilingual, romanisedAfter: romanisedAfter)
                roles.translations.removeAll { (leads[texts[$0]] ?? 0) > 0 }
                let lead = members[roles.main]
                main[stamp] = lead
                if let r = roles.romanisation {
                    list[lead].romanisation = list[members[r]].text
                    absorbed.insert(members[r])
                }
                for t in roles.translations {
                    absorbed.insert(members[t])
                    if list[members[t]].text != Self.placeholder { list[lead].translations.append(list[members[t]].text) }
                }
            }
            func add(_ text: String, language: String? = nil, asTranslationOf index: Int) {
                guard !text.isEmpty, text != Self.placeholder, text != list[index].text,
                      !list[index].translations.contains(text), list[index].romanisation != text else { return }
                list[index].translations.append(text)
                while list[index].languages.count < list[index].translations.count - 1 { list[index].languages.append(nil) }
                list[index].languages.append(language)
            }
            for held in untimed {
                for entry in held.entries {
                    let target = absorbed.contains(entry) ? (main[list[entry].stamp] ?? entry) : entry
                    add(held.text, asTranslationOf: target)
                }
            }
            // Word timing first, then furigana over the words it gave.
            let ordered = attachments.filter { if case .furigana = $0.kind { false } else { true } }
                + attachments.filter { if case .furigana = $0.kind { true } else { false } }
            var budget = LRC.LRCX.maxGroupsPerFile
            for attachment in ordered {
                guard let index = main[attachment.stamp] else { continue }
                switch attachment.kind {
                case .timing, .furigana:
                    let cost = LRC.LRCX.cost(attachment.text)
                    guard cost <= budget else { continue }
                    budget -= cost
                default:
                    break
                }
                switch attachment.kind {
                case .romanisation:
                    if list[index].romanisation == nil, !attachment.text.isEmpty { list[index].romanisation = attachment.text }
                case .translation(let language):
                    add(attachment.text, language: language, asTranslationOf: index)
                case .timing:
                    // A line's own word stamps win over a `[tt]` for it.
                    if list[index].words.isEmpty,
                       let words = LRC.LRCX.timedWords(attachment.text, text: list[index].text, stamp: list[index].stamp) {
                        list[index].words = words
                    }
                case .furigana:
                    list[index].words = LRC.LRCX.furigana(attachment.text, text: list[index].text,
                                                          words: list[index].words, stamp: list[index].stamp)
                }
            }
            return list.enumerated()
                .filter { !absorbed.contains($0.offset) && (!$0.element.text.isEmpty || main[$0.element.stamp] == nil) }
                .map(\.element)
        }

        /// NetEase's "no translation" placeholder.
        private static let placeholder = "//"

        /// What each of the distinct texts written at one stamp is (indices into `texts`).
        ///
        /// - A Latin-only first line before a CJK line is the CJK line's romanisation (LDDC writes
        ///   romaji, original, translation) when the CJK line is Japanese or Korean, a third line
        ///   follows, or the Latin line reads as pinyin; the CJK line is then the main line.
        /// - With a CJK main line and two or more others, a Latin-only one beside a non-Latin one is
        ///   the romanisation (original, romaji, translation).
        /// - In a file that romanises after the line (`romanisedAfter`, see
        ///   ``romanisesAfter(_:)``), a Latin-only line after a CJK main line that reads as its
        ///   romanisation is the romanisation, even beside a Latin translation (original, romaji,
        ///   English); failing that, with two or more others, the first Latin-only one is.
        /// - Every other line is a translation when the file is a bilingual export or its script
        ///   differs from the main line's (and fewer than half its letters are the main line's);
        ///   otherwise it is a line of its own (a second voice).
        static func sortOut(_ texts: [String], bilingual: Bool, romanisedAfter: Bool = false) -> (main: Int, romanisation: Int?, translations: [Int]) {
            let scripts = texts.map(Script.of)
            let main = leadingRomanisation(texts, scripts: scripts) ? 1 : 0
            var romanisation: Int? = main == 1 ? 0 : nil
            var rest = texts.indices.filter { $0 != main && $0 != romanisation }
            if romanisation == nil, scripts[main].isCJK, rest.count >= 2,
               let latin = rest.first(where: { Script.isLatinOnly(texts[$0]) }),
               rest.contains(where: { !Script.isLatinOnly(texts[$0]) && scripts[$0] != .none }) {
                romanisation = latin
                rest.removeAll { $0 == latin }
            }
            if romanisation == nil, romanisedAfter, scripts[main].isCJK {
                let latin = rest.filter { Script.isLatinOnly(texts[$0]) }
                if let reads = latin.first(where: { Script.looksLikeRomanisation(texts[$0], of: scripts[main]) }) ?? (rest.count >= 2 ? latin.first : nil) {
                    romanisation = reads
                    rest.removeAll { $0 == reads }
                }
            }
            // A line mostly in the main line's letters is sung with it (`hands up` beside `and
            // what's up 最低？`), however a few other letters make its script read.
            let translations = rest.filter { index in
                bilingual || texts[index] == placeholder
                    || (scripts[index] != scripts[main] && scripts[index] != .none && scripts[main] != .none
                        && Script.share(of: scripts[main], in: texts[index]) < 0.5)
            }
            return (main, romanisation, translations)
        }

        /// A Latin-only first line before a CJK line is that line's romanisation (see
        /// ``sortOut(_:bilingual:romanisedAfter:)``).
        private static func leadingRomanisation(_ texts: [String], scripts: [Script]) -> Bool {
            texts.count >= 2 && Script.isLatinOnly(texts[0]) && scripts[1].isCJK
                && (texts.count >= 3 || scripts[1] == .japanese || scripts[1] == .korean || Script.looksLikePinyin(texts[0]))
        }

        /// Whether a file writes each CJK line's romanisation after it (original, romaji, and
        /// perhaps a translation): of the stamps holding a CJK main line and a Latin-only line after
        /// it, at least three in four have one that reads as the main line's romanisation. Decided
        /// for the whole file, so that an English translation that happens to read as romaji here
        /// and there stays a translation.
        static func romanisesAfter(_ groups: [[String]]) -> Bool {
            var candidates = 0, reads = 0
            for texts in groups {
                let scripts = texts.map(Script.of)
                let main = leadingRomanisation(texts, scripts: scripts) ? 1 : 0
                guard main == 0, scripts[0].isCJK else { continue }
                let latin = texts.dropFirst().filter(Script.isLatinOnly)
                guard !latin.isEmpty else { continue }
                candidates += 1
                if latin.contains(where: { Script.looksLikeRomanisation($0, of: scripts[0]) }) { reads += 1 }
            }
            return candidates > 0 && reads * 4 >= candidates * 3
        }

        /// Display text, words and explicit end of a body.
        ///
        /// Without word tags the text is the body trimmed (one word from a delayed first-word
        /// stamp, if there is one). With word tags, text before the first tag (if not blank) is a
        /// word starting at the line's stamp (or the delayed stamp); each tag starts a word that ends
        /// at the next tag that can be placed (with `boundaries`, ESLyric, at the next tag as
        /// written: there a stamp after a word is its end). A tag that cannot be placed (zero in a
        /// later line, or earlier than the tag before it, as ESLyric writes for a timed space with
        /// no time of its own) starts a word that follows on from the word before it: the rule
        /// every reader shares, ``Word/place(_:lineStart:lineEnd:)``. A tag followed by nothing (or only spaces)
        /// ends the word before it, and when it is the last tag it ends the line. Whitespace moves
        /// to the end of the word before it, and whitespace on both sides of a tag (A2 style
        /// `<t> word <t> word`) is kept once, so the words join into the display text.
        static func words(of body: LRC.LineSyntax.Body, lineStamp: Int,
                          boundaries: Bool = false) -> (String, [LRC.Parser.PendingWord], Int?) {
            var tags = body.words
            var leading = body.leading
            if let delayed = body.firstWordStart, tags.first.map({ $0.stamp > delayed }) ?? true {
                tags.insert(.init(stamp: delayed, text: leading), at: 0)
                leading = ""
            }
            guard let first = tags.first else {
                return (String(leading.trimmingWhitespace()), [], nil)
            }
            var segments: [LRC.Parser.PendingWord] = []
            if !leading.trimmingWhitespace().isEmpty {
                segments.append(.init(start: lineStamp, end: first.stamp, text: leading))
            }
            for (index, tag) in tags.enumerated() {
                let end = index + 1 < tags.count ? tags[index + 1].stamp : nil
                segments.append(.init(start: tag.stamp, end: end, text: tag.text))
            }
            // What a stamp means is the format's: in ESLyric a stamp after a word is its end (so a
            // bad one ends a timed space, not the word before it); in LRC a tag starts a word, which
            // lasts until the next word that can be placed.
            let placed = Word.place(segments.map { Word.Stamp(start: $0.start, end: boundaries ? $0.end : nil, text: $0.text.unicodeScalars) },
                                    lineStart: lineStamp, lineEnd: nil)
            for index in segments.indices {
                segments[index].start = placed[index].start
                if segments[index].end != nil { segments[index].end = placed[index].end }
            }
            // A trailing tag ends the line, unless it could not be placed: then the last word runs
            // to the line's end.
            var lineEnd: Int?
            if tags[tags.count - 1].text.trimmingWhitespace().isEmpty {
                if placed[placed.count - 1].placed {
                    lineEnd = segments[segments.count - 1].start
                } else if segments.count >= 2 {
                    segments[segments.count - 2].end = nil
                }
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
            return (words.map(\.text).joined(), words, words.isEmpty ? nil : lineEnd)
        }
    }
}
