import Foundation
import Testing
@testable import LyricsCore
import TestSupport

/// A backing-run expectation: interval, text, words, translation and romanisation (times in ms).
struct Run: Hashable, Sendable, CustomStringConvertible {
    var start: Int, end: Int, text: String, words: [W], translation: String?, romanisation: String?
    init(_ start: Int, _ end: Int, _ text: String, _ words: [W] = [], tr translation: String? = nil, roma romanisation: String? = nil) {
        (self.start, self.end, self.text, self.words, self.translation, self.romanisation) =
            (start, end, text, words, translation, romanisation)
    }
    init(_ run: LyricLine.Backing) {
        self.init(run.start.milliseconds, run.end.milliseconds, run.text, run.words.map(W.init), tr: run.translation,
                  roma: run.romanisation)
    }
    var description: String {
        "bg \(start)–\(end) \(text.debugDescription)" + (translation.map { " tr \($0.debugDescription)" } ?? "")
            + (romanisation.map { " roma \($0.debugDescription)" } ?? "") + (words.isEmpty ? "" : " \(words)")
    }
}

/// A line expectation with what the Lyricify and ASS readers add: backing runs, romanisation and
/// language-tagged translations (`"lang:text"`, or `"text"` without a language).
struct Full: Hashable, Sendable, CustomStringConvertible {
    var line: TimedLine, runs: [Run], romanisation: String?, translations: [String]
    init(_ line: TimedLine, _ runs: [Run] = [], roma romanisation: String? = nil, translations: [String] = []) {
        (self.line, self.runs, self.romanisation, self.translations) = (line, runs, romanisation, translations)
    }
    init(_ line: LyricLine) {
        self.init(TimedLine(line), line.backgrounds.map(Run.init), roma: line.romanisation,
                  translations: line.translations.map { ($0.language.map { "\($0):" } ?? "") + $0.text })
    }
    var description: String {
        "\(line)" + (romanisation.map { " roma \($0.debugDescription)" } ?? "") + (runs.isEmpty ? "" : " \(runs)")
            + (translations.isEmpty ? "" : " translations \(translations)")
    }
}

struct FullCase: Sendable, CustomTestStringConvertible {
    var name: String
    var input: String
    var expected: [Full]
    var testDescription: String { name }
    init(_ name: String, _ input: String, _ expected: [Full]) { (self.name, self.input, self.expected) = (name, input, expected) }
}

extension Lyrics {
    var full: [Full] { lines.map(Full.init) }
}

/// Lyricify's three formats, one suite each. Lyrics here are made up for the tests.
@Suite struct LyricifyTests {}

