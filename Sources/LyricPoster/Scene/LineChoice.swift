import Foundation
import LyricsCore

/// Which lyric lines a share card shows: ranges of line numbers, the lines a quote is taken
/// from, or the line sung at a time and those after it. Resolved against the lyrics into indices
/// of their lines (sung lines only, in order; consecutive except between ranges of numbers).
package enum LineChoice: Hashable, Sendable {
    /// Line numbers, 1-based, as `inspect --text` numbers them: ranges in ascending order, none
    /// overlapping (`3,7-8` is `[3...3, 7...8]`). A card marks each gap between them with "…".
    case numbers([ClosedRange<Int>])
    /// The line(s) whose text contains this quote (see ``normalise(_:)``).
    case quote(String)
    /// The line sung at this time (or, between lines, the next one) and `count − 1` after it.
    case at(Timestamp, count: Int)

    /// Most lines one card takes by default.
    package static let maxLines = 8
    /// Most lines a card may be allowed (`--max-lines`); whether they fit is the canvas's say.
    package static let maxLinesLimit = 16

    /// Parses `--lines`: `7`, `3-5`, or such ranges joined by commas (`3,7-8`), in ascending
    /// order and not overlapping; spaces allowed around the dash and commas. Nil when malformed.
    package static func parseNumbers(_ text: String) -> [ClosedRange<Int>]? {
        var ranges: [ClosedRange<Int>] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = parts.first.flatMap({ Int($0) }), first >= 1 else { return nil }
            var range = first...first
            if parts.count == 2 {
                guard let last = Int(parts[1]), last >= first else { return nil }
                range = first...last
            }
            if let previous = ranges.last, range.lowerBound <= previous.upperBound { return nil }
            ranges.append(range)
        }
        return ranges.isEmpty ? nil : ranges
    }

    /// How many lines `ranges` number.
    package static func count(_ ranges: [ClosedRange<Int>]) -> Int { ranges.reduce(0) { $0 + $1.count } }

    /// The indices into `lyrics.lines` of the chosen lines, in order; at most `limit` of them.
    /// `lyricsPath` names the file in errors (a choice the lyrics cannot satisfy is an input error).
    package func resolve(in lyrics: Lyrics, scenes: SceneBuilder, lyricsPath: String, limit: Int = LineChoice.maxLines) throws(PosterError) -> [Int] {
        let numbered = lyrics.numberedLines
        guard !numbered.isEmpty else { throw .lineChoice(path: lyricsPath, .noLines) }
        let chosen: [Int]
        switch self {
        case .numbers(let ranges):
            if let past = ranges.first(where: { $0.upperBound > numbered.count }) {
                throw .lineChoice(path: lyricsPath, .pastTheEnd(past, available: numbered.count))
            }
            chosen = ranges.flatMap { numbered[($0.lowerBound - 1)...($0.upperBound - 1)] }
        case .quote(let quote):
            chosen = try Self.match(quote, in: lyrics, numbered: numbered, lyricsPath: lyricsPath)
        case .at(let time, let count):
            let first: Int
            if let current = scenes.currentIndex(at: time), let n = numbered.firstIndex(of: current) {
                first = n
            } else if let n = numbered.firstIndex(where: { lyrics.lines[$0].start > time }) {
                first = n
            } else {
                throw .lineChoice(path: lyricsPath, .nothingSungAfter(time))
            }
            chosen = Array(numbered[first..<min(numbered.count, first + count)])
        }
        guard chosen.count <= limit else {
            throw .lineChoice(path: lyricsPath, .tooManyLines(chosen.count, limit: limit))
        }
        return chosen
    }

    /// Where a card of `chosen` (indices into `lyrics.lines`) skips lines: the positions in
    /// `chosen` after which the next chosen line is not the next numbered line.
    package static func gaps(in chosen: [Int], lyrics: Lyrics) -> Set<Int> {
        let position = Dictionary(lyrics.numberedLines.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var gaps = Set<Int>()
        for k in chosen.indices.dropLast() {
            if let a = position[chosen[k]], let b = position[chosen[k + 1]], b != a + 1 { gaps.insert(k) }
        }
        return gaps
    }

    package static func describe(_ range: ClosedRange<Int>) -> String {
        range.count == 1 ? "\(range.lowerBound)" : "\(range.lowerBound)-\(range.upperBound)"
    }

    package static func describe(_ ranges: [ClosedRange<Int>]) -> String { ranges.map { describe($0) }.joined(separator: ",") }

    // MARK: Quotes

    /// Text as quotes are matched: compatibility-folded (full-width letters and digits as their
    /// ASCII forms, ligatures split), case-folded, diacritics kept, and every run of white space
    /// one space, trimmed. Punctuation is kept.
    package static func normalise(_ text: String) -> String {
        let folded = text.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
        return folded.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The numbered lines the quote is taken from: its first occurrence in the song's lines read
    /// as one text (each line followed by a space), so a quote running from the end of one line
    /// into the next picks both.
    static func match(_ quote: String, in lyrics: Lyrics, numbered: [Int], lyricsPath: String) throws(PosterError) -> [Int] {
        let needle = normalise(quote)
        guard !needle.isEmpty else { throw .lineChoice(path: lyricsPath, .emptyQuote) }
        let texts = numbered.map { normalise(lyrics.lines[$0].text) }
        // Where each line starts in the joined text, in characters.
        var starts: [Int] = []
        var joined = ""
        var length = 0
        for text in texts {
            starts.append(length)
            joined += text + " "
            length += text.count + 1
        }
        guard let found = joined.range(of: needle) else {
            let best = texts.indices.max { closeness(needle, texts[$0]) < closeness(needle, texts[$1]) } ?? 0
            throw PosterError(path: lyricsPath, reason: "no line contains \"\(quote)\"; the closest is line \(best + 1): \"\(lyrics.lines[numbered[best]].text)\"")
        }
        let lower = joined.distance(from: joined.startIndex, to: found.lowerBound)
        let upper = joined.distance(from: joined.startIndex, to: found.upperBound)
        // Lines whose text (not the space after it) the match overlaps.
        let chosen = texts.indices.filter { n in
            let start = starts[n], end = starts[n] + texts[n].count
            return lower < end && upper > start
        }
        return chosen.map { numbered[$0] }
    }

    /// How alike two texts are: the share of the quote's character pairs found in the line
    /// (Dice's coefficient on bigrams), enough to name the line someone meant.
    static func closeness(_ quote: String, _ line: String) -> Double {
        func bigrams(_ s: String) -> [String: Int] {
            let c = Array(s)
            var counts: [String: Int] = [:]
            if c.count == 1 { counts[String(c)] = 1 }
            for i in c.indices.dropLast() { counts[String(c[i...i + 1]), default: 0] += 1 }
            return counts
        }
        let a = bigrams(quote), b = bigrams(line)
        let total = a.values.reduce(0, +) + b.values.reduce(0, +)
        guard total > 0 else { return 0 }
        let shared = a.reduce(0) { $0 + min($1.value, b[$1.key] ?? 0) }
        return 2 * Double(shared) / Double(total)
    }
}
