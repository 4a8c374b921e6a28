import Foundation
import Testing
@testable import LyricsCore

/// What one real-world file must parse to (counts only: the corpus holds copyrighted lyrics, so no
/// lyric text is copied into these tests).
struct CorpusFile: Sendable, CustomTestStringConvertible {
    var name: String
    var encoding: String
    var lines: Int
    var gaps: Int
    var translated: Int
    var worded: Int
    var firstStart: Int
    var lastEnd: Int
    var testDescription: String { name }
}

/// Conformance over `../shared/testdata/lrc-real` (see its README). Skipped when the folder is absent.
@Suite(.enabled(if: corpusDirectory != nil, "../shared/testdata/lrc-real is not present"))
struct CorpusTests {
    static let files: [CorpusFile] = [
        .init(name: "01-zh-utf8bom-crlf.lrc", encoding: "utf-8", lines: 45, gaps: 0, translated: 0, worded: 0, firstStart: 17_200, lastEnd: 229_840),
        .init(name: "02-ja-mixed-crlf-lf.lrc", encoding: "utf-8", lines: 45, gaps: 7, translated: 0, worded: 0, firstStart: 0, lastEnd: 241_390),
        .init(name: "03-en-multistamp-blanklines.lrc", encoding: "utf-8", lines: 162, gaps: 19, translated: 0, worded: 0, firstStart: 100, lastEnd: 417_400),
        .init(name: "04-ja-offset-sameline-nul.lrc", encoding: "utf-8", lines: 61, gaps: 30, translated: 0, worded: 0, firstStart: 68, lastEnd: 184_848),
        .init(name: "05-en-offset-negative.lrc", encoding: "utf-8", lines: 47, gaps: 10, translated: 0, worded: 0, firstStart: 16_730, lastEnd: 216_420),
        .init(name: "06-en-chorus-multistamp.lrc", encoding: "utf-8", lines: 49, gaps: 0, translated: 0, worded: 0, firstStart: 2000, lastEnd: 199_460),
        .init(name: "07-en-gaps-id-length.lrc", encoding: "utf-8", lines: 93, gaps: 27, translated: 0, worded: 0, firstStart: 0, lastEnd: 294_000),
        .init(name: "08-zh-gbk.lrc", encoding: "gb18030", lines: 68, gaps: 17, translated: 0, worded: 0, firstStart: 0, lastEnd: 255_020),
        .init(name: "09-zh-utf8-3digit.lrc", encoding: "utf-8", lines: 27, gaps: 0, translated: 0, worded: 0, firstStart: 0, lastEnd: 197_297),
        .init(name: "10-ja-3digit-fullwidth.lrc", encoding: "utf-8", lines: 51, gaps: 12, translated: 0, worded: 0, firstStart: 0, lastEnd: 243_353),
        .init(name: "11-ja-zh-lyricsx.lrcx", encoding: "utf-8", lines: 61, gaps: 0, translated: 61, worded: 61, firstStart: 599, lastEnd: 375_275),
        .init(name: "12-ja-a2-per-char.lrc", encoding: "utf-8", lines: 48, gaps: 0, translated: 0, worded: 48, firstStart: 18_760, lastEnd: 188_600),
        .init(name: "13-zh-utf8-crlf-3digit.lrc", encoding: "utf-8", lines: 25, gaps: 0, translated: 0, worded: 0, firstStart: 280, lastEnd: 207_260),
        .init(name: "14-zh-float-artifacts.lrc", encoding: "utf-8", lines: 58, gaps: 0, translated: 0, worded: 0, firstStart: 0, lastEnd: 288_510),
        .init(name: "15-ar-rtl-comments.lrc", encoding: "utf-8", lines: 100, gaps: 0, translated: 0, worded: 0, firstStart: 5000, lastEnd: 457_880),
        .init(name: "16-ja-en-phrase-enhanced.lrc", encoding: "utf-8", lines: 8, gaps: 0, translated: 0, worded: 8, firstStart: 4286, lastEnd: 92_543),
        .init(name: "17-yue-untimed-title.lrc", encoding: "utf-8", lines: 22, gaps: 0, translated: 0, worded: 0, firstStart: 31_230, lastEnd: 206_380),
        .init(name: "18-en-musixmatch-header.lrc", encoding: "utf-8", lines: 38, gaps: 6, translated: 0, worded: 0, firstStart: 27_620, lastEnd: 466_000),
        .init(name: "19-en-zh-bilingual-a2.lrc", encoding: "utf-8", lines: 38, gaps: 0, translated: 38, worded: 38, firstStart: 0, lastEnd: 70_610),
        .init(name: "20-zh-hant-bracket-after-time.lrc", encoding: "utf-8", lines: 41, gaps: 0, translated: 0, worded: 0, firstStart: 0, lastEnd: 253_000),
    ]

