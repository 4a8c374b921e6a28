import Foundation
@testable import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// Transitions: where a song's changes are, how long each takes, and the pictures on the way
/// from one line to the next (ending where the stills are, the same bytes every time).
final class MotionRenderTests: XCTestCase {
    static let song = """
    [ti:Motion Test]
    [ar:LyricPoster]
    [00:01.00]First light over the harbour wall
    [00:04.00]Second line a little longer than the first one was
    [00:04.20]Third comes quickly
    [00:04.23]Fourth is almost at once
    [00:08.00]Fifth and last
    [00:10.00]

    """

    func builder() throws -> SceneBuilder {
        SceneBuilder(lyrics: try LRC.parse(Self.song))
    }

    func testChangesAreWhereTheLinesChangeAndEndBeforeTheNext() throws {
        let plan = MotionPlan(try builder(), transition: Transition(style: .scroll, durationMs: 450))
        XCTAssertEqual(plan.changes.map(\.at), [1_000, 4_000, 4_200, 4_230, 8_000, 10_000])
        XCTAssertEqual(plan.changes.map(\.durationMs), [450, 200, 30, 450, 450, 450],
                       "a change ends by the next one; the transition's length otherwise")
        XCTAssertNil(plan.motion(at: 999), "at rest before the first change")
        XCTAssertEqual(plan.motion(at: 1_000)?.progress, 0)
        XCTAssertEqual(try XCTUnwrap(plan.motion(at: 1_225)?.progress), 0.5, accuracy: 1e-9)
        XCTAssertNil(plan.motion(at: 1_450), "settled when the transition's time is up")
        XCTAssertNotNil(plan.motion(at: 4_100), "a quicker change when the next line comes sooner")
        XCTAssertNil(plan.motion(at: 4_210), "a change of a few frames is a cut")
        XCTAssertEqual(plan.motion(at: 1_100)?.from.currentText, nil, "the intro moves away")
        XCTAssertEqual(plan.motion(at: 8_100)?.from.currentText, "Fourth is almost at once")
        XCTAssertTrue(MotionPlan(try builder(), transition: .none).changes.isEmpty)
        XCTAssertTrue(MotionPlan(try builder(), transition: Transition(style: .scroll, durationMs: 10)).changes.isEmpty)
    }

    func testKaraokeAloneIsNotAChange() throws {
        let lrc = """
        [00:01.00]<00:01.00>Every <00:01.50>word <00:02.00>in <00:02.50>turn
        [00:04.00]Next line
        """
        var scenes = SceneBuilder(lyrics: try LRC.parse(lrc))
        scenes.karaoke = true
        scenes.timeSensitive = true
        let plan = MotionPlan(scenes, transition: Transition(style: .fade))
        XCTAssertEqual(plan.changes.map(\.at), [1_000, 4_000, 9_000], "the lines, and the closing picture after the last")
    }

    func testEasingStartsQuicklyAndSettles() {
        XCTAssertEqual(Renderer.eased(0), 0)
        XCTAssertEqual(Renderer.eased(1), 1)
        var last = 0.0
        for k in 1...100 {
            let value = Renderer.eased(Double(k) / 100)
            XCTAssertGreaterThanOrEqual(value, last)
            last = value
        }
        XCTAssertGreaterThan(Renderer.eased(0.25), 0.5, "most of the way in the first quarter")
    }

    /// Renders the song's pictures over a cover at 540×960.
    func renderer(theme: Theme = .card) throws -> Renderer {
        let geometry = PosterGeometry(preset: .custom(width: 540, height: 960), before: theme.before, after: theme.after, theme: theme)
        let cover = try makeCover(top: Color(red: 0.2, green: 0.3, blue: 0.6), bottom: Color(red: 0.8, green: 0.4, blue: 0.2))
        let background = try Background.prepare(cover: cover, geometry: geometry, theme: theme)
        let engine = LayoutEngine(geometry: geometry, text: try TextEngine(fonts: Shared.fonts), theme: theme, palette: background.palette)
        return Renderer(background: background, layoutEngine: engine)
    }

    func rgb(_ frame: Renderer.Frame) throws -> [UInt8] { try frame.canvas.pixels(opaque: true).bytes }

