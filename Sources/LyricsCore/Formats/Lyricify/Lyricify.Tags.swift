extension Lyricify {
    /// The LRC-style `[key:value]` lines the three Lyricify formats share, and the last steps every
    /// reader takes: apply `[offset:]`, sort, mark credits, fill in metadata.
    enum Tags {
        /// A metadata tag `[key:value]` (after blanks): key 1–16 ASCII letters (lower-cased), value up
        /// to the last `]` of the line, trimmed. `nil` for anything else (`[4]…`, `[00:01.00]…`).
        static func tag(_ scalars: [Unicode.Scalar]) -> (key: String, value: String)? {
            var open = 0
            while open < scalars.count, scalars[open] == " " || scalars[open] == "\t" { open += 1 }
            guard open < scalars.count, scalars[open] == "[", let close = scalars.lastIndex(of: "]"), close > open
            else { return nil }
            var index = open + 1
            var key = String.UnicodeScalarView()
            while index < close, key.count <= 16, isASCIILetter(scalars[index]) {
                key.append(scalars[index])
                index += 1
            }
            guard (1...16).contains(key.count), index < close, scalars[index] == ":" else { return nil }
            let value = String(String.UnicodeScalarView(scalars[(index + 1)..<close]))
            return (String(key).lowercased(), String(value.trimmingWhitespace()))
        }

        /// The finished ``Lyrics``: each line widened to cover its backing runs (TTML's rule), then
        /// `[offset:]` from `tags` applied to every time (lines, words, backing runs) as `options`
        /// says, lines sorted stably by start, leading and trailing credit lines marked, agents
        /// `v1`/`v2` listed in the order the lines (in file order) use them.
        static func lyrics(_ format: LyricsFormat, encoding: String, tags: [String: String], lines fileOrder: [LyricLine],
                           options: ReadOptions) -> Lyrics {
            let offset = tags["offset"].flatMap(LRC.TagValue.offset) ?? 0
            let delta = options.offsetSign == .subtract ? -offset : offset
            var agents: [Lyrics.Agent] = []
            for id in fileOrder.compactMap(\.agent) where !agents.contains(where: { $0.id == id }) {
                agents.append(Lyrics.Agent(id: id, kind: .person))
            }
            let covering = fileOrder.map(coveringBackings)
            let shifted = delta == 0 ? covering : covering.map { shift($0, by: delta) }
            var lines = shifted.indices
                .sorted { (shifted[$0].start, $0) < (shifted[$1].start, $1) }
                .map { shifted[$0] }
            Credits.mark(&lines)
            let metadata = Lyrics.Metadata(
                title: tags["ti"], artist: tags["ar"], album: tags["al"], language: tags["la"],
                length: tags["length"].flatMap(LRC.TagValue.length))
            return Lyrics(format: format, encoding: encoding, tags: tags, metadata: metadata, offsetMs: offset,
                          agents: agents, lines: lines)
        }

        /// `line` widened to cover its backing runs, so that they are not cut off when it ends.
        static func coveringBackings(_ line: LyricLine) -> LyricLine {
            var line = line
            for run in line.backgrounds {
                line.start = min(line.start, run.start)
                line.end = max(line.end, run.end)
            }
            return line
        }

        /// `line` with every time moved by `delta` milliseconds.
        static func shift(_ line: LyricLine, by delta: Int) -> LyricLine {
            func moved(_ time: Timestamp) -> Timestamp { Timestamp(milliseconds: adding(time.milliseconds, delta)) }
            func moved(_ words: [Word]) -> [Word] {
                words.map { Word(start: moved($0.start), end: moved($0.end), text: $0.text, ruby: $0.ruby) }
            }
            var line = line
            line.start = moved(line.start)
            line.end = moved(line.end)
            line.words = moved(line.words)
            line.backgrounds = line.backgrounds.map { run in
                var run = run
                run.start = moved(run.start)
                run.end = moved(run.end)
                run.words = moved(run.words)
                return run
            }
            return line
        }

        private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        }
    }

    /// `a + b`, held at `Int.max`/`Int.min` instead of trapping on overflow.
    static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }
}