/// Lyricify Syllable (`.lys`): props, words, backing rows, duet sides, zero-time separators and
/// hostile rows.
extension LyricifyTests {
    @Suite struct Syllable {
        static let cases: [FullCase] = [
            FullCase("words absolute, trailing space kept in the word", "[0]Tin (1000,500)roof(1500,500)",
                     [Full(TimedLine(1000, 2000, "Tin roof", [W(1000, 1500, "Tin "), W(1500, 2000, "roof")]))]),
            FullCase("leading space moves to the word before", "[0]Tin(1000,500) roof(1500,500)",
                     [Full(TimedLine(1000, 2000, "Tin roof", [W(1000, 1500, "Tin "), W(1500, 2000, "roof")]))]),
            FullCase("left is v1, right is v2, unset has no agent", "[4]Ab(0,100)\n[5]Cd(200,100)\n[0]Ef(400,100)\n[3]Gh(600,100)\n[1]Ij(800,100)\n[2]Kl(1000,100)",
                     [Full(TimedLine(0, 100, "Ab", [W(0, 100, "Ab")], agent: "v1")),
                      Full(TimedLine(200, 300, "Cd", [W(200, 300, "Cd")], agent: "v2")),
                      Full(TimedLine(400, 500, "Ef", [W(400, 500, "Ef")])),
                      Full(TimedLine(600, 700, "Gh", [W(600, 700, "Gh")])),
                      Full(TimedLine(800, 900, "Ij", [W(800, 900, "Ij")], agent: "v1")),
                      Full(TimedLine(1000, 1100, "Kl", [W(1000, 1100, "Kl")], agent: "v2"))]),
            FullCase("explicit backing joins the row before, brackets removed", "[4]Sun (1000,500)up(1500,500)\n[7](low (1600,200)hum)(1800,300)",
                     [Full(TimedLine(1000, 2100, "Sun up", [W(1000, 1500, "Sun "), W(1500, 2000, "up")], agent: "v1"),
                           [Run(1600, 2100, "low hum", [W(1600, 1800, "low "), W(1800, 2100, "hum")])])]),
            FullCase("a closing bracket after the last stamp joins the last word", "[4]Sun(1000,500)\n[8](low(1500,200) hum(1700,300))",
                     [Full(TimedLine(1000, 2000, "Sun", [W(1000, 1500, "Sun")], agent: "v1"),
                           [Run(1500, 2000, "low hum", [W(1500, 1700, "low "), W(1700, 2000, "hum")])])]),
            FullCase("two backing rows in a row both join the main row", "[4]Ab(0,1000)\n[7](cd)(100,100)\n[7](ef)(300,100)",
                     [Full(TimedLine(0, 1000, "Ab", [W(0, 1000, "Ab")], agent: "v1"),
                           [Run(100, 200, "cd", [W(100, 200, "cd")]), Run(300, 400, "ef", [W(300, 400, "ef")])])]),
            FullCase("backing row first in the file is a main line, brackets kept", "[8](Lone echo)(100,200)\n[4]Ab(500,100)",
                     [Full(TimedLine(100, 300, "(Lone echo)", [W(100, 300, "(Lone echo)")], agent: "v2")),
                      Full(TimedLine(500, 600, "Ab", [W(500, 600, "Ab")], agent: "v1"))]),
            FullCase("unset row in brackets is the backing of the row before", "[1]Ab(0,500)\n[0](cd)(100,100)\n[1]Ef(1000,100)",
                     [Full(TimedLine(0, 500, "Ab", [W(0, 500, "Ab")], agent: "v1"), [Run(100, 200, "cd", [W(100, 200, "cd")])]),
                      Full(TimedLine(1000, 1100, "Ef", [W(1000, 1100, "Ef")], agent: "v1"))]),
            FullCase("two bracketed unset rows side by side stay main lines", "[0]Ab(0,100)\n[0](cd)(200,100)\n[0](ef)(400,100)",
                     [Full(TimedLine(0, 100, "Ab", [W(0, 100, "Ab")])), Full(TimedLine(200, 300, "(cd)", [W(200, 300, "(cd)")])),
                      Full(TimedLine(400, 500, "(ef)", [W(400, 500, "(ef)")]))]),
            FullCase("a bracketed row marked not-backing stays main and hosts the next", "[3](Ab)(0,500)\n[0](cd)(100,100)",
                     [Full(TimedLine(0, 500, "(Ab)", [W(0, 500, "(Ab)")]), [Run(100, 200, "cd", [W(100, 200, "cd")])])]),
            FullCase("a bracketed row after a row that already has backing stays main", "[4]Ab(0,500)\n[7](cd)(100,100)\n[0](ef)(300,100)",
                     [Full(TimedLine(0, 500, "Ab", [W(0, 500, "Ab")], agent: "v1"), [Run(100, 200, "cd", [W(100, 200, "cd")])]),
                      Full(TimedLine(300, 400, "(ef)", [W(300, 400, "(ef)")]))]),
            FullCase("brackets that do not wrap the whole row are not backing", "[0]Ab(0,500)\n[0](oh) (100,100)yes (oh)(200,100)",
                     [Full(TimedLine(0, 500, "Ab", [W(0, 500, "Ab")])),
                      Full(TimedLine(100, 300, "(oh) yes (oh)", [W(100, 200, "(oh) "), W(200, 300, "yes (oh)")]))]),
            FullCase("double brackets lose one pair, mixed widths are a pair", "[4]Ab(0,900)\n[7]((cd))(100,100)\n[7](ef）(300,100)",
                     [Full(TimedLine(0, 900, "Ab", [W(0, 900, "Ab")], agent: "v1"),
                           [Run(100, 200, "(cd)", [W(100, 200, "(cd)")]), Run(300, 400, "ef", [W(300, 400, "ef")])])]),
            FullCase("a backing row bracketed only in part keeps its brackets", "[4]Ab(0,900)\n[7](oh) yeah(100,100)",
                     [Full(TimedLine(0, 900, "Ab", [W(0, 900, "Ab")], agent: "v1"), [Run(100, 200, "(oh) yeah", [W(100, 200, "(oh) yeah")])])]),
            FullCase("three backing rows, then a main row", "[5]Ab(0,900)\n[8](c)(100,10)\n[8](d)(200,10)\n[8](e)(300,10)\n[5]Fg(1000,100)",
                     [Full(TimedLine(0, 900, "Ab", [W(0, 900, "Ab")], agent: "v2"),
                           [Run(100, 110, "c", [W(100, 110, "c")]), Run(200, 210, "d", [W(200, 210, "d")]), Run(300, 310, "e", [W(300, 310, "e")])]),
                      Full(TimedLine(1000, 1100, "Fg", [W(1000, 1100, "Fg")], agent: "v2"))]),
            FullCase("a bracket with its own stamp is dropped with the bracket", "[4]Ab(0,900)\n[7]((100,50)cd(150,100))(250,50)",
                     [Full(TimedLine(0, 900, "Ab", [W(0, 900, "Ab")], agent: "v1"), [Run(150, 250, "cd", [W(150, 250, "cd")])])]),
            FullCase("backing that starts before its main row widens the line", "[4]Ab(1000,500)\n[7](cd)(800,100)",
                     [Full(TimedLine(800, 1500, "Ab", [W(1000, 1500, "Ab")], agent: "v1"), [Run(800, 900, "cd", [W(800, 900, "cd")])])]),
            FullCase("parentheses that are not stamps stay text", "[0]A(x)B(0,10)\n[0]Go( 1 , 2 )(100,100)",
                     [Full(TimedLine(0, 10, "A(x)B", [W(0, 10, "A(x)B")])), Full(TimedLine(100, 200, "Go( 1 , 2 )", [W(100, 200, "Go( 1 , 2 )")]))]),
            FullCase("a stamp right after an open bracket", "[0]((1000,100)hm(1100,100))(1200,0)",
                     [Full(TimedLine(1000, 1200, "(hm)", [W(1000, 1100, "("), W(1100, 1200, "hm"), W(1200, 1200, ")")]))]),
            FullCase("zero-time space joins the word before", "[4]Tin(100,100) (0,0)roof(200,100)",
                     [Full(TimedLine(100, 300, "Tin roof", [W(100, 200, "Tin "), W(200, 300, "roof")], agent: "v1"))]),
            FullCase("zero-time punctuation joins the word before", "[4]Tin(100,100)，(0,0)roof(200,100)!(0,0)",
                     [Full(TimedLine(100, 300, "Tin，roof!", [W(100, 200, "Tin，"), W(200, 300, "roof!")], agent: "v1"))]),
            FullCase("zero-time separator first joins the next word", "[4]“(0,0)Tin(100,100) (0,0)",
                     [Full(TimedLine(100, 200, "“Tin", [W(100, 200, "“Tin")], agent: "v1"))]),
            FullCase("stray (0,0) word takes the end of the word before", "[4]Tin (5000,100)roof (0,0)top(5200,100)",
                     [Full(TimedLine(5000, 5300, "Tin roof top", [W(5000, 5100, "Tin "), W(5100, 5100, "roof "), W(5200, 5300, "top")], agent: "v1"))]),
            FullCase("stray (0,0) word first takes the first timed start", "[4]oh (0,0)no(8000,500)",
                     [Full(TimedLine(8000, 8500, "oh no", [W(8000, 8000, "oh "), W(8000, 8500, "no")], agent: "v1"))]),
            FullCase("a row of (0,0) words stays at zero", "[0]Cue(0,0)",
                     [Full(TimedLine(0, 0, "Cue", [W(0, 0, "Cue")]))]),
            FullCase("timed space and empty stamps", "[0]Tin(100,100) (200,50)roof(250,100)(350,100)top(450,100)",
                     [Full(TimedLine(100, 550, "Tin rooftop", [W(100, 200, "Tin "), W(250, 350, "roof"), W(450, 550, "top")]))]),
            FullCase("text after the last stamp joins the last word", "[0]Tin(100,100) roof  ",
                     [Full(TimedLine(100, 200, "Tin roof", [W(100, 200, "Tin roof")]))]),
            FullCase("rows without stamps or text are skipped", "[0]Bad(a,b)\n[0]Neg(1000,-10)\n[0]   \n[3]\n[0](5,5)\n[4]ok(2000,100)",
                     [Full(TimedLine(2000, 2100, "ok", [W(2000, 2100, "ok")], agent: "v1"))]),
            FullCase("lines that are not rows are skipped", "\u{FEFF}no prop\r\n#comment\r\n{meta:true}\r\n[00:01.00]lrc(1,1)\r\n[4]Ab(1000,500)Cd(1500,500)\r\n",
                     [Full(TimedLine(1000, 2000, "AbCd", [W(1000, 1500, "Ab"), W(1500, 2000, "Cd")], agent: "v1"))]),
            FullCase("props outside 0–8 are prop 0; blanks around digits allowed",
                     "[9](a)(0,10)\n[10]b(100,10)\n[256]c(200,10)\n[99999999999999999999]d(300,10)\n[-1]e(400,10)\n[]f(500,10)\n[ 5 ]g(600,10)\n[4 4]h(700,10)",
                     [Full(TimedLine(0, 10, "(a)", [W(0, 10, "(a)")])), Full(TimedLine(100, 110, "b", [W(100, 110, "b")])),
                      Full(TimedLine(200, 210, "c", [W(200, 210, "c")])), Full(TimedLine(300, 310, "d", [W(300, 310, "d")])),
                      Full(TimedLine(400, 410, "e", [W(400, 410, "e")])), Full(TimedLine(500, 510, "f", [W(500, 510, "f")])),
                      Full(TimedLine(600, 610, "g", [W(600, 610, "g")], agent: "v2")), Full(TimedLine(700, 710, "h", [W(700, 710, "h")]))]),
            FullCase("QRC rows in a mixed file read as prop 0", "[1000,900]Tin (1000,300)roof(1300,400)\n[4]top(2000,100)",
                     [Full(TimedLine(1000, 1700, "Tin roof", [W(1000, 1300, "Tin "), W(1300, 1700, "roof")])),
                      Full(TimedLine(2000, 2100, "top", [W(2000, 2100, "top")], agent: "v1"))]),
            FullCase("lines sorted by start, equal starts keep file order", "[4]later(5000,100)\n[4]first(1000,100)\n[5]second(1000,100)",
                     [Full(TimedLine(1000, 1100, "first", [W(1000, 1100, "first")], agent: "v1")),
                      Full(TimedLine(1000, 1100, "second", [W(1000, 1100, "second")], agent: "v2")),
                      Full(TimedLine(5000, 5100, "later", [W(5000, 5100, "later")], agent: "v1"))]),
            FullCase("a word that goes back follows on from the one before it (Word.place)", "[0]b(500,100)a(100,100)",
                     [Full(TimedLine(500, 600, "ba", [W(500, 600, "b"), W(600, 600, "a")]))]),
            FullCase("largest numbers accepted, thirteen digits are text", "[0]x(999999999999,999999999999)\n[0]y(10,10)z(1000000000000,1)",
                     [Full(TimedLine(10, 20, "yz(1000000000000,1)", [W(10, 20, "yz(1000000000000,1)")])),
                      Full(TimedLine(999_999_999_999, 1_999_999_999_998, "x", [W(999_999_999_999, 1_999_999_999_998, "x")]))]),
            FullCase("CJK per character, lone CR", "[0]雨(0,200)だ(200,200)\r[0]ね(400,200)",
                     [Full(TimedLine(0, 400, "雨だ", [W(0, 200, "雨"), W(200, 400, "だ")])), Full(TimedLine(400, 600, "ね", [W(400, 600, "ね")]))]),
        ]

