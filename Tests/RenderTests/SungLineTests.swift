import Foundation
@testable import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// A karaoke tick redrawn alone over the tick before (SequenceRenderer.SungLine) against the same tick
/// drawn in full, where a block drawn after the sung line reaches into its rows. Layouts keep
/// blocks apart, so the next line is moved up over the sung one here by hand.
final class SungLineTests: XCTestCase {
    static let lrc = """
    [ti:Overlap]
    [00:01.00]<00:01.00>Words <00:01.60>that <00:02.20>fill <00:02.80>in <00:03.40>turn<00:04.00>
    [00:05.00]The next line, drawn over it
    [00:09.00]And one more
    """

    func testABlockDrawnAfterTheSungLineOverItsRowsIsDrawnAgainThere() throws {
        let theme = Theme.card
        let preset = Preset.custom(width: 360, height: 640)
        let geometry = PosterGeometry(preset: preset, before: theme.before, after: theme.after, theme: theme)
        let cover = try makeCover(top: .black, bottom: Color(red: 0.2, green: 0.25, blue: 0.4))
        let background = try Background.prepare(cover: cover, geometry: geometry, theme: theme)
        var options = RenderOptions()
        options.preset = preset
        options.theme = theme
        let sequence = try SequenceRenderer(background: background, fonts: Shared.fonts, options: options, timings: Timings(),
                                            bases: FrameBases())
        let renderer = sequence.renderer
        var builder = SceneBuilder(lyrics: try LyricsReader.parse(Self.lrc), before: theme.before, after: theme.after)
        builder.karaoke = true

        func tick(_ ms: Int) throws -> (Scene, FrameLayout) {
            let scene = builder.scene(at: Timestamp(milliseconds: ms))
            var layout = renderer.layout(scene)
            let current = try XCTUnwrap(layout.blocks.firstIndex { $0.role == .current })
            let next = try XCTUnwrap(layout.blocks.firstIndex { $0.role == .next })
            XCTAssertGreaterThan(next, current, "the next line is drawn after the sung one")
            // Its top at the middle of the sung line.
            layout.blocks[next].origin.y -= layout.blocks[next].box.minY - layout.blocks[current].box.midY
            return (scene, layout)
        }

        let (firstScene, firstLayout) = try tick(1_100)
        let base = try sequence.renderBase(firstLayout).layer
        let canvas = try Canvas(width: preset.width, height: preset.height)
        canvas.copyRows(0..<preset.height, from: base.bitmap)
        let first = try XCTUnwrap(try sequence.renderChanges(firstScene, layout: firstLayout, on: canvas, base: base, timings: nil, keep: true))
        let kept = try XCTUnwrap(first.sung, "the first tick is kept")
        XCTAssertFalse(kept.later.isEmpty, "the moved line reaches the sung line's rows")
        var redrawn = 0
        for ms in stride(from: 1_300, through: 3_900, by: 300) {
            let (scene, layout) = try tick(ms)
            let again = try XCTUnwrap(try sequence.redrawSung(scene, layout: layout, on: canvas, base: base, kept: kept, timings: nil),
                                      "@\(ms): a tick of the same line")
            let whole = try renderer.render(scene, layout: layout)
            XCTAssertTrue(try again.frame.canvas.pixels(opaque: true).bytes == whole.canvas.pixels(opaque: true).bytes,
                          "@\(ms): other pixels than drawn in full")
            redrawn += 1
        }
        XCTAssertEqual(redrawn, 9)
        // Another line is not a tick of this one.
        let (other, otherLayout) = try tick(5_500)
        XCTAssertNil(try sequence.redrawSung(other, layout: otherLayout, on: canvas, base: base, kept: kept, timings: nil))
    }
}
