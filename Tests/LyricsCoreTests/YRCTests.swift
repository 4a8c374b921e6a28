import Foundation
import Testing
@testable import LyricsCore
import TestSupport

/// NetEase YRC: line headers, absolute word groups, JSON credit lines, metadata tags, and input
/// that is broken or hostile. Lyrics here are made up for the tests.
@Suite struct YRCTests {
    static let cases: [TimedCase] = [
        TimedCase("one line, words absolute", "[1000,1000](1000,500,0)Tin (1500,500,0)roof",
                [TimedLine(1000, 2000, "Tin roof", [W(1000, 1500, "Tin "), W(1500, 2000, "roof")])]),
        TimedCase("leading spaces move to the word before", "[1000,600](1000,200,0)Tin(1200,200,0) roof(1400,200,0) sings",
                [TimedLine(1000, 1600, "Tin roof sings", [W(1000, 1200, "Tin "), W(1200, 1400, "roof "), W(1400, 1600, "sings")])]),
        TimedCase("trailing space of the last word is trimmed", "[0,400](0,200,0)Low (200,200,0)tide  ",
                [TimedLine(0, 400, "Low tide", [W(0, 200, "Low "), W(200, 400, "tide")])]),
        TimedCase("lines sorted by start, gaps kept", "[5000,1000](5000,1000,0)later\n[1000,1000](1000,1000,0)early",
                [TimedLine(1000, 2000, "early", [W(1000, 2000, "early")]), TimedLine(5000, 6000, "later", [W(5000, 6000, "later")])]),
        TimedCase("equal starts keep file order", "[1000,500](1000,500,0)first\n[1000,500](1000,500,0)second",
                [TimedLine(1000, 1500, "first", [W(1000, 1500, "first")]), TimedLine(1000, 1500, "second", [W(1000, 1500, "second")])]),
        TimedCase("JSON credits end at the next later line", """
            {"t":0,"c":[{"tx":"作词: "},{"tx":"Somebody","li":"http://example.invalid/a.png","or":"orpheus://x"}]}
            {"t":1000,"c":[{"tx":"Composer: "},{"tx":"Another"}]}
            [3000,1000](3000,1000,0)Hello
            """, [TimedLine(0, 1000, "作词: Somebody", credit: true), TimedLine(1000, 3000, "Composer: Another", credit: true),
                  TimedLine(3000, 4000, "Hello", [W(3000, 4000, "Hello")])]),
        TimedCase("JSON credit is a credit whatever it says", "{\"t\":0,\"c\":[{\"tx\":\" Just a name \"}]}\n[2000,500](2000,500,0)la",
                [TimedLine(0, 2000, "Just a name", credit: true), TimedLine(2000, 2500, "la", [W(2000, 2500, "la")])]),
        TimedCase("last JSON credit with nothing after ends at its start", "[0,500](0,500,0)la\n{\"t\":9000,\"c\":[{\"tx\":\"Mixed by Someone\"}]}",
                [TimedLine(0, 500, "la", [W(0, 500, "la")]), TimedLine(9000, 9000, "Mixed by Someone", credit: true)]),
        TimedCase("junk JSON is skipped", """
            {"t":0,"c":[{"tx":"unterminated"
            {"t":-5,"c":[{"tx":"negative"}]}
            {"t":"zero","c":[{"tx":"string time"}]}
            {"c":[{"tx":"no time"}]}
            {"t":0,"c":[{"tx":""},{"tx":5},{"li":"x"}]}
            {"t":1e300,"c":[{"tx":"huge"}]}
            {}
            {
            [100,100](100,100,0)ok
            """, [TimedLine(100, 200, "ok", [W(100, 200, "ok")])]),
        TimedCase("fractional JSON time is truncated", "{\"t\":1500.9,\"c\":[{\"tx\":\"Lyrics by Nobody\"}]}\n[2000,1](2000,1,0)x",
                [TimedLine(1500, 2000, "Lyrics by Nobody", credit: true), TimedLine(2000, 2001, "x", [W(2000, 2001, "x")])]),
        TimedCase("plain credit lines are marked", "[0,1000]作词 : Somebody\n[1000,1000]Composed by Another\n[2000,500](2000,500,0)la",
                [TimedLine(0, 1000, "作词 : Somebody", credit: true), TimedLine(1000, 2000, "Composed by Another", credit: true),
                 TimedLine(2000, 2500, "la", [W(2000, 2500, "la")])]),
        TimedCase("header starts after the first word: start from the words", "[1500,500](1000,500,0)Ab(1500,500,0)cd",
                [TimedLine(1000, 2000, "Abcd", [W(1000, 1500, "Ab"), W(1500, 2000, "cd")])]),
        TimedCase("header ends before the last word: end from the words", "[1000,200](1000,500,0)Ab (1500,800,0)cd",
                [TimedLine(1000, 2300, "Ab cd", [W(1000, 1500, "Ab "), W(1500, 2300, "cd")])]),
        TimedCase("words start after the header: header kept", "[1000,2000](1500,500,0)Ab",
                [TimedLine(1000, 3000, "Ab", [W(1500, 2000, "Ab")])]),
        TimedCase("zero-length punctuation kept", "[0,1000](0,400,0)go(400,0,0)，(400,600,0)on(1000,0,0)！",
                [TimedLine(0, 1000, "go，on！", [W(0, 400, "go"), W(400, 400, "，"), W(400, 1000, "on"), W(1000, 1000, "！")])]),
        TimedCase("a stray (0,0,0) inside a later line keeps the line's start", "[30000,1500](30000,500,0)Slip (0,0,0)of (30500,1000,0)time",
                [TimedLine(30000, 31500, "Slip of time", [W(30000, 30500, "Slip "), W(30500, 30500, "of "), W(30500, 31500, "time")])]),
        TimedCase("a stray (0,0,0) first in a later line starts at the line", "[8000,500](0,0,0)oh (8000,500,0)no",
                [TimedLine(8000, 8500, "oh no", [W(8000, 8000, "oh "), W(8000, 8500, "no")])]),
        TimedCase("third number ignored, even negative", "[0,200](0,100,7)a(100,100,-1)b",
                [TimedLine(0, 200, "ab", [W(0, 100, "a"), W(100, 200, "b")])]),
        TimedCase("spaces inside header and groups", "[ 1000 , 500 ]( 1000 , 500 , 0 )Ab",
                [TimedLine(1000, 1500, "Ab", [W(1000, 1500, "Ab")])]),
        TimedCase("header without groups: a line without words", "[1000,500]  plain words  ",
                [TimedLine(1000, 1500, "plain words")]),
        TimedCase("header with nothing gives no line", "[1000,500]\n[1600,0]   \n[2000,500](2000,500,0)x",
                [TimedLine(2000, 2500, "x", [W(2000, 2500, "x")])]),
        TimedCase("timed space folds into the word before", "[0,900](0,300,0)a(300,300,0) (600,300,0)b",
                [TimedLine(0, 900, "a b", [W(0, 300, "a "), W(600, 900, "b")])]),
        TimedCase("empty group: its word is dropped", "[0,900](0,300,0)a(300,300,0)(600,300,0)b",
                [TimedLine(0, 900, "ab", [W(0, 300, "a"), W(600, 900, "b")])]),
        TimedCase("parentheses that are not groups stay text", "[0,100](0,50,0)A(x)(50,50,0) B(1,2)",
                [TimedLine(0, 100, "A(x) B(1,2)", [W(0, 50, "A(x) "), W(50, 100, "B(1,2)")])]),
        TimedCase("text before the first group is a word from the line start", "[0,1000]oh (500,500,0)yes",
                [TimedLine(0, 1000, "oh yes", [W(0, 500, "oh "), W(500, 1000, "yes")])]),
        TimedCase("malformed headers and other lines skipped", """
            [12a,300](0,1,0)x
            [-1,100](0,1,0)y
            [1000](1000,1,0)z
            [1000,](1000,1,0)z
            [00:01.00]an lrc line
            plain text
            (0,100,0)no header
            [0,1000
            [5000,100](5000,100,0)ok
            """, [TimedLine(5000, 5100, "ok", [W(5000, 5100, "ok")])]),
        TimedCase("CRLF and lone CR", "[0,100](0,100,0)a \r\n[200,100](200,100,0)b\r[400,100](400,100,0)c\r\n",
                [TimedLine(0, 100, "a", [W(0, 100, "a")]), TimedLine(200, 300, "b", [W(200, 300, "b")]),
                 TimedLine(400, 500, "c", [W(400, 500, "c")])]),
        TimedCase("BOM at the start", "\u{FEFF}[0,100](0,100,0)a", [TimedLine(0, 100, "a", [W(0, 100, "a")])]),
        TimedCase("largest numbers accepted without overflow",
                "[999999999999,999999999999](999999999999,999999999999,0)x",
                [TimedLine(999_999_999_999, 1_999_999_999_998, "x", [W(999_999_999_999, 1_999_999_999_998, "x")])]),
        TimedCase("thirteen-digit numbers are not times", "[9999999999999,1](0,1,0)x\n[0,10](0,10,0)a(99999999999999,1,0)b",
                [TimedLine(0, 10, "a(99999999999999,1,0)b", [W(0, 10, "a(99999999999999,1,0)b")])]),
        TimedCase("unterminated group is text", "[0,1000](0,500,0)a(500,500,0",
                [TimedLine(0, 1000, "a(500,500,0", [W(0, 500, "a(500,500,0")])]),
        TimedCase("CJK per character", "[0,600](0,200,0)雨(200,200,0)だ(400,200,0)ね",
                [TimedLine(0, 600, "雨だね", [W(0, 200, "雨"), W(200, 400, "だ"), W(400, 600, "ね")])]),
    ]