        @Test(arguments: cases)
        func lines(_ testCase: FullCase) throws {
            let lyrics = try Lyricify.parseSyllable(testCase.input)
            #expect(lyrics.full == testCase.expected)
            #expect(lyrics.format == .lys)
            #expect(invariantViolations(lyrics) == [])
        }

        @Test func agentsAreListedInFileOrder() throws {
            let lyrics = try Lyricify.parseSyllable("[5]Ab(0,100)\n[0]Cd(200,100)\n[4]Ef(400,100)\n[8](gh)(450,10)")
            #expect(lyrics.agents == [Lyrics.Agent(id: "v2", kind: .person), Lyrics.Agent(id: "v1", kind: .person)])
            #expect(try Lyricify.parseSyllable("[0]Ab(0,100)").agents == [])
        }

        @Test func tagsAndOffset() throws {
            let text = "[ti: Kite Song ]\n[ar:Somebody]\n[al:Paper]\n[by:maker]\n[offset:500]\n[4]Ab(1000,200)\n[7](cd)(1100,100)"
            let lyrics = try Lyricify.parseSyllable(text)
            #expect(lyrics.tags == ["ti": "Kite Song", "ar": "Somebody", "al": "Paper", "by": "maker", "offset": "500"])
            #expect(lyrics.metadata == Lyrics.Metadata(title: "Kite Song", artist: "Somebody", album: "Paper"))
            #expect(lyrics.offsetMs == 500)
            #expect(lyrics.full == [Full(TimedLine(500, 700, "Ab", [W(500, 700, "Ab")], agent: "v1"), [Run(600, 700, "cd", [W(600, 700, "cd")])])])
            let added = try Lyricify.parseSyllable(text, options: ReadOptions(offsetSign: .add))
            #expect(added.lines.map(\.start.milliseconds) == [1500])
            #expect(added.lines.first?.backgrounds.first?.words.map(\.start.milliseconds) == [1600])
            let negative = try Lyricify.parseSyllable("[offset:-250]\n[0]Ab(100,100)")
            #expect(negative.lines.map(TimedLine.init) == [TimedLine(350, 450, "Ab", [W(350, 450, "Ab")])])
            let early = try Lyricify.parseSyllable("[offset:+900]\n[0]Ab(100,100)")
            #expect(early.lines.map(\.start.milliseconds) == [-800])
        }

        static let errorCases: [(String, LyricsError)] = [
            ("", .empty),
            ("just some words\nand more", .noTimedLines),
            ("[ti:Only tags]\n[offset:0]", .noTimedLines),
            ("[4]   \n[3]", .noTimedLines),
            ("[0]Bad(a,b)", .invalid("not valid Lyricify Syllable: line 1: no word stamp (start,duration) in '[0]Bad(a,b)'")),
            ("intro\r\n[4]no stamps at all", .invalid("not valid Lyricify Syllable: line 2: no word stamp (start,duration) in '[4]no stamps at all'")),
            ("[9]no stamps, odd prop", .noTimedLines),
        ]

