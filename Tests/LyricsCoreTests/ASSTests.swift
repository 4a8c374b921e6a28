import Foundation
import Testing
@testable import LyricsCore
import TestSupport

/// A script with libass's default columns and the given events.
private func script(_ events: String...) -> String {
    """
    [Script Info]
    ScriptType: v4.00+

    [Events]
    Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

    """ + events.joined(separator: "\n")
}

/// One `Dialogue:` line in the default columns.
private func dialogue(_ start: String, _ end: String, _ text: String, style: String = "Default", name: String = "") -> String {
    "Dialogue: 0,\(start),\(end),\(style),\(name),0,0,0,,\(text)"
}

/// ASS/SSA karaoke: columns, times, `\k` tags and their arguments, override blocks, roles from
/// Style and Name, and hostile scripts. Lyrics here are made up for the tests.
@Suite struct ASSTests {
    static let cases: [FullCase] = [
        FullCase("\\k syllables follow each other from Start", script(dialogue("0:00:01.00", "0:00:02.00", "{\\k50}Tin {\\k50}roof")),
                 [Full(TimedLine(1000, 2000, "Tin roof", [W(1000, 1500, "Tin "), W(1500, 2000, "roof")]))]),
        FullCase("\\kf, \\K and \\ko time the same", script(dialogue("0:00:00.00", "0:00:01.00", "{\\kf20}a{\\K30}b{\\ko50}c")),
                 [Full(TimedLine(0, 1000, "abc", [W(0, 200, "a"), W(200, 500, "b"), W(500, 1000, "c")]))]),
        FullCase("a missing argument is 100 cs", script(dialogue("0:00:00.00", "0:00:01.00", "{\\k}Ab{\\k}Cd")),
                 [Full(TimedLine(0, 2000, "AbCd", [W(0, 1000, "Ab"), W(1000, 2000, "Cd")]))]),
        FullCase("fractional centiseconds", script(dialogue("0:00:00.00", "0:00:00.10", "{\\k12.5}Ab{\\k7.55}Cd")),
                 [Full(TimedLine(0, 200, "AbCd", [W(0, 125, "Ab"), W(125, 200, "Cd")]))]),
        FullCase("tags without text between them add up as a gap", script(dialogue("0:00:00.00", "0:00:01.00", "{\\k20}{\\k30}Ab{\\k10\\k40}Cd{\\k10}")),
                 [Full(TimedLine(0, 1000, "AbCd", [W(200, 500, "Ab"), W(600, 1000, "Cd")]))]),
        FullCase("\\kt sets the next start from Start", script(dialogue("0:00:01.00", "0:00:03.00", "{\\k50}Ab{\\kt100\\k50}Cd")),
                 [Full(TimedLine(1000, 3000, "AbCd", [W(1000, 1500, "Ab"), W(2000, 2500, "Cd")]))]),
        FullCase("\\kt without an argument goes back to Start", script(dialogue("0:00:01.00", "0:00:02.00", "{\\k50}Ab{\\kt\\k20}Cd")),
                 [Full(TimedLine(1000, 2000, "AbCd", [W(1000, 1500, "Ab"), W(1000, 1200, "Cd")]))]),
        FullCase("text before the first tag is sung at Start", script(dialogue("0:00:01.00", "0:00:02.00", "Oh {\\k50}Ab")),
                 [Full(TimedLine(1000, 2000, "Oh Ab", [W(1000, 1000, "Oh "), W(1000, 1500, "Ab")]))]),
        FullCase("other override blocks are removed", script(dialogue("0:00:00.00", "0:00:01.00", "{\\b1}{\\k50}Ab{\\pos(10,20)\\k50}Cd{\\i1}")),
                 [Full(TimedLine(0, 1000, "AbCd", [W(0, 500, "Ab"), W(500, 1000, "Cd")]))]),
        FullCase("karaoke inside \\t(…) is not a syllable", script(dialogue("0:00:00.00", "0:00:01.00", "{\\k50}Ab{\\t(0,100,\\k99)}Cd")),
                 [Full(TimedLine(0, 1000, "AbCd", [W(0, 500, "AbCd")]))]),
        FullCase("\\N and \\n are one space", script(dialogue("0:00:00.00", "0:00:01.00", "{\\k50}Ab\\N{\\k50}Cd"),
                                                      dialogue("0:00:02.00", "0:00:03.00", "Ab \\N Cd\\nEf\\N\\NGh")),
                 [Full(TimedLine(0, 1000, "Ab Cd", [W(0, 500, "Ab "), W(500, 1000, "Cd")])), Full(TimedLine(2000, 3000, "Ab Cd Ef Gh"))]),
        FullCase("\\h, escaped braces, tabs and other backslashes", script(dialogue("0:00:00.00", "0:00:01.00", "Ab\\hCd \\{x\\}\tEf\\\\G")),
                 [Full(TimedLine(0, 1000, "Ab Cd {x} Ef\\\\G"))]),
        FullCase("a brace that never closes is text", script(dialogue("0:00:00.00", "0:00:01.00", "{\\k50}Ab {Cd {Ef")),
                 [Full(TimedLine(0, 1000, "Ab {Cd {Ef", [W(0, 500, "Ab {Cd {Ef")]))]),
        FullCase("a block runs to the first closing brace", script(dialogue("0:00:00.00", "0:00:01.00", "{\\k50}Ab {Cd{\\k50}Ef")),
                 [Full(TimedLine(0, 1000, "Ab Ef", [W(0, 500, "Ab "), W(500, 1000, "Ef")]))]),
        FullCase("a non-numeric argument is 0, a negative one 0", script(dialogue("0:00:00.00", "0:00:01.00", "{\\kabc}Ab{\\k-5}Cd{\\k50}Ef")),
                 [Full(TimedLine(0, 1000, "AbCdEf", [W(0, 0, "Ab"), W(0, 0, "Cd"), W(0, 500, "Ef")]))]),
        FullCase("a huge argument is held at the limit", script(dialogue("0:00:00.00", "0:00:01.00", "{\\k99999999999999}Ab{\\k10}Cd")),
                 [Full(TimedLine(0, ASS.Limits.maxTimeMs, "AbCd", [W(0, ASS.Limits.maxTimeMs, "Ab"), W(ASS.Limits.maxTimeMs, ASS.Limits.maxTimeMs, "Cd")]))]),
        FullCase("\\k0 is a syllable of no length", script(dialogue("0:00:00.00", "0:00:01.00", "{\\k50}Ab{\\k0}，{\\k50}Cd")),
                 [Full(TimedLine(0, 1000, "Ab，Cd", [W(0, 500, "Ab"), W(500, 500, "，"), W(500, 1000, "Cd")]))]),
        FullCase("spaces settle into words", script(dialogue("0:00:00.00", "0:00:01.00", "{\\k10} {\\k10}Ab {\\k10} {\\k10}Cd {\\k10} ")),
                 [Full(TimedLine(0, 1000, "Ab Cd", [W(100, 200, "Ab "), W(300, 400, "Cd")]))]),
        FullCase("no karaoke: a line-timed line", script(dialogue("0:00:05.00", "0:00:07.50", "  Plain line  ")),
                 [Full(TimedLine(5000, 7500, "Plain line"))]),
        FullCase("Text may hold commas", script(dialogue("0:00:00.00", "0:00:01.00", "Ab, cd, ef,")),
                 [Full(TimedLine(0, 1000, "Ab, cd, ef,"))]),
        FullCase("columns in another order", "[Events]\nFormat: Text, End, Name, Start\nDialogue: {\\k50}Ab,0:00:02.00,v2,0:00:01.00\nDialogue: x, y,0:00:03.00,,0:00:02.50",
                 [Full(TimedLine(1000, 2000, "Ab", [W(1000, 1500, "Ab")], agent: "v2"))]),
        FullCase("no Format: libass's default order", "[Events]\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Ab, cd",
                 [Full(TimedLine(1000, 2000, "Ab, cd"))]),
        FullCase("SSA's Marked column", "[Script Info]\nScriptType: v4.00\n[V4 Styles]\nStyle: x\n[Events]\nFormat: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: Marked=0,0:00:01.00,0:00:02.00,Default,,0000,0000,0000,,Ab",
                 [Full(TimedLine(1000, 2000, "Ab"))]),
        FullCase("AMLL's Formats: line and spaces after commas", "[Script Info]\n[Events]\nFormats: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:12.34, 0:00:15.67, Default, v1,0,0,0,,{\\k20}Tin{\\k15} roof",
                 [Full(TimedLine(12340, 15670, "Tin roof", [W(12340, 12540, "Tin "), W(12540, 12690, "roof")], agent: "v1"))]),
        FullCase("comments, styles and other events are skipped", """
                 ; Script made by hand
                 [Script Info]
                 Title: x
                 [V4+ Styles]
                 Format: Name, Fontname
                 Style: Default,Arial
                 [Events]
                 Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
                 Comment: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,not sung
                 ; a comment
                 Picture: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,pic.png
                 Dialogue: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,Sung
                 [Fonts]
                 Dialogue: 0,0:00:04.00,0:00:05.00,Default,,0,0,0,,not an event here
                 """, [Full(TimedLine(2000, 3000, "Sung"))]),
        FullCase("AMLL roles: agents, -trans, -roman", script(dialogue("0:00:01.00", "0:00:02.00", "{\\k100}Tin", name: "v1"),
                                                               dialogue("0:00:01.00", "0:00:02.00", "锡", name: "v1-trans"),
                                                               dialogue("0:00:01.00", "0:00:02.00", "tin", name: "v1-roman"),
                                                               dialogue("0:00:03.00", "0:00:04.00", "{\\k100}Roof", name: "v2")),
                 [Full(TimedLine(1000, 2000, "Tin", tr: "锡", [W(1000, 2000, "Tin")], agent: "v1"), roma: "tin", translations: ["锡"]),
                  Full(TimedLine(3000, 4000, "Roof", [W(3000, 4000, "Roof")], agent: "v2"))]),
        FullCase("LDDC roles: Style orig, ts, roma grouped apart", script(dialogue("0:00:01.00", "0:00:02.00", "{\\kf100}雨", style: "orig"),
                                                                          dialogue("0:00:03.00", "0:00:04.00", "{\\kf100}風", style: "orig"),
                                                                          dialogue("0:00:01.00", "0:00:02.00", "Rain", style: "ts"),
                                                                          dialogue("0:00:03.00", "0:00:04.00", "Wind", style: "ts"),
                                                                          dialogue("0:00:01.00", "0:00:02.00", "{\\kf100}ame", style: "roma")),
                 [Full(TimedLine(1000, 2000, "雨", tr: "Rain", [W(1000, 2000, "雨")]), roma: "ame", translations: ["Rain"]),
                  Full(TimedLine(3000, 4000, "風", tr: "Wind", [W(3000, 4000, "風")]), translations: ["Wind"])]),
        FullCase("backing after its line, brackets removed", script(dialogue("0:00:01.00", "0:00:03.00", "{\\k100}Sun {\\k100}up", name: "v1"),
                                                                    dialogue("0:00:02.00", "0:00:03.50", "{\\k50}(low {\\k100}hum)", name: "v1-bg")),
                 [Full(TimedLine(1000, 3500, "Sun up", [W(1000, 2000, "Sun "), W(2000, 3000, "up")], agent: "v1"),
                       [Run(2000, 3500, "low hum", [W(2000, 2500, "low "), W(2500, 3500, "hum")])])]),
        FullCase("a Style with bg is backing too", script(dialogue("0:00:01.00", "0:00:03.00", "Sun", style: "orig"),
                                                           dialogue("0:00:01.50", "0:00:02.00", "（hum）", style: "orig-bg")),
                 [Full(TimedLine(1000, 3000, "Sun"), [Run(1500, 2000, "hum")])]),
        FullCase("backing written apart joins the line it overlaps", script(dialogue("0:00:01.00", "0:00:02.00", "One"),
                                                                            dialogue("0:00:03.00", "0:00:04.00", "Two"),
                                                                            dialogue("0:00:01.20", "0:00:01.80", "(a)", name: "x-bg"),
                                                                            dialogue("0:00:03.20", "0:00:03.80", "(b)", name: "x-bg")),
                 [Full(TimedLine(1000, 2000, "One"), [Run(1200, 1800, "a")]), Full(TimedLine(3000, 4000, "Two"), [Run(3200, 3800, "b")])]),
        FullCase("backing with no line before it is a line, brackets kept", script(dialogue("0:00:01.00", "0:00:02.00", "(Lone hum)", name: "v2-bg"),
                                                                                   dialogue("0:00:03.00", "0:00:04.00", "Ab")),
                 [Full(TimedLine(1000, 2000, "(Lone hum)", agent: "v2")), Full(TimedLine(3000, 4000, "Ab"))]),
        FullCase("a backing run's translation and romanisation", script(dialogue("0:00:01.00", "0:00:03.00", "Sun", name: "v1"),
                                                                        dialogue("0:00:02.00", "0:00:02.50", "(hum)", name: "v1-bg"),
                                                                        dialogue("0:00:02.00", "0:00:02.50", "(哼)", name: "v1-bg-trans"),
                                                                        dialogue("0:00:02.00", "0:00:02.50", "fun", name: "v1-bg-roman")),
                 [Full(TimedLine(1000, 3000, "Sun", agent: "v1"), [Run(2000, 2500, "hum", tr: "哼", roma: "fun")])]),
        FullCase("a duet pairs translations in order, x-lang names the language",
                 script(dialogue("0:00:01.00", "0:00:02.00", "Ab", name: "v1"), dialogue("0:00:01.00", "0:00:02.00", "Cd", name: "v2"),
                        dialogue("0:00:01.00", "0:00:02.00", "甲", style: "ts", name: "x-lang:zh-Hans"),
                        dialogue("0:00:01.00", "0:00:02.00", "乙", style: "ts", name: "x-lang:zh-Hans"),
                        dialogue("0:00:01.00", "0:00:02.00", "い", style: "ts", name: "x-lang:ja")),
                 [Full(TimedLine(1000, 2000, "Ab", tr: "甲", agent: "v1"), translations: ["zh-Hans:甲"]),
                  Full(TimedLine(1000, 2000, "Cd", tr: "乙", agent: "v2"), translations: ["zh-Hans:乙", "ja:い"])]),
        FullCase("a translation joins the line it overlaps; orphans are dropped",
                 script(dialogue("0:00:01.00", "0:00:03.00", "Ab"), dialogue("0:00:01.50", "0:00:02.00", "{\\k50}甲", style: "trans"),
                        dialogue("0:00:09.00", "0:00:10.00", "孤", style: "trans"), dialogue("0:00:01.00", "0:00:02.00", "", style: "ts")),
                 [Full(TimedLine(1000, 3000, "Ab", tr: "甲"), translations: ["甲"])]),
        FullCase("a backing that starts before its line joins the line written before it",
                 script(dialogue("0:00:01.00", "0:00:05.00", "One"), dialogue("0:00:04.00", "0:00:06.00", "Two", name: "v1"),
                        dialogue("0:00:03.50", "0:00:04.50", "{\\k100}hum", name: "v1-bg"),
                        dialogue("0:00:03.50", "0:00:04.50", "哼", name: "v1-bg-trans")),
                 [Full(TimedLine(1000, 5000, "One")),
                  Full(TimedLine(3500, 6000, "Two", agent: "v1"), [Run(3500, 4500, "hum", [W(3500, 4500, "hum")], tr: "哼")])]),
        FullCase("a translation's hard breaks separate parts", script(dialogue("0:00:01.00", "0:00:02.00", "Ab"),
                                                                       dialogue("0:00:01.00", "0:00:02.00", " 甲 \\N 乙\\n丙\\N\\N丁 ", name: "-trans")),
                 [Full(TimedLine(1000, 2000, "Ab", tr: "甲\n乙 丙\n丁"), translations: ["甲\n乙 丙\n丁"])]),
        FullCase("time fractions of one to three digits", script(dialogue("0:00:01.5", "0:00:01.123", "Ab"), dialogue("1:02:03.04", "1:02:03", "Cd")),
                 [Full(TimedLine(1500, 1500, "Ab")), Full(TimedLine(3_723_040, 3_723_040, "Cd"))]),
        FullCase("syllables past End widen the line", script(dialogue("0:00:01.00", "0:00:01.20", "{\\k50}Ab")),
                 [Full(TimedLine(1000, 1500, "Ab", [W(1000, 1500, "Ab")]))]),
        FullCase("sorted by start, equal starts in file order", script(dialogue("0:00:05.00", "0:00:06.00", "Late"), dialogue("0:00:01.00", "0:00:02.00", "One"),
                                                                       dialogue("0:00:01.00", "0:00:02.00", "Two")),
                 [Full(TimedLine(1000, 2000, "One")), Full(TimedLine(1000, 2000, "Two")), Full(TimedLine(5000, 6000, "Late"))]),
        FullCase("events with nothing to show give no line", script(dialogue("0:00:01.00", "0:00:02.00", "{\\k50}{\\b1}  "), dialogue("0:00:01.00", "0:00:02.00", "{\\an8}"),
                                                                    dialogue("0:00:03.00", "0:00:04.00", "Ab")),
                 [Full(TimedLine(3000, 4000, "Ab"))]),
        FullCase("BOM, CRLF and lone CR", "\u{FEFF}[Script Info]\r\n[Events]\r\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\k50}Ab\rDialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,Cd\r\n",
                 [Full(TimedLine(1000, 2000, "Ab", [W(1000, 1500, "Ab")])), Full(TimedLine(3000, 4000, "Cd"))]),
        FullCase("malformed events are skipped", script("Dialogue: 0,0:00:01.00", dialogue("1:2", "0:00:02.00", "x"), dialogue("0:00:01.00", "0:00:02.00", "ok")),
                 [Full(TimedLine(1000, 2000, "ok"))]),
    ]

