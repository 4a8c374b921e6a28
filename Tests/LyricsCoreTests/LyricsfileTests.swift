import Foundation
import Testing
@testable import LyricsCore

/// LRCLIB's Lyricsfile (YAML): reading, sniffing, writing and reading back, instrumental and
/// plain-only files, and hostile documents.
@Suite struct LyricsfileTests {
    static let example = """
        version: '1.0'
        metadata:
          title: 'Paper Moon'
          artist: 'The Lanterns'
          album: Night Songs
          duration_ms: 200000
          language: en
        lines:
          - text: "Paper moon on the water"
            start_ms: 1000
            end_ms: 4000
            words:
              - text: 'Paper '
                start_ms: 1000
                end_ms: 1500
              - text: 'moon '
                start_ms: 0
                end_ms: 0
              - text: 'on the water'
                start_ms: 1800
          - text: Lantern light
            start_ms: 5000
          - text: '123'
            start_ms: 9000
            end_ms: 9500
        plain: |
          Paper moon on the water
          Lantern light
        """

    @Test func readsLinesWordsAndTheSong() throws {
        #expect(LyricsFormat.sniff(Self.example) == .lyricsfile)
        let lyrics = try LyricsReader.parse(Self.example)
        #expect(lyrics.format == .lyricsfile)
        #expect(lyrics.title == "Paper Moon")
        #expect(lyrics.artist == "The Lanterns")
        #expect(lyrics.album == "Night Songs")
        #expect(lyrics.language == "en")
        #expect(lyrics.length?.milliseconds == 200_000)
        #expect(lyrics.lines.map(\.text) == ["Paper moon on the water", "Lantern light", "123"])
        #expect(lyrics.lines.map(\.start.milliseconds) == [1000, 5000, 9000])
        // An end left out: until the next line, the last one until the duration.
        #expect(lyrics.lines.map(\.end.milliseconds) == [4000, 9000, 9500])
        let words = lyrics.lines[0].words
        #expect(words.map(\.text) == ["Paper ", "moon ", "on the water"])
        // The stray zero word follows on (Word.place); an open end runs to the line's end.
        #expect(words.map(\.start.milliseconds) == [1000, 1500, 1800])
        #expect(words.map(\.end.milliseconds) == [1500, 1500, 4000])
    }

    @Test func writesAndReadsBack() throws {
        let lyrics = try LyricsReader.parse(Self.example)
        let text = try LyricsWriter.write(lyrics, as: .lyricsfile)
        #expect(text.hasPrefix("version: '1.0'\nmetadata:\n  title: 'Paper Moon'\n"))
        #expect(text.contains("  - {text: 'Paper ', start_ms: 1000, end_ms: 1500}"))
        #expect(text.contains("text: '123'"), "a lyric that looks like a number stays text")
        let back = try LyricsReader.parse(text)
        #expect(back.format == .lyricsfile)
        #expect(back.lines == lyrics.lines)
        #expect(back.metadata == lyrics.metadata)
        #expect(try LyricsWriter.write(back, as: .lyricsfile) == text, "deterministic")
        // LRC → Lyricsfile → LRC keeps what LRC carries.
        let lrc = "[ti:Tin Roof]\n[ar:The Lanterns]\n[00:01.00]Tin roof sings\n[00:03.50]Lantern light\n[00:06.00]\n"
        let viaYAML = try LyricsReader.parse(try LyricsWriter.write(try LyricsReader.parse(lrc), as: .lyricsfile))
        #expect(viaYAML.lines.filter(\.isSung).map(\.text) == ["Tin roof sings", "Lantern light"])
        #expect(viaYAML.lines.filter(\.isSung).map(\.start.milliseconds) == [1000, 3500])
        #expect(viaYAML.title == "Tin Roof")
    }

    @Test func whatTheFormatCannotCarryIsSaid() throws {
        let lyrics = try LyricsReader.parse("[00:01.00]Hello\n[00:01.00]你好\n[00:03.00]World\n")
        let losses = LyricsWriter.losses(of: lyrics, in: .lyricsfile)
        #expect(losses.map(\.description) == ["Lyricsfile carries no translations: 1 line loses theirs"])
    }

