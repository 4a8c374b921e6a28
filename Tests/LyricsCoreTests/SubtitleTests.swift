import Foundation
import Testing
@testable import LyricsCore
import TestSupport

/// SubRip and WebVTT cues read as lyric lines. Texts are made up for the tests.
@Suite struct SubtitleTests {
    static let srtCases: [TimedCase] = [
        TimedCase("two cues, the gap between them kept", """
            1
            00:00:01,000 --> 00:00:02,500
            Paper kites

            2
            00:00:03,000 --> 00:00:04,000
            climb the hill

            """, [TimedLine(1000, 2500, "Paper kites"), TimedLine(3000, 4000, "climb the hill")]),
        TimedCase("second text line is the translation", "1\n00:00:01,000 --> 00:00:02,000\nPaper kites\n纸风筝\n",
                [TimedLine(1000, 2000, "Paper kites", tr: "纸风筝")]),
        TimedCase("lines after the first join as the translation", "1\n00:00:01,000 --> 00:00:02,000\nA line\nuna línea\n一行\n",
                [TimedLine(1000, 2000, "A line", tr: "una línea\n一行")]),
        TimedCase("formatting tags stripped",
                "1\n00:00:01,000 --> 00:00:02,000\n<i>Paper</i> <B>kites</B> <u>climb</u> <font color=\"#ff0000\">high</font>",
                [TimedLine(1000, 2000, "Paper kites climb high")]),
        TimedCase("ASS override blocks stripped", "1\n00:00:01,000 --> 00:00:02,000\n{\\an8}Top line{\\i1}!",
                [TimedLine(1000, 2000, "Top line!")]),
        TimedCase("plain braces and stray angles stay", "1\n00:00:01,000 --> 00:00:02,000\n{la} a < b > c <unknown>",
                [TimedLine(1000, 2000, "{la} a < b > c <unknown>")]),
        TimedCase("entities decoded", "1\n00:00:01,000 --> 00:00:02,000\nSalt &amp; pepper &lt;3&gt; &copy;&nbsp;",
                [TimedLine(1000, 2000, "Salt & pepper <3> &copy;")]),
        TimedCase("missing index", "00:00:01,000 --> 00:00:02,000\nNo index here\n\n00:00:03,000 --> 00:00:04,000\nNor here",
                [TimedLine(1000, 2000, "No index here"), TimedLine(3000, 4000, "Nor here")]),
        TimedCase("dot separator", "1\n00:00:01.000 --> 00:00:02.250\nDotted", [TimedLine(1000, 2250, "Dotted")]),
        TimedCase("one-digit hours and missing hours", "1\n1:00:01,000 --> 1:00:02,000\nLate\n\n2\n00:01,500 --> 00:02,000\nEarly",
                [TimedLine(1500, 2000, "Early"), TimedLine(3_601_000, 3_602_000, "Late")]),
        TimedCase("out-of-order cues sorted", "2\n00:00:05,000 --> 00:00:06,000\nSecond\n\n1\n00:00:01,000 --> 00:00:02,000\nFirst",
                [TimedLine(1000, 2000, "First"), TimedLine(5000, 6000, "Second")]),
        TimedCase("overlapping cues kept", "00:00:01,000 --> 00:00:05,000\nLong\n\n00:00:02,000 --> 00:00:03,000\nShort",
                [TimedLine(1000, 5000, "Long"), TimedLine(2000, 3000, "Short")]),
        TimedCase("CRLF", "1\r\n00:00:01,000 --> 00:00:02,000\r\nOne\r\nUno\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\nTwo\r\n",
                [TimedLine(1000, 2000, "One", tr: "Uno"), TimedLine(3000, 4000, "Two")]),
        TimedCase("BOM", "\u{FEFF}1\n00:00:01,000 --> 00:00:02,000\nOne", [TimedLine(1000, 2000, "One")]),
        TimedCase("no blank line between cues: the index is not text",
                "1\n00:00:01,000 --> 00:00:02,000\nOne\n2\n00:00:03,000 --> 00:00:04,000\nTwo",
                [TimedLine(1000, 2000, "One"), TimedLine(3000, 4000, "Two")]),
        TimedCase("end before start lasts zero", "00:00:05,000 --> 00:00:04,000\nBackwards", [TimedLine(5000, 5000, "Backwards")]),
        TimedCase("empty cues dropped",
                "1\n00:00:01,000 --> 00:00:02,000\n<i></i>\n\n2\n00:00:02,000 --> 00:00:03,000\n\n3\n00:00:03,000 --> 00:00:04,000\nKept",
                [TimedLine(3000, 4000, "Kept")]),
        TimedCase("empty first line: the next one is the text", "1\n00:00:01,000 --> 00:00:02,000\n <b> </b>\nReal\nTranslated",
                [TimedLine(1000, 2000, "Real", tr: "Translated")]),
        TimedCase("coordinates after the end time", "1\n00:00:01,000 --> 00:00:02,000  X1:100 X2:200 Y1:10 Y2:20\nPlaced",
                [TimedLine(1000, 2000, "Placed")]),
        TimedCase("short and long fractions", "00:00:01,5 --> 00:00:02,2509\nFractions", [TimedLine(1500, 2250, "Fractions")]),
        TimedCase("malformed timing skipped", "1\n00:00:01 --> 00:00:02\nBad\n\n2\n00:00:03,000 --> 00:00:04,000\nGood",
                [TimedLine(3000, 4000, "Good")]),
        TimedCase("leading credits marked", "1\n00:00:00,000 --> 00:00:01,000\nLyrics by Somebody\n\n2\n00:00:02,000 --> 00:00:03,000\nSung",
                [TimedLine(0, 1000, "Lyrics by Somebody", credit: true), TimedLine(2000, 3000, "Sung")]),
        TimedCase("inner spacing kept, ends trimmed", "1\n00:00:01,000 --> 00:00:02,000\n   far   away   ",
                [TimedLine(1000, 2000, "far   away")]),
    ]