    @Test(arguments: cases)
    func lines(_ testCase: FullCase) throws {
        let lyrics = try ASS.parse(testCase.input)
        #expect(lyrics.full == testCase.expected)
        #expect(lyrics.format == .ass)
        #expect(invariantViolations(lyrics) == [])
    }

    @Test func scriptInfoAndAgents() throws {
        let text = "[Script Info]\nTitle: Default Aegisub file\nScriptType: v4.00+\n[Events]\n"
            + dialogue("0:00:01.00", "0:00:02.00", "Ab", name: "v2") + "\n" + dialogue("0:00:03.00", "0:00:04.00", "Cd", name: "v1 Alice")
        let lyrics = try ASS.parse(text, encoding: "utf-16le")
        #expect(lyrics.tags == ["title": "Default Aegisub file", "scripttype": "v4.00+"])
        #expect(lyrics.metadata == Lyrics.Metadata())
        let titled = try ASS.parse("[Script Info]\nTitle:  Kite Song \n[Events]\n" + dialogue("0:00:01.00", "0:00:02.00", "Ab"))
        #expect(titled.metadata == Lyrics.Metadata(title: "Kite Song"))
        #expect(lyrics.agents == [Lyrics.Agent(id: "v2", kind: .person), Lyrics.Agent(id: "v1", kind: .person)])
        #expect(lyrics.encoding == "utf-16le")
        #expect(lyrics.offsetMs == 0)
    }

