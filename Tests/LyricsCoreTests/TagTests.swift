import Testing
@testable import LyricsCore

/// ID tags, `[offset:]` and `[length:]`.
@Suite struct TagTests {
    @Test(arguments: [
        ("keys case-insensitive, values trimmed", "[Ti:Salt Road]\n[AR:  Nobody  ]", ["ti": "Salt Road", "ar": "Nobody"]),
        ("last wins", "[ti:One]\n[ti:Two]", ["ti": "Two"]),
        ("empty values kept", "[ti:]\n[by: ]", ["ti": "", "by": ""]),
        ("balanced brackets", "[ti: Paper Moon [Explicit]]", ["ti": "Paper Moon [Explicit]"]),
        ("nested brackets", "[al:A [B [C]] D]", ["al": "A [B [C]] D"]),
        ("unbalanced falls back to the last ]", "[ti: Paper Moon [Explicit]", ["ti": "Paper Moon [Explicit"]),
        ("spaces around key and colon", "[ ar : x ]", ["ar": "x"]),
        ("value with colons", "[re:Tool: v1:2]", ["re": "Tool: v1:2"]),
        ("key characters", "[t_time:(03:22)]\n[x-custom:1]\n[la:zh-Hant]", ["t_time": "(03:22)", "x-custom": "1", "la": "zh-Hant"]),
        ("tags anywhere, also after lyrics", "[00:01.00]x\n[ar:late]", ["ar": "late"]),
        ("tag in front of a time tag", "[offset:102][00:01.00]x", ["offset": "102"]),
        ("not tags", "[1a:x]\n[:x]\n[a b:c]\n[ti x]\n[00:01.00][ar:x]y", [:]),
    ] as [(String, String, [String: String])])
    func tags(name: String, header: String, expected: [String: String]) throws {
        let lyrics = try lrc(header + "\n[00:09.00]line")
        #expect(lyrics.tags == expected)
    }

    @Test func namedAccessors() throws {
        let lyrics = try lrc("[ti:Salt Road]\n[ar:Nobody]\n[al:]\n[la:ja]\n[00:01.00]x")
        #expect(lyrics.title == "Salt Road")
        #expect(lyrics.artist == "Nobody")
        #expect(lyrics.album == nil)        // empty tag reads as absent
        #expect(lyrics.language == "ja")
        #expect(try lrc("[00:01.00]x").title == nil)
    }

    @Test(arguments: [
        ("300", 300), ("+300", 300), ("-300", -300), (" -300", -300), (" - 300 ", -300), ("+175.99", 175),
        ("0", 0), ("abc", 0), ("", 0), ("12ms", 0), ("--5", 0), ("1e3", 0),
    ])
    func offsetValue(value: String, expected: Int) throws {
        let lyrics = try lrc("[offset:\(value)]\n[00:10.00]x")
        #expect(lyrics.offsetMs == expected)
        #expect(lyrics.lines[0].start.milliseconds == 10_000 - expected)
        #expect(lyrics.tags["offset"] == String(value.trimmingWhitespace()))  // kept as written
    }

    @Test func offsetSign() throws {
        let text = "[offset:500]\n[00:05.00]<00:05.00>a <00:06.00>b\n[00:08.00]c"
        let subtract = try lrc(text)
        #expect(subtract.lines.map(\.start.milliseconds) == [4500, 7500])
        #expect(subtract.lines[0].words.map(\.start.milliseconds) == [4500, 5500])
        #expect(subtract.lines[0].words.last?.end.milliseconds == 7500)
        let add = try lrc(text, options: LRC.Options(offsetSign: .add))
        #expect(add.lines.map(\.start.milliseconds) == [5500, 8500])
        #expect(add.lines[0].words.map(\.start.milliseconds) == [5500, 6500])
        #expect(add.offsetMs == 500 && subtract.offsetMs == 500)
        #expect(LRC.Options().offsetSign == .subtract)
    }