        @Test(arguments: errorCases)
        func errors(_ input: String, _ expected: LyricsError) {
            #expect(throws: expected) { try Lyricify.parseSyllable(input) }
        }

        @Test func tooLarge() {
            let text = "[0]a(0,1)\n" + String(repeating: "a", count: Lyricify.Limits.maxBytes)
            #expect(throws: LyricsError.tooLarge("Lyricify Syllable larger than the limit of 8388608 bytes")) {
                try Lyricify.parseSyllable(text)
            }
        }

        @Test func readThroughTheReader() throws {
            let lyrics = try LyricsReader.load(Data("[4]Ab(0,100)".utf8), format: .lys, encoding: "utf-8")
            #expect(lyrics.format == .lys)
            #expect(lyrics.lines.map(\.text) == ["Ab"])
            #expect(try Lyricify.parseSyllable("[0]a(0,1)", encoding: "gb18030").encoding == "gb18030")
        }

        @Test func wordsPastTheLimitFoldIntoTheLast() throws {
            let words = (0..<2500).map { "w(\($0 * 10),10)" }.joined()
            let line = try #require(try Lyricify.parseSyllable("[0]" + words).lines.first)
            #expect(line.words.count == Lyricify.Limits.maxWords)
            #expect(line.words.last?.end.milliseconds == 25_000)
            #expect(line.text == String(repeating: "w", count: 2500))
            #expect(line.end.milliseconds == 25_000)
        }

        @Test func rowsPastTheLimitAreDropped() throws {
            let text = (0..<(Lyricify.Limits.maxLines + 500)).map { "[0]x(\($0 * 10),10)" }.joined(separator: "\n")
            let lyrics = try Lyricify.parseSyllable(text)
            #expect(lyrics.lines.count == Lyricify.Limits.maxLines)
            #expect(invariantViolations(lyrics) == [])
        }

        @Test func overLongLineIsIgnored() {
            let long = "[0]a(0,100)" + String(repeating: "a", count: 70_000)
            #expect(throws: LyricsError.noTimedLines) { try Lyricify.parseSyllable(long) }
            #expect(throws: Never.self) { try Lyricify.parseSyllable(long + "\n[0]b(200,1)") }
        }

        @Test func hostileInputFinishesQuickly() {
            let hostile = [
                String(repeating: "(", count: 100_000),
                "[0]" + String(repeating: "(", count: 60_000),
                "[0]" + String(repeating: "(1,", count: 20_000),
                "[0]" + String(repeating: "(0,0)", count: 12_000),
                "[0]" + String(repeating: "a(0,0)", count: 10_000),
                "[0]" + String(repeating: "(999999999999,", count: 4_000),
                String(repeating: "[", count: 100_000),
                String(repeating: "[0]", count: 20_000),
                String(repeating: "[ti:", count: 15_000) + "]",
                String(repeating: "[7](a)(1,1)\n", count: 30_000),
                String(repeating: "[0](a)(1,1)\n", count: 30_000),
                "[0]" + String(repeating: " ", count: 60_000) + "a(0,1)",
            ]
            for text in hostile {
                if let lyrics = try? Lyricify.parseSyllable(text) {
                    #expect(invariantViolations(lyrics) == [])
                }
            }
        }

        /// Fragments that reach the parser's corners far more often than uniform bytes do.
        static let fragments: [String] = [
            "[", "]", "(", ")", ",", ":", " ", "\t", "\n", "\r\n", "\r", "0", "1", "500", "-", "999999999999999",
            "[0]", "[4]", "[7]", "[8]", "[6]", "[ti:", "[offset:-5]", "(0,0)", "(100,50)", "(5000,0)", "（", "）",
            "\n[4]", "\n[7](", ")(9,9)", "word ", "雨", "é", "\u{FEFF}", "，", "\u{3000}",
        ]

        @Test func fiveHundredSeededInputs() {
            var random = SplitMix64(seed: 0x4C_59_53)
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
                    let lyrics = try Lyricify.parseSyllable(String(decoding: bytes, as: UTF8.self))
                    parsed += 1
                    #expect(invariantViolations(lyrics) == [], "round \(round)")
                    for line in lyrics.lines {
                        for run in line.backgrounds where !run.words.isEmpty {
                            #expect(run.words.map(\.text).joined() == run.text, "round \(round)")
                        }
                    }
                    _ = lyrics.inspectJSON()
                } catch {
                    #expect(!error.description.isEmpty)
                }
            }
            #expect(parsed > 100)
        }
    }
}

