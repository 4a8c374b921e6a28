import Foundation
import Testing
@testable import LyricsCore

/// LRC behaviours where peers' test suites disagree, each decided from what the players do
/// (docs/lyrics.md, "Decided LRC cases"): copies of a line at another line's stamp, translations in
/// lenticular brackets, free text after the last stamp, and LRCX attachments wherever they stand.
@Suite struct PeerLRCTests {
    struct Line: Equatable, CustomStringConvertible {
        var ms: Int
        var text: String
        var tr: String?
        var description: String { "\(ms) \(text)" + (tr.map { " / \($0)" } ?? "") }
    }

    static func lines(_ text: String) throws -> [Line] {
        try LyricsReader.parse(text, format: .lrc).lines.filter(\.isSung).map { Line(ms: $0.start.milliseconds, text: $0.text, tr: $0.translation) }
    }

    static func lines(_ data: Data) throws -> [Line] {
        try LyricsReader.load(data).lines.filter(\.isSung).map { Line(ms: $0.start.milliseconds, text: $0.text, tr: $0.translation) }
    }

    // MARK: Copies keyed by another line's stamp

    @Test func aSecondLineAtAStampIsItsTranslation() throws {
        // lemony test_duplicate_time_tag_as_reference; AMLL, SPL.
        #expect(try Self.lines("[00:01.000]第一版本\n[00:01.000]第二版本\n") == [Line(ms: 1000, text: "第一版本", tr: "第二版本")])
        // lemony test_duplicate_tags_on_existing_line_do_not_alias: C written twice at A's stamp is one translation.
        #expect(try Self.lines("[00:01.000]A\n[00:01.000]B\n[00:01.000][00:01.000]C\n") == [Line(ms: 1000, text: "A", tr: "B\nC")])
    }

