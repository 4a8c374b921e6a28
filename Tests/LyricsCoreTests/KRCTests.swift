import Foundation
import Testing
@testable import LyricsCore

/// Kugou's KRC: the container, relative syllables, the [language:] rows, and hostile input. Lyrics
/// are made up; `.krc` fixtures come from the test encoder.
@Suite struct KRCTests {
    static let cases: [TimedCase] = [
        TimedCase("offsets relative to the line", "[1000,1000]<0,500,0>Tin <500,500,0>roof",
                  [TimedLine(1000, 2000, "Tin roof", [W(1000, 1500, "Tin "), W(1500, 2000, "roof")])]),
        TimedCase("the line ends at its last syllable, not at a song-long header", "[1000,300000]<0,400,0>last",
                  [TimedLine(1000, 1400, "last", [W(1000, 1400, "last")])]),
        TimedCase("zero-length syllables kept", "[0,300]<0,0,0>a<0,150,0>b<150,150,0>c",
                  [TimedLine(0, 300, "abc", [W(0, 0, "a"), W(0, 150, "b"), W(150, 300, "c")])]),
        TimedCase("offsets that go back are kept in order", "[0,400]<200,200,0>x<0,100,0>y",
                  [TimedLine(0, 400, "xy", [W(200, 400, "x"), W(0, 100, "y")])]),
        TimedCase("a third field other than 0 is ignored", "[0,100]<0,100,7>z",
                  [TimedLine(0, 100, "z", [W(0, 100, "z")])]),
        TimedCase("a < that is not a stamp is text", "[0,200]<0,100,0>a<b <100,100,0>c",
                  [TimedLine(0, 200, "a<b c", [W(0, 100, "a<b "), W(100, 200, "c")])]),
        TimedCase("spaces inside syllables and timed spaces", "[0,600]<0,200,0>Low<200,100,0> <300,300,0>tide ",
                  [TimedLine(0, 600, "Low tide", [W(0, 200, "Low "), W(300, 600, "tide")])]),
        TimedCase("a header without syllables", "[2000,500]plain",
                  [TimedLine(2000, 2500, "plain")]),
        TimedCase("an all-zero line with text", "[2012,0]<0,0,0>hm",
                  [TimedLine(2012, 2012, "hm", [W(2012, 2012, "hm")])]),
        TimedCase("offset subtracted", "[offset:-500]\n[1000,100]<0,100,0>x",
                  [TimedLine(1500, 1600, "x", [W(1500, 1600, "x")])]),
        TimedCase("sorted, stable, CRLF", "[5000,100]<0,100,0>b\r\n[1000,100]<0,100,0>a\r\n",
                  [TimedLine(1000, 1100, "a", [W(1000, 1100, "a")]), TimedLine(5000, 5100, "b", [W(5000, 5100, "b")])]),
        TimedCase("broken stamps are text, huge numbers refused", "[0,100]<1,2,>x<99999999999999999999,1,0>y<0,100,0>z",
                  [TimedLine(0, 100, "<1,2,>x<99999999999999999999,1,0>yz",
                             [W(0, 0, "<1,2,>x<99999999999999999999,1,0>y"), W(0, 100, "z")])]),
    ]

    @Test(arguments: cases) func table(_ test: TimedCase) throws {
        let lyrics = try KRC.parse(test.input)
        #expect(lyrics.format == .krc)
        #expect(lyrics.lines.map(TimedLine.init) == test.expected)
        #expect(invariantViolations(lyrics).isEmpty, "\(invariantViolations(lyrics))")
    }

    static let text = """
        [id:$00000000]
        [ar:Nobody]
        [ti:Paper Kites]
        [total:9000]
        [offset:0]
        [language:\(LyricEncoders.krcLanguage(translations: [["纸风筝"], ["//"], ["爬"]],
                                                romanisations: [["pei ", "pa "], ["", ""], ["klaim "]]))]
        [1000,1000]<0,500,0>Paper <500,500,0>kites
        [2100,100]<0,100,0>
        [2500,8000]<0,800,0>climb
        """