    static let roleCases: [(String, String, ASS.Assembly.Role)] = [
        ("Default", "", .init()),
        ("orig", "v1", .init(agent: "v1")),
        ("Default", "v2-bg", .init(backing: true, agent: "v2")),
        ("Default", "v1-bg-trans", .init(kind: .translation, backing: true, agent: "v1")),
        ("Default", "v12-roman", .init(kind: .romanisation, agent: "v12")),
        ("ts", "x-lang:en", .init(kind: .translation, language: "en")),
        ("TRANS", "", .init(kind: .translation)),
        ("roma", "", .init(kind: .romanisation)),
        ("Lyrics_BG", "", .init(backing: true)),
        ("Subgroup", "Vivian", .init()),
        ("Default", "x-bg", .init(backing: true)),
    ]

    @Test(arguments: roleCases)
    func roles(_ style: String, _ name: String, _ expected: ASS.Assembly.Role) {
        #expect(ASS.Assembly.role(style: style[...], name: name[...]) == expected)
    }

    static let errorCases: [(String, LyricsError)] = [
        ("", .empty),
        ("[Script Info]\nTitle: x\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Ab", .invalid("not valid ASS: no [Events] section")),
        ("[Events]\nFormat: Layer, Style, Text\nDialogue: 0,a,b", .invalid("not valid ASS: line 2: Format names no Start, End or Text ('layer, style, text')")),
        ("[Events]\nFormat: " + Array(repeating: "Text", count: 200).joined(separator: ","), .invalid("not valid ASS: line 2: Format names more than 64 fields")),
        ("[Events]\r\nDialogue: 0,0:00:01.00", .invalid("not valid ASS: line 2: Dialogue has 2 fields, Format names 10")),
        (script(dialogue("0:00:01.00", "0:00:0x.00", "x")), .invalid("not valid ASS: line 6: malformed time '0:00:0x.00'")),
        (script(dialogue("0:00:01.00", "0:00:01.1234", "x")), .invalid("not valid ASS: line 6: malformed time '0:00:01.1234'")),
        (script(dialogue("-0:00:01.00", "0:00:02.00", "x")), .invalid("not valid ASS: line 6: malformed time '-0:00:01.00'")),
        ("[Events]\n", .noTimedLines),
        (script(dialogue("0:00:01.00", "0:00:02.00", "only a translation", style: "ts")), .noTimedLines),
        (script(dialogue("0:00:01.00", "0:00:02.00", "{\\k50}")), .noTimedLines),
    ]

