import Testing
@testable import LyricsCore

/// The seven ways real-world LRC files tripped the parser, one suite section each (our own words,
/// the files' shapes).
@Suite struct RealWorldLRCTests {
    // MARK: 1. Simultaneous lines are not translations

    static let sameStampCases: [ParseCase] = [
        ParseCase("two voices at one stamp in a song of single lines stay two lines", """
            [00:01.00]Bread, bread, bread
            [00:05.00]Sugar on the table, sugar on the floor
            [00:05.00]Honey, it's a slice of bread
            [00:09.00]Salt in the kettle
            [00:13.00]Steam on the glass
            """, [Shown(1000, "Bread, bread, bread"), Shown(5000, "Sugar on the table, sugar on the floor"),
                  Shown(5000, "Honey, it's a slice of bread"), Shown(9000, "Salt in the kettle"), Shown(13_000, "Steam on the glass")]),
        ParseCase("same script Chinese duet lines stay two lines", """
            [00:01.00]灯还亮着
            [00:04.00]有你在
            [00:04.00]有我在
            [00:07.00]风停了
            [00:10.00]雨也停了
            """, [Shown(1000, "灯还亮着"), Shown(4000, "有你在"), Shown(4000, "有我在"), Shown(7000, "风停了"), Shown(10_000, "雨也停了")]),
        ParseCase("another script is a translation even when only one line has it", """
            [00:01.00]Paper moon
            [00:01.00]纸月亮
            [00:04.00]Over the water
            [00:07.00]Under the bridge
            [00:10.00]Into the night
            """, [Shown(1000, "Paper moon", tr: "纸月亮"), Shown(4000, "Over the water"), Shown(7000, "Under the bridge"),
                  Shown(10_000, "Into the night")]),
        ParseCase("Japanese line with a Chinese translation (kana versus Han)", "[00:01.00]雨が降る\n[00:01.00]下雨了",
                  [Shown(1000, "雨が降る", tr: "下雨了")]),
        ParseCase("a file that pairs every stamp is bilingual, same script or not", """
            [00:01.00]Lantern on the hill
            [00:01.00]Linterna en la colina
            [00:04.00]Water in the well
            [00:04.00]Agua en el pozo
            [00:07.00]Bread upon the sill
            [00:07.00]Pan sobre el alféizar
            """, [Shown(1000, "Lantern on the hill", tr: "Linterna en la colina"), Shown(4000, "Water in the well", tr: "Agua en el pozo"),
                  Shown(7000, "Bread upon the sill", tr: "Pan sobre el alféizar")]),
    ]

    @Test(arguments: sameStampCases)
    func simultaneousLines(_ testCase: ParseCase) throws {
        let lyrics = try lrc(testCase.input)
        #expect(lyrics.shown == testCase.expected)
        #expect(invariantViolations(lyrics) == [])
    }

    @Test func simultaneousLinesShareTheirEndAndAreOneGroup() throws {
        let lyrics = try lrc("[00:01.00]a\n[00:04.00]有你在\n[00:04.00]有我在\n[00:07.00]b\n[00:09.00]c\n[00:11.00]d")
        #expect(lyrics.lines[1].end == lyrics.lines[2].end)
        #expect(lyrics.lines[1].end.milliseconds == 7000)
        #expect(Timeline(lyrics).group(of: 2) == 1...2)
    }

    // MARK: 2. Backward word stamps

    @Test func backwardWordStampsAreIgnored() throws {
        // ESLyric style (sniffed so): the stamp after a space jumps back before the word before it.
        let lyrics = try LyricsReader.parse("[00:10.000]We[00:10.237] [00:10.000]promise[00:10.900] [00:10.900]rain[00:11.400]\n[00:14.000]x")
        #expect(lyrics.format == .eslrc)
        let line = try #require(lyrics.lines.first)
        #expect(line.text == "We promise rain")
        #expect(line.words.map(W.init) == [W(10_000, 10_237, "We "), W(10_237, 10_900, "promise "), W(10_900, 11_400, "rain")])
        #expect(line.words.allSatisfy { $0.start >= line.start })
    }

    // MARK: 3. A trailing stamp ends the line

