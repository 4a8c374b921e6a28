import Testing
@testable import LyricsCore

/// A song reduced to what a round trip keeps: its metadata, singers and lines. The file's own
/// tags, format, encoding and offset describe the file, not the song, and are not compared.
struct SongShape: Equatable, Sendable {
    var metadata: Lyrics.Metadata
    var agents: [Lyrics.Agent]
    var lines: [LyricLine]
}

extension Lyrics {
    var shape: SongShape { SongShape(metadata: metadata, agents: agents, lines: lines) }

    /// The song as `format` carries it: what reading the written text back must give. Each
    /// format's projection is written out here rule by rule, from the writer's and the reader's
    /// documentation, rather than by calling either.
    func carried(by format: OutputFormat) -> SongShape {
        switch format {
        case .lrc: carriedByLRC(enhanced: false)
        case .enhancedLRC: carriedByLRC(enhanced: true)
        case .ttml: carriedByTTML()
        case .srt: carriedBySubtitles(webVTT: false)
        case .vtt: carriedBySubtitles(webVTT: true)
        case .ass: carriedByASS()
        case .lyricsfile: carriedByLyricsfile()
        }
    }

    // MARK: - Lyricsfile

    /// Lines with text in milliseconds (negative times as zero), with their words (no ruby); no
    /// translations, romanisations, backing vocals or singers; credits as the reader marks them;
    /// the song's title, artist, album, language and length.
    private func carriedByLyricsfile() -> SongShape {
        func ms(_ time: Timestamp) -> Timestamp { Timestamp(milliseconds: max(0, time.milliseconds)) }
        var result: [LyricLine] = []
        for line in lines where !line.text.isEmpty {
            let start = ms(line.start)
            let end = max(start, ms(line.end))
            let words = line.words.map { Word(start: ms($0.start), end: max(ms($0.start), ms($0.end)), text: $0.text) }
            result.append(LyricLine(start: start, end: end, text: line.text, words: words))
        }
        Credits.mark(&result)
        return SongShape(metadata: metadata, agents: [], lines: result)
    }

    // MARK: - LRC

    /// Times in centiseconds; gap lines (one per stamp, none where a line has text), and a gap
    /// line closing each silence of 4 s or more and the song; the chosen translation and the
    /// romanisation (the first of lines sharing a stamp only); no singers, backing vocals or
    /// translation languages; credits as the reader marks them. Line-timed: no words, a line
    /// ends at the next later stamp. Enhanced: words end at their written end (or the next
    /// word's start when they touch or overlap), the line at its last stamp.
    private func carriedByLRC(enhanced: Bool) -> SongShape {
        func cs(_ time: Timestamp) -> Int { WrittenTime.centiseconds(time) * 10 }
        let stamps = lines.map { cs($0.start) }
        let texted = Set(lines.indices.filter { !lines[$0].text.isEmpty }.map { stamps[$0] })
        var gaps = Set<Int>()
        // A run of lines with text at one stamp is closed by a gap line at its latest end when 4 s
        // or more pass before the next stamp, or nothing follows; not when (enhanced) every line
        // of it has words, whose end stamps carry the ends.
        var closing: [Int: Int] = [:]
        var first = 0
        while first < lines.count {
            var last = first
            while last + 1 < lines.count, stamps[last + 1] == stamps[first] { last += 1 }
            let run = lines[first...last].filter { !$0.text.isEmpty }
            let end = run.map { cs($0.end) }.max() ?? 0
            let next = last + 1 < lines.count ? stamps[last + 1] : Int.max
            if !run.isEmpty, !(enhanced && run.allSatisfy { !$0.words.isEmpty }), end > stamps[first], next - end >= 4000 {
                closing[last] = end
            }
            first = last + 1
        }
        var kept: [(line: LyricLine, explicitEnd: Int?)] = []
        var previousTextStamp: Int?
        for (index, line) in lines.enumerated() {
            defer {
                if let end = closing[index] { kept.append((LyricLine(start: Timestamp(milliseconds: end), end: .zero, text: ""), nil)) }
            }
            var copy = LyricLine(start: Timestamp(milliseconds: stamps[index]), end: .zero, text: line.text)
            if line.text.isEmpty {
                guard !texted.contains(stamps[index]), gaps.insert(stamps[index]).inserted else { continue }
                kept.append((copy, nil))
                continue
            }
            if previousTextStamp != stamps[index] {
                copy.translation = Self.parts(line.translation ?? line.translations.first?.text)
                copy.romanisation = line.romanisation
            }
            previousTextStamp = stamps[index]
            var explicitEnd: Int?
            if enhanced, !line.words.isEmpty {
                copy.words = line.words.enumerated().map { position, word in
                    let start = cs(word.start)
                    var end = cs(word.end)
                    if position + 1 < line.words.count { end = min(end, cs(line.words[position + 1].start)) }
                    return Word(start: Timestamp(milliseconds: start), end: Timestamp(milliseconds: max(start, end)), text: word.text)
                }
                explicitEnd = max(cs(line.words[line.words.count - 1].end), cs(line.end))
            }
            kept.append((copy, explicitEnd))
        }
        let length = self.length.map { cs($0) }
        var result: [LyricLine] = []
        for (index, entry) in kept.enumerated() {
            var line = entry.line
            let start = line.start.milliseconds
            let next = kept[(index + 1)...].first { $0.line.start.milliseconds > start }?.line.start.milliseconds
            var end: Int
            if let next { end = min(next, entry.explicitEnd ?? .max) }
            else if let explicit = entry.explicitEnd { end = explicit }
            else if line.text.isEmpty { end = max(start, length ?? start) }
            else if let length, length > start { end = length }
            else { end = start + LRC.Parser.lastLineDefaultMs }
            line.end = Timestamp(milliseconds: max(start, end))
            result.append(line)
        }
        Credits.mark(&result)
        return SongShape(metadata: .init(title: title, artist: artist, album: album, language: language,
                                         length: length.map(Timestamp.init(milliseconds:))),
                         agents: [], lines: result)
    }

