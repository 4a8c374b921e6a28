import Foundation
import Testing
@testable import LyricsCore
import TestSupport

/// The loader never crashes, hangs or breaks its invariants, whatever the bytes.
@Suite struct RobustnessTests {
    /// Fragments that reach the parser's corners far more often than uniform bytes do.
    static let textFragments: [[UInt8]] = [
        "[", "]", "<", ">", ":", ".", ",", " ", "\t", "\n", "\r", "\r\n", "\0", "#", "|", "||", "-", "+",
        "0", "1", "5", "9", "59", "99", "00:01.00", "[00:01.00]", "<00:02.50>", "[1:02:03.45]", "[00:15:83]",
        "[offset:", "[offset:-300]", "[length:2:50]", "[ti:", "[tr:en]", "[tt]", "[:]", "eng||", "\u{FEFF}",
        "雨", "é", "\u{3000}", "//", "[ti: a [b]]", "\n[00:03.5]", "\n[1:00]", "\n[0:02:5]",
    ].map { Array($0.utf8) }
    /// Byte sequences that are not UTF-8, or are BOMs and GBK, to exercise decoding too.
    static let byteFragments: [[UInt8]] = [[0xFF], [0xFE], [0x81], [0xC4, 0xE3], [0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0x00, 0xD8]]

    @Test func twoThousandSeededInputs() {
        var random = SplitMix64(seed: 0x4C52_43)
        var parsed = 0
        for round in 0..<2000 {
            var bytes: [UInt8] = []
            let pieces = Int.random(in: 0..<80, using: &random)
            // A third uniform bytes, a third LRC-ish text, a third text with the odd raw byte sequence.
            let fragments = round % 3 == 1 ? Self.textFragments : Self.textFragments + Self.byteFragments
            for _ in 0..<pieces {
                if round % 3 == 0 {
                    bytes.append(UInt8.random(in: 0...255, using: &random))
                } else {
                    bytes += fragments[Int.random(in: 0..<fragments.count, using: &random)]
                }
            }
            let forced: String? = round % 7 == 0 ? ["shift_jis", "big5", "utf-16be", "euc-kr", "latin1"][round / 7 % 5] : nil
            do {
                let lyrics = try LRC.load(Data(bytes), encoding: forced)
                parsed += 1
                let problems = invariantViolations(lyrics)
                #expect(problems.isEmpty, "round \(round): \(problems)")
                _ = lyrics.inspectJSON()
                _ = lyrics.inspectTable()
                let timeline = Timeline(lyrics)
                _ = timeline.cursor(at: Timestamp(milliseconds: Int.random(in: 0..<100_000, using: &random)))
            } catch {
                // Typed throws: anything thrown is a LyricsError; just make sure it describes itself.
                #expect(!error.description.isEmpty)
            }
        }
        #expect(parsed > 300)   // the fragments do produce real lyrics, so the checks above ran
    }

    @Test func pathologicalLinesStayFast() throws {
        let clock = ContinuousClock()
        let started = clock.now
        for filler in ["[", "<", "[a:", "[00:01.00]", "<00:01.00>", "[0", "]", " "] {
            let line = "[00:00.00]" + String(repeating: filler, count: 20_000)
            _ = try? LRC.parse(line)
            _ = try? LRC.parse(String(repeating: filler, count: 20_000))
        }
        #expect(clock.now - started < .seconds(5 * Sanitizers.allowance))
    }

    @Test func manyLines() throws {
        var text = ""
        for index in 0..<20_000 {
            let centis = index % 100
            text += "[\(index / 6000):\(index / 100 % 60).\(centis < 10 ? "0" : "")\(centis)]line \(index % 50)\n"
        }
        let lyrics = try lrc(text)
        #expect(lyrics.lines.count == 20_000)   // distinct stamps, no merging
        #expect(invariantViolations(lyrics).isEmpty)
    }
}
