import Testing
@testable import LyricsCore

/// A word expectation: start, end, text (display times in ms).
struct W: Hashable, Sendable, CustomStringConvertible {
    var start: Int, end: Int, text: String
    init(_ start: Int, _ end: Int, _ text: String) { (self.start, self.end, self.text) = (start, end, text) }
    init(_ word: Word) { self.init(word.start.milliseconds, word.end.milliseconds, word.text) }
    var description: String { "\(start)–\(end) \(text.debugDescription)" }
}

struct WordCase: Sendable, CustomTestStringConvertible {
    var name: String
    var input: String
    var text: String
    var words: [W]
    var testDescription: String { name }
    init(_ name: String, _ input: String, _ text: String, _ words: [W]) {
        (self.name, self.input, self.text, self.words) = (name, input, text, words)
    }
}

/// Enhanced LRC: `<mm:ss.xx>` (A2) and inline `[mm:ss.xx]` (ESLyric) word tags. Each case's first
/// line is checked; a second line at 00:09.00 (when present) sets the first line's end.
@Suite struct WordTimingTests {
    static let cases: [WordCase] = [
        WordCase("A2 with trailing end tag",
                 "[00:05.20]<00:05.20>Copper <00:05.60>kettles <00:06.10>sing <00:06.40>at <00:06.90>dawn<00:07.50>\n[00:09.00]x",
                 "Copper kettles sing at dawn",
                 [W(5200, 5600, "Copper "), W(5600, 6100, "kettles "), W(6100, 6400, "sing "), W(6400, 6900, "at "), W(6900, 7500, "dawn")]),
        WordCase("A2 spaced on both sides of each tag",
                 "[00:01.00] <00:01.00> Copper <00:01.50> kettles <00:02.00>\n[00:09.00]x",
                 "Copper kettles", [W(1000, 1500, "Copper "), W(1500, 2000, "kettles")]),
        WordCase("last word without an end tag ends with the line",
                 "[00:01.00]<00:01.00>Paper <00:01.40>boats\n[00:09.00]x",
                 "Paper boats", [W(1000, 1400, "Paper "), W(1400, 9000, "boats")]),
        WordCase("delayed first word", "[00:06.47] <00:07.67> Orchard <00:08.00> gate\n[00:09.00]x",
                 "Orchard gate", [W(7670, 8000, "Orchard "), W(8000, 9000, "gate")]),
        WordCase("text before the first tag starts at the line", "[00:04.00] oh <00:04.50> my <00:05.00> \n[00:09.00]x",
                 "oh my", [W(4000, 4500, "oh "), W(4500, 5000, "my")]),
        WordCase("ESLyric inline square tags", "[00:10.82]Test[00:10.97] Word[00:12.62]",
                 "Test Word", [W(10_820, 10_970, "Test "), W(10_970, 12_620, "Word")]),
        WordCase("trailing square tag is an explicit end", "[00:01.00]Hello[00:02.00]\n[00:09.00]x",
                 "Hello", [W(1000, 2000, "Hello")]),
        WordCase("mixed angle and square", "[00:01.00]Rain<00:01.50> on[00:02.00] tin<00:02.50>",
                 "Rain on tin", [W(1000, 1500, "Rain "), W(1500, 2000, "on "), W(2000, 2500, "tin")]),
        WordCase("per character, timed spaces fold into the word before",
                 "[00:01.00]<00:01.00>雨<00:01.20>だ<00:01.40> <00:01.60>ね<00:01.80>",
                 "雨だ ね", [W(1000, 1200, "雨"), W(1200, 1400, "だ "), W(1600, 1800, "ね")]),
        WordCase("zero-length words", "[00:29.00]<00:29.00>go<00:29.76>（<00:29.76>me<00:29.88>）<00:29.88>;",
                 "go（me）;", [W(29_000, 29_760, "go"), W(29_760, 29_760, "（"), W(29_760, 29_880, "me"),
                              W(29_880, 29_880, "）"), W(29_880, 34_000, ";")]),
        WordCase("a tag with nothing after it leaves a gap", "[00:01.00]<00:01.00>one<00:02.00><00:03.00>two<00:04.00>",
                 "onetwo", [W(1000, 2000, "one"), W(3000, 4000, "two")]),
        WordCase("a backward tag starts a word that follows on; a trailing one that goes back ends nothing",
                 "[00:05.00]<00:05.00>a<00:04.00>b<00:04.50>", "ab", [W(5000, 5000, "a"), W(5000, 10_000, "b")]),
        WordCase("inner spacing inside a word is kept", "[00:01.00]<00:01.00>far  away<00:02.00>",
                 "far  away", [W(1000, 2000, "far  away")]),
        WordCase("phrases", "[00:20.00] first phrase <00:22.00> second, phrase！ <00:24.00> (third) ",
                 "first phrase second, phrase！ (third)",
                 [W(20_000, 22_000, "first phrase "), W(22_000, 24_000, "second, phrase！ "), W(24_000, 25_000, "(third)")]),
        WordCase("no word tags → no words", "[00:01.00]plain", "plain", []),
        WordCase("only tags → gap line", "[00:01.00]<00:01.00> <00:02.00>", "", []),
        WordCase("stray angles with word tags", "[00:01.00]<00:01.00>a < b<00:02.00>", "a < b", [W(1000, 2000, "a < b")]),
    ]

    @Test(arguments: cases)
    func words(_ testCase: WordCase) throws {
        let lyrics = try lrc(testCase.input)
        let line = try #require(lyrics.lines.first)
        #expect(line.text == testCase.text)
        #expect(line.words.map(W.init) == testCase.words)
        #expect(invariantViolations(lyrics) == [])
    }

    @Test func fanOutKeepsAbsoluteWordTimes() throws {
        let lyrics = try lrc("[00:01.00][00:11.00]la <00:01.50>la\n[00:20.00]x")
        #expect(lyrics.lines[0].words.map(W.init) == [W(1000, 1500, "la "), W(1500, 11_000, "la")])
        // The leading word starts with its own copy of the line; the tagged word, stamped before this
        // copy, follows on from it (Word.place).
        #expect(lyrics.lines[1].words.map(W.init) == [W(11_000, 11_000, "la "), W(11_000, 20_000, "la")])
    }

    @Test func squareTagsBeforeTextAreLineTags() throws {
        let lyrics = try lrc("[00:01.00] [00:02.00] hi")
        #expect(lyrics.shown == [Shown(1000, "hi"), Shown(2000, "hi")])
        #expect(lyrics.lines.allSatisfy { $0.words.isEmpty })
    }
}