    // MARK: - TTML

    /// Times in milliseconds (negative ones as zero), a line widened to its words and backing
    /// vocals; every backing run; translations with their languages (the first is the line's
    /// translation); whitespace collapsed; no gap or credit lines; undeclared singers declared
    /// as people.
    private func carriedByTTML() -> SongShape {
        func clamp(_ time: Timestamp) -> Timestamp { Timestamp(milliseconds: max(0, time.milliseconds)) }
        func clamp(_ words: [Word]) -> [Word] {
            words.filter { !$0.text.trimmingWhitespace().isEmpty }.map { word in
                Word(start: clamp(word.start), end: max(clamp(word.start), clamp(word.end)), text: word.text)
            }
        }
        var agents = self.agents
        var result: [LyricLine] = []
        for line in lines where line.role == .lyric && !line.text.isEmpty {
            let words = clamp(line.words)
            let backgrounds = line.backgrounds.filter { !$0.text.isEmpty }.map { run in
                LyricLine.Backing(start: clamp(run.start), end: max(clamp(run.start), clamp(run.end)), text: Self.collapsed(run.text),
                                  words: clamp(run.words), translation: run.translation.map(Self.collapsed),
                                  romanisation: run.romanisation.map(Self.collapsed))
            }
            let named = line.translations.contains { $0.language != nil }
            let translations = named ? line.translations.map { LyricLine.Translation(language: $0.language, text: Self.collapsed($0.text)) } : []
            let starts = [clamp(line.start)] + words.prefix(1).map(\.start) + backgrounds.map(\.start)
            let ends = [clamp(line.end)] + words.map(\.end) + backgrounds.map(\.end)
            if let agent = line.agent, !agents.contains(where: { $0.id == agent }) { agents.append(.init(id: agent, kind: .person)) }
            result.append(LyricLine(start: starts.min() ?? .zero, end: max(starts.min() ?? .zero, ends.max() ?? .zero),
                                    text: words.isEmpty ? Self.collapsed(line.text) : line.text,
                                    translation: (line.translations.first?.text ?? line.translation).map(Self.collapsed),
                                    words: words, romanisation: line.romanisation.map(Self.collapsed), agent: line.agent,
                                    translations: translations, backgrounds: backgrounds))
        }
        result = result.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        return SongShape(metadata: .init(title: title, artist: artist, album: album, language: language,
                                         length: length.map { Timestamp(milliseconds: max(0, $0.milliseconds)) }),
                         agents: agents, lines: result)
    }

    // MARK: - SubRip and WebVTT

