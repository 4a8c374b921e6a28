import Testing
@testable import LyricsCore

/// Songs made up for the writer tests (invented words, no real lyrics), each built as a model so
/// that every field the writers handle is set on purpose.
struct WriterCase: Sendable, CustomTestStringConvertible {
    var name: String
    var lyrics: Lyrics
    var testDescription: String { name }

    static let all: [WriterCase] = [lineTimed, wordTimed, translations, duet, scripts, credits, negativeAndLong]

    /// Line-timed English with tags, a gap, a line that ends early, odd milliseconds.
    static let lineTimed = WriterCase(name: "line-timed", lyrics: Lyrics(
        metadata: .init(title: "Quay Songs", artist: "The Borrowed Moths", album: "Tin Roofs", language: "en",
                        length: Timestamp(milliseconds: 21_004)),
        lines: [
            line(1_234, 4_000, "Velvet lanterns drift across the quay"),
            line(4_000, 7_500, "Moth wings hum a borrowed melody"),
            line(7_500, 12_000, ""),
            line(12_000, 14_200, "Over the tin roofs, a kettle sings"),
            line(15_005, 19_995, "Nobody counts the silver rings"),
        ]))

    /// Word timing: gaps between words, a delayed first word, a line ending after its last word.
    static let wordTimed = WriterCase(name: "word-timed", lyrics: Lyrics(
        metadata: .init(title: "Kite Weather", language: "en"),
        lines: [
            line(2_000, 5_000, "Paper kites climb", words: [w(2_000, 2_400, "Paper "), w(2_400, 2_900, "kites "), w(3_100, 4_200, "climb")]),
            line(5_000, 8_000, "Ribbon skies", words: [w(5_300, 6_000, "Ribbon "), w(6_000, 7_990, "skies")]),
            line(8_000, 8_000, "Hush", words: [w(8_000, 8_000, "Hush")]),
            line(9_000, 12_345, "Tangled string unwinds", words: [w(9_000, 9_504, "Tangled "), w(9_504, 10_999, "string "), w(11_000, 12_345, "unwinds")]),
        ]))

    /// Translations in one and several languages, romanisations, a two-part translation, and
    /// pairs the LRC reader cannot sort out by script (same script, a romanised Cyrillic line).
    static let translations = WriterCase(name: "translations", lyrics: Lyrics(
        metadata: .init(title: "纸灯笼 (Paper Lanterns)", artist: "Lantern Street Choir", language: "zh-Hans"),
        lines: [
            line(6_000, 12_500, "河边的纸灯笼", tr: "Paper lanterns by the river"),
            line(12_500, 18_800, "提灯の明かり", tr: "The light of the lantern", roma: "chouchin no akari"),
            line(18_800, 25_000, "종이 등불", roma: "jongi deungbul"),
            line(25_000, 31_000, "La lune danse sur le toit", tr: "The moon dances on the roof"),
            line(31_000, 37_000, "Ночь длинная", roma: "Noch dlinnaya"),
            line(37_000, 43_000, "星空在转", tr: "Starry sky turning",
                 translations: [.init(language: "en", text: "Starry sky turning"), .init(language: "fr", text: "Le ciel tourne")]),
            line(43_000, 49_000, "雨の音", tr: "The sound of rain\nfalls softly on the eaves"),
        ]))

    /// A duet: named singers and a group, backing vocals in one and two runs (with words and a
    /// translation), two singers starting together.
    static let duet = WriterCase(name: "duet", lyrics: Lyrics(
        metadata: .init(title: "Harbour Call"),
        agents: [.init(id: "v1", kind: .person, name: "Mira"), .init(id: "v2", kind: .person, name: "Tomas"), .init(id: "v1000", kind: .group)],
        lines: [
            line(1_000, 4_000, "Call the harbour home", agent: "v1",
                 words: [w(1_000, 1_500, "Call "), w(1_500, 2_000, "the "), w(2_000, 2_800, "harbour "), w(2_800, 3_500, "home")],
                 bg: [.init(start: .init(milliseconds: 3_000), end: .init(milliseconds: 4_000), text: "home",
                            words: [w(3_000, 4_000, "home")])]),
            line(4_000, 7_000, "Answer from the pier", agent: "v2",
                 words: [w(4_000, 4_600, "Answer "), w(4_600, 5_000, "from "), w(5_000, 5_400, "the "), w(5_400, 6_400, "pier")],
                 bg: [.init(start: .init(milliseconds: 5_000), end: .init(milliseconds: 5_500), text: "oh"),
                      .init(start: .init(milliseconds: 6_000), end: .init(milliseconds: 7_000), text: "la la",
                            words: [w(6_000, 6_500, "la "), w(6_500, 7_000, "la")], translation: "tra la")]),
            line(7_000, 10_000, "Together we sail", agent: "v1000"),
            line(10_000, 12_000, "Hold the line", agent: "v1"),
            line(10_000, 12_000, "Hold the rope", agent: "v2"),
        ]))

