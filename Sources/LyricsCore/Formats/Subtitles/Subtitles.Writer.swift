extension Subtitles {
    /// Writes ``Lyrics`` as SubRip or WebVTT, one cue per line with text, so that
    /// ``Subtitles/parse(_:dialect:encoding:)`` reads back the same lines.
    ///
    /// ```
    /// 1                                   WEBVTT
    /// 00:00:05,200 --> 00:00:08,900
    /// Paper kites climb                   00:00:05.200 --> 00:00:08.900
    /// 纸风筝飞起                           <v v1>Paper <00:00:06.000>kites <00:00:07.100>climb
    ///                                     纸风筝飞起
    /// ```
    ///
    /// - **Cues**: a line's start and end in milliseconds (negative times as zero); the line's
    ///   text, then its chosen translation (``LyricLine/translation``), each `\n`-separated part a
    ///   text line of its own (the reader takes every line after the first for the translation).
    /// - **WebVTT** adds the singer as a voice (`<v v1>`, the agent's id) and each word's start as a
    ///   karaoke timestamp (the first word's only when it starts after the cue, or is the only
    ///   word); a word then ends where the next begins, the last at the cue's end.
    /// - **Escaping**: WebVTT text always has `&`, `<` and `>` written as entities. SubRip has no
    ///   escapes of its own, so its text is written as it is unless the reader would take part of
    ///   it for markup (`<i>`, `&amp;`, a timestamp) or a timing line (`-->`); then the same
    ///   entities are used, which the reader decodes. An ASS override block (`{\…}`) in lyric text
    ///   cannot be escaped in either and is read back without it.
    /// - **Not written**: gap lines (a cue needs text; the silence between cues is the gap),
    ///   romanisations (a third text line would read as more translation), backing vocals, ruby,
    ///   song metadata; SubRip also has no singers and no word timing.
    struct Writer {
        var dialect: Dialect

        func write(_ lyrics: Lyrics) -> String {
            var out = dialect == .webVTT ? "WEBVTT\n\n" : ""
            var number = 0
            for line in lyrics.lines where !line.text.isEmpty {
                number += 1
                let separator: Character = dialect == .srt ? "," : "."
                if dialect == .srt { out += "\(number)\n" }
                out += WrittenTime.clock(line.start, separator: separator) + " --> "
                    + WrittenTime.clock(Timestamp(milliseconds: max(line.start.milliseconds, line.end.milliseconds)), separator: separator) + "\n"
                out += firstLine(line) + "\n"
                let translation = line.translation ?? line.translations.first?.text
                for part in (translation ?? "").split(whereSeparator: \.isNewline) {
                    let trimmed = String(part.trimmingWhitespace())
                    if !trimmed.isEmpty { out += escaped(trimmed) + "\n" }
                }
                out += "\n"
            }
            return out
        }

        /// The cue's first text line: the lyric, with a voice and word stamps in WebVTT.
        private func firstLine(_ line: LyricLine) -> String {
            guard dialect == .webVTT else { return escaped(line.text.onOneLine) }
            var out = ""
            if let agent = line.agent, !agent.isEmpty, !agent.contains(where: { $0 == ">" || $0 == "<" || $0.isNewline }) {
                out += "<v \(agent)>"
            }
            guard !line.words.isEmpty else { return out + escaped(line.text.onOneLine) }
            for (index, word) in line.words.enumerated() {
                // The first word's stamp is needed when it starts late, or to make a lone word a word.
                if index > 0 || line.words.count == 1 || WrittenTime.milliseconds(word.start) > WrittenTime.milliseconds(line.start) {
                    out += "<" + WrittenTime.clock(word.start, separator: ".") + ">"
                }
                out += escaped(word.text.onOneLine)
            }
            return out
        }

        /// Text as the reader gets it back (see the escaping rules above).
        private func escaped(_ text: String) -> String {
            if dialect == .srt, !text.contains("-->") {
                let read = Markup.read(Substring(text))
                if read.runs.count == 1, read.plain == text { return text }
            }
            var out = ""
            for character in text {
                switch character {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                default: out.append(character)
                }
            }
            return out
        }
    }
}