    func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var sum = 0.0
        for i in a.indices { sum += Double((Int(a[i]) - Int(b[i])) * (Int(a[i]) - Int(b[i]))) }
        let mse = sum / Double(a.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    func testAMoveStartsAtThePictureBeforeAndEndsAtTheStill() throws {
        let scenes = try builder()
        for theme in [Theme.card, .immersive, .classic, .block] {
            let renderer = try self.renderer(theme: theme)
            let before = scenes.scene(at: Timestamp(milliseconds: 3_999))
            let after = scenes.scene(at: Timestamp(milliseconds: 4_000))
            let stillBefore = try rgb(try renderer.render(before)), stillAfter = try rgb(try renderer.render(after))
            for style in [Transition.Style.scroll, .fade] {
                let start = try rgb(try renderer.render(after, motion: Motion(style: style, from: before, progress: 0)))
                let end = try rgb(try renderer.render(after, motion: Motion(style: style, from: before, progress: 0.9999)))
                let middle = try rgb(try renderer.render(after, motion: Motion(style: style, from: before, progress: 0.3)))
                XCTAssertGreaterThan(psnr(start, stillBefore), 30, "\(theme.name) \(style): the move starts from the picture before")
                XCTAssertGreaterThan(psnr(end, stillAfter), 40, "\(theme.name) \(style): and ends on the still of the instant")
                if ProcessInfo.processInfo.environment["DUMP"] != nil {
                    try Data(try PNG.encode(PixelBuffer(width: 540, height: 960, channels: 3, bytes: end), method: PNG.Compression.fast.method)).write(to: URL(fileURLWithPath: "/tmp/m-\(theme.name)-\(style)-end.png"))
                    try Data(try PNG.encode(PixelBuffer(width: 540, height: 960, channels: 3, bytes: stillAfter), method: PNG.Compression.fast.method)).write(to: URL(fileURLWithPath: "/tmp/m-\(theme.name)-still.png"))
                }
                XCTAssertLessThan(psnr(middle, stillBefore), psnr(start, stillBefore), "\(theme.name) \(style): on its way")
                XCTAssertLessThan(psnr(middle, stillAfter), psnr(end, stillAfter), "\(theme.name) \(style): not there yet")
                let again = try rgb(try renderer.render(after, motion: Motion(style: style, from: before, progress: 0.3)))
                XCTAssertEqual(again, middle, "the same moment of a move is the same pixels")
            }
        }
    }

    func testTheSungLineGrowsIntoPlaceAndTheLastOneShrinksAway() throws {
        let scenes = try builder()
        let renderer = try self.renderer()
        let before = scenes.scene(at: Timestamp(milliseconds: 3_999))
        let after = scenes.scene(at: Timestamp(milliseconds: 4_000))
        let from = renderer.layout(before), to = renderer.layout(after)
        let old = try XCTUnwrap(from.blocks.first { $0.role == .current })
        let new = try XCTUnwrap(to.blocks.first { $0.role == .current })
        XCTAssertEqual(old.line, 0)
        XCTAssertEqual(new.line, 1)
        let pairs = Renderer.pair(from.blocks, to.blocks)
        let wasNext = try XCTUnwrap(pairs.toMatch[to.blocks.firstIndex { $0.role == .current }!])
        XCTAssertEqual(from.blocks[wasNext].role, .next, "the new sung line was the next one")
        let nowPrevious = try XCTUnwrap(pairs.fromMatch[from.blocks.firstIndex { $0.role == .current }!])
        XCTAssertEqual(to.blocks[nowPrevious].role, .previous, "the old sung line is now the last one")
        XCTAssertLessThan(Renderer.stackShift(pairs, from: from.blocks, to: to.blocks), 0, "the lines move up")
    }

    /// A line set in other lines at its new size ("First light over the harbour wall" wraps in two
    /// as the sung line at 540 pixels wide and fits one as a neighbour) is drawn in one wrapping at
    /// every moment of a scroll: never its old lines and its new ones over each other, and never
    /// not at all.
    func testALineThatRewrapsShowsOneWrappingAtATime() throws {
        let scenes = try builder()
        func breaks(_ block: TextBlock) -> [Int] {
            (0..<block.layout.lineCount).map { block.layout.byteOffset(afterLine: $0) }
        }
        var rewrapping = 0
        for theme in [Theme.card, .immersive, .classic, .block] {
            let renderer = try self.renderer(theme: theme)
            let geometry = renderer.background.geometry
            for change in [1_000, 4_000, 8_000, 10_000] {
                let before = scenes.scene(at: Timestamp(milliseconds: change - 1))
                let after = scenes.scene(at: Timestamp(milliseconds: change))
                let from = renderer.layout(before), to = renderer.layout(after)
                let pairs = Renderer.pair(from.blocks, to.blocks)
                for j in to.blocks.indices {
                    guard let i = pairs.toMatch[j], from.blocks[i].text == to.blocks[j].text,
                          breaks(from.blocks[i]) != breaks(to.blocks[j]) else { continue }
                    rewrapping += 1
                    for k in 0...200 {
                        let progress = Double(k) / 200
                        let steps = Renderer.steps(Motion(style: .scroll, from: before, progress: progress), from: from, to: to,
                                                   geometry: geometry, size: (width: 540, height: 960))
                        // What draw(_:unsung:on:opacity:scale:anchor:offset:) puts on the canvas.
                        let drawn = steps.filter { step in
                            step.opacity > 0.002 && step.scale > 0
                                && (step.side == .from ? step.index == i : step.index == j)
                        }
                        XCTAssertEqual(drawn.count, 1, "\(theme.name), change at \(change) ms, \(progress) of the way: "
                                       + "\"\(to.blocks[j].text)\" (\(from.blocks[i].lines) lines, then \(to.blocks[j].lines)) "
                                       + "drawn \(drawn.count) times")
                    }
                }
            }
        }
        XCTAssertGreaterThan(rewrapping, 0, "the song has a line that wraps otherwise at its new size")
    }
}