    /// Scripts and characters each syntax must keep: CJK, Arabic, Hebrew, Thai, emoji with
    /// joiners and skin tones, combining marks, and characters that are markup somewhere.
    static let scripts = WriterCase(name: "scripts", lyrics: Lyrics(
        metadata: .init(title: "Script & <Scale>", artist: "Ensemble \"Quote\""),
        lines: [
            line(1_000, 3_000, "夜很长，路很安静", words: [w(1_000, 2_000, "夜很长，"), w(2_000, 3_000, "路很安静")]),
            line(3_000, 5_000, "مرحبا بالقمر الهادئ", tr: "Hello to the quiet moon"),
            line(5_000, 7_000, "הלילה ארוך"),
            line(7_000, 9_000, "คืนนี้ยาวนาน"),
            line(9_000, 11_000, "Sing along 🎵🌙 ❤️‍🔥 👍🏽", words: [w(9_000, 10_000, "Sing "), w(10_000, 10_500, "along "), w(10_500, 11_000, "🎵🌙 ❤️‍🔥 👍🏽")]),
            line(11_000, 13_000, "Café crème, naïve e\u{301}"),
            line(13_000, 15_000, "Tom & Jerry <3 [Intro: piano] {curly} a < b > c"),
            line(15_000, 17_000, "Fish &amp; chips <i>twice</i>"),
        ]))

    /// Credits before and after the song, a gap, and a credit-looking line among the lyrics.
    static let credits = WriterCase(name: "credits", lyrics: Lyrics(
        metadata: .init(title: "Credits Roll"),
        lines: [
            line(0, 1_000, "作词 : 青木空", role: .credit),
            line(1_000, 2_000, "Music by Aki Sora", role: .credit),
            line(2_000, 5_000, "Curtains open on a painted sea"),
            line(5_000, 8_000, ""),
            line(8_000, 11_000, "Composer: the wind in the rigging"),
            line(11_000, 14_000, "Waves applaud in harmony", tr: "Las olas aplauden"),
            line(14_000, 16_000, "Mixed by Tilde Reyes", role: .credit),
        ]))

    /// Times an offset moved before zero, and times past 99:59.99.
    static let negativeAndLong = WriterCase(name: "negative-and-long", lyrics: Lyrics(
        offsetMs: 1_500,
        lines: [
            line(-1_200, 800, "Before the downbeat", words: [w(-1_200, -200, "Before "), w(-200, 300, "the "), w(300, 800, "downbeat")]),
            line(800, 3_000, "After the count"),
            line(5_999_990, 6_000_500, "Long after midnight"),
            line(6_000_500, 6_003_000, "Past the hundredth minute", words: [w(6_000_500, 6_001_000, "Past "), w(6_001_000, 6_003_000, "the hundredth minute")]),
        ]))

    // MARK: - Builders

    static func w(_ start: Int, _ end: Int, _ text: String) -> Word {
        Word(start: Timestamp(milliseconds: start), end: Timestamp(milliseconds: end), text: text)
    }

    static func line(_ start: Int, _ end: Int, _ text: String, tr translation: String? = nil, roma: String? = nil,
                     agent: String? = nil, role: LyricLine.Role = .lyric, words: [Word] = [],
                     translations: [LyricLine.Translation] = [], bg: [LyricLine.Backing] = []) -> LyricLine {
        LyricLine(start: Timestamp(milliseconds: start), end: Timestamp(milliseconds: end), text: text, translation: translation,
                  words: words, role: role, romanisation: roma, agent: agent, translations: translations, backgrounds: bg)
    }
}