    /// Item 7 of the real-file fixes: display times before zero are kept (inspect shows them); the
    /// line on screen at 0 is the last one started by then.
    @Test func offsetKeepsTimesBeforeZero() throws {
        let lyrics = try lrc("[offset:2000]\n[00:00.50]a\n[00:01.00]b\n[00:03.00]c")
        #expect(lyrics.shown == [Shown(-1500, "a"), Shown(-1000, "b"), Shown(1000, "c")])
        #expect(lyrics.lines[0].end.milliseconds == -1000)
        #expect(invariantViolations(lyrics) == [])
        let cursor = Timeline(lyrics).cursor(at: .zero)
        #expect(cursor.index == 1 && !cursor.isInterlude)
        let single = try lrc("[offset:250]\n[00:00.00]a\n[00:04.00]b")
        #expect(single.lines[0].start.milliseconds == -250)
        #expect(Timeline(single).cursor(at: .zero).index == 0)
    }

    @Test func negativeOffsetDelays() throws {
        let lyrics = try lrc("[offset: -15000]\n[0:1.730]x")
        #expect(lyrics.lines[0].start.milliseconds == 16_730)
    }

    @Test func offsetAppliesFromAnywhereLastWins() throws {
        let lyrics = try lrc("[offset:100]\n[00:05.00]x\n[offset:500]")
        #expect(lyrics.offsetMs == 500)
        #expect(lyrics.lines[0].start.milliseconds == 4500)
    }

    @Test(arguments: [
        ("2:50", 170_000), (" 04:54", 294_000), ("03:22", 202_000), ("07:46.5", 466_500), ("1:02:03", 3_723_000),
        ("245000", 245_000), ("245", 245_000), ("3600", 3_600_000), ("3601", 3601), ("245.5", 245_500), ("245s", 245_000),
    ])
    func length(value: String, ms: Int) throws {
        #expect(try lrc("[length:\(value)]\n[00:01.00]x").length?.milliseconds == ms)
    }

    @Test func lengthMissingOrUnreadable() throws {
        #expect(try lrc("[length:about four minutes]\n[00:01.00]x").length == nil)
        #expect(try lrc("[length:-3:00]\n[00:01.00]x").length == nil)
        #expect(try lrc("[00:01.00]x").length == nil)
        #expect(try lrc("[total:375275]\n[00:01.00]x").length?.milliseconds == 375_275)     // LRCX
        #expect(try lrc("[total:1]\n[length:2:00]\n[00:01.00]x").length?.milliseconds == 120_000)
    }

    @Test func lastLineEnd() throws {
        // [length:] later than the last start → ends there.
        #expect(try lrc("[length:0:20]\n[00:01.00]a\n[00:02.00]b").lines.last?.end.milliseconds == 20_000)
        // [length:] not later → five seconds.
        #expect(try lrc("[length:0:01]\n[00:01.00]a\n[00:02.00]b").lines.last?.end.milliseconds == 7000)
        // No [length:] → five seconds.
        #expect(try lrc("[00:01.00]a").lines.last?.end.milliseconds == 6000)
        // An explicit word end beyond five seconds extends the last line.
        #expect(try lrc("[00:01.00]<00:01.00>long<00:09.00>").lines.last?.end.milliseconds == 9000)
        // A trailing gap is the end of the song: zero length, or up to [length:].
        #expect(try lrc("[00:01.00]a\n[00:10.00]").lines.last?.end.milliseconds == 10_000)
        #expect(try lrc("[length:0:20]\n[00:01.00]a\n[00:10.00]").lines.last?.end.milliseconds == 20_000)
        #expect(try lrc("[length:0:05]\n[00:01.00]a\n[00:10.00]").lines.last?.end.milliseconds == 10_000)
        // Inner lines end at the next start.
        #expect(try lrc("[00:01.00]a\n[00:04.00]\n[00:07.50]b").lines.map(\.end.milliseconds) == [4000, 7500, 12_500])
    }
}