/// Lyricify Lines (`.lyl`): `[start,end]text` rows, backing rows in brackets, broken rows.
extension LyricifyTests {
    @Suite struct Lines {
        static let cases: [FullCase] = [
            FullCase("rows give start and end", "[1000,2000]Tin roof\n[3000,4000]Rain song",
                     [Full(TimedLine(1000, 2000, "Tin roof")), Full(TimedLine(3000, 4000, "Rain song"))]),
            FullCase("the second number is an end, not a duration", "[5000,5200]Short",
                     [Full(TimedLine(5000, 5200, "Short"))]),
            FullCase("header, CRLF, comments and untimed lines", "[type:LyricifyLines]\r\n#comment\r\n{meta:true}\r\nno stamp\r\n[1000,2000]Tin\r\n",
                     [Full(TimedLine(1000, 2000, "Tin"))]),
            FullCase("bad numbers skip the row", "[1000,2000]Tin\n[invalid,2000]x\n[-1,2000]x\n[NaN,NaN]x\n[1000]x\n[1,2,3]x\n[3000,4000]roof",
                     [Full(TimedLine(1000, 2000, "Tin")), Full(TimedLine(3000, 4000, "roof"))]),
            FullCase("a row in brackets is the backing of the row before", "[1000,3000]Sun rise\n[2000,2500](rise)\n[4000,5000]Noon",
                     [Full(TimedLine(1000, 3000, "Sun rise"), [Run(2000, 2500, "rise")]), Full(TimedLine(4000, 5000, "Noon"))]),
            FullCase("full-width brackets too", "[1000,3000]Sun\n[2000,2500]（rise）",
                     [Full(TimedLine(1000, 3000, "Sun"), [Run(2000, 2500, "rise")])]),
            FullCase("several backing rows join the same main row", "[0,3000]Sun\n[100,200](a)\n[300,400]( b )\n[5000,6000]Moon",
                     [Full(TimedLine(0, 3000, "Sun"), [Run(100, 200, "a"), Run(300, 400, "b")]), Full(TimedLine(5000, 6000, "Moon"))]),
            FullCase("a bracketed row with nothing before it is a main line", "[1000,2000](Hum)\n[3000,4000]（Hi）\n[5000,6000]Sun",
                     [Full(TimedLine(1000, 4000, "(Hum)"), [Run(3000, 4000, "Hi")]), Full(TimedLine(5000, 6000, "Sun"))]),
            FullCase("backing past its main row widens it", "[1000,2000]Sun\n[1500,2600](rise)",
                     [Full(TimedLine(1000, 2600, "Sun"), [Run(1500, 2600, "rise")])]),
            FullCase("brackets that do not wrap the row stay text", "[0,1000]Sun\n[1000,2000](oh) rise (oh)\n[2000,3000]Sun (rise)",
                     [Full(TimedLine(0, 1000, "Sun")), Full(TimedLine(1000, 2000, "(oh) rise (oh)")), Full(TimedLine(2000, 3000, "Sun (rise)"))]),
            FullCase("empty brackets give nothing", "[0,1000]Sun\n[100,200]()\n[300,400]（ ）",
                     [Full(TimedLine(0, 1000, "Sun"))]),
            FullCase("text trimmed, empty rows dropped", "[0,500]\n[600,1000]   \n[1000,2000]   Tin   \n\n[3000,4000] roof \n[5000,6000]\t",
                     [Full(TimedLine(1000, 2000, "Tin")), Full(TimedLine(3000, 4000, "roof"))]),
            FullCase("end before start lasts zero", "[3000,1000]Back",
                     [Full(TimedLine(3000, 3000, "Back"))]),
            FullCase("blanks inside the header", "[ 1000 , 2000 ]Tin\n\t[3000,\t4000]roof",
                     [Full(TimedLine(1000, 2000, "Tin")), Full(TimedLine(3000, 4000, "roof"))]),
            FullCase("overlapping rows kept and sorted", "[2000,5000]Second\n[1000,3000]First",
                     [Full(TimedLine(1000, 3000, "First")), Full(TimedLine(2000, 5000, "Second"))]),
            FullCase("equal starts keep file order", "[1000,2000]One\n[1000,2500]Two",
                     [Full(TimedLine(1000, 2000, "One")), Full(TimedLine(1000, 2500, "Two"))]),
            FullCase("twelve digits accepted, thirteen skipped", "[999999999999,999999999999]Far\n[1000000000000,1]x",
                     [Full(TimedLine(999_999_999_999, 999_999_999_999, "Far"))]),
            FullCase("text may hold brackets and stamps", "[0,100]a]b[1,2](3,4)",
                     [Full(TimedLine(0, 100, "a]b[1,2](3,4)"))]),
            FullCase("BOM and lone CR", "\u{FEFF}[0,100]Tin\r[200,300]roof",
                     [Full(TimedLine(0, 100, "Tin")), Full(TimedLine(200, 300, "roof"))]),
            FullCase("leading credit lines are marked", "[0,1000]作词 : Somebody\n[1000,2000]Tin roof",
                     [Full(TimedLine(0, 1000, "作词 : Somebody", credit: true)), Full(TimedLine(1000, 2000, "Tin roof"))]),
            FullCase("word stamps in a row are text", "[0,1000]Tin(0,500)roof(500,500)",
                     [Full(TimedLine(0, 1000, "Tin(0,500)roof(500,500)"))]),
            FullCase("inner whitespace kept", "[0,100]Tin\t roof",
                     [Full(TimedLine(0, 100, "Tin\t roof"))]),
            FullCase("a padded bracketed row is still backing", "[0,1000]Sun\n[200,300]   (hum)  ",
                     [Full(TimedLine(0, 1000, "Sun"), [Run(200, 300, "hum")])]),
            FullCase("tag lines between rows", "[0,100]Tin\n[ar:Somebody]\n[200,300]roof",
                     [Full(TimedLine(0, 100, "Tin")), Full(TimedLine(200, 300, "roof"))]),
            FullCase("CJK rows", "[0,1200]雨だね\n[1200,2000]（ね）",
                     [Full(TimedLine(0, 2000, "雨だね"), [Run(1200, 2000, "ね")])]),
        ]

        @Test(arguments: cases)
        func lines(_ testCase: FullCase) throws {
            let lyrics = try Lyricify.parseLines(testCase.input)
            #expect(lyrics.full == testCase.expected)
            #expect(lyrics.format == .lyl)
            #expect(lyrics.agents == [])
            #expect(invariantViolations(lyrics) == [])
        }

        @Test func tagsAndOffset() throws {
            let text = "[type:LyricifyLines]\n[ti:Kite]\n[ar:Somebody]\n[offset:-300]\n[1000,2000]Tin\n[1500,1800](hum)"
            let lyrics = try Lyricify.parseLines(text)
            #expect(lyrics.tags == ["type": "LyricifyLines", "ti": "Kite", "ar": "Somebody", "offset": "-300"])
            #expect(lyrics.metadata == Lyrics.Metadata(title: "Kite", artist: "Somebody"))
            #expect(lyrics.full == [Full(TimedLine(1300, 2300, "Tin"), [Run(1800, 2100, "hum")])])
            let added = try Lyricify.parseLines(text, options: ReadOptions(offsetSign: .add))
            #expect(added.full == [Full(TimedLine(700, 1700, "Tin"), [Run(1200, 1500, "hum")])])
        }

        static let errorCases: [(String, LyricsError)] = [
            ("", .empty),
            ("[type:LyricifyLines]\nplain words", .noTimedLines),
            ("[0,500]\n[600,700]   ", .noTimedLines),
            ("[12a,300]x", .invalid("not valid Lyricify Lines: line 1: malformed row header '[12a,300]'")),
            ("[type:LyricifyLines]\r\n[-1,2000]x", .invalid("not valid Lyricify Lines: line 2: malformed row header '[-1,2000]'")),
        ]

        @Test(arguments: errorCases)
        func errors(_ input: String, _ expected: LyricsError) {
            #expect(throws: expected) { try Lyricify.parseLines(input) }
        }