    /// One cue per line with text, times in milliseconds (negative ones as zero); the chosen
    /// translation; credits as the reader marks them; no metadata, romanisation or backing
    /// vocals. WebVTT adds singers by id (named after it) and word starts, each word ending where
    /// the next begins and the last at the cue's end.
    private func carriedBySubtitles(webVTT: Bool) -> SongShape {
        var agents: [Lyrics.Agent] = []
        var result: [LyricLine] = []
        for line in lines where !line.text.isEmpty {
            let start = max(0, line.start.milliseconds)
            let end = max(start, line.end.milliseconds)
            var copy = LyricLine(start: Timestamp(milliseconds: start), end: Timestamp(milliseconds: end), text: line.text,
                                 translation: Self.parts(line.translation ?? line.translations.first?.text))
            if webVTT {
                copy.agent = line.agent
                if let agent = line.agent, !agents.contains(where: { $0.id == agent }) { agents.append(.init(id: agent, kind: .person, name: agent)) }
                let starts = line.words.map { min(max($0.start.milliseconds, start), end) }
                copy.words = line.words.enumerated().map { index, word in
                    Word(start: Timestamp(milliseconds: starts[index]),
                         end: Timestamp(milliseconds: index + 1 < starts.count ? starts[index + 1] : end), text: word.text)
                }
            }
            result.append(copy)
        }
        Credits.mark(&result)
        return SongShape(metadata: .init(), agents: agents, lines: result)
    }

    // MARK: - ASS

    /// Lines with text as `Dialogue`s in centiseconds, widened to their words; words in sequence
    /// (a word cut where the next begins); every backing run; the chosen translation and the
    /// romanisation; singers by id; the title. (Written against the writer; the reader's own
    /// choices — singers, credits — are to be checked once it reads.)
    private func carriedByASS() -> SongShape {
        func cs(_ time: Timestamp) -> Int { WrittenTime.centiseconds(time) * 10 }
        func span(_ start: Timestamp, _ end: Timestamp, _ words: [Word]) -> (Int, Int) {
            let first = min(cs(start), words.first.map { cs($0.start) } ?? .max)
            return (first, max(first, cs(end), words.map { cs($0.end) }.max() ?? 0))
        }
        func karaoke(_ words: [Word], from start: Int) -> [Word] {
            var cursor = start
            return words.enumerated().map { index, word in
                let wordStart = max(cursor, cs(word.start))
                var wordEnd = max(wordStart, cs(word.end))
                if index + 1 < words.count { wordEnd = min(wordEnd, max(wordStart, cs(words[index + 1].start))) }
                cursor = wordEnd
                return Word(start: Timestamp(milliseconds: wordStart), end: Timestamp(milliseconds: wordEnd), text: word.text)
            }
        }
        var agents: [Lyrics.Agent] = []
        var result: [LyricLine] = []
        for line in lines where !line.text.isEmpty {
            let (start, end) = span(line.start, line.end, line.words)
            let backgrounds = line.backgrounds.filter { !$0.text.isEmpty }.map { run in
                let (runStart, runEnd) = span(run.start, run.end, run.words)
                return LyricLine.Backing(start: Timestamp(milliseconds: runStart), end: Timestamp(milliseconds: runEnd), text: run.text,
                                         words: karaoke(run.words, from: runStart), translation: Self.parts(run.translation),
                                         romanisation: Self.parts(run.romanisation))
            }
            if let agent = line.agent, !agents.contains(where: { $0.id == agent }) { agents.append(.init(id: agent, kind: .person)) }
            result.append(LyricLine(start: Timestamp(milliseconds: start), end: Timestamp(milliseconds: end), text: line.text,
                                    translation: Self.parts(line.translation ?? line.translations.first?.text),
                                    words: karaoke(line.words, from: start), romanisation: Self.parts(line.romanisation),
                                    agent: line.agent, backgrounds: backgrounds))
        }
        Credits.mark(&result)
        return SongShape(metadata: .init(title: title), agents: agents, lines: result)
    }

    // MARK: - Text

    /// A translation's parts as the line-based formats write and read them: trimmed, empty
    /// ones left out, joined with `\n`; `nil` when none is left.
    static func parts(_ text: String?) -> String? {
        let parts = (text ?? "").split(whereSeparator: \.isNewline).map { String($0.trimmingWhitespace()) }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: "\n")
    }

    /// Whitespace runs as one space, trimmed (how TTML reads text).
    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
