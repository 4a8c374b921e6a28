import Testing
@testable import LyricsCore

/// Same-stamp grouping: translations, duplicates, gaps at the same stamp, LRCX attachments.
@Suite struct TranslationTests {
    static let cases: [ParseCase] = [
        ParseCase("bilingual pair", "[00:01.00]Lanterns drift\n[00:01.00]灯笼飘远",
                  [Shown(1000, "Lanterns drift", tr: "灯笼飘远")]),
        ParseCase("translation need not be adjacent",
                  "[00:01.00]Moss\n[00:02.00]Stone\n[00:01.00]苔藓\n[00:02.00]石头",
                  [Shown(1000, "Moss", tr: "苔藓"), Shown(2000, "Stone", tr: "石头")]),
        ParseCase("first line with the stamp is the original", "[00:01.00]苔藓\n[00:01.00]Moss",
                  [Shown(1000, "苔藓", tr: "Moss")]),
        ParseCase("third same-stamp line appends with a newline", "[00:01.00]a\n[00:01.00]b\n[00:01.00]c",
                  [Shown(1000, "a", tr: "b\nc")]),
        ParseCase("identical duplicate collapses", "[00:01.00]a\n[00:01.00]a\n[00:02.00]b",
                  [Shown(1000, "a"), Shown(2000, "b")]),
        ParseCase("same stamp twice on one line", "[00:01.00][00:01.00]a", [Shown(1000, "a")]),
        ParseCase("duplicate translation collapses", "[00:01.00]a\n[00:01.00]b\n[00:01.00]b\n[00:01.00]a",
                  [Shown(1000, "a", tr: "b")]),
        ParseCase("same stamp written differently", "[00:01.1]a\n[00:01.100]b\n[0:1:10]c",
                  [Shown(1100, "a", tr: "b\nc")]),
        ParseCase("placeholder // is no translation", "[00:01.00]a\n[00:01.00]//", [Shown(1000, "a")]),
        ParseCase("gap at a text stamp is dropped", "[00:01.00]\n[00:01.00]a\n[00:02.00]b\n[00:02.00]",
                  [Shown(1000, "a"), Shown(2000, "b")]),
        ParseCase("duplicate gaps collapse", "[00:01.00]\n[00:01.00]\n[00:02.00]a", [Shown(1000, ""), Shown(2000, "a")]),
        ParseCase("word tags stripped from both", "[00:01.00]<00:01.00>Tin <00:01.50>roof\n[00:01.00]<00:01.00>铁皮屋顶",
                  [Shown(1000, "Tin roof", tr: "铁皮屋顶")]),
        ParseCase("chorus stamps fan out, translation follows each", """
            [00:10.00][00:30.00]Kite string
            [00:10.00]风筝线
            [00:30.00]风筝线
            """, [Shown(10_000, "Kite string", tr: "风筝线"), Shown(30_000, "Kite string", tr: "风筝线")]),
        ParseCase("LRCX attachments", """
            [00:01.000]海の声
            [00:01.000][tt]<0,0><200,1><400,2>
            [00:01.000][fu]<うみ,0,1><こえ,2,3>
            [00:01.000][tr:zh-Hans]海之声
            [00:02.000]空
            [00:02.000][roma]sora
            """, [Shown(1000, "海の声", tr: "海之声"), Shown(2000, "空")]),
        ParseCase("LRCX translation before its line", "[00:01.000][tr:en]Sea voice\n[00:01.000]海の声",
                  [Shown(1000, "海の声", tr: "Sea voice")]),
        ParseCase("LRCX plain [tr]", "[00:01.000]海\n[00:01.000][tr]sea", [Shown(1000, "海", tr: "sea")]),
        ParseCase("LRCX translation without a line is dropped", "[00:01.000][tr:en]Orphan\n[00:02.000]x", [Shown(2000, "x")]),
        ParseCase("not an attachment: upper case or odd names", "[00:01.000][TR:en]x\n[00:02.000][tr:]y",
                  [Shown(1000, "[TR:en]x"), Shown(2000, "[tr:]y")]),
    ]

    @Test(arguments: cases)
    func groups(_ testCase: ParseCase) throws {
        let lyrics = try lrc(testCase.input)
        #expect(lyrics.shown == testCase.expected)
        #expect(invariantViolations(lyrics) == [])
    }

    @Test func translationLineKeepsOriginalWords() throws {
        let lyrics = try lrc("[00:01.00]<00:01.00>Tin <00:01.50>roof<00:02.00>\n[00:01.00]<00:01.00>铁皮<00:01.80>屋顶")
        #expect(lyrics.lines[0].words.map(\.text) == ["Tin ", "roof"])
    }
}
