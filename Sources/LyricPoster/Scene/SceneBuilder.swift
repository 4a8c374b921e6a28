import Foundation
import LyricsCore

/// Turns a timeline and a time into a `Scene`.
package struct SceneBuilder: Sendable {
    /// How many lines to show around the current one.
    package var before: Int
    package var after: Int
    /// A blank stamp shorter than this keeps the previous line current (a breath, not a break);
    /// longer gaps, and the time before the first line, show the interlude.
    package var interludeThreshold: Timestamp
    package let timeline: Timeline
    package var title: String?
    package var artist: String?
    package var album: String?
    package var language: String?

    /// Longest text shown per line, in characters; longer lines end in "…".
    package var maxLineCharacters: Int
    /// What to do with translation sub-lines.
    package var translations: TranslationMode = .show
    /// The song's length for progress bars: [length:], or the end of the last line.
    package var duration: Timestamp
    /// Scenes depend on the exact time (set when a progress bar is drawn).
    package var timeSensitive = false
    /// Fill the current line as it is sung (`frame`, `sequence`): word by word from enhanced-LRC
    /// word timing, or across the line over its duration when `lineFill` is set.
    package var karaoke = false
    package var lineFill = false

    /// What to do with romanisation sub-lines.
    package var romanisation: RomanisationMode = .show
    /// Agents whose lines are the second voice of a duet.
    private var duetAgents: Set<String> = []

    package typealias RomanisationMode = PosterStyle.Romanisation
    package typealias TranslationMode = PosterStyle.Translations

    package init(lyrics: Lyrics, before: Int = 1, after: Int = 1, language: String? = nil,
                interludeThreshold: Timestamp = Timestamp(milliseconds: 4000),
                maxLineCharacters: Int = DisplayText.maxCharacters) {
        self.maxLineCharacters = maxLineCharacters
        let timeline = Timeline(lyrics)
        self.timeline = timeline
        self.duration = lyrics.length.flatMap { $0 > Timestamp(milliseconds: 0) ? $0 : nil } ?? timeline.end
        self.before = before
        self.after = after
        self.interludeThreshold = interludeThreshold
        func tag(_ value: String?) -> String? {
            guard let value else { return nil }
            let clean = DisplayText.clean(value).replacingOccurrences(of: "\n", with: " ")
            return clean.isEmpty ? nil : clean
        }
        self.title = tag(lyrics.title)
        self.artist = tag(lyrics.artist)
        self.album = tag(lyrics.album)
        self.language = language ?? lyrics.language.flatMap { $0.isEmpty ? nil : $0 }
        self.duetAgents = Self.duetAgents(lyrics)
    }

    /// The agents sung as the duet's second voice: every person (or unnamed-kind) agent after the
    /// first one that sings a line. Groups ("all") and the first singer stay on the lead side.
    static func duetAgents(_ lyrics: Lyrics) -> Set<String> {
        var lead: String?
        var duet: Set<String> = []
        for line in lyrics.lines where line.isSung {
            guard let id = line.agent else { continue }
            let kind = lyrics.agent(id)?.kind ?? .person
            guard kind != .group else { continue }
            if lead == nil { lead = id } else if id != lead { duet.insert(id) }
        }
        return duet
    }

    /// The index of the line shown as current at `time`, or nil for an interlude.
    ///
    /// The line on screen while it is sung, and after it through a silence (a gap line, or the
    /// time between its end and the next line) shorter than the interlude threshold. Of lines
    /// that start together (a duet), the first sung one. Credits are never current.
    package func currentIndex(at time: Timestamp) -> Int? {
        let lines = timeline.lines
        let cursor = timeline.cursor(at: time)
        guard var index = cursor.index, time < timeline.end else { return nil }
        if !(lines[index].isSung && time < lines[index].end) {
            // In a silence: keep the last sung line when the silence is short.
            var steps = 0
            while index >= 0, !lines[index].isSung, steps < 256 { index -= 1; steps += 1 }
            guard index >= 0, lines[index].isSung, let next = cursor.nextIndex else { return nil }
            let silence = lines[next].start.milliseconds - lines[index].end.milliseconds
            guard silence < interludeThreshold.milliseconds else { return nil }
        }
        return timeline.group(of: index).first { lines[$0].isSung } ?? index
    }

    /// The scene at `time`.
    package func scene(at time: Timestamp) -> Scene {
        let lines = timeline.lines
        let current = currentIndex(at: time)
        // Anchor for neighbours: the current line, or in an interlude the last line started.
        let cursor = timeline.cursor(at: time)
        var result: [Scene.Line] = []

        let previousEnd: Int  // neighbours before are taken from indices < previousEnd
        let nextStart: Int
        if let current {
            previousEnd = current
            nextStart = current + 1
        } else if let index = cursor.index {
            previousEnd = lines[index].isSung ? index + 1 : index
            nextStart = index + 1
        } else {
            previousEnd = 0
            nextStart = 0
        }

        // Lines sung together with the current one, drawn with it.
        // (at most two more: a file with many lines at one stamp is not a choir of ten).
        let together = current.map { Array(timeline.group(of: $0).filter { $0 != current && lines[$0].isSung }.prefix(2)) } ?? []
        var previous: [Int] = []
        var i = previousEnd - 1
        while i >= 0, previous.count < before {
            if lines[i].isSung { previous.insert(i, at: 0) }
            i -= 1
        }
        var next: [Int] = []
        i = max(nextStart, (together.last ?? -1) + 1)
        while i < lines.count, next.count < after {
            if lines[i].isSung { next.append(i) }
            i += 1
        }

        result += previous.map { line($0, .previous) }

        if let current {
            for (position, index) in ([current] + together).enumerated() {
                var currentLine = line(index, .current)
                // A second line at one stamp with no singer named is the other voice.
                if position > 0, lines[index].agent == nil { currentLine.voice = .duet }
                if karaoke, translations != .only {
                    currentLine.sung = sung(lines[index].words, text: currentLine.text, start: lines[index].start,
                                            end: lines[index].end, at: time)
                    if let backing = lines[index].background, let shown = currentLine.backing?.text {
                        currentLine.backing?.sung = sung(backing.words, text: shown, start: backing.start, end: backing.end,
                                                         at: time, fillWithoutWords: false)
                    }
                }
                result.append(currentLine)
            }
        } else {
            result.append(Scene.Line(role: .interlude, text: "• • •", translation: nil, language: language, lineIndex: nil))
        }
        result += next.map { line($0, .next) }
        let state: Scene.State
        if current != nil {
            state = .lyric
        } else if let first = lines.firstIndex(where: \.isSung), previousEnd <= first {
            state = .intro
        } else if !lines[nextStart...].contains(where: \.isSung) {
            state = .outro
        } else {
            state = .interlude
        }

        // A filling line's progress is in its `sung` shares, so equal shares are the same picture.
        return Scene(time: time, state: state, lineIndex: current, isInterlude: current == nil, lines: result,
                     title: title, artist: artist, album: album, language: language, duration: duration,
                     timeSensitive: timeSensitive)
    }

    /// Line `index` of the timeline in `role`, cleaned for display, with its translation,
    /// romanisation and backing vocals as the options show them.
    func line(_ index: Int, _ role: Scene.Role) -> Scene.Line {
        let l = timeline.lines[index]
        var text = DisplayText.clean(l.text, maxCharacters: maxLineCharacters)
        var translation = l.translation.map { DisplayText.clean($0, maxCharacters: maxLineCharacters) }
        switch translations {
        case .show: break
        case .hide: translation = nil
        case .only:
            if let t = translation, !t.isEmpty { text = t }
            translation = nil
        }
        // A romanisation spells the original: not shown when the translation takes its place.
        let replaced = translations == .only && l.translation?.isEmpty == false
        let romanised = romanisation == .show && !replaced ? l.romanisation.map { DisplayText.clean($0, maxCharacters: maxLineCharacters) } : nil
        var backing = l.background.map { Scene.Backing(text: DisplayText.clean($0.text, maxCharacters: maxLineCharacters)) }
        if backing?.text.isEmpty == true { backing = nil }
        let voice: Scene.Voice = l.agent.map { duetAgents.contains($0) ? .duet : .lead } ?? .lead
        var shown = Scene.Line(role: role, text: text, translation: translation,
                               romanisation: romanised?.isEmpty == false ? romanised : nil, backing: backing, voice: voice,
                               language: FontSetup.language(of: text, songLanguage: language), lineIndex: index)
        if text == l.text { shown.ruby = Self.ruby(l.words) }
        return shown
    }

    /// The readings of `words` as character ranges of their joined text (whose outer spaces are
    /// trimmed, as the line's text is).
    static func ruby(_ words: [Word]) -> [Scene.Ruby] {
        guard words.contains(where: { $0.ruby != nil }) else { return [] }
        var marks: [Scene.Ruby] = []
        var offset = -(words.first?.text.prefix { $0.isWhitespace }.count ?? 0)
        for word in words {
            let count = word.text.count
            if let reading = word.ruby, !reading.isEmpty {
                let core = word.text.trimmingCharacters(in: .whitespaces).count
                let lead = word.text.prefix { $0.isWhitespace }.count
                let start = offset + lead
                if start >= 0, core > 0 { marks.append(Scene.Ruby(range: start..<(start + core), text: reading)) }
            }
            offset += count
        }
        return marks
    }

    /// How far each character of `text` has been sung at `time`: from the line's word timing
    /// (a word fills evenly over its duration, character by character), else — with `lineFill` —
    /// across the whole line over its duration. Empty when there is nothing to fill (no timing,
    /// or the shown text no longer matches the words, e.g. after cleaning).
    func sung(_ words: [Word], text: String, start: Timestamp, end: Timestamp, at time: Timestamp,
              fillWithoutWords: Bool = true) -> [Double] {
        let t = Double(time.milliseconds)
        func fraction(_ start: Timestamp, _ end: Timestamp) -> Double {
            guard end > start else { return t >= Double(start.milliseconds) ? 1 : 0 }
            return min(1, max(0, (t - Double(start.milliseconds)) / Double(end.milliseconds - start.milliseconds)))
        }
        if !words.isEmpty {
            var shares: [Double] = []
            for word in words {
                let f = fraction(word.start, word.end)
                let n = Double(word.text.count)
                for k in 0..<word.text.count { shares.append(min(1, max(0, f * n - Double(k)))) }
            }
            // The shown text is the words joined, minus outer spaces.
            let joined = Array(words.map(\.text).joined())
            let leading = joined.prefix { $0.isWhitespace }.count
            let trailing = joined.reversed().prefix { $0.isWhitespace }.count
            guard leading + trailing < joined.count,
                  String(joined[leading..<(joined.count - trailing)]) == text else { return [] }
            return Array(shares[leading..<(shares.count - trailing)])
        }
        guard lineFill, fillWithoutWords else { return [] }
        let f = fraction(start, end)
        let n = Double(text.count)
        return (0..<text.count).map { min(1, max(0, f * n - Double($0))) }
    }
}

extension SceneBuilder {
    /// The scene of a share card: the lines at `indices` (into the timeline's lines, sung lines,
    /// in order), every one a `quote`, with the song's title and artist, and an `ellipsis` line
    /// after each position in `gaps` (where the card leaves lines out). Its time is the first
    /// chosen line's start.
    package func quote(_ indices: [Int], gaps: Set<Int> = []) -> Scene {
        var lines: [Scene.Line] = []
        for (k, index) in indices.enumerated() {
            var line = line(index, .quote)
            // Lines chosen together are one voice on a card: a duet's second singer is marked in
            // centred themes only, and never moved to the other side.
            line.voice = .lead
            lines.append(line)
            if gaps.contains(k), k + 1 < indices.count {
                lines.append(Scene.Line(role: .ellipsis, text: "…", translation: nil, language: nil, lineIndex: nil))
            }
        }
        let time = indices.first.map { timeline.lines[$0].start } ?? .zero
        // No duration: a card is not an instant of the song, so it has no progress bar.
        return Scene(time: time, state: .quote, lineIndex: indices.first, isInterlude: false, lines: lines,
                     title: title, artist: artist, album: album, language: language, duration: nil,
                     timeSensitive: false)
    }
}