    static func load(_ name: String) throws -> Lyrics {
        let directory = try #require(corpusDirectory)
        return try LRC.load(Data(contentsOf: directory.appendingPathComponent(name)))
    }

    @Test func tableCoversTheWholeFolder() throws {
        let directory = try #require(corpusDirectory)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasSuffix(".md") }
        #expect(Set(names) == Set(Self.files.map(\.name)))
    }

    @Test(arguments: files)
    func parses(_ file: CorpusFile) throws {
        let lyrics = try Self.load(file.name)
        #expect(lyrics.encoding == file.encoding)
        #expect(lyrics.lines.count == file.lines)
        #expect(lyrics.lines.filter(\.text.isEmpty).count == file.gaps)
        #expect(lyrics.lines.filter { $0.translation != nil }.count == file.translated)
        #expect(lyrics.lines.filter { !$0.words.isEmpty }.count == file.worded)
        #expect(lyrics.lines.first?.start.milliseconds == file.firstStart)
        #expect(lyrics.lines.last?.end.milliseconds == file.lastEnd)
        #expect(invariantViolations(lyrics) == [])
        for line in lyrics.lines {
            let text = line.text + (line.translation ?? "")
            #expect(!text.unicodeScalars.contains { $0 == "\r" || $0 == "\0" || $0 == "\u{FEFF}" || $0 == "\u{FFFD}" }, "\(file.name) \(line.start)")
            #expect(text.range(of: #"[<\[]\d+:\d+"#, options: .regularExpression) == nil, "\(file.name) \(line.start): time tag left in text")
        }
        let timeline = Timeline(lyrics)
        for (index, line) in lyrics.lines.enumerated() where line.end > line.start {
            #expect(timeline.cursor(at: line.start).index == index)
        }
        _ = lyrics.inspectJSON()
    }

    @Test func sameLineTagOffsetAndTrailingNUL() throws {
        let lyrics = try Self.load("04-ja-offset-sameline-nul.lrc")
        #expect(lyrics.offsetMs == 102)
        #expect(lyrics.tags["ar"] == "stereopony")
        #expect(lyrics.lines[0].start.milliseconds == 170 - 102)    // [offset:102][00:00.17]
        #expect(!lyrics.lines[0].text.isEmpty)
        #expect(lyrics.lines.last?.text == "")                       // [03:04.95] then NUL
        let added = try LRC.load(Data(contentsOf: corpusDirectory!.appendingPathComponent("04-ja-offset-sameline-nul.lrc")),
                                 options: LRC.Options(offsetSign: .add))
        #expect(added.lines[0].start.milliseconds == 170 + 102)
    }

    @Test func nineteenStampBlankFirstLine() throws {
        let lyrics = try Self.load("03-en-multistamp-blanklines.lrc")
        let header = [343_890, 397_580, 417_400, 187_230, 212_320, 238_610, 266_160, 292_310, 318_180, 369_760,
                      100, 3710, 7530, 104_100, 133_640, 160_440, 25_140, 10_630, 78_200]
        let blanks = lyrics.lines.filter(\.text.isEmpty).map(\.start.milliseconds)
        #expect(blanks == header.sorted())
        #expect(lyrics.lines.map(\.start) == lyrics.lines.map(\.start).sorted())
    }

    @Test func negativeOffsetAndShortStamps() throws {
        let lyrics = try Self.load("05-en-offset-negative.lrc")
        #expect(lyrics.offsetMs == -15_000)
        #expect(lyrics.length?.milliseconds == 202_000)
        #expect(lyrics.lines.first?.start.milliseconds == 1730 + 15_000)   // [0:1.730]
        #expect(lyrics.lines.contains { $0.start.milliseconds == 4790 + 15_000 })  // [0:4.79]
        #expect(lyrics.tags["id"] == "paqokzsl")
    }

    @Test func chorusStampsRepeatAndSort() throws {
        let lyrics = try Self.load("06-en-chorus-multistamp.lrc")
        let counts = Dictionary(lyrics.lines.map { ($0.text, 1) }, uniquingKeysWith: +)
        #expect(counts.values.max() == 4)                 // four stamps on the longest chorus lines
        #expect(counts.values.filter { $0 == 4 }.count == 2)
        #expect(counts.values.filter { $0 == 3 }.count == 5)
        #expect(lyrics.lines.map(\.start) == lyrics.lines.map(\.start).sorted())
    }

    @Test func lengthEndsTheSong() throws {
        let lyrics = try Self.load("07-en-gaps-id-length.lrc")
        #expect(lyrics.length?.milliseconds == 294_000)
        #expect(lyrics.tags["id"] == "ql_oiqslcsc")      // value with a leading space, trimmed
        let musixmatch = try Self.load("18-en-musixmatch-header.lrc")
        #expect(musixmatch.length?.milliseconds == 466_000)
        let last = try #require(musixmatch.lines.last)
        #expect(last.text.isEmpty && last.start.milliseconds == 466_000 && last.end.milliseconds == 466_000)
        #expect(Timeline(musixmatch).cursor(at: Timestamp(milliseconds: 300_000)).isInterlude)   // the long break
    }