        @Test func limits() throws {
            #expect(throws: LyricsError.tooLarge("Lyricify Lines larger than the limit of 8388608 bytes")) {
                try Lyricify.parseLines("[0,1]a\n" + String(repeating: "a", count: Lyricify.Limits.maxBytes))
            }
            let many = (0..<(Lyricify.Limits.maxLines + 100)).map { "[\($0),\($0 + 1)]x" }.joined(separator: "\n")
            #expect(try Lyricify.parseLines(many).lines.count == Lyricify.Limits.maxLines)
            let backings = "[0,100]Sun\n" + String(repeating: "[10,20](a)\n", count: 40)
            let lyrics = try Lyricify.parseLines(backings)
            #expect(lyrics.lines.first?.backgrounds.count == Lyricify.Limits.maxBackings)
            // The 17th bracketed row becomes a main line, and the ones after it its backing.
            #expect(lyrics.lines.map(\.backgrounds.count) == [Lyricify.Limits.maxBackings, Lyricify.Limits.maxBackings, 40 - 2 * Lyricify.Limits.maxBackings - 2])
            #expect(invariantViolations(lyrics) == [])
            #expect(throws: LyricsError.noTimedLines) { try Lyricify.parseLines("[0,1]" + String(repeating: "a", count: 70_000)) }
        }

        @Test func hostileInputFinishesQuickly() {
            let hostile = [
                String(repeating: "[", count: 100_000),
                String(repeating: "[0,", count: 30_000),
                "[" + String(repeating: " ", count: 60_000) + "1,2]x",
                String(repeating: "[1,2](((\n", count: 30_000),
                String(repeating: "[1,2]" + String(repeating: "(", count: 50) + "\n", count: 5_000),
            ]
            for text in hostile {
                if let lyrics = try? Lyricify.parseLines(text) {
                    #expect(invariantViolations(lyrics) == [])
                }
            }
        }
    }
}

