import Testing
@testable import LyricsCore

/// ID3 synchronised lyrics, as taggers write them: one entry per line, or one per word with line
/// breaks marking the lines.
@Suite struct SYLTTests {
    @Test func oneEntryPerLine() throws {
        let lyrics = try SYLT.lyrics([(400, "First"), (1400, "Second"), (2400, "Third")], length: Timestamp(milliseconds: 9000))
        #expect(lyrics.format == .sylt)
        #expect(lyrics.shown == [Shown(400, "First"), Shown(1400, "Second"), Shown(2400, "Third")])
        #expect(lyrics.lines.map(\.end.milliseconds) == [1400, 2400, 9000])
        #expect(lyrics.lines.allSatisfy { $0.words.isEmpty })
    }

    @Test func wordsWithLineBreaks() throws {
        let lyrics = try SYLT.lyrics([(1000, "\nSalt "), (1500, "and "), (2000, "stone"), (3000, "\nRain "), (3600, "again")])
        #expect(lyrics.lines.map(\.text) == ["Salt and stone", "Rain again"])
        #expect(lyrics.lines[0].words.map(W.init) == [W(1000, 1500, "Salt "), W(1500, 2000, "and "), W(2000, 3000, "stone")])
        #expect(lyrics.lines[1].end.milliseconds == 8000)
        #expect(invariantViolations(lyrics) == [])
    }

    @Test func unsortedEntriesAndCredits() throws {
        let lyrics = try SYLT.lyrics([(5000, "Later"), (0, "作词：某人"), (2000, "Sooner")])
        #expect(lyrics.lines.map(\.text) == ["作词：某人", "Sooner", "Later"])
        #expect(lyrics.lines.map(\.role) == [.credit, .lyric, .lyric])
    }

    @Test func nothingToShow() {
        #expect(throws: LyricsError.noTimedLines) { try SYLT.lyrics([]) }
        #expect(throws: LyricsError.noTimedLines) { try SYLT.lyrics([(0, ""), (1000, "  ")]) }
        #expect(throws: LyricsError.self) { try LyricsReader.parse("[00:01.00]a", format: .sylt) }
    }
}
