extension LRC {
    /// Writes ``Lyrics`` as LRC, line-timed or enhanced (A2), so that ``LRC/parse(_:encoding:options:)``
    /// reads back the same lines (times in centiseconds).
    ///
    /// ```
    /// [ti:Title]                          ID tags: ti, ar, al, la, length (no offset: times are
    /// [length:03:05.00]                   display times, negative ones written as zero)
    ///
    /// [00:12.30]ame no oto                romanisation, line, translation at one stamp
    /// [00:12.30]雨の音
    /// [00:12.30]The sound of rain
    /// [00:20.00]<00:20.00>Every <00:20.40>night<00:21.00>   enhanced: word stamps, then the end
    /// [00:31.00]                          a gap line
    /// [100:02.50]…                        minutes past 99 are written as they are
    /// ```
    ///
    /// - **Translations and romanisations** are written as lines at their line's stamp (the
    ///   bilingual-LRC convention players show), in the order the reader sorts out by script
    ///   (``Parser/Book/sortOut(_:bilingual:)``). Where the reader would take them for something else
    ///   (a translation in the line's own script in a file that is not bilingual, a romanisation of
    ///   a line that is not CJK) they are written as LyricsX attachments instead, `[t][tr:lang]…`
    ///   and `[t][roma]…`, which it reads exactly. One translation is written: the line's chosen
    ///   one (``LyricLine/translation``), each of its `\n`-separated parts a line.
    /// - **Lines that share a stamp** (a duet) are written in order; the extras of all but the
    ///   first are dropped (an attachment at a stamp belongs to its first line).
    /// - **Ends.** An LRC line lasts until the next stamp, so a line's end is written as a bare
    ///   stamp (a gap line) when a silence of ``silenceAsGapMs`` or more follows it, which the
    ///   poster shows as an interlude, and after the last line; a shorter silence becomes part of
    ///   the line (the poster keeps such a line on screen anyway). Enhanced lines end with a stamp
    ///   at their last word's end (and another at the line's end when later); a gap between two
    ///   words is written as a stamp at the first word's end.
    /// - **Escaping.** LRC has no escape: a `[` or `<` in lyric text that would open a time tag
    ///   (`[01:02]`, `<00:01.5>`), or an attachment at the start of the text (`[tr]`), is written
    ///   full-width (`［`, `＜`). ID tag values lose line breaks, and their brackets become
    ///   parentheses when they do not balance.
    /// - **Not written:** word timing (line-timed), backing vocals, singers, ruby, translations
    ///   other than the chosen one.
    struct Writer {
        /// Whether word timing is written (enhanced LRC).
        var enhanced: Bool

        func write(_ lyrics: Lyrics) -> String {
            var out = ""
            let tags: [(String, String?)] = [("ti", lyrics.title), ("ar", lyrics.artist), ("al", lyrics.album), ("la", lyrics.language)]
            for case let (key, value?) in tags { out += "[\(key):\(Self.tagValue(value))]\n" }
            if let length = lyrics.length { out += "[length:\(Self.stamp(length))]\n" }
            // LRCLIB's mark for a song without words, read back as instrumental.
            if lyrics.isInstrumental, !lyrics.lines.contains(where: \.isSung) { out += "[au: instrumental]\n" }
            if !out.isEmpty { out += "\n" }

            let lines = lyrics.lines
            let stamps = lines.map { WrittenTime.centiseconds($0.start) }
            let texted = Set(lines.indices.filter { !lines[$0].text.isEmpty }.map { stamps[$0] })
            let plan = Self.plan(lines, stamps: stamps)
            let closing = Self.closingGaps(lines, stamps: stamps, enhanced: enhanced)
            var gaps = Set<Int>()
            for (index, line) in lines.enumerated() {
                let stamp = "[" + Self.stamp(line.start) + "]"
                if line.text.isEmpty {
                    // A gap at a stamp with text would be hidden by it (the reader drops it).
                    if !texted.contains(stamps[index]), gaps.insert(stamps[index]).inserted { out += stamp + "\n" }
                } else {
                    out += written(line, at: stamp, extras: plan.extras[index], attached: plan.attached.contains(index))
                }
                if let end = closing[index] { out += "[" + Self.stamp(Timestamp(milliseconds: end * 10)) + "]\n" }
            }
            return out
        }

