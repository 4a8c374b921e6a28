import Foundation
import Testing
@testable import LyricsCore

/// TTML as the lyric databases write it today: several backing-vocal runs in one line, several
/// translation languages, ruby readings, and traditional Mongolian's joiners. Lyrics made up.
@Suite struct TTMLv2Tests {
    static func parse(_ body: String, head: String = "", options: ReadOptions = .init()) throws -> Lyrics {
        try LyricsReader.parse(TTMLTests.tt(body, head: head), format: .ttml, options: options)
    }

    @Test func severalBackingRunsKeepTheirTimesAndTexts() throws {
        let lyrics = try Self.parse("""
            <p begin="1" end="6"><span begin="1" end="2">Call</span>\
            <span ttm:role="x-bg" begin="2" end="3"><span begin="2" end="3">(echo)</span></span>\
            <span begin="3" end="4">again</span>\
            <span ttm:role="x-bg" begin="4.5" end="6"><span begin="4.5" end="5">(far</span> <span begin="5" end="6">away)</span></span></p>
            """)
        let line = try #require(lyrics.lines.first)
        #expect(line.text == "Callagain")
        #expect(line.backgrounds.count == 2)
        #expect(line.backgrounds.map(\.text) == ["echo", "far away"])
        #expect(line.backgrounds.map(\.start.milliseconds) == [2000, 4500])
        #expect(line.backgrounds.map(\.end.milliseconds) == [3000, 6000])
        #expect(line.backgrounds[1].words.map(W.init) == [W(4500, 5000, "far "), W(5000, 6000, "away")])
        // The merged view for display spans both.
        let merged = try #require(line.background)
        #expect(merged.text == "echo far away")
        #expect(merged.start.milliseconds == 2000 && merged.end.milliseconds == 6000)
        #expect(merged.words.map(\.text).joined() == merged.text)
        #expect(lyrics.inspectJSON().contains("\"backgrounds\""))
    }

    @Test func oneBackingRunStaysAsBefore() throws {
        let lyrics = try Self.parse("""
            <p begin="1" end="3"><span begin="1" end="2">solo</span><span ttm:role="x-bg"><span begin="2" end="3">(oh)</span></span></p>
            """)
        #expect(lyrics.lines[0].backgrounds.count == 1)
        #expect(lyrics.lines[0].background?.text == "oh")
        #expect(!lyrics.inspectJSON().contains("\"backgrounds\""))
    }

    static let languages = """
        <p begin="1" end="3"><span begin="1" end="2">雨</span><span begin="2" end="3">音</span>\
        <span ttm:role="x-translation" xml:lang="en">Sound of rain</span>\
        <span ttm:role="x-translation" xml:lang="zh-Hans">雨声</span>\
        <span ttm:role="x-translation" xml:lang="fr">Bruit de pluie</span></p>\
        <p begin="4" end="5">風<span ttm:role="x-translation" xml:lang="en">Wind</span></p>
        """

    @Test func severalLanguagesKeptAndChosen() throws {
        let first = try Self.parse(Self.languages)
        #expect(first.lines[0].translations.map(\.language) == ["en", "zh-Hans", "fr"])
        #expect(first.lines[0].translation == "Sound of rain")
        #expect(first.translationLanguages == ["en", "zh-Hans", "fr"])
        let chinese = try Self.parse(Self.languages, options: ReadOptions(offsetSign: .subtract, translationLanguage: "zh_CN"))
        #expect(chinese.lines.map(\.translation) == ["雨声", "Wind"])
        let french = try Self.parse(Self.languages, options: ReadOptions(offsetSign: .subtract, translationLanguage: "FR"))
        #expect(french.lines[0].translation == "Bruit de pluie")
        let missing = try Self.parse(Self.languages, options: ReadOptions(offsetSign: .subtract, translationLanguage: "de"))
        #expect(missing.lines[0].translation == "Sound of rain")
    }

    @Test func headTranslationsInSeveralLanguages() throws {
        let head = """
            <iTunesMetadata xmlns="http://music.apple.com/lyric-ttml-internal"><translations>\
            <translation type="subtitle" xml:lang="en"><text for="L1">Sound of rain</text></translation>\
            <translation type="subtitle" xml:lang="ja"><text for="L1">あまおと</text></translation>\
            </translations></iTunesMetadata>
            """
        let lyrics = try Self.parse(#"<p begin="1" end="3" itunes:key="L1">雨音</p>"#, head: head,
                                    options: ReadOptions(offsetSign: .subtract, translationLanguage: "ja-JP"))
        #expect(lyrics.lines[0].translations.map(\.text) == ["Sound of rain", "あまおと"])
        #expect(lyrics.lines[0].translation == "あまおと")
    }

    @Test func rubyReadingsKept() throws {
        let lyrics = try Self.parse("""
            <p begin="1" end="3"><span tts:ruby="container" xmlns:tts="http://www.w3.org/ns/ttml#styling">\
            <span tts:ruby="base">東京</span><span tts:ruby="textContainer">\
            <span tts:ruby="text" begin="1" end="1.5">とう</span><span tts:ruby="text" begin="1.5" end="2">きょう</span>\
            </span></span><span begin="2" end="3">へ</span></p>
            """)
        let words = lyrics.lines[0].words
        #expect(words.map(\.text) == ["東京", "へ"])
        #expect(words[0].ruby == "とうきょう")
        #expect(words[0].start.milliseconds == 1000 && words[0].end.milliseconds == 2000)
        #expect(words[1].ruby == nil)
        #expect(lyrics.inspectJSON().contains("\"ruby\": \"とうきょう\""))
    }

    @Test func traditionalMongolianKeepsEveryWord() throws {
        // Joiners, free variation selectors and the narrow no-break space that joins a suffix.
        let words = ["ᠮᠣᠩᠭᠣᠯ\u{202F}ᠤᠨ", " \u{200D}ᠠ\u{180B}", "ᠳᠠᠭᠤ", " \u{180C}"]
        let spans = words.enumerated().map { #"<span begin="\#($0.offset + 1)" end="\#($0.offset + 2)">\#($0.element)</span>"# }
        let lyrics = try Self.parse(#"<p begin="1" end="5">"# + spans.joined() + "</p>")
        let line = try #require(lyrics.lines.first)
        #expect(line.words.count == 4)
        #expect(line.words[0].text.unicodeScalars.contains("\u{202F}"))
        #expect(line.words[1].text.unicodeScalars.contains("\u{200D}"))
        #expect(line.words[1].text.unicodeScalars.contains("\u{180B}"))
        #expect(line.words[3].text.unicodeScalars.contains("\u{180C}"))
        #expect(line.words.map(\.text).joined() == line.text)
    }
}