    @Test func aCopyOfASungLineAtAnotherLinesStampStaysALine() throws {
        // The chorus line is sung again at 9 s, written at the stamp of the line sung with it.
        let text = """
            [00:01.00]Hold the lantern high
            [00:05.00]Over the water
            [00:09.00]Into the night
            [00:09.00]Hold the lantern high
            [00:13.00]Steam on the glass
            """
        #expect(try Self.lines(text) == [
            Line(ms: 1000, text: "Hold the lantern high"), Line(ms: 5000, text: "Over the water"),
            Line(ms: 9000, text: "Into the night"), Line(ms: 9000, text: "Hold the lantern high"),
            Line(ms: 13_000, text: "Steam on the glass"),
        ])
        // An identical copy at the same stamp is one line (lrc-kit "copy line" keeps both; a poster
        // would print it twice).
        #expect(try Self.lines("[00:28.08]And I don't even know\n[00:28.08]And I don't even know\n[00:30.00]x")
            == [Line(ms: 28_080, text: "And I don't even know"), Line(ms: 30_000, text: "x")])
    }

    @Test func aLineMostlyInTheSameLettersIsSungWithIt() throws {
        // amll-ttml-db 1294899572: two voices at one stamp, the second with two Han characters.
        let text = "[01:36.000]跳吧\n[01:38.545]hands up\n[01:38.545]and what's up 最低？\n[01:40.000]Paper moon\n[01:40.000]纸月亮\n[01:42.000]再来\n[01:44.000]一次\n"
        #expect(try Self.lines(text) == [Line(ms: 96_000, text: "跳吧"), Line(ms: 98_545, text: "hands up"), Line(ms: 98_545, text: "and what's up 最低？"),
                                         Line(ms: 100_000, text: "Paper moon", tr: "纸月亮"), Line(ms: 102_000, text: "再来"), Line(ms: 104_000, text: "一次")])
    }

    // MARK: Lenticular brackets

    @Test func bracketsClosingTheLinesOfAFileAreTranslations() throws {
        let text = """
            [00:01.00]Hello【你好】
            [00:03.00]いくつもの笑顔が〖无数地欢笑〗
            [00:05.00]Good night 【晚安】
            """
        #expect(try Self.lines(text) == [Line(ms: 1000, text: "Hello", tr: "你好"), Line(ms: 3000, text: "いくつもの笑顔が", tr: "无数地欢笑"),
                                         Line(ms: 5000, text: "Good night", tr: "晚安")])
    }

    @Test func bracketsThatArePartOfTheLyricStay() throws {
        let text = """
            [00:00.00]晴天【Live】
            [00:02.00]【Intro】hello
            [00:04.00]Hello【a】tail
            [00:06.00]【仅翻译】
            [00:08.00]『鸟の诗』
            [00:10.00]故事的小黄花
            [00:12.00]从出生那年就飘着
            [00:14.00]童年的荡秋千
            """
        let lines = try Self.lines(text)
        #expect(lines.map(\.text) == ["晴天【Live】", "【Intro】hello", "Hello【a】tail", "【仅翻译】", "『鸟の诗』", "故事的小黄花", "从出生那年就飘着", "童年的荡秋千"])
        #expect(lines.allSatisfy { $0.tr == nil })
    }

    // MARK: Free text after the last stamp

    @Test func aSitesNoteAfterTheLastStampOfAGBFileIsDropped() throws {
        // GB18030 bytes of "[00:01.00]第一行 … [00:05.00]第三行\n欢迎访问本站", and of the same with
        // "No tags" (OSD's lrc_gbk.lrc ends so).
        for hex in ["5b30303a30312e30305db5dad2bbd0d00a5b30303a30332e30305db5dab6fed0d00a5b30303a30352e30305db5dac8fdd0d00abbb6d3adb7c3cecab1bed5be0a",
                    "5b30303a30312e30305db5dad2bbd0d00a5b30303a30332e30305db5dab6fed0d00a5b30303a30352e30305db5dac8fdd0d00a4e6f20746167730a"] {
            let data = Data(stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! })
            let lines = try Self.lines(data)
            #expect(lines.map(\.text) == ["第一行", "第二行", "第三行"])
            #expect(lines.allSatisfy { $0.tr == nil }, "\(lines)")
        }
    }

    @Test func freeTextAfterTheLastStampOfAUnicodeFileIsItsTranslation() throws {
        // AMLL lrc-like.test.ts: an untimed line after the last line translates it (SPL).
        #expect(try Self.lines("[00:01.000]你好椒盐音乐\n[00:02.000]不要糖醋放椒盐\nHello Salt Player")
            == [Line(ms: 1000, text: "你好椒盐音乐"), Line(ms: 2000, text: "不要糖醋放椒盐", tr: "Hello Salt Player")])
        // …but not a site's note.
        #expect(try Self.lines("[00:01.00]第一行\n[00:03.00]第二行\n歌词来自 www.example.com").allSatisfy { $0.tr == nil })
    }

    @Test func aLegacyFileThatTranslatesUntimedElsewhereKeepsItsLast() throws {
        // GB18030: "[00:01.00]第一行\nFirst line\n[00:03.00]第二行\nSecond line"
        let text = "[00:01.00]第一行\nFirst line\n[00:03.00]第二行\nSecond line\n"
        let lyrics = try LRC.parse(text, encoding: "gb18030")
        #expect(lyrics.lines.map(\.translation) == ["First line", "Second line"])
    }

    // MARK: LRCX attachments anywhere

    @Test func lrcxAttachmentsBeforeTheirLineAndAtTheTop() throws {
        let text = """
            [00:01.00][tr:zh-Hans]你好世界
            [00:01.00][tt]<0,0><400,6><900>
            [00:01.00][fu]<せかい,6,8>
            [00:01.00]Hello 世界
            [00:03.00][tt]<0,0><300,2>
            [00:03.00]Next
            [00:03.00][tr:zh-Hans]下一个
            """
        let lyrics = try LyricsReader.parse(text)
        let first = try #require(lyrics.lines.first)
        #expect(first.text == "Hello 世界")
        #expect(first.translation == "你好世界")
        #expect(first.words.map(\.text) == ["Hello ", "世界"])
        #expect(first.words.map(\.start.milliseconds) == [1000, 1400])
        #expect(first.words.map(\.end.milliseconds) == [1400, 1900])
        #expect(first.words.map(\.ruby) == [nil, "せかい"])
        let second = lyrics.lines[1]
        #expect(second.translation == "下一个")
        #expect(second.words.map(\.text) == ["Ne", "xt"])
        #expect(second.words.map(\.start.milliseconds) == [3000, 3300])
    }

    @Test func badLRCXValuesAreIgnoredNotFatal() throws {
        for value in ["<a,b>", "<0,5><100,2>", "<0,99>", "<-5,0>", String(repeating: "<1,", count: 1000), "<1,0><2,1>>>"] {
            let lyrics = try LyricsReader.parse("[00:01.00]Hello\n[00:01.00][tt]\(value)\n[00:01.00][fu]\(value)\n")
            #expect(lyrics.lines.first?.text == "Hello")
            #expect(lyrics.lines.first.map { $0.words.isEmpty || $0.words.map(\.text).joined() == "Hello" } == true)
        }
    }

    @Test func manyLongLRCXAttachmentsAreBounded() throws {
        // 300 lines of 600 characters, each with a [tt] and a [fu] of 600 groups: at most 512 groups
        // are read of an attachment and 50,000 of the file, so the work stays bounded (furigana
        // costs groups × words): the attachments past the budget are dropped.
        let text = String(repeating: "字", count: 600)
        let timing = (0..<600).map { "<\($0 * 10),\($0)>" }.joined()
        let furigana = (0..<600).map { "<じ,\($0),\($0 + 1)>" }.joined()
        var file = ""
        for line in 0..<300 {
            let stamp = String(format: "[%02d:%02d.00]", line / 60, line % 60)
            file += "\(stamp)\(text)\n\(stamp)[tt]\(timing)\n\(stamp)[fu]\(furigana)\n"
        }
        let lyrics = try LyricsReader.parse(file)
        #expect(lyrics.lines.count == 300)
        #expect(lyrics.lines.allSatisfy { $0.words.isEmpty || $0.words.map(\.text).joined() == text })
        let timed = lyrics.lines.filter { !$0.words.isEmpty }
        #expect(timed.count == LRC.LRCX.maxGroupsPerFile / LRC.LRCX.maxGroups, "the [tt] rows the budget pays for, and no more")
        #expect(timed.allSatisfy { $0.words.count == LRC.LRCX.maxGroups }, "512 groups of each row read")
    }
}