/// Lyricify Quick Export (`.lqe`): the container, its sections, and joining translations and
/// pronunciations to lines by time.
extension LyricifyTests {
    @Suite struct QuickExport {
        static let cases: [FullCase] = [
            FullCase("lyrics, translation and pronunciation", """
                [Lyricify Quick Export]
                [version:1.0]

                [lyrics: format@Lyricify Syllable]
                [4]Tin (1000,300)roof(1300,400)
                [5]Rain(2000,500)


                [translation: format@LRC, language@zh-Hans]
                [00:01.000]锡屋顶
                [00:02.000]雨

                [pronunciation: format@LRC, language@romaji]
                [00:01.000]tin ruufu
                """, [Full(TimedLine(1000, 1700, "Tin roof", tr: "锡屋顶", [W(1000, 1300, "Tin "), W(1300, 1700, "roof")], agent: "v1"),
                           roma: "tin ruufu", translations: ["zh-Hans:锡屋顶"]),
                      Full(TimedLine(2000, 2500, "Rain", tr: "雨", [W(2000, 2500, "Rain")], agent: "v2"), translations: ["zh-Hans:雨"])]),
            FullCase("a translation without a language", "[Lyricify Quick Export]\n[lyrics: format@Lyricify Syllable]\n[0]Ab(100,100)\n[translation: format@LRC]\n[00:00.100]甲",
                     [Full(TimedLine(100, 200, "Ab", tr: "甲", [W(100, 200, "Ab")]), translations: ["甲"])]),
            FullCase("extension names, any order, no spaces, any case", "[Lyricify Quick Export]\n[LYRICS:format@lys]\n[0]Ab(100,100)\n[Translation:language@en,format@lrc]\n[00:00.10]Ay",
                     [Full(TimedLine(100, 200, "Ab", tr: "Ay", [W(100, 200, "Ab")]), translations: ["en:Ay"])]),
            FullCase("sections in any order", "[Lyricify Quick Export]\n[pronunciation: format@LRC]\n[00:00.100]ei\n[translation: format@LRC]\n[00:00.100]甲\n[lyrics: format@Lyricify Syllable]\n[0]Ab(100,100)",
                     [Full(TimedLine(100, 200, "Ab", tr: "甲", [W(100, 200, "Ab")]), roma: "ei", translations: ["甲"])]),
            FullCase("centisecond stamps match within 10 ms", "[Lyricify Quick Export]\n[lyrics: format@lys]\n[0]Ab(1004,100)\n[0]Cd(2010,100)\n[translation: format@lrc]\n[00:01.00]甲\n[00:02.00]乙",
                     [Full(TimedLine(1004, 1104, "Ab", tr: "甲", [W(1004, 1104, "Ab")]), translations: ["甲"]),
                      Full(TimedLine(2010, 2110, "Cd", tr: "乙", [W(2010, 2110, "Cd")]), translations: ["乙"])]),
            FullCase("farther than 10 ms matches nothing", "[Lyricify Quick Export]\n[lyrics: format@lys]\n[0]Ab(1011,100)\n[translation: format@lrc]\n[00:01.00]甲",
                     [Full(TimedLine(1011, 1111, "Ab", [W(1011, 1111, "Ab")]))]),
            FullCase("the nearest start wins, exact first", "[Lyricify Quick Export]\n[lyrics: format@lys]\n[0]Ab(995,10)\n[0]Cd(1000,10)\n[0]Ef(1003,10)\n[translation: format@lrc]\n[00:01.000]乙\n[00:01.000]丙\n[00:01.000]甲",
                     [Full(TimedLine(995, 1005, "Ab", tr: "甲", [W(995, 1005, "Ab")]), translations: ["甲"]),
                      Full(TimedLine(1000, 1010, "Cd", tr: "乙", [W(1000, 1010, "Cd")]), translations: ["乙"]),
                      Full(TimedLine(1003, 1013, "Ef", tr: "丙", [W(1003, 1013, "Ef")]), translations: ["丙"])]),
            FullCase("same-stamp rows pair with same-start lines in order", "[Lyricify Quick Export]\n[lyrics: format@lys]\n[4]Ab(100,100)\n[5]Cd(100,100)\n[translation: format@lrc]\n[00:00.100]甲\n[00:00.100]乙",
                     [Full(TimedLine(100, 200, "Ab", tr: "甲", [W(100, 200, "Ab")], agent: "v1"), translations: ["甲"]),
                      Full(TimedLine(100, 200, "Cd", tr: "乙", [W(100, 200, "Cd")], agent: "v2"), translations: ["乙"])]),
            FullCase("a backing run takes the row at its own start", "[Lyricify Quick Export]\n[lyrics: format@lys]\n[4]Ab(100,500)\n[7](cd)(300,100)\n[translation: format@lrc]\n[00:00.100]甲\n[00:00.300](乙)\n[pronunciation: format@lrc]\n[00:00.300]otsu",
                     [Full(TimedLine(100, 600, "Ab", tr: "甲", [W(100, 600, "Ab")], agent: "v1"), [Run(300, 400, "cd", [W(300, 400, "cd")], tr: "乙", roma: "otsu")],
                           translations: ["甲"])]),
            FullCase("a bare stamp takes its line and gives nothing", "[Lyricify Quick Export]\n[lyrics: format@lys]\n[0]Ab(100,100)\n[0]Cd(100,100)\n[translation: format@lrc]\n[00:00.100]\n[00:00.100]乙",
                     [Full(TimedLine(100, 200, "Ab", [W(100, 200, "Ab")])), Full(TimedLine(100, 200, "Cd", tr: "乙", [W(100, 200, "Cd")]), translations: ["乙"])]),
            FullCase("two translation sections: both kept, the first shown", "[Lyricify Quick Export]\n[lyrics: format@lys]\n[0]Ab(100,100)\n[0]Cd(300,100)\n[translation: format@LRC, language@zh-Hans]\n[00:00.100]甲\n[translation: format@LRC, language@ja]\n[00:00.100]こう\n[00:00.300]おつ",
                     [Full(TimedLine(100, 200, "Ab", tr: "甲", [W(100, 200, "Ab")]), translations: ["zh-Hans:甲", "ja:こう"]),
                      Full(TimedLine(300, 400, "Cd", tr: "おつ", [W(300, 400, "Cd")]), translations: ["ja:おつ"])]),
            FullCase("a row stamped twice joins two lines", "[Lyricify Quick Export]\n[lyrics: format@lys]\n[0]Ab(100,100)\n[0]Ab(900,100)\n[translation: format@lrc]\n[00:00.100][00:00.900]甲",
                     [Full(TimedLine(100, 200, "Ab", tr: "甲", [W(100, 200, "Ab")]), translations: ["甲"]),
                      Full(TimedLine(900, 1000, "Ab", tr: "甲", [W(900, 1000, "Ab")]), translations: ["甲"])]),
            FullCase("a lyrics section without a format is Lyricify Syllable", "[Lyricify Quick Export]\n[lyrics:]\n[0]Ab(100,100)",
                     [Full(TimedLine(100, 200, "Ab", [W(100, 200, "Ab")]))]),
            FullCase("lyrics in LRC", "[Lyricify Quick Export]\n[lyrics: format@LRC]\n[00:01.00]Tin roof\n[00:03.00]Rain\n[translation: format@LRC]\n[00:03.000]雨",
                     [Full(TimedLine(1000, 3000, "Tin roof")), Full(TimedLine(3000, 8000, "Rain", tr: "雨"), translations: ["雨"])]),
            FullCase("lyrics in Lyricify Lines", "[Lyricify Quick Export]\n[lyrics: format@Lyricify Lines]\n[1000,2000]Tin roof\n[1500,1800](hum)\n[translation: format@LRC]\n[00:01.000]锡屋顶\n[00:01.500]哼",
                     [Full(TimedLine(1000, 2000, "Tin roof", tr: "锡屋顶"), [Run(1500, 1800, "hum", tr: "哼")], translations: ["锡屋顶"])]),
            FullCase("unknown sections and formats are skipped", "[Lyricify Quick Export]\n[lyrics: format@lys]\n[0]Ab(100,100)\n[notes: kind@draft]\n[00:00.100]not a translation\n[translation: format@QRC]\n[00:00.100]also not",
                     [Full(TimedLine(100, 200, "Ab", [W(100, 200, "Ab")]))]),
            FullCase("the first lyrics section wins", "[Lyricify Quick Export]\n[lyrics: format@lys]\n[0]Ab(100,100)\n[lyrics: format@lys]\n[0]Cd(300,100)",
                     [Full(TimedLine(100, 200, "Ab", [W(100, 200, "Ab")]))]),
            FullCase("BOM, CRLF and blank lines before the mark", "\u{FEFF}\r\n  \r\n[Lyricify Quick Export]\r\n[lyrics: format@Lyricify Syllable]\r\n[0]Ab(100,100)\r\n[translation: format@LRC]\r\n[00:00.100]甲\r\n",
                     [Full(TimedLine(100, 200, "Ab", tr: "甲", [W(100, 200, "Ab")]), translations: ["甲"])]),
            FullCase("rows matching nothing are skipped", "[Lyricify Quick Export]\n[lyrics: format@lys]\n[0]Ab(100,100)\n[translation: format@lrc]\n[00:05.000]孤\n[00:00.100]甲\n[00:00.100]多",
                     [Full(TimedLine(100, 200, "Ab", tr: "甲", [W(100, 200, "Ab")]), translations: ["甲"])]),
            FullCase("spaces everywhere in section headers", "[Lyricify Quick Export]\n[ lyrics : format @ Lyricify Syllable ]\n[0]Ab(100,100)\n[ translation : format @ LRC , language @ ko ]\n[00:00.100]갑",
                     [Full(TimedLine(100, 200, "Ab", tr: "갑", [W(100, 200, "Ab")]), translations: ["ko:갑"])]),
            FullCase("a tag in a section does not end it", "[Lyricify Quick Export]\n[lyrics: format@lys]\n[0]Ab(100,100)\n[by:someone@example.org]\n[0]Cd(300,100)",
                     [Full(TimedLine(100, 200, "Ab", [W(100, 200, "Ab")])), Full(TimedLine(300, 400, "Cd", [W(300, 400, "Cd")]))]),
            FullCase("LRC lyrics: a gap line takes no translation", "[Lyricify Quick Export]\n[lyrics: format@lrc]\n[00:01.00]Ab\n[00:02.00]\n[00:03.00]Cd\n[translation: format@lrc]\n[00:02.000]空\n[00:03.000]丙",
                     [Full(TimedLine(1000, 2000, "Ab")), Full(TimedLine(2000, 3000, "")),
                      Full(TimedLine(3000, 8000, "Cd", tr: "丙"), translations: ["丙"])]),
            FullCase("a repeated mark is ignored", "[Lyricify Quick Export]\n[Lyricify Quick Export]\n[lyrics: format@lys]\n[Lyricify Quick Export]\n[0]Ab(100,100)",
                     [Full(TimedLine(100, 200, "Ab", [W(100, 200, "Ab")]))]),
            FullCase("pronunciation only", "[Lyricify Quick Export]\n[lyrics: format@lys]\n[0]雨(100,100)\n[pronunciation: format@LRC, language@romaji]\n[00:00.100]ame",
                     [Full(TimedLine(100, 200, "雨", [W(100, 200, "雨")]), roma: "ame")]),
            FullCase("untimed rows in a translation section are skipped", "[Lyricify Quick Export]\n[lyrics: format@lys]\n[0]Ab(100,100)\n[translation: format@lrc]\nloose text\n[00:00.100]甲",
                     [Full(TimedLine(100, 200, "Ab", tr: "甲", [W(100, 200, "Ab")]), translations: ["甲"])]),
        ]

