import Foundation
import Testing
@testable import LyricsCore
import TestSupport

/// The writers of `convert`: every format round-trips through its reader (write, read back, and
/// get the song as the format carries it, ``Lyrics/carried(by:)``), writes the same bytes every
/// time, escapes its syntax and says what it drops.
@Suite struct WriterTests {
    static let formats = OutputFormat.allCases

    static func read(_ text: String, as format: OutputFormat) throws -> Lyrics {
        try LyricsReader.parse(text, format: format.readFormat)
    }

    /// Compares line by line, so that a failure names the line.
    static func expectSame(_ read: SongShape, _ expected: SongShape, _ context: String,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(read.metadata == expected.metadata, "\(context): metadata", sourceLocation: sourceLocation)
        #expect(read.agents == expected.agents, "\(context): agents", sourceLocation: sourceLocation)
        #expect(read.lines.count == expected.lines.count, "\(context): line count", sourceLocation: sourceLocation)
        for (index, (got, want)) in zip(read.lines, expected.lines).enumerated() {
            #expect(got == want, "\(context): line \(index)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Round trips

    @Test(arguments: WriterCase.all, formats)
    func roundTrip(_ song: WriterCase, _ format: OutputFormat) throws {
        let text = try LyricsWriter.write(song.lyrics, as: format)
        do {
            let read = try Self.read(text, as: format)
            Self.expectSame(read.shape, song.lyrics.carried(by: format), "\(song.name) as \(format.rawValue)")
        }
    }

    /// The samples, read as a user's files are, make the same trip.
    @Test(arguments: ["night-drive/night-drive.lrc", "paper-lanterns/paper-lanterns.lrc", "all-scripts/all-scripts.lrc",
                      "river-lights/river-lights.ttml"], formats)
    func samplesRoundTrip(_ sample: String, _ format: OutputFormat) throws {
        let lyrics = try LyricsReader.load(Data(contentsOf: Self.samples.appendingPathComponent(sample)))
        let text = try LyricsWriter.write(lyrics, as: format)
        do {
            Self.expectSame(try Self.read(text, as: format).shape, lyrics.carried(by: format), "\(sample) as \(format.rawValue)")
        }
    }

    /// After one trip nothing more is lost: writing what was read back gives the same text.
    @Test(arguments: WriterCase.all, formats)
    func secondTripChangesNothing(_ song: WriterCase, _ format: OutputFormat) throws {
        let first = try LyricsWriter.write(song.lyrics, as: format)
        do {
            let once = try LyricsWriter.write(try Self.read(first, as: format), as: format)
            let twice = try LyricsWriter.write(try Self.read(once, as: format), as: format)
            #expect(once == twice)
        }
    }

    @Test(arguments: formats)
    func sameLyricsSameBytes(_ format: OutputFormat) throws {
        for song in WriterCase.all {
            let first = try LyricsWriter.write(song.lyrics, as: format)
            // A copy built separately (fresh arrays and strings) writes the same bytes.
            let copy = Lyrics(format: .ttml, encoding: "gb18030", tags: ["x": "y"], metadata: song.lyrics.metadata,
                              offsetMs: 7, agents: song.lyrics.agents, lines: song.lyrics.lines.map { $0 })
            #expect(Array(first.utf8) == Array(try LyricsWriter.write(copy, as: format).utf8), "\(song.name)")
            #expect(first.hasSuffix("\n") && !first.contains("\r"))
        }
    }

    /// Random songs full of what each syntax finds hard (brackets, markup, entities, braces,
    /// `-->`, digits, right-to-left text, emoji, shared and negative times) write, read back with
    /// the reader's promises kept, and settle after one trip.
    @Test(arguments: formats.filter { $0 != .ass })
    func randomSongsSettleAfterOneTrip(_ format: OutputFormat) throws {
        var random = SplitMix64(seed: 0x57_52_49_54)
        let pool = ["Tide", "night", "a [01:02] b", "<i>x</i>", "&amp;", "&", "{\\b1}", "{curly}", "x --> y", "雨の音",
                    "مرحبا", "🎵🌙", "[tr]", "<00:01.00>", "1999", "WEBVTT", "NOTE", "(oh)", "\\N", "a\tb", "Ab", "ça"]
        func phrase() -> [String] { (0..<Int.random(in: 1...3, using: &random)).map { _ in pool.randomElement(using: &random)! } }
        var written = 0
        for round in 0..<150 {
            var lines: [LyricLine] = []
            var time = Int.random(in: -3_000...2_000, using: &random)
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                time += [0, 10, 4, 700, 2_500].randomElement(using: &random)!
                let tokens = Int.random(in: 0..<6, using: &random) == 0 ? [] : phrase()
                var words: [Word] = []
                var clock = time
                if Bool.random(using: &random) {
                    for (index, token) in tokens.enumerated() {
                        let length = Int.random(in: 0...900, using: &random)
                        words.append(Word(start: .init(milliseconds: clock), end: .init(milliseconds: clock + length),
                                          text: token + (index < tokens.count - 1 ? " " : "")))
                        clock += length + [0, 0, 120].randomElement(using: &random)!
                    }
                }
                let end = max(clock, time + Int.random(in: 0...3_000, using: &random))
                let backing = LyricLine.Backing(start: .init(milliseconds: time), end: .init(milliseconds: end), text: "echo",
                                                translation: Bool.random(using: &random) ? "eco" : nil)
                lines.append(WriterCase.line(time, end, tokens.joined(separator: " "),
                                             tr: Bool.random(using: &random) ? phrase().joined(separator: " ") : nil,
                                             roma: Int.random(in: 0..<4, using: &random) == 0 ? "ame no oto" : nil,
                                             agent: [nil, "v1", "v2"].randomElement(using: &random)!,
                                             role: Int.random(in: 0..<8, using: &random) == 0 ? .credit : .lyric, words: words,
                                             bg: tokens.isEmpty || Bool.random(using: &random) ? [] : [backing]))
            }
            let song = Lyrics(metadata: .init(title: phrase().joined(separator: " ")), lines: lines)
            guard let text = try? LyricsWriter.write(song, as: format) else { continue }
            written += 1
            let read = try Self.read(text, as: format)
            #expect(invariantViolations(read) == [], "round \(round): \(text)")
            let once = try LyricsWriter.write(read, as: format)
            let twice = try LyricsWriter.write(try Self.read(once, as: format), as: format)
            #expect(once == twice, "round \(round)")
        }
        #expect(written > 120)
    }

    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples")

    // MARK: - Syntax, one format at a time

    @Test func lrcText() throws {
        let text = try LyricsWriter.write(WriterCase.wordTimed.lyrics, as: .enhancedLRC)
        #expect(text.hasPrefix("[ti:Kite Weather]\n[la:en]\n\n"))
        // A gap between words is a stamp at the first one's end; the line's end follows its last word's.
        #expect(text.contains("[00:02.00]<00:02.00>Paper <00:02.40>kites <00:02.90><00:03.10>climb<00:04.20><00:05.00>\n"))
        #expect(text.contains("[00:09.00]<00:09.00>Tangled <00:09.50>string <00:11.00>unwinds<00:12.35>\n"))  // half up
        let plain = try LyricsWriter.write(WriterCase.lineTimed.lyrics, as: .lrc)
        #expect(plain.contains("[length:00:21.00]\n"))
        #expect(plain.contains("[00:01.23]Velvet lanterns drift across the quay\n[00:04.00]Moth wings hum a borrowed melody\n[00:07.50]\n"))
        // The song's end is a bare stamp; so is a line's end before a silence of 4 s or more, not a shorter one.
        #expect(plain.hasSuffix("[00:12.00]Over the tin roofs, a kettle sings\n[00:15.01]Nobody counts the silver rings\n[00:20.00]\n"))
        let silences = Lyrics(lines: [WriterCase.line(1_000, 3_000, "Long rest"), WriterCase.line(7_000, 8_000, "Short rest"),
                                      WriterCase.line(11_990, 13_000, "End")])
        #expect(try LyricsWriter.write(silences, as: .lrc) == "[00:01.00]Long rest\n[00:03.00]\n[00:07.00]Short rest\n[00:11.99]End\n[00:13.00]\n")
        let long = try LyricsWriter.write(WriterCase.negativeAndLong.lyrics, as: .lrc)
        #expect(long.hasPrefix("[00:00.00]Before the downbeat\n"))  // no tags, no offset, clamped
        #expect(long.contains("[99:59.99]Long after midnight\n[100:00.50]Past the hundredth minute\n"))
    }

    @Test func lrcTranslationsAtTheStampOrAsAttachments() throws {
        let text = try LyricsWriter.write(WriterCase.translations.lyrics, as: .lrc)
        // Romanisation, line, translation at one stamp, in the order the reader sorts out.
        #expect(text.contains("[00:12.50]chouchin no akari\n[00:12.50]提灯の明かり\n[00:12.50]The light of the lantern\n"))
        #expect(text.contains("[00:43.00]雨の音\n[00:43.00]The sound of rain\n[00:43.00]falls softly on the eaves\n"))
        // A Cyrillic line would take its Latin romanisation for its translation: an attachment.
        #expect(text.contains("[00:31.00]Ночь длинная\n[00:31.00][roma]Noch dlinnaya\n"))
        // Only the chosen translation of several.
        #expect(text.contains("[00:37.00]Starry sky turning\n") && !text.contains("Le ciel"))
        // A translation in the line's own script, in a file that is not bilingual, is an attachment.
        let credits = try LyricsWriter.write(WriterCase.credits.lyrics, as: .lrc)
        #expect(credits.contains("[00:11.00]Waves applaud in harmony\n[00:11.00][tr]Las olas aplauden\n"))
    }

    @Test func lrcEscapesWhatWouldReadAsTags() throws {
        let lyrics = Lyrics(metadata: .init(title: "Bad ] bracket"), lines: [
            WriterCase.line(1_000, 2_000, "a [01:02] b <00:03.00> c [Intro: piano]"),
            WriterCase.line(2_000, 3_000, "[tr] not an attachment"),
        ])
        let text = try LyricsWriter.write(lyrics, as: .lrc)
        #expect(text == "[ti:Bad ) bracket]\n\n[00:01.00]a ［01:02] b ＜00:03.00> c [Intro: piano]\n[00:02.00]［tr] not an attachment\n[00:03.00]\n")
        let read = try LRC.parse(text)
        #expect(read.lines.map(\.text) == ["a ［01:02] b ＜00:03.00> c [Intro: piano]", "［tr] not an attachment", ""])
        #expect(read.title == "Bad ) bracket")
        // After a word stamp an attachment name is text; an attachment's own text is read as it is.
        let words = Lyrics(lines: [
            WriterCase.line(3_000, 4_000, "[tr] word", words: [WriterCase.w(3_000, 3_500, "[tr] "), WriterCase.w(3_500, 4_000, "word")]),
            WriterCase.line(4_000, 5_000, "Plain words", tr: "Same script [01:02]"),
            WriterCase.line(5_000, 6_000, "More words"), WriterCase.line(6_000, 7_000, "Last words"),
        ])
        let enhanced = try LyricsWriter.write(words, as: .enhancedLRC)
        #expect(enhanced.hasPrefix("[00:03.00]<00:03.00>[tr] <00:03.50>word<00:04.00>\n[00:04.00]Plain words\n[00:04.00][tr]Same script [01:02]\n"))
        #expect(try LRC.parse(enhanced).lines.prefix(2).map { [$0.text, $0.translation] } == [["[tr] word", nil], ["Plain words", "Same script [01:02]"]])
    }

    @Test func ttmlText() throws {
        let text = try LyricsWriter.write(WriterCase.duet.lyrics, as: .ttml)
        #expect(text.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<tt " + TTML.Writer.namespaces + #" itunes:timing="Word">"#))
        #expect(text.contains(#"<ttm:agent type="person" xml:id="v1"><ttm:name type="full">Mira</ttm:name></ttm:agent>"#))
        #expect(text.contains(#"<ttm:agent type="group" xml:id="v1000"/>"#))
        #expect(text.contains(#"<span begin="00:05.400" end="00:06.400">pier</span>"#
            + #"<span ttm:role="x-bg" begin="00:05.000" end="00:05.500">(oh)</span>"#
            + #"<span ttm:role="x-bg" begin="00:06.000" end="00:07.000"><span begin="00:06.000" end="00:06.500">(la</span> "#
            + #"<span begin="00:06.500" end="00:07.000">la)</span><span ttm:role="x-translation">tra la</span></span></p>"#))
        let scripts = try LyricsWriter.write(WriterCase.scripts.lyrics, as: .ttml)
        #expect(scripts.contains("<ttm:title>Script &amp; &lt;Scale&gt;</ttm:title>"))
        #expect(scripts.contains(#"<amll:meta key="artists" value="Ensemble &quot;Quote&quot;"/>"#))
        #expect(scripts.contains(">Fish &amp;amp; chips &lt;i&gt;twice&lt;/i&gt;</p>"))
        let translations = try LyricsWriter.write(WriterCase.translations.lyrics, as: .ttml)
        #expect(translations.contains(#"<span ttm:role="x-translation" xml:lang="en">Starry sky turning</span><span ttm:role="x-translation" xml:lang="fr">Le ciel tourne</span>"#))
        // Control characters XML forbids are left out.
        let control = try LyricsWriter.write(Lyrics(lines: [WriterCase.line(0, 1_000, "bell\u{7}ring")]), as: .ttml)
        #expect(try TTML.parse(control).lines.map(\.text) == ["bellring"])
    }

    @Test func subtitleText() throws {
        let srt = try LyricsWriter.write(WriterCase.scripts.lyrics, as: .srt)
        #expect(srt.hasPrefix("1\n00:00:01,000 --> 00:00:03,000\n夜很长，路很安静\n\n2\n00:00:03,000 --> 00:00:05,000\nمرحبا بالقمر الهادئ\nHello to the quiet moon\n\n"))
        // SubRip text stays as it is unless the reader would take part of it for markup.
        #expect(srt.contains("\nTom & Jerry <3 [Intro: piano] {curly} a < b > c\n"))
        #expect(srt.contains("\nFish &amp;amp; chips &lt;i&gt;twice&lt;/i&gt;\n"))
        let vtt = try LyricsWriter.write(WriterCase.duet.lyrics, as: .vtt)
        #expect(vtt.hasPrefix("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v v1>Call <00:00:01.500>the <00:00:02.000>harbour <00:00:02.800>home\n\n"))
        let escaped = try LyricsWriter.write(WriterCase.scripts.lyrics, as: .vtt)
        #expect(escaped.contains("\nTom &amp; Jerry &lt;3 [Intro: piano] {curly} a &lt; b &gt; c\n"))
        // A word that starts after its cue gets a stamp of its own; cue times never go below zero.
        let late = try LyricsWriter.write(WriterCase.wordTimed.lyrics, as: .vtt)
        #expect(late.contains("00:00:05.000 --> 00:00:08.000\n<00:00:05.300>Ribbon <00:00:06.000>skies\n"))
        let negative = try LyricsWriter.write(WriterCase.negativeAndLong.lyrics, as: .srt)
        #expect(negative.hasPrefix("1\n00:00:00,000 --> 00:00:00,800\nBefore the downbeat\n"))
        #expect(negative.contains("01:40:00,500 --> 01:40:03,000\n"))
    }

    @Test func assText() throws {
        let text = try LyricsWriter.write(WriterCase.duet.lyrics, as: .ass)
        #expect(text.hasPrefix("[Script Info]\n; Written by LyricPoster\nTitle: Harbour Call\nScriptType: v4.00+\n"))
        #expect(text.contains("\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, "))
        #expect(text.contains("\nStyle: Default,"))
        #expect(text.contains("\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"))
        #expect(text.contains("Dialogue: 0,0:00:01.00,0:00:04.00,Default,v1,0,0,0,,{\\kf50}Call {\\kf50}the {\\kf80}harbour {\\kf70}home\n"))
        #expect(text.contains("Dialogue: 0,0:00:03.00,0:00:04.00,Default,v1-bg,0,0,0,,{\\kf100}home\n"))
        #expect(text.contains("Dialogue: 0,0:00:05.00,0:00:05.50,Default,v2-bg,0,0,0,,oh\n"))
        #expect(text.contains("Dialogue: 0,0:00:06.00,0:00:07.00,Default,v2-bg-trans,0,0,0,,tra la\n"))
        #expect(text.contains("Dialogue: 0,0:00:07.00,0:00:10.00,Default,v1000,0,0,0,,Together we sail\n"))
        // Gaps are `\k` with no text; a first word after the line's start waits with one too.
        let words = try LyricsWriter.write(WriterCase.wordTimed.lyrics, as: .ass)
        #expect(words.contains(",,{\\kf40}Paper {\\kf50}kites {\\k20}{\\kf110}climb\n"))
        #expect(words.contains(",,{\\k30}{\\kf70}Ribbon {\\kf199}skies\n"))
        let scripts = try LyricsWriter.write(WriterCase.scripts.lyrics, as: .ass)
        #expect(scripts.contains(",,Tom & Jerry <3 [Intro: piano] \\{curly\\} a < b > c\n"))
        let translations = try LyricsWriter.write(WriterCase.translations.lyrics, as: .ass)
        #expect(translations.contains(",-trans,0,0,0,,The sound of rain\\Nfalls softly on the eaves\n"))
    }

    @Test func nothingToWrite() {
        let gaps = Lyrics(lines: [WriterCase.line(0, 1_000, ""), WriterCase.line(1_000, 2_000, "作词 : 青木空", role: .credit)])
        #expect(throws: LyricsError.invalid("nothing to write as TTML: no sung line")) { try LyricsWriter.write(gaps, as: .ttml) }
        #expect(throws: LyricsError.invalid("nothing to write as SRT: no line with text")) {
            try LyricsWriter.write(Lyrics(lines: [WriterCase.line(0, 1_000, "")]), as: .srt)
        }
        #expect((try? LyricsWriter.write(gaps, as: .srt)) != nil)
    }