        /// A line with text, its romanisation and translation: at its stamp, or as attachments.
        private func written(_ line: LyricLine, at stamp: String, extras: (romanisation: String?, translations: [String]),
                             attached: Bool) -> String {
            var out = ""
            if attached {
                out += stamp + body(line) + "\n"
                // An attachment's text is read as it is, up to the end of the line.
                if let romanisation = extras.romanisation { out += stamp + "[roma]" + romanisation.onOneLine + "\n" }
                for part in extras.translations {
                    let language = line.translations.first { $0.text == line.translation }?.language
                        .flatMap { $0.unicodeScalars.allSatisfy(Self.isLanguageScalar) && !$0.isEmpty ? ":" + $0 : nil } ?? ""
                    out += stamp + "[tr\(language)]" + part + "\n"
                }
            } else {
                if let romanisation = extras.romanisation { out += stamp + Self.text(romanisation) + "\n" }
                out += stamp + body(line) + "\n"
                for part in extras.translations { out += stamp + Self.text(part) + "\n" }
            }
            return out
        }

        /// A silence this long after a line is an interlude on the poster (the scene builder's
        /// threshold), so LRC keeps it as a gap line.
        static let silenceAsGapMs = 4000

        /// Bare stamps that end lines whose end the file would not otherwise carry (LRC stretches a
        /// line to the next stamp), keyed by the index of the last line of their stamp: after each
        /// run of lines with text at one stamp, at the run's latest end, when ``silenceAsGapMs`` or
        /// more pass before the next stamp, or when nothing follows (the song's last line).
        /// Enhanced runs whose lines all have words carry their ends in their end stamps.
        static func closingGaps(_ lines: [LyricLine], stamps: [Int], enhanced: Bool) -> [Int: Int] {
            var closing: [Int: Int] = [:]
            var taken = Set(stamps)
            var first = 0
            while first < lines.count {
                var last = first
                while last + 1 < lines.count, stamps[last + 1] == stamps[first] { last += 1 }
                let run = lines[first...last].filter { !$0.text.isEmpty }
                if !run.isEmpty, !(enhanced && run.allSatisfy { !$0.words.isEmpty }) {
                    let end = run.map { WrittenTime.centiseconds($0.end) }.max() ?? 0
                    let next = last + 1 < lines.count ? stamps[last + 1] : nil
                    if end > stamps[first], next.map({ ($0 - end) * 10 >= silenceAsGapMs }) ?? true, taken.insert(end).inserted {
                        closing[last] = end
                    }
                }
                first = last + 1
            }
            return closing
        }

        /// The line's text, with word stamps and its end when enhanced.
        private func body(_ line: LyricLine) -> String {
            guard enhanced, !line.words.isEmpty else { return Self.text(line.text) }
            var out = ""
            for (index, word) in line.words.enumerated() {
                out += "<" + Self.stamp(word.start) + ">" + Self.text(word.text, opensBody: false)
                let end = WrittenTime.centiseconds(word.end)
                if index + 1 < line.words.count {
                    if end < WrittenTime.centiseconds(line.words[index + 1].start) { out += "<" + Self.stamp(word.end) + ">" }
                } else {
                    out += "<" + Self.stamp(word.end) + ">"
                    if WrittenTime.centiseconds(line.end) > end { out += "<" + Self.stamp(line.end) + ">" }
                }
            }
            return out
        }

        // MARK: - Translations and romanisations

        /// What is written besides each line, and which lines write it as attachments.
        struct Plan {
            var extras: [(romanisation: String?, translations: [String])]
            var attached: Set<Int>
        }

