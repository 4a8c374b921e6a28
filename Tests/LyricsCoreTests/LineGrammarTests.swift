import Testing
@testable import LyricsCore

/// One LRC input and the lines it must produce (display start, text, translation).
struct ParseCase: Sendable, CustomTestStringConvertible {
    var name: String
    var input: String
    var expected: [Shown]
    var testDescription: String { name }

    init(_ name: String, _ input: String, _ expected: [Shown]) {
        self.name = name
        self.input = input
        self.expected = expected
    }
}

/// File and line structure: line ends, BOMs, prefixes, groups, comments, untimed and blank lines.
@Suite struct LineGrammarTests {
    static let cases: [ParseCase] = [
        ParseCase("one line", "[00:12.34]Hello", [Shown(12_340, "Hello")]),
        ParseCase("fan-out and stable sort", "[00:03.00][00:01.00]Bell\n[00:02.00]Anchor",
                  [Shown(1000, "Bell"), Shown(2000, "Anchor"), Shown(3000, "Bell")]),
        ParseCase("spaces between groups (lrc-kit)", " [1:00 ]  [  2:00] [ 3:01 ]  hello",
                  [Shown(60_000, "hello"), Shown(120_000, "hello"), Shown(181_000, "hello")]),
        ParseCase("unsorted file", "[00:09.00]c\n[00:01.00]a\n[00:05.00]b",
                  [Shown(1000, "a"), Shown(5000, "b"), Shown(9000, "c")]),
        ParseCase("CRLF", "[00:01.00]a\r\n[00:02.00]b\r\n", [Shown(1000, "a"), Shown(2000, "b")]),
        ParseCase("bare CR", "[00:01.00]a\r[00:02.00]b\r", [Shown(1000, "a"), Shown(2000, "b")]),
        ParseCase("mixed line ends", "[00:01.00]a\r\n[00:02.00]b\n[00:03.00]c\r[00:04.00]d\n\r\n",
                  [Shown(1000, "a"), Shown(2000, "b"), Shown(3000, "c"), Shown(4000, "d")]),
        ParseCase("NUL is a line end", "[00:01.00]a\0[00:02.00]b\0", [Shown(1000, "a"), Shown(2000, "b")]),
        ParseCase("BOM at the start of any line", "\u{FEFF}[00:01.00]a\n\u{FEFF}[00:02.00]b\n\u{FEFF}\u{FEFF}[ti:t]",
                  [Shown(1000, "a"), Shown(2000, "b")]),
        ParseCase("BOM inside text is kept", "[00:01.00]a\u{FEFF}b", [Shown(1000, "a\u{FEFF}b")]),
        ParseCase("eng|| prefix", "eng||[00:01.00]a", [Shown(1000, "a")]),
        ParseCase("en|| prefix before a tag", "en||[ti:t]\n[00:01.00]a", [Shown(1000, "a")]),
        ParseCase("prefix only at the very start", "[00:01.00]eng||a\neng||[00:02.00]b", [Shown(1000, "eng||a")]),
        ParseCase("ID tag before a time tag on one line", "[offset:0][00:01.00]a", [Shown(1000, "a")]),
        ParseCase("two tags before a time tag", "[ti:x][ar:y] [00:01.00] a", [Shown(1000, "a")]),
        ParseCase("bracket after a time tag is text", "[00:00.00][Intro: piano]", [Shown(0, "[Intro: piano]")]),
        ParseCase("bracket then text", "[00:01.00][scared]more", [Shown(1000, "[scared]more")]),
        ParseCase("ID-tag look-alike after a time tag is text", "[00:01.00][ar:x]y", [Shown(1000, "[ar:x]y")]),
        ParseCase("untimed lines ignored", "Title line\n[00:01.00]a\nnotes\n[Chorus]\n(x)\n", [Shown(1000, "a")]),
        ParseCase("# comment lines", "# Verse 1\n[00:01.00]a\n  # [00:02.00]hidden", [Shown(1000, "a")]),
        ParseCase("[:] comment ignores the rest", "[:] [00:05.00]hidden\n[00:01.00]a", [Shown(1000, "a")]),
        ParseCase("gap lines kept", "[00:01.00]a\n[00:02.00]\n[00:03.00]   \n[00:04.00]b",
                  [Shown(1000, "a"), Shown(2000, ""), Shown(3000, ""), Shown(4000, "b")]),
        ParseCase("trim the line, keep inner spacing", "[00:01.00]   two  spaces\t ", [Shown(1000, "two  spaces")]),
        ParseCase("full-width spaces", "[00:01.00]\u{3000}前\u{3000}後\u{3000}", [Shown(1000, "前\u{3000}後")]),
        ParseCase("stray angle brackets are text", "[00:01.00]a < b > c", [Shown(1000, "a < b > c")]),
        ParseCase("unclosed bracket is text", "[00:01.00]x [y", [Shown(1000, "x [y")]),
        ParseCase("non-time brackets in the text", "[00:01.00]x [99] <y> [a:b] y", [Shown(1000, "x [99] <y> [a:b] y")]),
        ParseCase("hash inside text", "[00:01.00]#1 hit", [Shown(1000, "#1 hit")]),
        ParseCase("negative and minute-less stamps are not times", "[-1:30.00]a\n[10.00]b\n[00:01.00]c", [Shown(1000, "c")]),
        ParseCase("every time form", """
            [00:00.1]a
            [00:13]b
            [0:20:50]c
            [0:30,25]d
            [ 0 : 40 . 5 ]e
            [0:99.00]f
            [1:02:03.45]g
            [103:3.405]h
            """, [Shown(100, "a"), Shown(13_000, "b"), Shown(20_500, "c"), Shown(30_250, "d"), Shown(40_500, "e"),
                  Shown(99_000, "f"), Shown(3_723_450, "g"), Shown(6_183_405, "h")]),
        ParseCase("long tag-less lyric bracket", "[00:01.00][" + String(repeating: "x", count: 200) + "]",
                  [Shown(1000, "[" + String(repeating: "x", count: 200) + "]")]),
    ]