    @Test func fileReadsWithTranslationAndRomanisation() throws {
        let lyrics = try LyricsReader.load(LyricEncoders.krc(Self.text))
        #expect(lyrics.format == .krc)
        #expect(lyrics.title == "Paper Kites")
        #expect(lyrics.length?.milliseconds == 9000)
        #expect(lyrics.lines.map(\.text) == ["Paper kites", "climb"])
        #expect(lyrics.lines.map(\.translation) == ["纸风筝", "爬"])
        #expect(lyrics.lines.map(\.romanisation) == ["pei pa", "klaim"])
        #expect(lyrics.lines[1].end.milliseconds == 3300)
        #expect(invariantViolations(lyrics).isEmpty)
    }

    @Test func withoutBOMAndWithEscapedJSON() throws {
        let json = #"{"content":[{"language":0,"type":1,"lyricContent":[["\u7eb8"]]}],"version":1}"#
        let text = "[language:\(Data(json.utf8).base64EncodedString())]\n[0,100]<0,100,0>paper"
        let lyrics = try LyricsReader.load(LyricEncoders.krc(text, bom: false))
        #expect(lyrics.lines.first?.translation == "纸")
    }

    @Test func badLanguageTagIsIgnored() throws {
        for value in ["!!!", Data("not json".utf8).base64EncodedString(), Data(#"{"content":"x"}"#.utf8).base64EncodedString(),
                      Data(#"{"content":[{"type":"1","lyricContent":[["a"]]}]}"#.utf8).base64EncodedString(),
                      Data(("[" + String(repeating: "[", count: 5000)).utf8).base64EncodedString()] {
            let lyrics = try KRC.parse("[language:\(value)]\n[0,100]<0,100,0>a")
            #expect(lyrics.lines.map(\.text) == ["a"])
            #expect(lyrics.lines[0].translation == nil)
        }
        // More rows than lines, and fewer, pair by index.
        let rows = LyricEncoders.krcLanguage(translations: [["one"], ["two"], ["three"]])
        let lyrics = try KRC.parse("[language:\(rows)]\n[0,100]<0,100,0>a\n[200,100]<0,100,0>b")
        #expect(lyrics.lines.map(\.translation) == ["one", "two"])
    }

    @Test func containerErrors() {
        #expect(throws: LyricsError.invalid("not valid KRC: nothing after the krc1 header")) {
            try LyricsReader.load(Data("krc1".utf8))
        }
        var damaged = [UInt8](LyricEncoders.krc(Self.text))
        damaged[30] ^= 0xFF
        #expect(throws: LyricsError.self) { try LyricsReader.load(Data(damaged)) }
        let truncated = LyricEncoders.krc(Self.text).prefix(40)
        do {
            _ = try LyricsReader.load(truncated)
            Issue.record("a truncated KRC read")
        } catch {
            #expect(error.description.hasPrefix("not valid KRC: the lyrics do not inflate"))
        }
        // Not UTF-8 inside.
        #expect(throws: LyricsError.invalid("not valid KRC: the inflated lyrics are not UTF-8 text")) {
            try LyricsReader.load(LyricEncoders.krc(bytes: [0xFF, 0xFE, 0x00, 0xC3]))
        }
    }

    @Test func decompressionBombStopsAtTheLimit() throws {
        // One GiB of zeros would inflate from about a megabyte; 64 MiB keeps the test quick and is
        // still eight times the limit.
        let zeros = [UInt8](repeating: 0x41, count: 64 << 20)
        let file = LyricEncoders.krc(bytes: zeros)
        #expect(file.count < 1 << 20)
        #expect(throws: LyricsError.tooLarge("KRC inflates past the limit of \(KRC.Limits.maxBytes) bytes")) {
            try LyricsReader.load(file)
        }
    }

    @Test func sniffedFromContentAndBytes() throws {
        #expect(LyricsFormat.sniff("[ti:a]\n[0,100]<0,100,0>a") == .krc)
        #expect(try LyricsReader.load(LyricEncoders.krc("[0,100]<0,100,0>a"), format: nil).format == .krc)
    }
}