        /// Decides, line by line, whether the same-stamp form reads back as written: the reader's
        /// own sorting is asked about the texts at each stamp, and a line it would misread writes
        /// its extras as attachments. Attachments make the file less bilingual, which can change
        /// how other stamps read, so this repeats until nothing changes (each round only adds).
        static func plan(_ lines: [LyricLine], stamps: [Int]) -> Plan {
            let extras = lines.map { line -> (romanisation: String?, translations: [String]) in
                let romanisation = line.romanisation.map { $0.onOneLine.trimmed }.flatMap { $0.isEmpty ? nil : $0 }
                let translation = line.translation ?? line.translations.first?.text
                let parts = (translation ?? "").split(whereSeparator: \.isNewline).map { String($0.trimmingWhitespace()) }
                return (romanisation, parts.filter { !$0.isEmpty })
            }
            // Runs of text lines at one stamp, in order.
            var groups: [[Int]] = []
            for index in lines.indices where !lines[index].text.isEmpty {
                if let last = groups.last?.last, stamps[last] == stamps[index] { groups[groups.count - 1].append(index) } else { groups.append([index]) }
            }
            var attached = Set<Int>()
            for group in groups where group.count > 1 { attached.formUnion(group) }
            var plan = Plan(extras: extras, attached: attached)
            // Only the first line of a shared stamp keeps its extras (as attachments).
            for group in groups where group.count > 1 { for index in group.dropFirst() { plan.extras[index] = (nil, []) } }

            while true {
                let written = groups.map { group in
                    distinct(group.flatMap { index -> [String] in
                        let main = text(lines[index].text)
                        if plan.attached.contains(index) { return [main] }
                        return (plan.extras[index].romanisation.map { [text($0)] } ?? []) + [main] + plan.extras[index].translations.map { text($0) }
                    })
                }
                let paired = written.filter { $0.count >= 2 }.count
                let bilingual = paired > 0 && paired * 4 >= written.count * 3
                var changed = false
                for (position, group) in groups.enumerated() where group.count == 1 {
                    let index = group[0]
                    let (romanisation, translations) = plan.extras[index]
                    guard !plan.attached.contains(index), romanisation != nil || !translations.isEmpty else { continue }
                    let first = romanisation == nil ? 0 : 1
                    let expected = written[position].count == first + 1 + translations.count
                        && Parser.Book.sortOut(written[position], bilingual: bilingual)
                            == (first, romanisation == nil ? nil : 0, Array((first + 1)..<(first + 1 + translations.count)))
                    if !expected {
                        plan.attached.insert(index)
                        changed = true
                    }
                }
                if !changed { return plan }
            }
        }

        private static func distinct(_ texts: [String]) -> [String] {
            var seen = Set<String>()
            return texts.filter { seen.insert($0).inserted }
        }

        // MARK: - Syntax

        /// `mm:ss.xx` in centiseconds, minutes as many digits as they need.
        static func stamp(_ time: Timestamp) -> String {
            let cs = WrittenTime.centiseconds(time)
            return WrittenTime.padded(cs / 6000, 2) + ":" + WrittenTime.padded(cs / 100 % 60, 2) + "." + WrittenTime.padded(cs % 100, 2)
        }

        /// Lyric text on one line, with the brackets that would read as tags made full-width: time
        /// tags anywhere, an attachment name only when the text opens a line's body (after a word
        /// stamp it is text).
        static func text(_ text: String, opensBody: Bool = true) -> String {
            var scalars = Array(text.onOneLine.unicodeScalars)
            for index in scalars.indices where scalars[index] == "[" || scalars[index] == "<" {
                let close: Unicode.Scalar = scalars[index] == "[" ? "]" : ">"
                let limit = min(scalars.count, index + TimeTag.maxBodyLength + 2)
                guard let end = scalars[(index + 1)..<limit].firstIndex(of: close) else { continue }
                let inner = scalars[(index + 1)..<end]
                let isAttachment = opensBody && index == 0 && close == "]" && isAttachmentName(String(String.UnicodeScalarView(inner)))
                if isAttachment || TimeTag.milliseconds(inner) != nil {
                    scalars[index] = scalars[index] == "[" ? "［" : "＜"
                }
            }
            return String(String.UnicodeScalarView(scalars))
        }

        /// An ID tag's value: on one line, brackets kept only when they balance.
        static func tagValue(_ value: String) -> String {
            let flat = value.onOneLine.trimmed
            var depth = 0
            for scalar in flat.unicodeScalars {
                if scalar == "[" { depth += 1 }
                if scalar == "]" { depth -= 1; if depth < 0 { break } }
            }
            guard depth != 0 else { return flat }
            return String(flat.map { $0 == "[" ? "(" : $0 == "]" ? ")" : $0 })
        }

        /// The LRCX attachment names the reader recognises right after a time tag.
        private static func isAttachmentName(_ name: String) -> Bool {
            ["tr", "roma", "tt", "fu"].contains(name) || name.hasPrefix("tr:")
        }

        private static func isLanguageScalar(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
        }
    }
}
