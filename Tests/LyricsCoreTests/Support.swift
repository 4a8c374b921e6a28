import Foundation
import Testing
@testable import LyricsCore

/// Parses LRC text with default options, for tests whose input is known to be valid.
func lrc(_ text: String, options: LRC.Options = .init()) throws -> Lyrics {
    try LRC.parse(text, options: options)
}

/// The shared real-world corpus (`../shared/testdata/lrc-real` from the package root), or `nil`
/// when this checkout has no `../shared` (a user's clone): corpus tests are then skipped.
let corpusDirectory: URL? = {
    let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // LyricsCoreTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // package root
    let directory = packageRoot.appendingPathComponent("../shared/testdata/lrc-real").standardizedFileURL
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
    else { return nil }
    return directory
}()

/// A line reduced to what most table tests compare.
struct Shown: Hashable, Sendable, CustomStringConvertible {
    var ms: Int
    var text: String
    var translation: String?

    init(_ ms: Int, _ text: String, tr translation: String? = nil) {
        self.ms = ms
        self.text = text
        self.translation = translation
    }

    init(_ line: LyricLine) {
        self.init(line.start.milliseconds, line.text, tr: line.translation)
    }

    var description: String { "\(ms) \(text.debugDescription)" + (translation.map { " tr \($0.debugDescription)" } ?? "") }
}

extension Lyrics {
    var shown: [Shown] { lines.map(Shown.init) }
}

/// Structural promises every parse result keeps, whatever the input.
func invariantViolations(_ lyrics: Lyrics) -> [String] {
    var problems: [String] = []
    if lyrics.lines.isEmpty { problems.append("no lines") }
    for (index, line) in lyrics.lines.enumerated() {
        if line.end < line.start { problems.append("line \(index) ends before it starts") }
        if index + 1 < lyrics.lines.count, lyrics.lines[index + 1].start < line.start {
            problems.append("line \(index + 1) starts before line \(index)")
        }
        // LRC lines tile the song, leaving gaps only where a trailing stamp ends a line early.
        if lyrics.format == .lrc, let later = lyrics.lines[(index + 1)...].first(where: { $0.start > line.start }),
           line.end > later.start {
            problems.append("line \(index) runs into the next")
        }
        if line.text != String(line.text.trimmingWhitespace()) { problems.append("line \(index) text not trimmed") }
        if line.text.isEmpty, line.translation != nil || !line.words.isEmpty { problems.append("blank line \(index) has content") }
        if !line.words.isEmpty, line.words.map(\.text).joined() != line.text {
            problems.append("line \(index) words do not join into its text")
        }
        for word in line.words where word.end < word.start || word.text.isEmpty {
            problems.append("line \(index) has a bad word \(word)")
        }
    }
    return problems
}

/// A line expectation for the YRC and subtitle tables: interval, text, translation, words, agent
/// and whether it is a credit (times in ms).
struct TimedLine: Hashable, Sendable, CustomStringConvertible {
    var start: Int, end: Int, text: String, translation: String?, words: [W], agent: String?, credit: Bool
    init(_ start: Int, _ end: Int, _ text: String, tr translation: String? = nil, _ words: [W] = [],
         agent: String? = nil, credit: Bool = false) {
        (self.start, self.end, self.text, self.translation, self.words, self.agent, self.credit) =
            (start, end, text, translation, words, agent, credit)
    }
    init(_ line: LyricLine) {
        self.init(line.start.milliseconds, line.end.milliseconds, line.text, tr: line.translation, line.words.map(W.init),
                  agent: line.agent, credit: line.role == .credit)
    }
    var description: String {
        "\(start)–\(end) \(text.debugDescription)" + (translation.map { " tr \($0.debugDescription)" } ?? "")
            + (agent.map { " agent \($0)" } ?? "") + (credit ? " credit" : "") + (words.isEmpty ? "" : " \(words)")
    }
}

struct TimedCase: Sendable, CustomTestStringConvertible {
    var name: String
    var input: String
    var expected: [TimedLine]
    var testDescription: String { name }
    init(_ name: String, _ input: String, _ expected: [TimedLine]) {
        (self.name, self.input, self.expected) = (name, input, expected)
    }
}