        @Test(arguments: cases)
        func lines(_ testCase: FullCase) throws {
            let lyrics = try Lyricify.parseQuickExport(testCase.input)
            #expect(lyrics.full == testCase.expected)
            #expect(lyrics.format == .lqe)
            #expect(invariantViolations(lyrics) == [])
        }

        @Test func preambleTagsAndOffset() throws {
            let text = """
                [Lyricify Quick Export]
                [version: 1.0 ]
                [ti:Kite]
                [by:someone@example.org]
                [offset:200]
                [lyrics: format@Lyricify Syllable]
                [ar:not a preamble tag]
                [offset:5000]
                [4]Ab(1000,100)
                [translation: format@LRC]
                [offset:7000]
                [00:01.000]甲
                """
            let lyrics = try Lyricify.parseQuickExport(text)
            #expect(lyrics.tags == ["version": "1.0", "ti": "Kite", "by": "someone@example.org", "offset": "200"])
            #expect(lyrics.metadata == Lyrics.Metadata(title: "Kite"))
            #expect(lyrics.offsetMs == 200)
            #expect(lyrics.agents == [Lyrics.Agent(id: "v1", kind: .person)])
            // Joined at file times, then moved by the preamble's offset only.
            #expect(lyrics.full == [Full(TimedLine(800, 900, "Ab", tr: "甲", [W(800, 900, "Ab")], agent: "v1"), translations: ["甲"])])
        }

        static let errorCases: [(String, LyricsError)] = [
            ("", .empty),
            ("\n  \n", .noTimedLines),
            ("[version:1.0]\n[lyrics: format@lys]\n[0]Ab(0,1)",
             .invalid("not valid Lyricify Quick Export: line 1: expected '[Lyricify Quick Export]' first, found '[version:1.0]'")),
            ("[Lyricify Quick Export]\n[version:1.0]\n[translation: format@LRC]\n[00:00.100]甲",
             .invalid("not valid Lyricify Quick Export: no lyrics section ('[lyrics: format@Lyricify Syllable]')")),
            ("[Lyricify Quick Export]\n\n[lyrics: format@QRC]\n[0,100]Ab(0,100)",
             .invalid("not valid Lyricify Quick Export: line 3: lyrics in format 'QRC' are not read (Lyricify Syllable, Lyricify Lines or LRC)")),
            ("[Lyricify Quick Export]\n[lyrics: format@lys]\n\n", .noTimedLines),
            ("[Lyricify Quick Export]\n[lyrics: format@lrc]\nplain", .noTimedLines),
            ("[Lyricify Quick Export]\n[lyrics: format@lys]\n[4]no stamp",
             .invalid("not valid Lyricify Quick Export: line 3: no word stamp (start,duration) in '[4]no stamp'")),
        ]

        @Test(arguments: errorCases)
        func errors(_ input: String, _ expected: LyricsError) {
            #expect(throws: expected) { try Lyricify.parseQuickExport(input) }
        }

        @Test func manyLinesAtOneTimeJoinQuickly() throws {
            let count = 5_000
            let text = "[Lyricify Quick Export]\n[lyrics: format@lys]\n"
                + String(repeating: "[0]Ab(1000,10)\n", count: count) + "[translation: format@lrc]\n"
                + String(repeating: "[00:01.005]甲\n", count: count + 10)
            let lyrics = try Lyricify.parseQuickExport(text)
            #expect(lyrics.lines.count == count)
            #expect(lyrics.lines.allSatisfy { $0.translation == "甲" })
        }

        @Test func hostileInputFinishesQuickly() {
            let hostile = [
                "[Lyricify Quick Export]\n" + String(repeating: "[lyrics: format@lys]\n", count: 30_000),
                "[Lyricify Quick Export]\n[lyrics:]\n[0]a(0,1)\n" + String(repeating: "[translation: format@lrc]\n[00:00.000]x\n", count: 10_000),
                "[Lyricify Quick Export]\n[lyrics:" + String(repeating: "a@b,", count: 15_000) + "]\n[0]a(0,1)",
                "[Lyricify Quick Export]\n[lyrics:]\n[0]a(0,1)\n[translation:]\n" + String(repeating: "[00:00.000]", count: 20_000) + "x",
                "[Lyricify Quick Export]\n[lyrics:]\n[0]a(0,1)\n[translation:]\n" + String(repeating: "[", count: 60_000),
            ]
            for text in hostile {
                if let lyrics = try? Lyricify.parseQuickExport(text) {
                    #expect(invariantViolations(lyrics) == [])
                }
            }
        }
    }
}

/// Telling the three formats apart from their content.
extension LyricifyTests {
    static let sniffCases: [(String, LyricsFormat?)] = [
        ("[Lyricify Quick Export]\n[version:1.0]", .lqe),
        ("\u{FEFF}  \n [Lyricify Quick Export] \n", .lqe),
        ("[ti:x]\n[Lyricify Quick Export]", nil),
        ("[type:LyricifyLines]\n[0,100]a", .lyl),
        ("[ti:x]\n[1000,2000]Tin roof\n[2000,3000]Rain", .lyl),
        ("[1000,2000]Tin(1000,500)roof(1500,500)", nil),
        ("[ti:x]\n[4]Tin(1000,500)", .lys),
        ("[0]A(x)B(0,10)", .lys),
        ("[4]no stamps", nil),
        ("[00:01.00]lrc line", nil),
        ("plain words", nil),
        ("", nil),
    ]

    @Test(arguments: sniffCases)
    func sniff(_ text: String, _ expected: LyricsFormat?) {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        #expect(Lyricify.sniff(lines) == expected)
    }
}