    @Test(arguments: srtCases)
    func srt(_ testCase: TimedCase) throws {
        let lyrics = try Subtitles.parse(testCase.input, dialect: .srt)
        #expect(lyrics.lines.map(TimedLine.init) == testCase.expected)
        #expect(lyrics.format == .srt)
        #expect(invariantViolations(lyrics) == [])
    }

    static let vttCases: [TimedCase] = [
        TimedCase("header block ignored", """
            WEBVTT - A made-up title
            Kind: captions
            Language: en

            00:01.000 --> 00:02.000
            Hello there
            """, [TimedLine(1000, 2000, "Hello there")]),
        TimedCase("NOTE, STYLE and REGION blocks skipped", """
            WEBVTT

            STYLE
            ::cue { color: red }

            REGION
            id:fred
            width:40%

            NOTE a comment
            that spans lines

            intro
            00:01.000 --> 00:02.000
            Hello

            NOTE

            00:00:03.000 --> 00:00:04.000
            World
            """, [TimedLine(1000, 2000, "Hello"), TimedLine(3000, 4000, "World")]),
        TimedCase("cue settings ignored", "WEBVTT\n\n00:01.000 --> 00:02.000 align:start position:10% line:0\nPlaced",
                [TimedLine(1000, 2000, "Placed")]),
        TimedCase("voice spans become agents", """
            WEBVTT

            00:01.000 --> 00:02.000
            <v Mira>Paper kites</v>

            00:03.000 --> 00:04.000
            <v.loud Theo Ray>climb</v>

            00:05.000 --> 00:06.000
            <v Mira>again

            00:07.000 --> 00:08.000
            nobody
            """, [TimedLine(1000, 2000, "Paper kites", agent: "Mira"), TimedLine(3000, 4000, "climb", agent: "Theo Ray"),
                  TimedLine(5000, 6000, "again", agent: "Mira"), TimedLine(7000, 8000, "nobody")]),
        TimedCase("inline timestamps become words", "WEBVTT\n\n00:10.000 --> 00:13.000\nab <00:11.000>cd <00:12.500>ef",
                [TimedLine(10_000, 13_000, "ab cd ef", [W(10_000, 11_000, "ab "), W(11_000, 12_500, "cd "), W(12_500, 13_000, "ef")])]),
        TimedCase("inline timestamps with hours", "WEBVTT\n\n00:00:10.000 --> 00:00:12.000\n<00:00:10.000>Tin <00:00:11.000>roof",
                [TimedLine(10_000, 12_000, "Tin roof", [W(10_000, 11_000, "Tin "), W(11_000, 12_000, "roof")])]),
        TimedCase("blank text before the first stamp is no word", "WEBVTT\n\n00:10.000 --> 00:13.000\n <00:10.500>Paper <00:11.000>kites",
                [TimedLine(10_000, 13_000, "Paper kites", [W(10_500, 11_000, "Paper "), W(11_000, 13_000, "kites")])]),
        TimedCase("spaces after a stamp move to the word before", "WEBVTT\n\n00:10.000 --> 00:13.000\nab<00:11.000> cd<00:12.000>  ",
                [TimedLine(10_000, 13_000, "ab cd", [W(10_000, 11_000, "ab "), W(11_000, 12_000, "cd")])]),
        TimedCase("stamps among other tags", "WEBVTT\n\n00:10.000 --> 00:13.000\n<c.red>ab</c> <00:11.000><b>cd</b>",
                [TimedLine(10_000, 13_000, "ab cd", [W(10_000, 11_000, "ab "), W(11_000, 13_000, "cd")])]),
        TimedCase("a backwards stamp is ignored", "WEBVTT\n\n00:10.000 --> 00:13.000\na <00:12.000>b <00:11.000>c",
                [TimedLine(10_000, 13_000, "a b c", [W(10_000, 12_000, "a "), W(12_000, 13_000, "b c")])]),
        TimedCase("stamps outside the cue move to its edges", "WEBVTT\n\n00:10.000 --> 00:13.000\n<00:09.000>a <00:20.000>b",
                [TimedLine(10_000, 13_000, "a b", [W(10_000, 13_000, "a "), W(13_000, 13_000, "b")])]),
        TimedCase("stamps removed from the translation", "WEBVTT\n\n00:10.000 --> 00:13.000\na <00:11.000>b\n<00:11.000>tr<00:12.000>ans",
                [TimedLine(10_000, 13_000, "a b", tr: "trans", [W(10_000, 11_000, "a "), W(11_000, 13_000, "b")])]),
        TimedCase("entities", "WEBVTT\n\n00:01.000 --> 00:02.000\n&lrm;Rock &amp; roll&rlm; &quot;x&quot;",
                [TimedLine(1000, 2000, "\u{200E}Rock & roll\u{200F} \"x\"")]),
        TimedCase("ruby text dropped", "WEBVTT\n\n00:01.000 --> 00:02.000\n<ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby>です",
                [TimedLine(1000, 2000, "漢字です")]),
        TimedCase("lang and class spans stripped", "WEBVTT\n\n00:01.000 --> 00:02.000\n<lang en-GB>Colour</lang> <c.a.b>me</c>",
                [TimedLine(1000, 2000, "Colour me")]),
        TimedCase("empty cue dropped", "WEBVTT\n\n00:01.000 --> 00:02.000\n\n00:03.000 --> 00:04.000\n<v Mira></v>\n\n00:05.000 --> 00:06.000\nX",
                [TimedLine(5000, 6000, "X")]),
        TimedCase("CRLF and BOM", "\u{FEFF}WEBVTT\r\n\r\n1\r\n00:01.000 --> 00:02.000\r\nOne\r\nUno\r\n",
                [TimedLine(1000, 2000, "One", tr: "Uno")]),
        TimedCase("header directly followed by a cue", "WEBVTT\n00:01.000 --> 00:02.000\nTight", [TimedLine(1000, 2000, "Tight")]),
        TimedCase("missing header still read", "00:01.000 --> 00:02.000\nHeaderless", [TimedLine(1000, 2000, "Headerless")]),
    ]