    @Test func trailingStampEndsTheLine() throws {
        let lyrics = try lrc("[01:15.000]Kettle[01:16.200] song[01:19.453]\n[01:24.170]Next line")
        #expect(lyrics.lines[0].end.milliseconds == 79_453)
        let timeline = Timeline(lyrics)
        #expect(!timeline.cursor(at: Timestamp(milliseconds: 79_452)).isInterlude)
        #expect(timeline.cursor(at: Timestamp(milliseconds: 79_453)).isInterlude)
        #expect(timeline.cursor(at: Timestamp(milliseconds: 84_170)).index == 1)
    }

    @Test func trailingStampAfterTheNextLineDoesNotOverlap() throws {
        let lyrics = try lrc("[00:01.00]<00:01.00>late <00:02.00>end<00:06.00>\n[00:04.00]next")
        #expect(lyrics.lines[0].end.milliseconds == 4000)
        #expect(invariantViolations(lyrics) == [])
    }

    // MARK: 4. Untimed line after a timed one

    static let untimedCases: [ParseCase] = [
        ParseCase("syncedlyrics: translation in parentheses on the next line", """
            [00:01.00]Salt on the window
            (Sal en la ventana)
            [00:04.00]Light on the floor
            (Luz en el suelo)
            """, [Shown(1000, "Salt on the window", tr: "Sal en la ventana"), Shown(4000, "Light on the floor", tr: "Luz en el suelo")]),
        ParseCase("without parentheses", "[00:01.00]雨の駅\n雨中的车站\n[00:04.00]b", [Shown(1000, "雨の駅", tr: "雨中的车站"), Shown(4000, "b")]),
        ParseCase("a block of plain text is not a translation", """
            [00:01.00]a
            Verse one
            more plain text
            [00:04.00]b
            """, [Shown(1000, "a"), Shown(4000, "b")]),
        ParseCase("untimed text before any timed line is ignored", "Some header\n[00:01.00]a", [Shown(1000, "a")]),
        ParseCase("a repeated line's untimed translation follows each copy", "[00:01.00][00:09.00]chorus\n(coro)",
                  [Shown(1000, "chorus", tr: "coro"), Shown(9000, "chorus", tr: "coro")]),
    ]

    @Test(arguments: untimedCases)
    func untimedTranslations(_ testCase: ParseCase) throws {
        let lyrics = try lrc(testCase.input)
        #expect(lyrics.shown == testCase.expected)
    }

    // MARK: 5. Romanisation first

    @Test func romajiFirstIsTheRomanisation() throws {
        // LDDC's default order: romaji, original, translation, all at one stamp.
        let lyrics = try lrc("""
            [00:01.00]ame no eki
            [00:01.00]雨の駅
            [00:01.00]雨中的车站
            [00:04.00]kaze ga fuku
            [00:04.00]風が吹く
            [00:04.00]风在吹
            """)
        #expect(lyrics.lines.map(\.text) == ["雨の駅", "風が吹く"])
        #expect(lyrics.lines.map(\.romanisation) == ["ame no eki", "kaze ga fuku"])
        #expect(lyrics.lines.map(\.translation) == ["雨中的车站", "风在吹"])
    }

    @Test func romanisationBesideATwoLinePairWithKana() throws {
        let lyrics = try lrc("[00:01.00]hoshi no uta\n[00:01.00]星のうた\n[00:04.00]b")
        #expect(lyrics.lines[0].text == "星のうた")
        #expect(lyrics.lines[0].romanisation == "hoshi no uta")
        #expect(lyrics.lines[0].translation == nil)
    }

    @Test func pinyinFirstIsTheRomanisation() throws {
        let lyrics = try lrc("[00:01.00]yuè liang zài tiān shàng\n[00:01.00]月亮在天上\n[00:04.00]b")
        #expect(lyrics.lines[0].text == "月亮在天上")
        #expect(lyrics.lines[0].romanisation == "yuè liang zài tiān shàng")
    }

    @Test func englishBeforeChineseStaysTheOriginal() throws {
        // An English song with a Chinese translation: English is not a romanisation.
        let lyrics = try lrc("[00:01.00]Paper moon over water\n[00:01.00]水上的纸月亮\n[00:04.00]b")
        #expect(lyrics.lines[0].text == "Paper moon over water")
        #expect(lyrics.lines[0].translation == "水上的纸月亮")
        #expect(lyrics.lines[0].romanisation == nil)
    }