    @Test(arguments: cases)
    func parses(_ testCase: ParseCase) throws {
        let lyrics = try lrc(testCase.input)
        #expect(lyrics.shown == testCase.expected)
        #expect(invariantViolations(lyrics) == [])
    }

    @Test(arguments: [
        ("nothing timed", "hello\nworld"),
        ("only tags", "[ti:x]\n[ar:y]\n[offset:100]"),
        ("only rejected stamps", "[10.00]x\n[-1:00.00]y\n[1:2:3:4]z"),
        ("only comments", "# [00:01.00]x\n[:] [00:02.00]y"),
        ("only LRCX attachments", "[00:01.00][tr:en]x\n[00:01.00][tt]<0,0>"),
        ("whitespace", " \n\r\n\t"),
    ])
    func throwsNoTimedLines(name: String, input: String) {
        #expect(throws: LyricsError.noTimedLines) { try lrc(input) }
    }

    @Test func emptyTextIsEmpty() {
        #expect(throws: LyricsError.empty) { try lrc("") }
    }

    @Test func errorDescriptions() {
        #expect(LyricsError.empty.description == "file is empty")
        #expect(LyricsError.noTimedLines.description == "no timed lyric lines (not a lyric file?)")
        #expect(LyricsError.undecodable("utf-8").description == "not valid utf-8 text (binary data, or another encoding)")
        let unknown = LyricsError.unknownEncoding("xyz").description
        #expect(unknown.hasPrefix("unknown encoding 'xyz' (known: utf-8, utf-16le, utf-16be, gb18030, big5"))
        #expect(unknown.contains("shift_jis") && unknown.contains("euc-kr") && unknown.hasSuffix(")"))
    }
}
