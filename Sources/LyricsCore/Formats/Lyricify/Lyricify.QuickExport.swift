extension Lyricify {
    /// Turns Lyricify Quick Export text into ``Lyrics``.
    ///
    /// ```
    /// [Lyricify Quick Export]                       the mark: first non-blank line
    /// [version:1.0]                                 tags for the whole file (the preamble)
    /// [ti:…] [offset:…]
    /// [lyrics: format@Lyricify Syllable]            section header: [name: key@value, key@value]
    /// [4]Paper (1000,300)kites(1300,400)
    /// [translation: format@LRC, language@zh-Hans]
    /// [00:01.000]纸风筝
    /// [pronunciation: format@LRC, language@romaji]
    /// [00:01.000]kami no tako
    /// ```
    ///
    /// There is no official specification; this follows what the AMLL TTML tool, AMLL and Unilyric
    /// write and read. Decisions (where they and a strict reader differ):
    /// - **Tolerance.** Section names and parameter keys in any case, parameters in any order,
    ///   spaces after `:` and `,` optional; format names as display names or extensions
    ///   (`Lyricify Syllable`/`lys`, `Lyricify Lines`/`lyl`, `LRC`/`lrc`, as Unilyric accepts). Any
    ///   `[version:]` is accepted and kept in ``Lyrics/tags``.
    /// - **Refused** (``LyricsError/invalid(_:)``): no mark, no lyrics section, a lyrics section in a
    ///   format that is not read (`format@QRC`). A lyrics section without `format@` is read as
    ///   Lyricify Syllable, the format Quick Export is built around (Unilyric assumes LRC).
    /// - **Several lyrics sections**: the first is read, later ones are skipped (Unilyric keeps the
    ///   last, a strict reader refuses the file).
    /// - **Translation and pronunciation sections** are read in LRC (also when `format@` is
    ///   missing); a section in another format, or an unknown section (`[notes: x@y]`), is skipped.
    ///   They may come before the lyrics section. At most ``Limits/maxSections`` are joined.
    /// - **Joining.** Each row (in file order) goes to the line or backing run that starts at its
    ///   stamp and has not taken a row of that section yet: exact first, otherwise the nearest within
    ///   ±10 ms (writers emit `mm:ss.fff`, older files centiseconds). Same-stamp rows pair with
    ///   same-start lines in file order. A row that matches nothing is skipped (AMLL; a strict reader
    ///   refuses the file). A bare stamp (an empty translation) takes its line and gives it nothing.
    /// - **Where rows land.** A line's first translation row (sections in file order) gives
    ///   ``LyricLine/translation``; every translation row adds to ``LyricLine/translations`` with its
    ///   section's `language@` (or `nil`); the first pronunciation row gives
    ///   ``LyricLine/romanisation``. Rows at a backing run's start belong to that run, their wrapping
    ///   brackets removed (a strict reader's convention). A gap line (a blank stamp of an LRC lyrics
    ///   section) takes no row.
    /// - **Tags and offset.** Only the preamble's tags count: tag lines inside sections are skipped,
    ///   so an `[offset:]` there cannot apply twice. The preamble's `[offset:]` moves every time after
    ///   joining (AMLL ignores it, a strict reader applies it the same way).
    enum QuickExport {
        static let mark = "[Lyricify Quick Export]"

        /// What a section holds.
        enum Kind: String { case lyrics, translation, pronunciation }

        /// The formats a lyrics section can be read in.
        enum BodyFormat { case syllable, lines, lrc }

        /// A section: its header's facts and its body's physical lines.
        struct Section {
            var kind: Kind?
            var format: String?
            var language: String?
            var line: Int
            var body: [(number: Int, text: Substring)] = []
        }

        static func parse(_ text: String, encoding: String, options: ReadOptions) throws(LyricsError) -> Lyrics {
            let physical = NumberedLines.of(text)
            guard let first = physical.firstIndex(where: { !$0.text.trimmingWhitespace().isEmpty }) else { throw .noTimedLines }
            let opening = physical[first].text.trimmingWhitespace()
            guard opening.lowercased() == mark.lowercased() else {
                throw .invalid("not valid Lyricify Quick Export: line \(physical[first].number): expected '\(mark)' first, "
                               + "found '\(String(opening.unicodeScalars.prefix(40)))'")
            }
            var tags: [String: String] = [:]
            var sections: [Section] = []
            for (number, line) in physical[(first + 1)...] where line.utf8.count <= Limits.maxLineBytes {
                let scalars = Array(line.unicodeScalars)
                if var section = header(scalars, inPreamble: sections.isEmpty) {
                    section.line = number
                    sections.append(section)
                } else if let tag = MetadataTag.parse(scalars) {
                    if sections.isEmpty { tags[tag.key] = tag.value }
                } else if !sections.isEmpty {
                    sections[sections.count - 1].body.append((number, line))
                }
            }
            guard let lyricsSection = sections.first(where: { $0.kind == .lyrics }) else {
                throw .invalid("not valid Lyricify Quick Export: no lyrics section ('[lyrics: format@Lyricify Syllable]')")
            }
            var lines = try lyrics(lyricsSection)
            let joined = sections.filter { ($0.kind == .translation || $0.kind == .pronunciation) && ($0.format.map(isLRC) ?? true) }
            for section in joined.prefix(Limits.maxSections) {
                join(rows(section.body), into: &lines, kind: section.kind ?? .translation, language: section.language)
            }
            return Tags.lyrics(.lqe, encoding: encoding, tags: tags, lines: lines, options: options)
        }

        /// The lyrics section's lines in file order (file times), backing runs attached.
        static func lyrics(_ section: Section) throws(LyricsError) -> [LyricLine] {
            guard let format = bodyFormat(section.format) else {
                throw .invalid("not valid Lyricify Quick Export: line \(section.line): lyrics in format '\(section.format ?? "")' "
                               + "are not read (Lyricify Syllable, Lyricify Lines or LRC)")
            }
            switch format {
            case .syllable:
                let reading = Syllable.read(section.body)
                guard !reading.rows.isEmpty else { throw Syllable.failure(reading, in: "Lyricify Quick Export") }
                return Syllable.assemble(reading.rows)
            case .lines:
                let reading = Lines.read(section.body)
                guard !reading.lines.isEmpty else { throw .noTimedLines }
                return reading.lines
            case .lrc:
                let body = section.body.map { String($0.text) }.joined(separator: "\n")
                guard !body.trimmingWhitespace().isEmpty else { throw .noTimedLines }
                return try LRC.parse(body).lines
            }
        }

        /// A section header `[name: key@value, …]` filling a whole line, or `nil`. Known names
        /// (`lyrics`, `translation`, `pronunciation`) always open a section; after the preamble, an
        /// unknown name whose parameters are all `key@value` opens a skipped section, unless it is an
        /// LRC tag name (`[by:someone@example.org]` is a tag wherever it stands).
        static func header(_ scalars: [Unicode.Scalar], inPreamble: Bool) -> Section? {
            let line = String(String.UnicodeScalarView(scalars)).trimmingWhitespace()
            guard line.hasPrefix("["), line.hasSuffix("]"), let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[line.index(after: line.startIndex)..<colon].trimmingWhitespace()
            guard !name.isEmpty, name.count <= 32, name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) })
            else { return nil }
            let body = line[line.index(after: colon)..<line.index(before: line.endIndex)]
            var parameters: [String: String] = [:]
            var allParameters = true
            for part in body.split(separator: ",").prefix(16) {
                let pieces = part.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
                guard pieces.count == 2 else {
                    allParameters = allParameters && part.trimmingWhitespace().isEmpty
                    continue
                }
                parameters[String(pieces[0].trimmingWhitespace()).lowercased()] = String(pieces[1].trimmingWhitespace())
            }
            let kind = Kind(rawValue: name.lowercased())
            guard kind != nil || (!inPreamble && !parameters.isEmpty && allParameters && !tagNames.contains(name.lowercased()))
            else { return nil }
            return Section(kind: kind, format: parameters["format"], language: parameters["language"].flatMap { $0.isEmpty ? nil : $0 },
                           line: 0)
        }

        /// LRC tag names, never taken for an unknown section (`[by:someone@example.org]`).
        private static let tagNames: Set<String> = ["ti", "ar", "al", "au", "by", "la", "re", "ve", "offset", "length",
                                                    "version", "language", "tool"]

        static func bodyFormat(_ name: String?) -> BodyFormat? {
            guard let name else { return .syllable }
            switch normalised(name) {
            case "lyricifysyllable", "lys": return .syllable
            case "lyricifylines", "lyl": return .lines
            case "lrc": return .lrc
            default: return nil
            }
        }

        private static func isLRC(_ name: String) -> Bool { normalised(name) == "lrc" }

        private static func normalised(_ name: String) -> String {
            String(name.lowercased().unicodeScalars.filter { $0 != " " && $0 != "-" && $0 != "_" })
        }

        /// The rows of an LRC section in file order: each time tag at the start of a line with the
        /// text after the tags (trimmed, possibly empty). Lines without a time tag are skipped.
        static func rows(_ body: [(number: Int, text: Substring)]) -> [(stamp: Int, text: String)] {
            var rows: [(stamp: Int, text: String)] = []
            for (_, line) in body where line.utf8.count <= Limits.maxLineBytes && rows.count < Limits.maxLines {
                let scalars = Array(line.unicodeScalars)
                var index = 0
                while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
                var stamps: [Int] = []
                while index < scalars.count, scalars[index] == "[", stamps.count < 64 {
                    let limit = min(scalars.count, index + LRC.TimeTag.maxBodyLength + 2)
                    guard let close = scalars[index..<limit].firstIndex(of: "]"),
                          let stamp = LRC.TimeTag.milliseconds(scalars[(index + 1)..<close]) else { break }
                    stamps.append(stamp)
                    index = close + 1
                }
                guard !stamps.isEmpty else { continue }
                let text = String(String(String.UnicodeScalarView(scalars[index...])).trimmingWhitespace())
                for stamp in stamps { rows.append((stamp, text)) }
            }
            return rows
        }

        /// Joins a section's rows to `lines` (file order, file times); see the decisions above.
        static func join(_ rows: [(stamp: Int, text: String)], into lines: inout [LyricLine], kind: Kind, language: String?) {
            var targets: [(line: Int, run: Int?, start: Int)] = []
            // A gap line (an LRC body's blank stamp) takes no row: a blank line carries nothing.
            for (index, line) in lines.enumerated() where !line.text.isEmpty {
                targets.append((index, nil, line.start.milliseconds))
                for (run, backing) in line.backgrounds.enumerated() { targets.append((index, run, backing.start.milliseconds)) }
            }
            var queue = StartQueue(targets.map(\.start))
            for row in rows {
                guard let taken = queue.take(near: row.stamp, within: 10) else { continue }
                let target = targets[taken]
                guard !row.text.isEmpty else { continue }
                if let run = target.run {
                    let text = Brackets.unwrapped(row.text)
                    guard !text.isEmpty else { continue }
                    if kind == .translation, lines[target.line].backgrounds[run].translation == nil {
                        lines[target.line].backgrounds[run].translation = text
                    } else if kind == .pronunciation, lines[target.line].backgrounds[run].romanisation == nil {
                        lines[target.line].backgrounds[run].romanisation = text
                    }
                } else if kind == .translation {
                    lines[target.line].translations.append(LyricLine.Translation(language: language, text: row.text))
                    if lines[target.line].translation == nil { lines[target.line].translation = row.text }
                } else if lines[target.line].romanisation == nil {
                    lines[target.line].romanisation = row.text
                }
            }
        }
    }
}