    @Test(arguments: vttCases)
    func webVTT(_ testCase: TimedCase) throws {
        let lyrics = try Subtitles.parse(testCase.input, dialect: .webVTT)
        #expect(lyrics.lines.map(TimedLine.init) == testCase.expected)
        #expect(lyrics.format == .vtt)
        #expect(invariantViolations(lyrics) == [])
    }

    @Test func agentsInOrderOfFirstAppearance() throws {
        let text = """
            WEBVTT

            00:05.000 --> 00:06.000
            <v Theo>later in time, first in the file

            00:01.000 --> 00:02.000
            <v Mira>earlier

            00:03.000 --> 00:04.000
            <v Theo>again
            """
        let lyrics = try Subtitles.parse(text, dialect: .webVTT)
        #expect(lyrics.agents == [Lyrics.Agent(id: "Theo", kind: .person, name: "Theo"),
                                  Lyrics.Agent(id: "Mira", kind: .person, name: "Mira")])
        #expect(lyrics.lines.map(\.agent) == ["Mira", "Theo", "Theo"])
    }

    static let errorCases: [(String, Subtitles.Dialect, LyricsError)] = [
        ("", .srt, .empty),
        ("just words\nno cues", .srt, .noTimedLines),
        ("WEBVTT\n\nNOTE only a note", .webVTT, .noTimedLines),
        ("1\n00:00:01,000 --> 00:00:02,000\n\n2\n00:00:03,000 --> 00:00:04,000\n<i> </i>", .srt, .noTimedLines),
        ("1\n00:00:01 --> 00:00:02\nX", .srt, .invalid("not valid SRT: line 2: malformed cue timing '00:00:01 --> 00:00:02'")),
        ("WEBVTT\r\n\r\n00:61.000 --> 00:62.000\nX", .webVTT,
         .invalid("not valid WebVTT: line 3: malformed cue timing '00:61.000 --> 00:62.000'")),
    ]

    @Test(arguments: errorCases)
    func errors(_ input: String, _ dialect: Subtitles.Dialect, _ expected: LyricsError) {
        #expect(throws: expected) { try Subtitles.parse(input, dialect: dialect) }
    }

    @Test func tooLarge() {
        let text = "00:01.000 --> 00:02.000\nX\n" + String(repeating: "a", count: Subtitles.Limits.maxBytes)
        #expect(throws: LyricsError.tooLarge("SRT larger than the limit of 8388608 bytes")) {
            try Subtitles.parse(text, dialect: .srt)
        }
    }

    static let timingCases: [(String, Bool)] = [
        ("00:00:01,000 --> 00:00:02,000", true),
        ("00:00:01.000 --> 00:00:02.000 align:start", true),
        ("1:00:01,000 --> 1:00:02,000", true),
        ("00:01.000 --> 00:02.000", true),
        ("  00:01,000-->00:02,000", true),
        ("00:00:01 --> 00:00:02", false),
        ("00:00:01,000 -> 00:00:02,000", false),
        ("00:00:01,000 --> ", false),
        ("00:00:01,000 --> 00:00:02,000x", false),
        ("00:61.000 --> 00:62.000", false),
        ("[00:01.00]lrc --> line", false),
        ("", false),
    ]

    @Test(arguments: timingCases)
    func cueTiming(_ line: String, _ expected: Bool) {
        #expect(Subtitles.isCueTiming(line[...]) == expected)
    }

    @Test func sniffedAndReadThroughTheReader() throws {
        let srt = "1\r\n00:00:01,000 --> 00:00:02,000\r\nOne\r\n"
        #expect(LyricsFormat.sniff(srt) == .srt)
        #expect(try LyricsReader.load(Data(srt.utf8)).format == .srt)
        let vtt = "WEBVTT\n\n00:01.000 --> 00:02.000\nOne"
        #expect(LyricsFormat.sniff(vtt) == .vtt)
        #expect(try LyricsReader.load(Data(vtt.utf8)).lines.map(\.text) == ["One"])
    }

    @Test func limits() throws {
        let stamps = (1...2500).map { "<00:\(String(format: "%02d", $0 / 1000 % 60)).\(String(format: "%03d", $0 % 1000))>w" }
        let words = try Subtitles.parse("00:00.000 --> 01:00.000\n" + stamps.joined(), dialect: .webVTT)
        #expect(words.lines[0].words.count == Subtitles.Limits.maxWords)
        #expect(words.lines[0].text == String(repeating: "w", count: 2500))

        let cues = (0..<(Subtitles.Limits.maxCues + 300)).map { "00:00:01,000 --> 00:00:02,000\nx\($0)" }
        let many = try Subtitles.parse(cues.joined(separator: "\n\n"), dialect: .srt)
        #expect(many.lines.count == Subtitles.Limits.maxCues)

        let long = "00:00:01,000 --> 00:00:02,000\n" + String(repeating: "a", count: 70_000) + "\nshort"
        #expect(try Subtitles.parse(long, dialect: .srt).lines.map(\.text) == ["short"])
    }

    @Test func hostileInputFinishesQuickly() {
        let head = "00:00:01,000 --> 00:00:02,000\n"
        let hostile = [
            head + String(repeating: "<", count: 60_000),
            head + String(repeating: "<v ", count: 20_000),
            head + String(repeating: "<v a>", count: 12_000),
            head + String(repeating: "<rt>", count: 15_000),
            head + String(repeating: "<00:01.500>", count: 5_000),
            head + String(repeating: "<00:01.5", count: 7_000),
            head + String(repeating: "&", count: 60_000),
            head + String(repeating: "&amp", count: 15_000),
            head + String(repeating: "{\\", count: 30_000),
            head + "<" + String(repeating: "a", count: 60_000),
            String(repeating: "-->", count: 20_000),
            String(repeating: "00:00:01,000 --> ", count: 3_000),
            String(repeating: "\n", count: 200_000),
            String(repeating: "NOTE\n", count: 50_000),
            String(repeating: head + "x\n", count: 30_000),
            head + String(repeating: "one more text line\n", count: 100_000),
        ]
        let clock = ContinuousClock()
        let started = clock.now
        for text in hostile {
            for dialect in [Subtitles.Dialect.srt, .webVTT] {
                if let lyrics = try? Subtitles.parse(text, dialect: dialect) {
                    #expect(invariantViolations(lyrics) == [])
                }
            }
        }
        #expect(clock.now - started < .seconds(15 * Sanitizers.allowance))
    }

    /// Fragments that reach the parser's corners far more often than uniform bytes do.
    static let fragments: [String] = [
        "\n00:00:01,000 --> 00:00:02,000\n", "\n00:03.000 --> 00:04.000 align:start\n", "\n00:00:05,000 --> 00:00:01,000\n",
        "00:00:01,000", "00:00:02.500", "00:03.000", " --> ", "-->", "\n", "\n\n", "\r\n", "\r", " ", "1", ":",
        ",", ".", "WEBVTT", "NOTE", "STYLE", "<v A>", "<v.x B>", "</v>", "<i>", "</i>", "<00:01.500>",
        "<00:00:00.200>", "<rt>", "</rt>", "<ruby>", "&amp;", "&nbsp;", "&", "<", ">", "{\\an8}", "{", "word",
        "雨", "é", "\u{FEFF}", "\u{200F}", "\t",
    ]

    @Test func fiveHundredSeededInputs() {
        var random = SplitMix64(seed: 0x53_52_54)
        var parsed = 0
        for round in 0..<500 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0..<60, using: &random) {
                if round % 4 == 0 {
                    bytes.append(UInt8.random(in: 0...255, using: &random))
                } else {
                    bytes += Array(Self.fragments[Int.random(in: 0..<Self.fragments.count, using: &random)].utf8)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            for dialect in [Subtitles.Dialect.srt, .webVTT] {
                do {
                    let lyrics = try Subtitles.parse(text, dialect: dialect)
                    parsed += 1
                    #expect(invariantViolations(lyrics) == [], "round \(round)")
                    _ = lyrics.inspectJSON()
                } catch {
                    #expect(!error.description.isEmpty)
                }
            }
        }
        #expect(parsed > 100)   // the fragments do produce cues, so the checks above ran
    }
}