    @Test func originalRomajiTranslationOrder() throws {
        let lyrics = try lrc("[00:01.00]雨の駅\n[00:01.00]ame no eki\n[00:01.00]雨中的车站\n[00:04.00]b")
        #expect(lyrics.lines[0].text == "雨の駅")
        #expect(lyrics.lines[0].romanisation == "ame no eki")
        #expect(lyrics.lines[0].translation == "雨中的车站")
    }

    @Test func romajiAfterTheLineBesideAnEnglishTranslation() throws {
        // Original, romaji, English translation: both later lines are Latin; the romaji reads as romaji.
        let lyrics = try lrc("""
            [00:01.00]君の声が聞こえる
            [00:01.00]kimi no koe ga kikoeru
            [00:01.00]I can hear your voice
            [00:05.00]夜明けまで
            [00:05.00]yoake made
            [00:05.00]until dawn
            [00:09.00]ずっと一緒
            [00:09.00]zutto issho
            [00:09.00]together all along
            """)
        #expect(lyrics.lines.map(\.text) == ["君の声が聞こえる", "夜明けまで", "ずっと一緒"])
        #expect(lyrics.lines.map(\.romanisation) == ["kimi no koe ga kikoeru", "yoake made", "zutto issho"])
        #expect(lyrics.lines.map(\.translation) == ["I can hear your voice", "until dawn", "together all along"])
    }

    @Test func pinyinAfterTheLineWithoutATranslation() throws {
        let lyrics = try lrc("""
            [00:01.00]月亮在天上
            [00:01.00]yuè liang zài tiān shàng
            [00:05.00]风吹过河面
            [00:05.00]fēng chuī guò hé miàn
            """)
        #expect(lyrics.lines.map(\.text) == ["月亮在天上", "风吹过河面"])
        #expect(lyrics.lines.map(\.romanisation) == ["yuè liang zài tiān shàng", "fēng chuī guò hé miàn"])
        #expect(lyrics.lines.map(\.translation) == [nil, nil])
    }

    @Test func koreanRomanisationAfterTheLine() throws {
        let lyrics = try lrc("""
            [00:01.00]별이 빛나는 밤
            [00:01.00]byeori binnaneun bam
            [00:01.00]a night of shining stars
            [00:05.00]너를 기다려
            [00:05.00]neoreul gidaryeo
            [00:05.00]I wait for you
            """)
        #expect(lyrics.lines.map(\.romanisation) == ["byeori binnaneun bam", "neoreul gidaryeo"])
        #expect(lyrics.lines.map(\.translation) == ["a night of shining stars", "I wait for you"])
    }

    @Test func anEnglishTranslationAfterTheLineStaysATranslation() throws {
        // One English line reads as romaji ("I see a moon"); the file as a whole does not romanise.
        let lyrics = try lrc("""
            [00:01.00]月が見える
            [00:01.00]I see a moon
            [00:05.00]夜明けまで
            [00:05.00]until dawn
            [00:09.00]君の声
            [00:09.00]your voice
            """)
        #expect(lyrics.lines.map(\.romanisation) == [nil, nil, nil])
        #expect(lyrics.lines.map(\.translation) == ["I see a moon", "until dawn", "your voice"])
    }

    @Test func romanisationWordsAreReadBySyllable() {
        #expect(Script.looksLikeRomanisation("kimi no koe ga kikoeru", of: .japanese))
        #expect(Script.looksLikeRomanisation("Sayōnara, chotto matte", of: .japanese))
        #expect(Script.looksLikeRomanisation("zutto issho ni ite", of: .japanese))
        #expect(!Script.looksLikeRomanisation("I can hear your voice", of: .japanese))
        #expect(Script.looksLikeRomanisation("saranghae neoreul", of: .korean))
        #expect(!Script.looksLikeRomanisation("I love you", of: .korean))
        #expect(Script.looksLikeRomanisation("nǐ hǎo", of: .han))
        #expect(!Script.looksLikeRomanisation("hello world", of: .han))
        #expect(!Script.looksLikeRomanisation(String(repeating: "ae", count: 40) + "x", of: .korean))
    }

    @Test func lrcxRomaAttachment() throws {
        let lyrics = try lrc("[00:01.000]空\n[00:01.000][roma]sora\n[00:02.000]b")
        #expect(lyrics.lines[0].romanisation == "sora")
    }