    @Test(arguments: cases)
    func lines(_ testCase: TimedCase) throws {
        let lyrics = try YRC.parse(testCase.input)
        #expect(lyrics.lines.map(TimedLine.init) == testCase.expected)
        #expect(lyrics.format == .yrc)
        #expect(invariantViolations(lyrics) == [])
    }

    @Test func metadataTags() throws {
        let lyrics = try YRC.parse("[ti: Kite Song ]\n[ar:Somebody]\n[AL:Paper]\n[by:maker]\n[length:2:30]\n[0,100](0,100,0)a")
        #expect(lyrics.tags == ["ti": "Kite Song", "ar": "Somebody", "al": "Paper", "by": "maker", "length": "2:30"])
        #expect(lyrics.metadata == Lyrics.Metadata(title: "Kite Song", artist: "Somebody", album: "Paper",
                                                   length: Timestamp(milliseconds: 150_000)))
        #expect(lyrics.lines.count == 1)
    }

    @Test func encodingLabelIsReported() throws {
        #expect(try YRC.parse("[0,100](0,100,0)a", encoding: "gb18030").encoding == "gb18030")
    }

    static let errorCases: [(String, LyricsError)] = [
        ("", .empty),
        ("just some text\nand more", .noTimedLines),
        ("[1000,500]\n[2000,500]   ", .noTimedLines),
        ("{\"t\":0,\"c\":[]}", .noTimedLines),
        ("[12a,300](0,1,0)x", .invalid("not valid YRC: line 1: malformed line header '[12a,300]'")),
        ("intro\r\n[1,2,3]x\n[4,5,6]y", .invalid("not valid YRC: line 2: malformed line header '[1,2,3]'")),
    ]

    @Test(arguments: errorCases)
    func errors(_ input: String, _ expected: LyricsError) {
        #expect(throws: expected) { try YRC.parse(input) }
    }

    @Test func tooLarge() {
        let text = "[0,100](0,100,0)a\n" + String(repeating: "a", count: YRC.Limits.maxBytes)
        #expect(throws: LyricsError.tooLarge("YRC larger than the limit of 8388608 bytes")) { try YRC.parse(text) }
    }

    static let headerCases: [(String, Bool)] = [
        ("[0,100](0,100,0)a", true),
        ("  [ 0 , 100 ]x (0,1,0)y", true),
        ("[0,100](0,100,-3)a", true),
        ("{\"t\":0,\"c\":[{\"tx\":\"a\"}]}", true),
        ("{ \"t\" : 1}", true),
        ("[0,100]plain", false),
        ("[0,100](0,1)two numbers", false),
        ("[00:01.00]lrc (0,1,0)", false),
        ("(0,1,0)no header", false),
        ("x[0,100](0,1,0)", false),
        ("{\"c\":[]}", false),
        ("", false),
    ]

    @Test(arguments: headerCases)
    func lineHeader(_ line: String, _ expected: Bool) {
        #expect(YRC.isLineHeader(line[...]) == expected)
    }

    @Test func sniffedAndReadThroughTheReader() throws {
        let text = "{\"t\":0,\"c\":[{\"tx\":\"作曲: Somebody\"}]}\n[100,100](100,100,0)a"
        #expect(LyricsFormat.sniff(text) == .yrc)
        #expect(LyricsFormat.sniff("[ti:x]\n[100,100](100,100,0)a") == .yrc)
        let lyrics = try LyricsReader.load(Data(text.utf8))
        #expect(lyrics.format == .yrc)
        #expect(lyrics.lines.map(\.text) == ["作曲: Somebody", "a"])
    }

    @Test func wordsPastTheLimitFoldIntoTheLast() throws {
        let groups = (0..<2500).map { "(\($0 * 10),10,0)w" }.joined()
        let line = try #require(try YRC.parse("[0,1]" + groups).lines.first)
        #expect(line.words.count == YRC.Limits.maxWords)
        #expect(line.words.last?.end.milliseconds == 25_000)
        #expect(line.text == String(repeating: "w", count: 2500))
        #expect(line.end.milliseconds == 25_000)
    }

    @Test func linesPastTheLimitAreDropped() throws {
        let text = (0..<(YRC.Limits.maxLines + 500)).map { "[\($0 * 10),10](\($0 * 10),10,0)x" }.joined(separator: "\n")
        let lyrics = try YRC.parse(text)
        #expect(lyrics.lines.count == YRC.Limits.maxLines)
        #expect(invariantViolations(lyrics) == [])
    }

    @Test func overLongLineIsIgnored() {
        let long = "[0,100](0,100,0)" + String(repeating: "a", count: 70_000)
        #expect(throws: LyricsError.noTimedLines) { try YRC.parse(long) }
        #expect(throws: Never.self) { try YRC.parse(long + "\n[200,1](200,1,0)b") }
    }

    @Test func hostileInputFinishesQuickly() {
        let hostile = [
            String(repeating: "(", count: 100_000),
            "[0,1]" + String(repeating: "(", count: 60_000),
            "[0,1]" + String(repeating: "(1,1,", count: 12_000),
            "[0,1]" + String(repeating: "(0,0,0)", count: 9_000),
            String(repeating: "[", count: 100_000),
            String(repeating: "[0,", count: 20_000),
            String(repeating: "[ti:", count: 15_000) + "]",
            String(repeating: "[ti:x]\n", count: 50_000),
            String(repeating: "{", count: 60_000),
            "{\"t\":0,\"c\":" + String(repeating: "[", count: 60_000),
            "{\"t\":0,\"c\":[" + String(repeating: "{\"tx\":\"a\"},", count: 5_000) + "{\"tx\":\"b\"}]}",
            String(repeating: "[1,1](1,1,0)a\n", count: 30_000),
            "[0,1]" + String(repeating: " ", count: 60_000) + "(0,1,0)",
        ]
        let clock = ContinuousClock()
        let started = clock.now
        for text in hostile {
            if let lyrics = try? YRC.parse(text) {
                #expect(invariantViolations(lyrics) == [])
            }
        }
        #expect(clock.now - started < .seconds(10 * Sanitizers.allowance))
    }

    /// Fragments that reach the parser's corners far more often than uniform bytes do.
    static let fragments: [String] = [
        "[", "]", "(", ")", ",", ":", " ", "\t", "\n", "\r\n", "\r", "0", "1", "500", "-", "999999999999999",
        "{", "}", "\"t\":", "\"c\":[{\"tx\":\"a\"}]", "{\"t\":0,\"c\":[{\"tx\":\"作词: x\"}]}", "[0,100]",
        "(0,100,0)", "(50,0,0)", "\n[0,100](0,100,0)", "\n[300,50]", "\n[200,100](150,400,0)", "word ", "雨", "é", "\u{FEFF}", "[ti:", "[ar:b]", "，", "\u{3000}",
    ]

    @Test func fiveHundredSeededInputs() {
        var random = SplitMix64(seed: 0x59_52_43)
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
            do {
                let lyrics = try YRC.parse(String(decoding: bytes, as: UTF8.self))
                parsed += 1
                #expect(invariantViolations(lyrics) == [], "round \(round)")
                _ = lyrics.inspectJSON()
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
        #expect(parsed > 100)   // the fragments do produce lines, so the checks above ran
    }
}
