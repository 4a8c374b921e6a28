import Foundation
import LyricsCore

/// Turns a timeline and a time into a `Scene`.
public struct SceneBuilder: Sendable {
    /// How many lines to show around the current one.
    public var before: Int
    public var after: Int
    /// A blank stamp shorter than this keeps the previous line current (a breath, not a break);
    /// longer gaps, and the time before the first line, show the interlude.
    public var interludeThreshold: Timestamp
    public let timeline: Timeline
    public var title: String?
    public var artist: String?
    public var album: String?
    public var language: String?

    /// Longest text shown per line, in characters; longer lines end in "…".
    public var maxLineCharacters: Int
    /// What to do with translation sub-lines.
    public var translations: TranslationMode = .show
    /// The song's length for progress bars: [length:], or the end of the last line.
    public var duration: Timestamp
    /// Scenes depend on the exact time (set when a progress bar is drawn).
    public var timeSensitive = false
    /// Fill the current line as it is sung (`frame`, `sequence`): word by word from enhanced-LRC
    /// word timing, or across the line over its duration when `lineFill` is set.
    public var karaoke = false
    public var lineFill = false

    public enum TranslationMode: String, Sendable, CaseIterable {
        /// Under their lines.
        case show
        /// Not at all.
        case hide
        /// Instead of the lines they translate (lines without one keep their text).
        case only
    }

    public init(lyrics: Lyrics, before: Int = 1, after: Int = 1, language: String? = nil,
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
    }

    /// The index of the line shown as current at `time`, or nil for an interlude.
    public func currentIndex(at time: Timestamp) -> Int? {
        let lines = timeline.lines
        guard var index = timeline.cursor(at: time).index else { return nil }
        if time >= timeline.end { return nil }
        guard lines[index].text.isEmpty else { return index }
        // A short blank: keep the last non-blank line before it, if the gap is short.
        let gap = lines[index].end.milliseconds - lines[index].start.milliseconds
        guard gap < interludeThreshold.milliseconds else { return nil }
        while index > 0, lines[index].text.isEmpty { index -= 1 }
        return lines[index].text.isEmpty ? nil : index
    }

    /// The scene at `time`.
    public func scene(at time: Timestamp) -> Scene {
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
            previousEnd = lines[index].text.isEmpty ? index : index + 1
            nextStart = index + 1
        } else {
            previousEnd = 0
            nextStart = 0
        }

        var previous: [Int] = []
        var i = previousEnd - 1
        while i >= 0, previous.count < before {
            if !lines[i].text.isEmpty { previous.insert(i, at: 0) }
            i -= 1
        }
        var next: [Int] = []
        i = nextStart
        while i < lines.count, next.count < after {
            if !lines[i].text.isEmpty { next.append(i) }
            i += 1
        }

        func line(_ index: Int, _ role: Scene.Role) -> Scene.Line {
            let l = lines[index]
            var text = DisplayText.clean(l.text, maxCharacters: maxLineCharacters)
            var translation = l.translation.map { DisplayText.clean($0, maxCharacters: maxLineCharacters) }
            switch translations {
            case .show: break
            case .hide: translation = nil
            case .only:
                if let t = translation, !t.isEmpty { text = t }
                translation = nil
            }
            return Scene.Line(role: role, text: text, translation: translation,
                              language: FontSetup.language(of: text, songLanguage: language), lineIndex: index)
        }
        result += previous.map { line($0, .previous) }

        if let current {
            var currentLine = line(current, .current)
            if karaoke, translations != .only { currentLine.sung = sung(lines[current], text: currentLine.text, at: time) }
            result.append(currentLine)
        } else {
            result.append(Scene.Line(role: .interlude, text: "• • •", translation: nil, language: language, lineIndex: nil))
        }
        result += next.map { line($0, .next) }
        let state: Scene.State
        if current != nil {
            state = .lyric
        } else if let first = lines.firstIndex(where: { !$0.text.isEmpty }), previousEnd <= first {
            state = .intro
        } else if !lines[nextStart...].contains(where: { !$0.text.isEmpty }) {
            state = .outro
        } else {
            state = .interlude
        }

        // A filling line's progress is in its `sung` shares, so equal shares are the same picture.
        return Scene(time: time, state: state, lineIndex: current, isInterlude: current == nil, lines: result,
                     title: title, artist: artist, album: album, language: language, duration: duration,
                     timeSensitive: timeSensitive)
    }

    /// How far each character of `text` has been sung at `time`: from the line's word timing
    /// (a word fills evenly over its duration, character by character), else — with `lineFill` —
    /// across the whole line over its duration. Empty when there is nothing to fill (no timing,
    /// or the shown text no longer matches the words, e.g. after cleaning).
    func sung(_ line: LyricLine, text: String, at time: Timestamp) -> [Double] {
        let t = Double(time.milliseconds)
        func fraction(_ start: Timestamp, _ end: Timestamp) -> Double {
            guard end > start else { return t >= Double(start.milliseconds) ? 1 : 0 }
            return min(1, max(0, (t - Double(start.milliseconds)) / Double(end.milliseconds - start.milliseconds)))
        }
        if !line.words.isEmpty {
            var shares: [Double] = []
            for word in line.words {
                let f = fraction(word.start, word.end)
                let n = Double(word.text.count)
                for k in 0..<word.text.count { shares.append(min(1, max(0, f * n - Double(k)))) }
            }
            // The shown text is the words joined, minus outer spaces.
            let joined = Array(line.words.map(\.text).joined())
            let leading = joined.prefix { $0.isWhitespace }.count
            let trailing = joined.reversed().prefix { $0.isWhitespace }.count
            guard leading + trailing < joined.count,
                  String(joined[leading..<(joined.count - trailing)]) == text else { return [] }
            return Array(shares[leading..<(shares.count - trailing)])
        }
        guard lineFill else { return [] }
        let f = fraction(line.start, line.end)
        let n = Double(text.count)
        return (0..<text.count).map { min(1, max(0, f * n - Double($0))) }
    }
}