    // MARK: 6. Credit lines

    @Test func leadingCreditsAreCredits() throws {
        let lyrics = try lrc("""
            [00:00.00]作词 : 某人
            [00:01.00]作曲：另一人
            [00:02.00]编曲 : 第三人
            [00:03.00]制作人: 第四人
            [00:04.00]Lyrics by Someone Else
            [00:05.00]Composed by Nobody
            [00:12.00]The first sung line
            [00:15.00]作词 is only a word here: kept
            [00:18.00]last line
            """)
        #expect(lyrics.lines.map(\.role) == [.credit, .credit, .credit, .credit, .credit, .credit, .lyric, .lyric, .lyric])
        let timeline = Timeline(lyrics)
        let atCredit = timeline.cursor(at: Timestamp(milliseconds: 1500))
        #expect(atCredit.isInterlude)
        #expect(atCredit.nextIndex == 6)
        #expect(lyrics.inspectJSON().contains(#""role": "credit""#))
    }

    @Test(arguments: [
        ("作词：某人", true), ("作曲 : X", true), ("词/曲：X", true), ("Lyrics & Music: X", true), ("Written and composed by X", true),
        ("Produced by X", true), ("작사: X", true), ("Lyricist∶X", true),
        ("作词：", false), ("Love me: tonight", false), ("by the sea", false), ("Music is all I have", false), ("曲终人散", false),
    ])
    func creditLines(text: String, isCredit: Bool) {
        #expect(Credits.isCredit(text) == isCredit, "\(text)")
    }

    // MARK: 7. Negative display times, three-digit seconds, delayed first word

    @Test func threeDigitSeconds() throws {
        let lyrics = try lrc("[01:010.010]odd stamp\n[01:20.00]b")
        #expect(lyrics.lines[0].start.milliseconds == 70_010)
    }

    @Test func closeSecondStampIsADelayedFirstWord() throws {
        let lyrics = try lrc("[00:10.00][00:10.30]Late <00:11.00>start<00:12.00>\n[00:14.00]x")
        #expect(lyrics.lines.count == 2)
        #expect(lyrics.lines[0].start.milliseconds == 10_000)
        #expect(lyrics.lines[0].words.map(W.init) == [W(10_300, 11_000, "Late "), W(11_000, 12_000, "start")])
        let plain = try lrc("[00:10.00][00:10.40]No word stamps\n[00:14.00]x")
        #expect(plain.lines.map(\.text) == ["No word stamps", "x"])
        #expect(plain.lines[0].words.map(W.init) == [W(10_400, 14_000, "No word stamps")])
        // Far apart, the stamps are a repeated line.
        #expect(try lrc("[00:10.00][00:40.00]chorus").lines.count == 2)
    }
}

/// NetEase's LRC opens with the same JSON credit lines as its YRC.
@Suite struct NetEaseLRCTests {
    static let text = """
        {"t":0,"c":[{"tx":"作词: "},{"tx":"某人"}]}
        {"t":1000,"c":[{"tx":"作曲: "},{"tx":"另一人"}]}
        [00:05.00]第一行
        [00:09.00]第二行
        """

    @Test func jsonCreditsAreCreditsAndTheFileStaysLRC() throws {
        #expect(LyricsFormat.sniff(Self.text) == .lrc)
        let lyrics = try LyricsReader.parse(Self.text)
        #expect(lyrics.format == .lrc)
        #expect(lyrics.lines.map(\.text) == ["作词: 某人", "作曲: 另一人", "第一行", "第二行"])
        #expect(lyrics.lines.map(\.role) == [.credit, .credit, .lyric, .lyric])
        #expect(lyrics.lines.map(\.start.milliseconds) == [0, 1000, 5000, 9000])
        #expect(lyrics.lines[2].translation == nil)
    }

    @Test func jsonAfterATimedLineIsNoTranslation() throws {
        let lyrics = try lrc("[00:01.00]a\n{\"t\":2000,\"c\":[{\"tx\":\"Producer: X\"}]}\n[00:05.00]b")
        #expect(lyrics.lines.map(\.translation) == [nil, nil, nil])
        #expect(lyrics.lines.map(\.role) == [.lyric, .credit, .lyric])
    }
}