    @Test(arguments: errorCases)
    func errors(_ input: String, _ expected: LyricsError) {
        #expect(throws: expected) { try ASS.parse(input) }
    }

    static let scriptCases: [(String, Bool)] = [
        ("[Script Info]\nTitle: x", true),
        ("\u{FEFF}; comment\n\n  [script info]  ", true),
        ("[Events]\nFormat: Start, End, Text\nDialogue: 0:00:00.00,0:00:01.00,x", true),
        ("[Events]\nComment: only", false),
        ("Dialogue: 0,0:00:00.00,0:00:01.00,,,0,0,0,,x", false),
        ("[ti:x]\n[Script Info]", false),
        ("[00:01.00]lrc line", false),
        ("", false),
    ]

    @Test(arguments: scriptCases)
    func isScript(_ text: String, _ expected: Bool) {
        #expect(ASS.isScript(text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)) == expected)
    }

    @Test func readThroughTheReader() throws {
        let lyrics = try LyricsReader.load(Data(script(dialogue("0:00:01.00", "0:00:02.00", "{\\k50}Ab")).utf8), format: .ass)
        #expect(lyrics.format == .ass)
        #expect(lyrics.lines.map(\.text) == ["Ab"])
    }

    @Test func limits() throws {
        #expect(throws: LyricsError.tooLarge("ASS larger than the limit of 8388608 bytes")) {
            try ASS.parse(script(dialogue("0:00:00.00", "0:00:01.00", "x")) + "\n" + String(repeating: "a", count: ASS.Limits.maxBytes))
        }
        // Ten thousand syllables in one event: words past the limit fold into the last.
        let syllables = String(repeating: "{\\k1}a", count: 10_000)
        let line = try #require(try ASS.parse(script(dialogue("0:00:00.00", "0:00:01.00", syllables))).lines.first)
        #expect(line.words.count == ASS.Limits.maxWords)
        #expect(line.words.last?.end.milliseconds == 100_000)
        #expect(line.end.milliseconds == 100_000)
        #expect(line.text.count == 10_000)
        // A hundred thousand tags make an over-long line, which is ignored.
        #expect(throws: LyricsError.noTimedLines) {
            try ASS.parse(script(dialogue("0:00:00.00", "0:00:01.00", String(repeating: "{\\k1}a", count: 100_000))))
        }
        let events = (0..<(ASS.Limits.maxEvents + 100)).map { dialogue("0:00:00.00", "0:00:01.00", "e\($0)") }
        let many = try ASS.parse(script(events.joined(separator: "\n")))
        #expect(many.lines.count == ASS.Limits.maxEvents)
        let backings = script(dialogue("0:00:00.00", "0:00:09.00", "Sun"), String(repeating: dialogue("0:00:01.00", "0:00:02.00", "(a)", name: "bg") + "\n", count: 20))
        #expect(try ASS.parse(backings).lines.map(\.backgrounds.count) == [ASS.Limits.maxBackings, 0, 0, 0, 0])
    }

    @Test func hostileInputFinishesQuickly() {
        let hostile = [
            script(dialogue("0:00:00.00", "0:00:01.00", String(repeating: "{", count: 60_000))),
            script(dialogue("0:00:00.00", "0:00:01.00", "{" + String(repeating: "\\k", count: 30_000) + "}a")),
            script(dialogue("0:00:00.00", "0:00:01.00", "{" + String(repeating: "(", count: 60_000) + "\\k10}a")),
            script(dialogue("0:00:00.00", "0:00:01.00", String(repeating: "\\N", count: 30_000) + "a")),
            script(dialogue("0:00:00.00", "0:00:01.00", String(repeating: "{}", count: 30_000) + "a")),
            script(String(repeating: "Dialogue: 0,0:00:00.00,0:00:01.00,,,0,0,0,,{\\k99999999999}x\n", count: 6_000)),
            script("Dialogue: " + String(repeating: ",", count: 60_000)),
            "[Events]\nFormat: " + String(repeating: "x,", count: 30_000),
            String(repeating: "[Events]\n", count: 30_000),
            script(String(repeating: dialogue("0:00:01.00", "0:00:02.00", "t", style: "ts") + "\n", count: 6_000)),
            script(dialogue("0:00:00.00", "9:00:00.00", "Main"), String(repeating: dialogue("0:00:01.00", "0:00:02.00", "(a)", name: "bg") + "\n", count: 6_000)),
        ]
        for text in hostile {
            if let lyrics = try? ASS.parse(text) {
                #expect(invariantViolations(lyrics) == [])
            }
        }
    }

    /// Fragments that reach the parser's corners far more often than uniform bytes do.
    static let fragments: [String] = [
        "\n", "\r\n", ",", ":", ".", " ", "0", "1", "59", "-", "[Events]\n", "[Script Info]\n", "Format: Start, End, Text\n",
        "Dialogue: ", "Comment: ", "0:00:01.00", "0:00:02.5", "{", "}", "\\", "\\k", "\\kf", "\\kt", "\\K", "\\N", "\\h",
        "{\\k50}", "{\\b1}", "(", ")", "word ", "雨", "v1", "v2-bg", "-trans", "ts", "roma", "\u{FEFF}", "，",
        "\nDialogue: 0,0:00:01.00,0:00:02.00,Default,v1,0,0,0,,", "\nDialogue: 0,0:00:01.50,0:00:03.00,ts,,0,0,0,,",
        "\nDialogue: 0,0:00:01.20,0:00:01.80,Default,v2-bg,0,0,0,,(", "\nDialogue: 0,0:00:00.00,0:00:00.00,,,,,,,",
    ]

    @Test func fiveHundredSeededInputs() {
        var random = SplitMix64(seed: 0x41_53_53)
        var parsed = 0
        for round in 0..<500 {
            var text = round % 2 == 0 ? "[Events]\n" : ""
            for _ in 0..<Int.random(in: 0..<60, using: &random) {
                if round % 5 == 0 {
                    text.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0...255, using: &random)))
                } else {
                    text += Self.fragments[Int.random(in: 0..<Self.fragments.count, using: &random)]
                }
            }
            do {
                let lyrics = try ASS.parse(text)
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
        #expect(parsed > 30)
    }
}
