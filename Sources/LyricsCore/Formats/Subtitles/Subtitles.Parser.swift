extension Subtitles {
    /// Turns decoded subtitle text into ``Lyrics``: finds the cues line by line, reads their text
    /// (``Markup``), splits inline-timed words, sorts, and marks credits.
    ///
    /// Decisions (where subtitle readers differ):
    /// - **Blocks.** A blank line (empty or only spaces and tabs) ends a cue. A timing line also
    ///   ends the cue before it, for files that forget the blank line; a last text line of digits
    ///   just before it is then the next cue's SubRip index, not text.
    /// - **Broken timing lines.** A line holding `-->` that is not a timing line (WebVTT forbids
    ///   `-->` in cue text) ends the cue before it; the lines after it, up to a blank line, are skipped.
    /// - **Identifiers** (SubRip indices, WebVTT ids) and any other stray line between cues are ignored.
    /// - **Two or more text lines**: the first line with text is the line, the rest its translation,
    ///   joined with `"\n"` (LDDC instead reads three lines as romanisation, original, translation).
    ///   Lines that are empty once their markup is removed do not count.
    /// - **Times.** Both dialects accept both separators and optional hours; a cue ending before it
    ///   starts lasts zero milliseconds (strict players reject it).
    /// - **Inline timestamps** make words only on the first text line (they are removed from the
    ///   translation). A stamp outside the cue is moved to its nearest edge; a stamp earlier than the
    ///   one before it is ignored (its text joins the word before). Whitespace settles as in LRC: it
    ///   moves to the end of the word before, and the first and last words are trimmed.
    /// - **Voices.** The first `<v Name>` in a cue names its agent; ``Lyrics/agents`` lists the names
    ///   in the order they first appear in the file, kind ``Lyrics/Agent/Kind/person``, id = name.
    /// - **Credits.** Leading (and trailing) credit-looking lines are marked by ``Credits/mark(_:)``.
    struct Parser {
        var dialect: Dialect

        /// A cue being read: its times as written and its raw text lines.
        private struct Cue {
            var start: Int
            var end: Int
            var text: [Substring] = []
        }

        func parse(_ text: String, encoding: String) throws(LyricsError) -> Lyrics {
            var lines: [LyricLine] = []
            var agents: [Lyrics.Agent] = []
            var broken: (line: Int, text: String)?
            // The cue being read, if any; otherwise whether the lines up to the next blank one are
            // skipped (the WebVTT header, a NOTE, STYLE or REGION block, or a broken timing line).
            // Two plain variables rather than an enum with a payload, so that appending to the cue
            // never copies its lines.
            var cue: Cue?
            var skipping = false

            func finish() {
                guard let done = cue else { return }
                cue = nil
                guard lines.count < Limits.maxCues, var line = Self.line(from: done) else { return }
                if let voice = line.agent, !agents.contains(where: { $0.id == voice }) {
                    if agents.count < Limits.maxAgents {
                        agents.append(Lyrics.Agent(id: voice, kind: .person, name: voice))
                    } else {
                        line.agent = nil
                    }
                }
                lines.append(line)
            }

            for (number, line) in NumberedLines.of(text) {
                guard line.utf8.count <= Limits.maxLineBytes else { continue }
                if number == 1, dialect == .webVTT, Self.opens(line, with: "WEBVTT") {
                    skipping = true
                    continue
                }
                if line.unicodeScalars.allSatisfy({ $0 == " " || $0 == "\t" }) {
                    finish()
                    skipping = false
                    continue
                }
                if line.contains("-->") {
                    let timing = CueTiming.parse(Array(line.unicodeScalars))
                    // With no blank line before this timing line, a last line of digits was its SubRip index.
                    if timing != nil, let last = cue?.text.last?.trimmingWhitespace(), !last.isEmpty,
                       last.allSatisfy(\.isASCIIDigit) {
                        cue?.text.removeLast()
                    }
                    finish()
                    if let timing {
                        cue = Cue(start: timing.start, end: timing.end)
                        skipping = false
                    } else {
                        if broken == nil { broken = (number, String(String.UnicodeScalarView(line.unicodeScalars.prefix(60)))) }
                        skipping = true
                    }
                    continue
                }
                if cue != nil {
                    cue?.text.append(line)
                } else if !skipping, dialect == .webVTT,
                          Self.opens(line, with: "NOTE") || Self.opens(line, with: "STYLE") || Self.opens(line, with: "REGION") {
                    skipping = true
                }
            }
            finish()

            guard !lines.isEmpty else {
                if let broken { throw .invalid("not valid \(dialect.name): line \(broken.line): malformed cue timing '\(broken.text)'") }
                throw .noTimedLines
            }
            lines = lines.sortedByStart()
            Credits.mark(&lines)
            return Lyrics(format: dialect == .srt ? .srt : .vtt, encoding: encoding, agents: agents, lines: lines)
        }

        /// The lyric line a cue gives, or `nil` when none of its text lines has text.
        private static func line(from cue: Cue) -> LyricLine? {
            let read = cue.text.map(Markup.read).filter { !$0.plain.trimmingWhitespace().isEmpty }
            guard let first = read.first else { return nil }
            let end = max(cue.start, cue.end)
            let (text, words) = Self.words(first.runs, start: cue.start, end: end)
            guard !text.isEmpty else { return nil }
            let translation = read.dropFirst().map { String($0.plain.trimmingWhitespace()) }.joined(separator: "\n")
            return LyricLine(start: Timestamp(milliseconds: cue.start), end: Timestamp(milliseconds: end), text: text,
                             translation: translation.isEmpty ? nil : translation, words: words,
                             agent: read.lazy.compactMap(\.voice).first)
        }

        /// The display text and words of a line's runs, for a cue `[start, end)` (see the decisions above).
        static func words(_ runs: [Markup.Run], start: Int, end: Int) -> (String, [Word]) {
            guard runs.count > 1 else {
                return (String(runs.map { String($0.text) }.joined().trimmingWhitespace()), [])
            }
            var segments: [(start: Int, text: String.UnicodeScalarView)] = []
            var latest = start
            for run in runs {
                guard let stamp = run.stamp else {
                    segments.append((start, run.text))
                    continue
                }
                let time = min(max(stamp, start), end)
                // Past the limit (the stampless run counts too), text joins the last word.
                if time < latest || segments.count > Limits.maxWords, !segments.isEmpty {
                    segments[segments.count - 1].text.append(contentsOf: run.text)
                    continue
                }
                segments.append((time, run.text))
                latest = time
            }
            // Each segment lasts until the next one (the last until the cue's end).
            let timed = segments.enumerated().map { index, segment in
                TimedSegment(start: segment.start, end: index + 1 < segments.count ? segments[index + 1].start : end, text: segment.text)
            }
            let words = TimedSegment.words(timed, maxWords: Limits.maxWords)
            return (words.map(\.text).joined(), words)
        }

        /// Whether `line` is `word` alone or followed by a space or tab (`WEBVTT - title`, `NOTE text`).
        private static func opens(_ line: Substring, with word: String) -> Bool {
            guard line.unicodeScalars.starts(with: word.unicodeScalars) else { return false }
            let rest = line.unicodeScalars.dropFirst(word.unicodeScalars.count)
            return rest.first.map { $0 == " " || $0 == "\t" } ?? true
        }
    }
}