    @Test func instrumentalInEveryForm() throws {
        let yaml = "version: '1.0'\nmetadata:\n  title: Quiet Field\n  artist: The Lanterns\n  instrumental: true\nlines: []\n"
        let lyrics = try LyricsReader.parse(yaml)
        #expect(lyrics.isInstrumental)
        #expect(lyrics.lines.isEmpty)
        #expect(lyrics.inspectJSON().contains("\"instrumental\": true"))
        // LRCLIB writes instrumental LRC as `[au: instrumental]`; each form converts to the other.
        let lrc = try LyricsReader.parse("[ti:Quiet Field]\n[au: instrumental]\n")
        #expect(lrc.isInstrumental)
        let asLRC = try LyricsWriter.write(lyrics, as: .lrc)
        #expect(asLRC.contains("[au: instrumental]"))
        #expect(try LyricsReader.parse(asLRC).isInstrumental)
        #expect(try LyricsReader.parse(try LyricsWriter.write(lrc, as: .lyricsfile)).isInstrumental)
        // Without lines and not instrumental, plain text only: unsynchronised.
        #expect(throws: LyricsError.noTimedLines) {
            try LyricsReader.parse("version: '1.0'\nmetadata:\n  title: A\n  artist: B\nplain: |\n  Words without times\n")
        }
        #expect(throws: LyricsError.noTimedLines) { try LyricsReader.parse("[ti:x]\n[au:Someone]\n") }
    }

    @Test func offsetShowsLyricsSoonerAsInLRC() throws {
        let yaml = "version: '1.0'\nmetadata: {title: A, artist: B, offset_ms: 500}\nlines:\n  - {text: x, start_ms: 2000, end_ms: 3000}\n"
        #expect(try LyricsReader.parse(yaml).lines.first?.start.milliseconds == 1500)
        let added = try LyricsReader.parse(yaml, options: ReadOptions(offsetSign: .add))
        #expect(added.lines.first?.start.milliseconds == 2500)
    }

    @Test(arguments: [
        ("version: '2.0'\nmetadata: {title: A, artist: B}\n", "version 2.0 is not read"),
        ("version: '1.0'\nlines: []\n", "no `metadata`"),
        ("- a\n- b\n", "not a mapping"),
        ("version: '1.0'\nmetadata: {title: A}\nlines:\n  - {text: x}\n", "start_ms"),
        ("version: '1.0'\nmetadata: {title: A}\nlines:\n  - {text: x, start_ms: soon}\n", "start_ms"),
        ("version: '1.0'\nmetadata: {title: A, duration_ms: long}\n", "metadata.duration_ms"),
        ("version: '1.0'\nmetadata: {title: A}\nlines: 5\n", "`lines` is not a list"),
        ("version: '1.0'\nmetadata: {title: A}\nlines:\n  - {text: x, start_ms: 1, words: [{text: a}]}\n", "words"),
        ("version: '1.0'\nmetadata: [\n", "not a Lyricsfile"),
    ])
    func badDocumentsAreOneLineErrors(_ text: String, _ reason: String) {
        do {
            _ = try Lyricsfile.parse(text)
            Issue.record("read \(text)")
        } catch {
            #expect(error.description.contains(reason), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func hostileDocumentsAreRefused() throws {
        // Nesting deeper than a Lyricsfile can: flow brackets, block dashes.
        for deep in [String(repeating: "[", count: 100_000), "version: '1.0'\nmetadata:\n" + String(repeating: "- ", count: 5000) + "x\n"] {
            #expect(throws: LyricsError.self) { try Lyricsfile.parse(deep) }
        }
        // A billion laughs: aliases may not multiply the work.
        var laughs = "version: '1.0'\nmetadata: {title: A, artist: B}\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { laughs += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        laughs += "lines: *a9\n"
        #expect(throws: LyricsError.self) { try Lyricsfile.parse(laughs) }
        var wordy = "version: '1.0'\nmetadata: {title: A, artist: B}\nw: &w [" + Array(repeating: "{text: a, start_ms: 1}", count: 500).joined(separator: ", ") + "]\nlines:\n"
        for index in 0..<1000 { wordy += "  - {text: a, start_ms: \(index), words: *w}\n" }
        #expect(throws: LyricsError.self) { try Lyricsfile.parse(wordy) }
        // Larger than the limit.
        #expect(throws: LyricsError.self) { try Lyricsfile.parse("version: '1.0'\n#" + String(repeating: "x", count: 9 << 20)) }
    }

    @Test func sniffsOnlyLyricsfiles() {
        #expect(LyricsFormat.sniff("# lyrics\nversion: '1.0'\nmetadata:\n  title: A\n") == .lyricsfile)
        #expect(LyricsFormat.sniff("metadata:\n  title: A\nversion: 1.0\n") == .lyricsfile)
        #expect(LyricsFormat.sniff("version: 1\n[00:01.00]x\n") == .lrc)
        #expect(LyricsFormat.sniff("title: A\nversion: 1\nmetadata: x\n") == .lrc)
    }
}