    // MARK: - Formats and losses

    @Test func formatsByExtension() {
        #expect(OutputFormat.forPath("out/song.LRC") == .lrc)
        #expect(OutputFormat.forPath("a.b/song.xml") == .ttml)
        #expect(OutputFormat.forPath("song.ttml") == .ttml && OutputFormat.forPath("x.srt") == .srt)
        #expect(OutputFormat.forPath("x.vtt") == .vtt && OutputFormat.forPath("x.ass") == .ass)
        for path in ["x.docx", "x", ".lrc", "dir.lrc/x", "x.ssa", "x."] { #expect(OutputFormat.forPath(path) == nil, "\(path)") }
        #expect(OutputFormat(rawValue: "elrc") == .enhancedLRC)
    }

    @Test func lossesNameWhatIsDropped() {
        func notes(_ song: WriterCase, _ format: OutputFormat) -> [String] {
            LyricsWriter.losses(of: song.lyrics, in: format).map(\.description)
        }
        #expect(notes(.wordTimed, .srt) == ["SRT carries no word timing: 4 lines lose their words", "SRT carries no title or language: dropped"])
        #expect(notes(.wordTimed, .enhancedLRC).isEmpty)
        #expect(notes(.lineTimed, .lrc) == ["LRC keeps a line's end only before a silence of 4 s or more: 1 line lasts until the next line starts"])
        #expect(notes(.duet, .lrc) == ["LRC carries no word timing: 2 lines lose their words",
                                       "LRC carries no backing vocals: 2 lines lose theirs",
                                       "LRC carries no singers: 5 lines lose their singer"])
        #expect(notes(.duet, .ttml).isEmpty)
        #expect(notes(.credits, .ttml) == ["TTML has no gap lines: 1 gap is dropped", "TTML has no credit lines: 3 credit lines are dropped"])
        #expect(notes(.translations, .vtt).contains("WebVTT carries one translation per line: 1 line keeps only the chosen one"))
        #expect(notes(.translations, .vtt).contains("WebVTT carries no romanisation: 3 lines lose theirs"))
        #expect(notes(.duet, .ass) == ["ASS names singers by id only: 2 singer names are dropped"])
    }
}