    @Test func gbkWithoutBOM() throws {
        let lyrics = try Self.load("08-zh-gbk.lrc")
        #expect(lyrics.encoding == "gb18030")
        #expect(lyrics.title == "成全")
        #expect(lyrics.tags["al"] == "276375")
        #expect(lyrics.tags["by"] == "")
        #expect(lyrics.offsetMs == 0)
    }

    @Test func emptyTagsAndMixedLineEnds() throws {
        let lyrics = try Self.load("02-ja-mixed-crlf-lf.lrc")
        #expect(lyrics.tags == ["ti": "", "ar": "", "al": "", "by": ""])
        #expect(lyrics.title == nil && lyrics.artist == nil)
    }

    @Test func fullWidthSpacesKept() throws {
        let lyrics = try Self.load("10-ja-3digit-fullwidth.lrc")
        #expect(lyrics.lines.contains { $0.text.contains("\u{3000}") })
        #expect(lyrics.lines.allSatisfy { !$0.text.hasPrefix(" ") })     // leading space after `]` trimmed
    }

    @Test func lrcxAttachments() throws {
        // [tr:…] is the translation, [tt] times the words, [fu] gives them furigana, wherever each
        // stands among its line's rows (LyricsKit expects 61 lines).
        let lyrics = try Self.load("11-ja-zh-lyricsx.lrcx")
        #expect(lyrics.lines.count == 61)
        #expect(lyrics.lines.allSatisfy { $0.translation != nil && !$0.text.contains("[t") && !$0.text.contains("<") })
        #expect(lyrics.lines.allSatisfy { $0.words.map(\.text).joined() == $0.text })
        #expect(lyrics.tags["total"] == "375275")
        #expect(lyrics.length?.milliseconds == 375_275)
        // [00:23.467][fu]<あお,2,3><うみ,6,7><かなた,8,10> (written before its [tt]) over
        // <0,0><150,1><350,2><600,3>…<2901,8><3554,9><4356,10><5110,11>.
        let second = lyrics.lines[1]
        #expect(second.text == "あの蒼ざめた海の彼方で")
        #expect(second.words.filter { $0.ruby != nil }.map { "\($0.text)=\($0.ruby ?? "")" } == ["蒼=あお", "海=うみ", "彼方=かなた"])
        let kanata = try #require(second.words.first { $0.text == "彼方" })
        #expect(kanata.start.milliseconds == 23_467 + 2901)
        #expect(kanata.end.milliseconds == 23_467 + 4356)
        #expect(second.words.first?.start.milliseconds == 23_467)
    }

    @Test func perCharacterWords() throws {
        let lyrics = try Self.load("12-ja-a2-per-char.lrc")
        let first = try #require(lyrics.lines.first)
        #expect(first.words.count == 19)
        #expect(first.words.allSatisfy { $0.text.unicodeScalars.filter { !$0.properties.isWhitespace }.count == 1 })
    }

    @Test func floatArtefacts() throws {
        let starts = Set(try Self.load("14-zh-float-artifacts.lrc").lines.map(\.start.milliseconds))
        #expect(starts.isSuperset(of: [0, 5300, 46_160, 103_490, 111_490]))   // [00:00.0] [00:05.3] [01:43.490005] …
    }

    @Test func commentsAndUntimedTitle() throws {
        let arabic = try Self.load("15-ar-rtl-comments.lrc")
        #expect(arabic.lines.allSatisfy { !$0.text.hasPrefix("#") })
        let cantonese = try Self.load("17-yue-untimed-title.lrc")
        #expect(cantonese.lines.first?.start.milliseconds == 31_230)
    }

    @Test func phrasesAndBilingualWords() throws {
        let phrases = try Self.load("16-ja-en-phrase-enhanced.lrc")
        #expect(phrases.lines.map(\.words.count).max() == 10)
        let bilingual = try Self.load("19-en-zh-bilingual-a2.lrc")
        #expect(bilingual.lines.allSatisfy { $0.translation != nil && !$0.words.isEmpty })
        #expect(bilingual.lines.flatMap(\.words).contains { $0.start == $0.end })   // zero-length words
        #expect(bilingual.lines.allSatisfy { $0.translation!.unicodeScalars.allSatisfy { $0 != "<" } })
    }

    @Test func bracketAfterTimestampIsText() throws {
        let lyrics = try Self.load("20-zh-hant-bracket-after-time.lrc")
        #expect(lyrics.lines[0].start == .zero)
        #expect(lyrics.lines[0].text.hasPrefix("[Intro: "))
        #expect(lyrics.lines.contains { $0.start.milliseconds == 24_000 && $0.text.contains("[Vocal: ") })
        #expect(lyrics.tags.keys.sorted() == ["al", "ar", "ti"])
    }
}
