import Foundation
import Testing
@testable import LyricsCore

/// One rule for words a file cannot place (Word.place): a word stamped 0 inside a later line, or one
/// whose stamp goes back, follows on from the word before it (or takes the line's start when it is
/// the first), in every format that times words. Each format writes the same line with a stray zero
/// in the middle, then with one at the start; each must read the same words.
@Suite struct WordPlacementTests {
    struct Form: Sendable, CustomTestStringConvertible {
        var format: LyricsFormat
        var middle: String
        var first: String
        var testDescription: String { format.rawValue }
    }

    /// "Paper (0) moon" at 5.0 s: Paper 5000–5600, a stray zero-stamped "kite ", moon 5600–6200.
    static let forms: [Form] = [
        Form(format: .ttml,
             middle: """
                <tt xmlns="http://www.w3.org/ns/ttml"><body><div>\
                <p begin="00:05.000" end="00:06.200"><span begin="00:05.000" end="00:05.600">Paper</span> \
                <span begin="00:00.000" end="00:00.000">kite</span> <span begin="00:05.600" end="00:06.200">moon</span></p>\
                </div></body></tt>
                """,
             first: """
                <tt xmlns="http://www.w3.org/ns/ttml"><body><div>\
                <p begin="00:05.000" end="00:06.200"><span begin="00:00.000" end="00:00.000">Paper</span> \
                <span begin="00:05.000" end="00:05.600">kite</span> <span begin="00:05.600" end="00:06.200">moon</span></p>\
                </div></body></tt>
                """),
        Form(format: .yrc,
             middle: "[5000,1200](5000,600,0)Paper (0,0,0)kite (5600,600,0)moon",
             first: "[5000,1200](0,0,0)Paper (5000,600,0)kite (5600,600,0)moon"),
        Form(format: .qrc,
             middle: "[5000,1200]Paper (5000,600)kite (0,0)moon(5600,600)",
             first: "[5000,1200]Paper (0,0)kite (5000,600)moon(5600,600)"),
        Form(format: .lys,
             middle: "[4]Paper (5000,600)kite (0,0)moon(5600,600)",
             first: "[4]Paper (0,0)kite (5000,600)moon(5600,600)"),
        Form(format: .eslrc,
             middle: "[00:05.000]Paper[00:05.600] [00:00.000]kite [00:05.600]moon[00:06.200]",
             // ESLyric's first word has the line's stamp; a zero one is a zero boundary after it.
             first: "[00:05.000]Paper[00:00.000] kite[00:05.600] moon[00:06.200]"),
        Form(format: .lrc,
             middle: "[00:05.00]<00:05.00>Paper <00:00.00>kite <00:05.60>moon<00:06.20>",
             first: "[00:05.00]<00:00.00>Paper <00:05.00>kite <00:05.60>moon<00:06.20>"),
    ]

    typealias W = (start: Int, end: Int, text: String)

    static func words(_ text: String, _ format: LyricsFormat) throws -> [W] {
        let lyrics = try LyricsReader.parse(text, format: format)
        let line = try #require(lyrics.lines.first { $0.isSung })
        #expect(line.start.milliseconds == 5000, "the line keeps its start")
        #expect(line.words.map(\.text).joined() == line.text)
        return line.words.map { ($0.start.milliseconds, $0.end.milliseconds, $0.text) }
    }

    @Test(arguments: forms)
    func aZeroWordInsideTheLineFollowsOn(_ form: Form) throws {
        let words = try Self.words(form.middle, form.format)
        #expect(words.map(\.text) == ["Paper ", "kite ", "moon"])
        #expect(words.map(\.start) == [5000, 5600, 5600], "\(words)")
        #expect(words.last?.end == 6200)
        #expect(words[1].end == 5600, "the stray word takes no time of its own")
    }

    @Test(arguments: forms)
    func aZeroFirstWordTakesTheLineStart(_ form: Form) throws {
        let words = try Self.words(form.first, form.format)
        #expect(words.map(\.text) == ["Paper ", "kite ", "moon"])
        #expect(words.map(\.start) == [5000, 5000, 5600], "\(words)")
        #expect(words[0].end == 5000)
    }

    @Test func aBackingRunStampedZeroFollowsItsLine() throws {
        // amll-ttml-db 1397248051 writes `(Lost)` so; it pulled the line to 0:00.
        let text = """
            <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttm="http://www.w3.org/ns/ttml#metadata"><body><div>\
            <p begin="00:30.962" end="00:34.813"><span begin="00:30.962" end="00:32.000">Completely</span> \
            <span begin="00:32.000" end="00:34.813">lost</span>\
            <span ttm:role="x-bg" begin="00:00.000" end="00:00.000"><span begin="00:00.000" end="00:00.000">(Lost)</span></span></p>\
            </div></body></tt>
            """
        let line = try #require(try LyricsReader.parse(text).lines.first)
        #expect(line.start.milliseconds == 30_962)
        #expect(line.end.milliseconds == 34_813)
        let backing = try #require(line.background)
        #expect(backing.text == "Lost")
        #expect(backing.start.milliseconds == 34_813)
    }

    @Test func aBackingRowStampedZeroFollowsItsLine() throws {
        let text = "[4]Completely (30962,1038)lost(32000,2813)\n[7](Lost)(0,0)\n"
        let line = try #require(try LyricsReader.parse(text, format: .lys).lines.first)
        #expect(line.start.milliseconds == 30_962)
        #expect(line.background?.text == "Lost")
        #expect(line.background?.start.milliseconds == 34_813)
    }

    @Test func theRuleByItself() {
        func place(_ stamps: [(Int, Int?)], start: Int?, end: Int? = nil) -> [[Int]] {
            Word.place(stamps.map { Word.Stamp(start: $0.0, end: $0.1) }, lineStart: start, lineEnd: end).map { [$0.start, $0.end] }
        }
        // Zero in the middle, zero first, a word that goes back, one wholly before the line.
        #expect(place([(1000, 1400), (0, 0), (1400, 1900)], start: 1000) == [[1000, 1400], [1400, 1400], [1400, 1900]])
        #expect(place([(0, 0), (1000, 1400)], start: 1000) == [[1000, 1000], [1000, 1400]])
        #expect(place([(1000, 1500), (900, 1800)], start: 1000) == [[1000, 1500], [1500, 1800]])
        #expect(place([(1000, 1500), (1200, 1800)], start: 1000) == [[1000, 1500], [1200, 1800]], "overlapping is not going back")
        #expect(place([(200, 300), (1000, 1400)], start: 1000) == [[1000, 1000], [1000, 1400]])
        // A line at 0 may have words at 0; a word that starts a little early but ends inside is placed.
        #expect(place([(0, 0), (0, 400)], start: 0) == [[0, 0], [0, 400]])
        #expect(place([(950, 1200), (1200, 1500)], start: 1000) == [[950, 1200], [1200, 1500]])
        // Open ends run to the next placed start, over a stray one, else to the line's end.
        #expect(place([(1000, nil), (0, nil), (1600, nil)], start: 1000, end: 2000) == [[1000, 1600], [1600, 1600], [1600, 2000]])
        // Without a line start, the first timed word's start is the line's.
        #expect(place([(0, 0), (3000, 3500)], start: nil) == [[3000, 3000], [3000, 3500]])
    }
}
