extension ASS {
    /// Writes ``Lyrics`` as an ASS (v4+) karaoke script that libass plays and ``ASS/parse(_:encoding:)``
    /// reads back.
    ///
    /// ```
    /// [Script Info]                ScriptType v4.00+, Title, a 1920×1080 canvas
    /// [V4+ Styles]                 one Default style (white sung, grey unsung, outline, bottom centre)
    /// [Events]
    /// Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
    /// Dialogue: 0,0:00:12.00,0:00:15.50,Default,v1,0,0,0,,{\kf40}Every {\k10}{\kf60}night
    /// Dialogue: 0,0:00:12.00,0:00:15.50,Default,v1-trans,0,0,0,,Chaque nuit
    /// Dialogue: 0,0:00:13.00,0:00:14.00,Default,v1-bg,0,0,0,,{\kf100}echo
    /// ```
    ///
    /// - **Times** are centiseconds, `H:MM:SS.cc`, each time rounded half up from its own value, so
    ///   a syllable's `\kf` is the difference of two rounded times and nothing drifts along a line.
    ///   Negative times are written as zero.
    /// - **Words**: one `{\kf<cs>}` per word (the fill sweeps across it); a gap before a word, or
    ///   between the line's start and its first word, is a `{\k<cs>}` with no text. Karaoke runs
    ///   in sequence, so a word that overlaps the next is cut where the next begins. A line
    ///   without word timing is plain text.
    /// - **Names** carry what the line is (AMLL's convention): the singer's agent id for the line
    ///   (empty when none), `<agent>-bg` (`x-bg` without an agent) for each backing-vocal run,
    ///   `<name>-trans` and `<name>-roman` for a line's or a run's translation and romanisation
    ///   (one `Dialogue` each, parts joined with `\N`), at the times of what they belong to.
    /// - **Escaping**: `{` and `}` in lyric text are written `\{` and `\}` (libass shows them as
    ///   braces); line breaks become `\N`. A comma in a Name would end the field and becomes `;`.
    ///   A backslash before `N`, `n` or `h` cannot be escaped (libass reads it as a break or a
    ///   hard space).
    /// - **Not written**: gap lines, singers' names and kinds, ruby, artist, album, language and
    ///   length (the script has a title only). Credit lines are written as lines.
    enum Writer {
        static func write(_ lyrics: Lyrics) -> String {
            var out = "[Script Info]\n; Written by LyricPoster\n"
            if let title = lyrics.title { out += "Title: \(title.onOneLine)\n" }
            out += """
                ScriptType: v4.00+
                WrapStyle: 0
                ScaledBorderAndShadow: yes
                PlayResX: 1920
                PlayResY: 1080

                [V4+ Styles]
                Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, \
                Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, \
                Alignment, MarginL, MarginR, MarginV, Encoding
                Style: Default,Arial,64,&H00FFFFFF,&H00909090,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,3,0,2,60,60,60,1

                [Events]
                Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

                """
            for line in lyrics.lines where !line.text.isEmpty {
                let name = Self.name(line.agent ?? "")
                let (start, end) = span(line.start, line.end, line.words)
                out += dialogue(start, end, name, karaoke(line.words, from: start) ?? text(line.text))
                let translation = line.translation ?? line.translations.first?.text
                out += extra(translation, start, end, name + "-trans")
                out += extra(line.romanisation, start, end, name + "-roman")
                for backing in line.backgrounds where !backing.text.isEmpty {
                    let backingName = name.isEmpty ? "x-bg" : name + "-bg"
                    let (backingStart, backingEnd) = span(backing.start, backing.end, backing.words)
                    out += dialogue(backingStart, backingEnd, backingName,
                                    karaoke(backing.words, from: backingStart) ?? text(backing.text))
                    out += extra(backing.translation, backingStart, backingEnd, backingName + "-trans")
                    out += extra(backing.romanisation, backingStart, backingEnd, backingName + "-roman")
                }
            }
            return out
        }

        /// The centiseconds an event covers: its own times widened to its words.
        private static func span(_ start: Timestamp, _ end: Timestamp, _ words: [Word]) -> (Int, Int) {
            let first = min(WrittenTime.centiseconds(start), words.first.map { WrittenTime.centiseconds($0.start) } ?? .max)
            let last = max(WrittenTime.centiseconds(end), words.map { WrittenTime.centiseconds($0.end) }.max() ?? 0)
            return (first, max(first, last))
        }

        private static func dialogue(_ start: Int, _ end: Int, _ name: String, _ text: String) -> String {
            "Dialogue: 0,\(time(start)),\(time(end)),Default,\(name),0,0,0,,\(text)\n"
        }

        /// A translation or romanisation event, its `\n`-separated parts joined with `\N`.
        private static func extra(_ value: String?, _ start: Int, _ end: Int, _ name: String) -> String {
            let parts = (value ?? "").split(whereSeparator: \.isNewline).map { text(String($0.trimmingWhitespace())) }.filter { !$0.isEmpty }
            return parts.isEmpty ? "" : dialogue(start, end, name, parts.joined(separator: "\\N"))
        }

        /// `{\k}` gaps and `{\kf}` syllables from `start` (centiseconds), or `nil` without words.
        private static func karaoke(_ words: [Word], from start: Int) -> String? {
            guard !words.isEmpty else { return nil }
            var out = ""
            var cursor = start
            for (index, word) in words.enumerated() {
                let wordStart = max(cursor, WrittenTime.centiseconds(word.start))
                var wordEnd = max(wordStart, WrittenTime.centiseconds(word.end))
                if index + 1 < words.count { wordEnd = min(wordEnd, max(wordStart, WrittenTime.centiseconds(words[index + 1].start))) }
                if wordStart > cursor { out += "{\\k\(wordStart - cursor)}" }
                out += "{\\kf\(wordEnd - wordStart)}" + text(word.text)
                cursor = wordEnd
            }
            return out
        }

        /// `H:MM:SS.cc` from centiseconds.
        static func time(_ cs: Int) -> String {
            "\(cs / 360_000):" + WrittenTime.padded(cs / 6000 % 60, 2) + ":" + WrittenTime.padded(cs / 100 % 60, 2) + "."
                + WrittenTime.padded(cs % 100, 2)
        }

        /// Event text: braces escaped, line breaks as `\N`.
        static func text(_ value: String) -> String {
            var out = ""
            for character in value {
                switch character {
                case "{": out += "\\{"
                case "}": out += "\\}"
                case _ where character.isNewline: out += "\\N"
                default: out.append(character)
                }
            }
            return out
        }

        /// A Name field: no commas (they separate fields), on one line.
        private static func name(_ value: String) -> String {
            String(value.onOneLine.map { $0 == "," ? ";" : $0 })
        }
    }
}
