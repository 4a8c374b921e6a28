import Testing
@testable import LyricsCore
import TestSupport

/// `Timeline` and `Cursor`: half-open intervals, gaps, before/after, binary search.
@Suite struct TimelineTests {
    /// A made-up song: a gap, a translated line, word timing, a line after a long break, a closing gap.
    static let sample = """
        [ti:Tin Roof Weather]
        [length:01:00]
        [00:02.00]
        [00:04.50]Rain on the tin roof
        [00:04.50]铁皮屋顶上的雨
        [00:09.00]<00:09.00>Kettle <00:09.40>on <00:09.70>the <00:10.00>stove<00:11.00>
        [00:12.25]
        [00:30.00]Porch light, blinking
        [00:41.00]
        """

    @Test func cursorAroundEveryLineStart() throws {
        let timeline = Timeline(try lrc(Self.sample))
        let lines = timeline.lines
        #expect(lines.map(\.start.milliseconds) == [2000, 4500, 9000, 12_250, 30_000, 41_000])
        #expect(timeline.end.milliseconds == 60_000)
        for (index, line) in lines.enumerated() {
            let start = line.start.milliseconds
            for (t, expected) in [(start - 1, index - 1), (start, index), (start + 1, index)] {
                let cursor = timeline.cursor(at: Timestamp(milliseconds: t))
                #expect(cursor.time.milliseconds == t)
                #expect(cursor.index == (expected >= 0 ? expected : nil), "t=\(t)")
                let current = expected >= 0 ? lines[expected] : nil
                let isInterlude = current.map { !$0.isSung || t >= $0.end.milliseconds } ?? true || t >= timeline.end.milliseconds
                #expect(cursor.isInterlude == isInterlude, "t=\(t)")
                let next = lines.indices.first { lines[$0].start.milliseconds > t && !lines[$0].text.isEmpty }
                #expect(cursor.nextIndex == next, "t=\(t)")
                if let current { #expect(current.contains(Timestamp(milliseconds: t)) || t >= current.end.milliseconds) }
            }
        }
    }

    @Test func specificMoments() throws {
        let timeline = Timeline(try lrc(Self.sample))
        func at(_ ms: Int) -> Cursor { timeline.cursor(at: Timestamp(milliseconds: ms)) }
        #expect(at(0) == Cursor(time: Timestamp(milliseconds: 0), index: nil, isInterlude: true, nextIndex: 1))
        #expect(at(3000) == Cursor(time: Timestamp(milliseconds: 3000), index: 0, isInterlude: true, nextIndex: 1))
        #expect(at(4500).index == 1 && !at(4500).isInterlude && at(4500).nextIndex == 2)
        #expect(at(8999).index == 1)
        #expect(at(20_000) == Cursor(time: Timestamp(milliseconds: 20_000), index: 3, isInterlude: true, nextIndex: 4))
        #expect(at(40_999).index == 4 && !at(40_999).isInterlude && at(40_999).nextIndex == nil)
        #expect(at(59_999).index == 5 && at(59_999).isInterlude)
        #expect(at(60_000).index == 5 && at(60_000).isInterlude)          // after the end: still the last line
        #expect(at(-5).index == nil && at(-5).isInterlude)
    }

    @Test func endOfANonBlankLastLineIsAnInterlude() throws {
        let timeline = Timeline(try lrc("[00:01.00]a\n[00:02.00]b"))
        #expect(timeline.end.milliseconds == 7000)
        #expect(!timeline.cursor(at: Timestamp(milliseconds: 6999)).isInterlude)
        let after = timeline.cursor(at: Timestamp(milliseconds: 7000))
        #expect(after.index == 1 && after.isInterlude && after.nextIndex == nil)
    }

    @Test func equalStartsPickTheLast() {
        let lines = [
            LyricLine(start: Timestamp(milliseconds: 0), end: Timestamp(milliseconds: 0), text: "hidden"),
            LyricLine(start: Timestamp(milliseconds: 0), end: Timestamp(milliseconds: 1000), text: "shown"),
            LyricLine(start: Timestamp(milliseconds: 1000), end: Timestamp(milliseconds: 2000), text: "last"),
        ]
        let timeline = Timeline(lines: lines)
        #expect(timeline.cursor(at: .zero).index == 1)
        #expect(timeline.cursor(at: Timestamp(milliseconds: 999)).nextIndex == 2)
    }

    @Test func emptyTimeline() {
        let timeline = Timeline(Lyrics())
        #expect(timeline.end == .zero)
        #expect(timeline.cursor(at: Timestamp(milliseconds: 5)) ==
                Cursor(time: Timestamp(milliseconds: 5), index: nil, isInterlude: true, nextIndex: nil))
    }

    @Test func binarySearchAgreesWithLinearScan() throws {
        var random = SplitMix64(seed: 7)
        var text = ""
        for _ in 0..<300 {
            let ms = Int.random(in: 0..<200_000, using: &random)
            let blank = Int.random(in: 0..<4, using: &random) == 0
            text += "[\(ms / 60_000):\(ms / 1000 % 60).\(ms % 1000)]" + (blank ? "" : "w\(ms)") + "\n"
        }
        let timeline = Timeline(try lrc(text))
        let lines = timeline.lines
        for _ in 0..<2000 {
            let t = Int.random(in: -10..<210_000, using: &random)
            let cursor = timeline.cursor(at: Timestamp(milliseconds: t))
            #expect(cursor.index == lines.lastIndex { $0.start.milliseconds <= t })
            #expect(cursor.nextIndex == lines.firstIndex { $0.start.milliseconds > t && !$0.text.isEmpty })
        }
    }
}
