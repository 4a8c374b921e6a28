extension ASS {
    /// Turns events into lines: tells main lines from backing vocals, translations and
    /// romanisations by their Style and Name, and joins each to its main line.
    ///
    /// Roles, read from the words of the Name (split at `-`, `_` and blanks) and of the Style,
    /// case-insensitively:
    ///
    /// | word | role | written by |
    /// |---|---|---|
    /// | `v1`, `v2`, … `vNNNN` in the Name | the line's agent | AMLL (`v1`, `v2-bg`) |
    /// | `bg`, `background` | backing vocals | AMLL's Name suffix `-bg`; Unilyric's `x-bg`, Style `…bg…` |
    /// | `trans`, `ts`, `translation`, `tl` | a translation | AMLL's `-trans`; LDDC's Style `ts` |
    /// | `roman`, `roma`, `romaji`, `romanization`, `romanisation` | a romanisation | AMLL's `-roman`; LDDC's `roma` |
    /// | `x-lang:<tag>` (a Name word) | the translation's language | Unilyric |
    ///
    /// Anything else (Style `orig`, `Default`, a singer's name) is a main line.
    ///
    /// Decisions (peers differ, or do not say):
    /// - **Backing events** join the main line written before them in the file when the two overlap
    ///   in time (AMLL and LyricPoster write a backing event right after its line, and it may start
    ///   before the line does); otherwise the latest-starting main line that has started by the
    ///   backing's Start and not ended (or starts with it), for files that group backing events
    ///   apart; otherwise the main line before it anyway; with no main line before it, it is a main
    ///   line of its own, brackets kept (Unilyric does the same). One pair of wrapping brackets is removed from a joined backing
    ///   run; a line holds at most ``Limits/maxBackings`` runs, a further one is a main line.
    /// - **Translations and romanisations** join the main line with the same Start (the k-th such
    ///   event at one Start to the k-th main line there, the last when there are fewer: a duet pairs
    ///   in order, two languages share one line); failing that, the line they overlap (as above).
    ///   Orphans are dropped (Unilyric falls back to the last line). Karaoke tags in them are ignored,
    ///   only their text counts; a hard break `\N` in them separates parts, kept as `"\n"` (the
    ///   model's separator of several translations). With a `bg` word too (`v1-bg-trans`), they join a backing run the
    ///   same way. A line's first translation is ``LyricLine/translation``; all are in
    ///   ``LyricLine/translations`` (with `x-lang:` when given); the first romanisation is
    ///   ``LyricLine/romanisation``.
    /// - **Line span**: Start to End, widened to cover the syllables and backing runs that run past
    ///   End (Unilyric; LDDC cuts the syllables at End instead). End before Start is taken as Start.
    /// - Events without text (nothing but tags or spaces) give no line.
    enum Assembly {
        /// What an event is, from its Style and Name.
        struct Role: Equatable {
            enum Kind: Equatable { case main, translation, romanisation }
            var kind: Kind = .main
            var backing = false
            var agent: String?
            var language: String?
        }

        static let translationWords: Set<String> = ["trans", "ts", "translation", "tl"]
        static let romanisationWords: Set<String> = ["roman", "roma", "romaji", "romanization", "romanisation"]

        static func role(style: Substring, name: Substring) -> Role {
            var role = Role()
            var nameWords: [String] = []
            for word in name.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                if word.lowercased().hasPrefix("x-lang:") {
                    let language = word.dropFirst("x-lang:".count)
                    role.language = language.isEmpty ? nil : String(language)
                    continue
                }
                nameWords += word.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
            }
            let styleWords = style.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == " " || $0 == "\t" }).map(String.init)
            let words = nameWords + styleWords
            role.backing = words.contains("bg") || words.contains("background")
            if words.contains(where: translationWords.contains) {
                role.kind = .translation
            } else if words.contains(where: romanisationWords.contains) {
                role.kind = .romanisation
            }
            role.agent = nameWords.first { word in
                word.count >= 2 && word.count <= 5 && word.first == "v" && word.dropFirst().allSatisfy(\.isASCIIDigit)
            }
            return role
        }

        /// Main lines in file order, their backing runs, translations and romanisations joined.
        static func lines(_ events: [Events.Event]) -> [LyricLine] {
            var lines: [LyricLine] = []
            var others: [(event: Events.Event, role: Role, previous: Int?)] = []
            for event in events {
                let role = role(style: event.style, name: event.name)
                if role.kind == .main, !role.backing {
                    if let line = mainLine(event, agent: role.agent) { lines.append(line) }
                } else {
                    others.append((event, role, lines.isEmpty ? nil : lines.count - 1))
                }
            }
            let mains = Starts(lines)
            // Backing runs first, so that their translations can find them.
            for other in others where other.role.kind == .main {
                guard let run = backing(other.event) else { continue }
                if let target = mains.owner(of: other.event, in: lines, previous: other.previous),
                   lines[target].backgrounds.count < Limits.maxBackings {
                    lines[target].backgrounds.append(run)
                } else if let line = mainLine(other.event, agent: other.role.agent) {
                    lines.append(line)
                }
            }
            var paired: [Int: Int] = [:]
            for other in others where other.role.kind != .main {
                let text = String(Karaoke.read(other.event.text, hardBreak: "\n").plain)
                    .split(separator: "\n").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }.joined(separator: "\n")
                guard !text.isEmpty else { continue }
                let start = other.event.start
                if other.role.backing {
                    guard let target = mains.owner(of: other.event, in: lines, previous: other.previous),
                          let run = lines[target].backgrounds.firstIndex(where: { $0.start.milliseconds == start })
                            ?? lines[target].backgrounds.firstIndex(where: { $0.start.milliseconds <= start && start < $0.end.milliseconds })
                    else { continue }
                    let inner = Brackets.unwrapped(text)
                    if other.role.kind == .translation {
                        lines[target].backgrounds[run].translation = lines[target].backgrounds[run].translation ?? inner
                    } else {
                        lines[target].backgrounds[run].romanisation = lines[target].backgrounds[run].romanisation ?? inner
                    }
                    continue
                }
                let key = other.role.kind == .translation ? start * 2 : start * 2 + 1
                let rank = paired[key, default: 0]
                paired[key] = rank + 1
                guard let target = mains.exact(start, rank: rank) ?? mains.running(at: start, in: lines) else { continue }
                if other.role.kind == .translation {
                    lines[target].translations.append(LyricLine.Translation(language: other.role.language, text: text))
                    lines[target].translation = lines[target].translation ?? text
                } else {
                    lines[target].romanisation = lines[target].romanisation ?? text
                }
            }
            return lines.map(BackingLines.covering)
        }

        /// The main line an event gives, or `nil` when it has no text.
        static func mainLine(_ event: Events.Event, agent: String?) -> LyricLine? {
            guard let settled = settled(event) else { return nil }
            return LyricLine(start: Timestamp(milliseconds: event.start), end: Timestamp(milliseconds: settled.end),
                             text: settled.text, words: settled.words, agent: agent)
        }

        /// The backing run an event gives, its wrapping brackets removed, or `nil` when it has no text.
        static func backing(_ event: Events.Event) -> LyricLine.Backing? {
            guard let settled = settled(event) else { return nil }
            let (inner, innerWords) = Brackets.unwrapped(settled.text, words: settled.words)
            guard !inner.isEmpty else { return nil }
            return LyricLine.Backing(start: Timestamp(milliseconds: event.start), end: Timestamp(milliseconds: settled.end),
                                     text: inner, words: innerWords)
        }

        /// An event's display text, its words (none without karaoke) and its end (End, or the last
        /// syllable's end when later, never before Start); `nil` when it has no text.
        static func settled(_ event: Events.Event) -> (text: String, words: [Word], end: Int)? {
            let reading = Karaoke.read(event.text)
            let end = max(event.start, event.end)
            guard !reading.syllables.isEmpty else {
                let text = String(String(reading.plain).trimmingWhitespace())
                return text.isEmpty ? nil : (text, [], end)
            }
            var segments = [TimedSegment(start: event.start, end: event.start, text: reading.leading)]
            for syllable in reading.syllables {
                segments.append(TimedSegment(start: event.start + syllable.start, end: event.start + syllable.end, text: syllable.text))
            }
            let words = TimedSegment.words(segments, maxWords: Limits.maxWords)
            guard let last = words.map(\.end.milliseconds).max() else { return nil }
            return (words.map(\.text).joined(), words, max(end, last))
        }

        /// The main lines ordered by start, for finding the line an event belongs to.
        struct Starts {
            /// Line indices sorted by (start, index).
            private var order: [Int]
            private var starts: [Int]

            init(_ lines: [LyricLine]) {
                order = lines.indices.sorted { (lines[$0].start, $0) < (lines[$1].start, $1) }
                starts = order.map { lines[$0].start.milliseconds }
            }

            /// The `rank`-th main line starting exactly at `time` (the last one when there are fewer).
            func exact(_ time: Int, rank: Int) -> Int? {
                let first = lowerBound(time)
                guard first < starts.count, starts[first] == time else { return nil }
                var last = first
                while last + 1 < starts.count, starts[last + 1] == time, last - first < rank { last += 1 }
                return order[last]
            }

            /// The main line a backing event (or its translation) belongs to: `previous` (the main line
            /// written before it) when their times overlap, else the line ``running(at:in:)`` its
            /// Start, else `previous` anyway.
            func owner(of event: Events.Event, in lines: [LyricLine], previous: Int?) -> Int? {
                if let previous {
                    let line = lines[previous]
                    let (start, end) = (line.start.milliseconds, line.end.milliseconds)
                    if start == event.start || (start < max(event.start, event.end) && event.start < end) { return previous }
                }
                return running(at: event.start, in: lines) ?? previous
            }

            /// The latest-starting line that has started by `time` and not ended (or starts at it).
            func running(at time: Int, in lines: [LyricLine]) -> Int? {
                let after = lowerBound(time + 1)
                guard after > 0 else { return nil }
                let line = lines[order[after - 1]]
                return time < line.end.milliseconds || line.start.milliseconds == time ? order[after - 1] : nil
            }

            /// The first position whose start is at least `time`.
            private func lowerBound(_ time: Int) -> Int {
                var low = 0
                var high = starts.count
                while low < high {
                    let middle = (low + high) / 2
                    if starts[middle] < time { low = middle + 1 } else { high = middle }
                }
                return low
            }
        }
    }
}
