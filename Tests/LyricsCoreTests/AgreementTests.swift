import Foundation
import Testing
@testable import LyricsCore

/// One made-up song written by hand in every format LyricPoster reads: each must read as the same
/// song, as far as its format carries it (the text and start of every line everywhere; line ends
/// where the format writes them; words where it times them). The file's format is sniffed, not
/// named, so the sniffer is checked on each too.
@Suite struct AgreementTests {
    /// What each hand-written file must read as.
    static let song: [(start: Int, end: Int, words: [(Int, Int, String)])] = [
        (1000, 2600, [(1000, 1400, "Tin "), (1400, 1900, "roof "), (1900, 2600, "sings")]),
        (3000, 4500, [(3000, 3800, "Lantern "), (3800, 4500, "light")]),
        (5000, 6800, [(5000, 5600, "纸"), (5600, 6200, "风"), (6200, 6800, "筝")]),
        (7000, 8200, [(7000, 7500, "Glow "), (7500, 8200, "on")]),
    ]

    enum Carries { case linesOnly, lineEnds, words }

    struct Form: Sendable, CustomTestStringConvertible {
        var format: LyricsFormat
        var carries: Carries
        var text: String
        var testDescription: String { format.rawValue }
    }

    static let forms: [Form] = [
        Form(format: .ttml, carries: .words, text: """
            <?xml version="1.0" encoding="utf-8"?>
            <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttm="http://www.w3.org/ns/ttml#metadata"><head><metadata>\
            <ttm:agent type="person" xml:id="v1"/></metadata></head><body><div>
            <p begin="00:01.000" end="00:02.600"><span begin="00:01.000" end="00:01.400">Tin</span> <span begin="00:01.400" end="00:01.900">roof</span> <span begin="00:01.900" end="00:02.600">sings</span></p>
            <p begin="00:03.000" end="00:04.500"><span begin="00:03.000" end="00:03.800">Lantern</span> <span begin="00:03.800" end="00:04.500">light</span></p>
            <p begin="00:05.000" end="00:06.800"><span begin="00:05.000" end="00:05.600">纸</span><span begin="00:05.600" end="00:06.200">风</span><span begin="00:06.200" end="00:06.800">筝</span></p>
            <p begin="00:07.000" end="00:08.200"><span begin="00:07.000" end="00:07.500">Glow</span> <span begin="00:07.500" end="00:08.200">on</span></p>
            </div></body></tt>
            """),
        Form(format: .yrc, carries: .words, text: """
            [1000,1600](1000,400,0)Tin (1400,500,0)roof (1900,700,0)sings
            [3000,1500](3000,800,0)Lantern (3800,700,0)light
            [5000,1800](5000,600,0)纸(5600,600,0)风(6200,600,0)筝
            [7000,1200](7000,500,0)Glow (7500,700,0)on
            """),
        Form(format: .lrc, carries: .linesOnly, text: """
            [ti:Tin Roof]
            [00:01.00]Tin roof sings
            [00:03.00]Lantern light
            [00:05.00]纸风筝
            [00:07.00]Glow on
            """),
        Form(format: .lrc, carries: .words, text: """
            [00:01.00]<00:01.00>Tin <00:01.40>roof <00:01.90>sings<00:02.60>
            [00:03.00]<00:03.00>Lantern <00:03.80>light<00:04.50>
            [00:05.00]<00:05.00>纸<00:05.60>风<00:06.20>筝<00:06.80>
            [00:07.00]<00:07.00>Glow <00:07.50>on<00:08.20>
            """),
        Form(format: .eslrc, carries: .words, text: """
            [00:01.000]Tin [00:01.400]roof [00:01.900]sings[00:02.600]
            [00:03.000]Lantern [00:03.800]light[00:04.500]
            [00:05.000]纸[00:05.600]风[00:06.200]筝[00:06.800]
            [00:07.000]Glow[00:07.500] [00:00.000]on[00:08.200]
            """),
        Form(format: .qrc, carries: .words, text: """
            [ti:Tin Roof]
            [offset:0]
            [1000,1600]Tin (1000,400)roof (1400,500)sings(1900,700)
            [3000,1500]Lantern (3000,800)light(3800,700)
            [5000,1800]纸(5000,600)风(5600,600)筝(6200,600)
            [7000,1200]Glow(7000,500) (7500,0)on(7500,700)
            """),
        Form(format: .lys, carries: .words, text: """
            [ti:Tin Roof]
            [4]Tin (1000,400)roof (1400,500)sings(1900,700)
            [4]Lantern (3000,800)light(3800,700)
            [4]纸(5000,600)风(5600,600)筝(6200,600)
            [4]Glow (7000,500)on(7500,700)
            """),
        Form(format: .krc, carries: .words, text: """
            [ti:Tin Roof]
            [language:eyJjb250ZW50IjpbXSwidmVyc2lvbiI6MX0=]
            [1000,1600]<0,400,0>Tin <400,500,0>roof <900,700,0>sings
            [3000,1500]<0,800,0>Lantern <800,700,0>light
            [5000,1800]<0,600,0>纸<600,600,0>风<1200,600,0>筝
            [7000,1200]<0,500,0>Glow <500,700,0>on
            """),
        Form(format: .lqe, carries: .words, text: """
            [Lyricify Quick Export]
            [version:1.0]
            [ti:Tin Roof]

            [lyrics: format@Lyricify Syllable]
            [4]Tin (1000,400)roof (1400,500)sings(1900,700)
            [4]Lantern (3000,800)light(3800,700)
            [4]纸(5000,600)风(5600,600)筝(6200,600)
            [4]Glow (7000,500)on(7500,700)
            """),
        Form(format: .lyl, carries: .lineEnds, text: """
            [type:LyricifyLines]
            [1000,2600]Tin roof sings
            [3000,4500]Lantern light
            [5000,6800]纸风筝
            [7000,8200]Glow on
            """),
        Form(format: .ass, carries: .words, text: """
            [Script Info]
            ScriptType: v4.00+

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:01.00,0:00:02.60,Default,,0,0,0,,{\\k40}Tin {\\k50}roof {\\k70}sings
            Dialogue: 0,0:00:03.00,0:00:04.50,Default,,0,0,0,,{\\kf80}Lantern {\\kf70}light
            Dialogue: 0,0:00:05.00,0:00:06.80,Default,,0,0,0,,{\\k60}纸{\\k60}风{\\k60}筝
            Dialogue: 0,0:00:07.00,0:00:08.20,Default,,0,0,0,,{\\ko50}Glow {\\ko70}on
            """),
        Form(format: .srt, carries: .lineEnds, text: """
            1
            00:00:01,000 --> 00:00:02,600
            Tin roof sings

            2
            00:00:03,000 --> 00:00:04,500
            Lantern light

            3
            00:00:05,000 --> 00:00:06,800
            纸风筝

            4
            00:00:07,000 --> 00:00:08,200
            Glow on
            """),
        Form(format: .vtt, carries: .words, text: """
            WEBVTT

            00:00:01.000 --> 00:00:02.600
            <00:00:01.000>Tin <00:00:01.400>roof <00:00:01.900>sings

            00:00:03.000 --> 00:00:04.500
            <00:00:03.000>Lantern <00:00:03.800>light

            00:00:05.000 --> 00:00:06.800
            <00:00:05.000>纸<00:00:05.600>风<00:00:06.200>筝

            00:00:07.000 --> 00:00:08.200
            <00:00:07.000>Glow <00:00:07.500>on
            """),
    ]

