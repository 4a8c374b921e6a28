import Foundation
import Testing
@testable import LyricsCore

/// LRC cases where peer parsers' tables (LyricsKit, OpportunityLiu's parser, lrc-kit, LyricsX's
/// LRCX) expected something LyricPoster did not read yet. Inputs written for these tests.
@Suite struct LRCPeerCasesTests {
    static func read(_ text: String, language: String? = nil) throws -> [Shown] {
        try LyricsReader.parse(text, format: .lrc, options: ReadOptions(offsetSign: .subtract, translationLanguage: language))
            .lines.filter { !$0.isBlank }.map(Shown.init)
    }

    @Test func bracketedTextThatIsNoTagStaysText() throws {
        #expect(try Self.read("[00:01.00][Chorus] Sing along\n[00:02.00]Sing [loud] now")
            == [Shown(1000, "[Chorus] Sing along"), Shown(2000, "Sing [loud] now")])
    }

    @Test func aBracketedLabelIsNoTranslation() throws {
        #expect(try Self.read("[00:01.00]Hello\n[Chorus]\n[00:02.00]words") == [Shown(1000, "Hello"), Shown(2000, "words")])
    }

    @Test func lenticularTranslationOnTheNextLine() throws {
        #expect(try Self.read("[00:01.00]Hello\n〖你好〗\n[00:02.00]Bye") == [Shown(1000, "Hello", tr: "你好"), Shown(2000, "Bye")])
    }

    @Test func lenticularTranslationAppended() throws {
        #expect(try Self.read("[00:01.00]World〖世界〗\n[00:02.00]〖Chorus〗") == [Shown(1000, "World", tr: "世界"), Shown(2000, "〖Chorus〗")])
    }

    @Test func blackLenticularTranslationAppended() throws {
        #expect(try Self.read("[00:01.00]Hello【你好】") == [Shown(1000, "Hello", tr: "你好")])
    }

    @Test func aMalformedTimeTagIsNeitherLineNorTranslation() throws {
        #expect(try Self.read("[00:01.00]text [1:2:3 more\n[1:2:3broken\n[00:02.00]ok")
            == [Shown(1000, "text [1:2:3 more"), Shown(2000, "ok")])
    }

    @Test func lrcxTranslationsKeepTheirLanguages() throws {
        let text = "[00:01.00]Hello\n[00:01.00][tr:zh-Hans]你好\n[00:01.00][tr:ja]こんにちは\n[00:01.00][tt]<0,0><500,3>"
        let lyrics = try LyricsReader.parse(text, format: .lrc)
        #expect(lyrics.lines[0].translations.map(\.language) == ["zh-Hans", "ja"])
        #expect(try Self.read(text) == [Shown(1000, "Hello", tr: "你好")])
        #expect(try Self.read(text, language: "ja") == [Shown(1000, "Hello", tr: "こんにちは")])
    }
}
