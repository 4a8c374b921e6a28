import Foundation
import Testing
@testable import LyricsCore

/// ESLyric's word LRC: a stamp after each word ends it. Cases learned from the peers' tables
/// (AMLL's eslrc tests, ESLyric's own converters); lyrics made up.
@Suite struct ESLyricTests {
    static let cases: [TimedCase] = [
        TimedCase("each stamp ends the word before it", "[00:10.82]Test[00:10.97] Word[00:12.62]",
                  [TimedLine(10820, 12620, "Test Word", [W(10820, 10970, "Test "), W(10970, 12620, "Word")])]),
        TimedCase("three-digit fractions", "[00:01.000]a[00:01.250]b[00:01.500]",
                  [TimedLine(1000, 1500, "ab", [W(1000, 1250, "a"), W(1250, 1500, "b")])]),
        TimedCase("a zero stamp after a timed space follows on", "[00:10.000]For[00:10.361] [00:00.000]the[00:10.533]",
                  [TimedLine(10000, 10533, "For the", [W(10000, 10361, "For "), W(10361, 10533, "the")])]),
        TimedCase("a backward stamp still ends a word", "[00:05.000]one[00:05.500]two[00:05.400]three[00:06.000]",
                  [TimedLine(5000, 6000, "onetwothree", [W(5000, 5500, "one"), W(5500, 5500, "two"), W(5500, 6000, "three")])]),
        TimedCase("two stamps with nothing between leave a gap", "[00:04.00]Gap[00:04.50][00:05.00]word[00:05.50]",
                  [TimedLine(4000, 5500, "Gapword", [W(4000, 4500, "Gap"), W(5000, 5500, "word")])]),
        TimedCase("equal stamps around a text give it no length", "[00:02.00]still[00:02.00]",
                  [TimedLine(2000, 2000, "still", [W(2000, 2000, "still")])]),
        TimedCase("no closing stamp: the last word runs to the next line",
                  "[00:01.00]open[00:01.50]end\n[00:03.00]next[00:03.50]",
                  [TimedLine(1000, 3000, "openend", [W(1000, 1500, "open"), W(1500, 3000, "end")]),
                   TimedLine(3000, 3500, "next", [W(3000, 3500, "next")])]),
        TimedCase("CRLF and tags", "[ti:x]\r\n[00:01.00]a[00:01.50]b[00:02.00]\r\n",
                  [TimedLine(1000, 2000, "ab", [W(1000, 1500, "a"), W(1500, 2000, "b")])]),
        TimedCase("lines sorted by their stamp", "[00:09.00]late[00:09.50]\n[00:01.00]early[00:01.50]",
                  [TimedLine(1000, 1500, "early", [W(1000, 1500, "early")]), TimedLine(9000, 9500, "late", [W(9000, 9500, "late")])]),
    ]

    @Test(arguments: cases) func table(_ test: TimedCase) throws {
        let lyrics = try LRC.parseESLyric(test.input)
        #expect(lyrics.format == .eslrc)
        #expect(lyrics.lines.filter { !$0.isBlank }.map(TimedLine.init) == test.expected)
    }

    @Test func translationOnTheSameStamp() throws {
        let lyrics = try LRC.parseESLyric("[00:01.00]纸[00:01.50]风[00:02.00]\n[00:01.00]Paper wind")
        #expect(lyrics.lines.first?.text == "纸风")
        #expect(lyrics.lines.first?.translation == "Paper wind")
    }

    @Test func sniffedOnlyWhenWordsEndInBrackets() {
        #expect(LyricsFormat.sniff("[00:01.00]a [00:01.50]b [00:02.00]c[00:02.50]\n[00:03.00]d [00:03.50]e[00:04.00]") == .eslrc)
        #expect(LyricsFormat.sniff("[00:01.00]<00:01.00>a <00:01.50>b<00:02.00>") == .lrc)
        #expect(LyricsFormat.sniff("[00:01.00]plain line\n[00:02.00]another") == .lrc)
        #expect(LyricsFormat.sniff("[00:01.00]one line with an end[00:02.00]") == .lrc)
    }

    @Test func plainLRCReadsBackwardStampsByTheSharedRule() throws {
        // Read as LRC a tag starts a word, which lasts until the next tag that can be placed; a
        // stamp earlier than the one before it starts a word that follows on (Word.place), here
        // at the line's closing stamp. Read as ESLyric a stamp after a word ends it.
        let lyrics = try LRC.parse("[00:05.000]one[00:05.500]two[00:05.400]three[00:06.000]")
        #expect(lyrics.lines[0].words.map(\.text) == ["one", "two", "three"])
        #expect(lyrics.lines[0].words.map(\.start.milliseconds) == [5000, 5500, 6000])
        #expect(lyrics.lines[0].words.map(\.end.milliseconds) == [5500, 6000, 6000])
        let eslyric = try LRC.parseESLyric("[00:05.000]one[00:05.500]two[00:05.400]three[00:06.000]")
        #expect(eslyric.lines[0].words.map(\.start.milliseconds) == [5000, 5500, 5500])
        #expect(eslyric.lines[0].words.map(\.end.milliseconds) == [5500, 5500, 6000])
    }
}