    @Test(arguments: forms)
    func readsAsTheSameSong(_ form: Form) throws {
        #expect(LyricsFormat.sniff(form.text) == form.format, "sniffed")
        let lyrics = try LyricsReader.parse(form.text)
        let sung = lyrics.lines.filter(\.isSung)
        try #require(sung.count == Self.song.count, "\(sung.map(\.text))")
        for (line, want) in zip(sung, Self.song) {
            #expect(line.text == want.words.map(\.2).joined())
            #expect(line.start.milliseconds == want.start, "\(line.text) start")
            if form.carries != .linesOnly {
                #expect(line.end.milliseconds == want.end, "\(line.text) end")
            }
            if form.carries == .words {
                let words = line.words.map { ($0.start.milliseconds, $0.end.milliseconds, $0.text) }
                #expect(words.elementsEqual(want.words, by: ==), "\(line.text) words \(words)")
            }
        }
    }

    @Test func encryptedFormsReadAsTheirPlainForms() throws {
        let qrc = try #require(Self.forms.first { $0.format == .qrc })
        let krc = try #require(Self.forms.first { $0.format == .krc })
        let hex = LyricEncoders.qrcHex("<?xml version=\"1.0\" encoding=\"utf-8\"?><QrcInfos><LyricInfo LyricCount=\"1\"><Lyric_1 LyricType=\"1\" LyricContent=\"\(qrc.text)\"/></LyricInfo></QrcInfos>")
        #expect(try LyricsReader.load(Data(hex.utf8)).lines == LyricsReader.parse(qrc.text).lines)
        #expect(try LyricsReader.load(LyricEncoders.krc(krc.text)).lines == LyricsReader.parse(krc.text).lines)
    }

    /// Backing vocals as each word-timed format marks them (TTML `x-bg`, QRC's bracketed line as
    /// the TTML tool exports it, Lyricify's backing prop, ASS `-bg`) read as the same backing run,
    /// and the line covers it.
    @Test func backingVocalsAgree() throws {
        let forms = [
            """
            <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttm="http://www.w3.org/ns/ttml#metadata"><body><div>            <p begin="1" end="2"><span begin="1" end="1.5">Call</span> <span begin="1.5" end="2">out</span>            <span ttm:role="x-bg"><span begin="1.8" end="2.2">(echo</span> <span begin="2.2" end="2.6">back)</span></span></p>            <p begin="3" end="4"><span begin="3" end="4">again</span></p></div></body></tt>
            """,
            "[1000,1000]Call (1000,500)out(1500,500)\n[1800,800]（echo (1800,400)back）(2200,400)\n[3000,1000]again(3000,1000)",
            "[4]Call (1000,500)out(1500,500)\n[7]echo (1800,400)back(2200,400)\n[4]again(3000,1000)",
            """
            [Script Info]
            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:01.00,0:00:02.00,Default,v1,0,0,0,,{\\k50}Call {\\k50}out
            Dialogue: 0,0:00:01.80,0:00:02.60,Default,v1-bg,0,0,0,,{\\k40}echo {\\k40}back
            Dialogue: 0,0:00:03.00,0:00:04.00,Default,v1,0,0,0,,{\\k100}again
            """,
        ]
        for text in forms {
            let lyrics = try LyricsReader.parse(text)
            let context = "\(lyrics.format)"
            try #require(lyrics.lines.count == 2, "\(context): \(lyrics.lines.map(\.text))")
            let line = lyrics.lines[0]
            #expect(line.text == "Call out", "\(context)")
            #expect(line.start.milliseconds == 1000 && line.end.milliseconds == 2600, "\(context) \(line.start)–\(line.end)")
            let run = try #require(line.backgrounds.first, "\(context)")
            #expect(line.backgrounds.count == 1, "\(context)")
            #expect(run.text == "echo back", "\(context)")
            #expect(run.words.map { W($0) } == [W(1800, 2200, "echo "), W(2200, 2600, "back")], "\(context)")
        }
    }
}
