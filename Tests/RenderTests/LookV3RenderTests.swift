import Foundation
@testable import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// Look v3, as pixels: what was seen when posters were tried on covers and songs from outside.
final class LookV3RenderTests: XCTestCase {
    static let song = """
    [ti:Look Three]
    [ar:The Testers]
    [00:01.00]Before the line
    [00:04.00]<00:04.00>Every <00:05.00>word <00:06.00>is <00:07.00>sung <00:08.00>slowly
    [00:09.00]After the line
    [00:12.00]
    """

    /// Between a frame where nothing of the line is sung and one where all of it is, the line's
    /// ink changes lightness by at least 20 L* (white against a light grey is not a split anyone
    /// sees at poster size), in every theme on every stress cover, and the unsung part still
    /// reaches 3:1.
    func testKaraokeSungAndUnsungAreClearlyApart() throws {
        let preset = Preset.custom(width: 540, height: 960)
        var worst: (Double, String) = (.infinity, "")
        for (name, cover) in try generatedCovers() {
            for theme in Theme.builtIn {
                let none = try renderFrame(cover: cover, lrc: Self.song, at: 4_000, preset: preset, theme: theme, karaoke: true)
                let all = try renderFrame(cover: cover, lrc: Self.song, at: 8_990, preset: preset, theme: theme, karaoke: true)
                let block = try XCTUnwrap(all.layout.blocks.first { $0.role == .current })
                // The ink: the extreme pixel in the text's direction (lightest for light text).
                let quantile = all.scheme == .dark ? 1.0 : 0.0
                let unsung = none.canvas.luminance(in: block.box, quantile: quantile)
                let sung = all.canvas.luminance(in: block.box, quantile: quantile)
                let apart = abs(Color.lightness(sung) - Color.lightness(unsung))
                if apart < worst.0 { worst = (apart, "\(theme.name) on \(name)") }
                XCTAssertGreaterThanOrEqual(apart, 20, "\(theme.name) on \(name): sung and unsung ink \(apart) L* apart")
                XCTAssertGreaterThanOrEqual(try XCTUnwrap(none.contrasts["unsung"]), 3.0, "\(theme.name) on \(name)")
            }
        }
        print(String(format: "karaoke: closest sung/unsung %.1f L* (%@)", worst.0, worst.1))
    }

    /// A cut line's fade touches only its own last line: the line above it in the same block
    /// keeps every pixel (descenders included), and the fade does thin the last line's end.
    func testTheFadeChangesNothingAboveTheCutLine() throws {
        let engine = try TextEngine(fonts: Shared.fonts)
        let style = TextStyle(families: "Noto Sans", size: 30, weight: 400, language: "en", alignment: .left, lineHeight: 1.3)
        // Descenders at the end of the first line, right above the fade zone.
        let layout = engine.layout("going going going gggyyy\nthe last line fades", style: style, width: 400)
        XCTAssertEqual(layout.lineCount, 2)
        var block = TextBlock(role: .next, text: "", layout: layout, origin: Point(x: 20, y: 20), fontSize: 30, color: .white,
                              shadow: nil)
        block.cut = true
        func draw(fading: Bool) throws -> Canvas {
            let canvas = try Canvas(width: 460, height: 140)
            canvas.fill(Rect(x: 0, y: 0, width: 460, height: 140), color: .black)
            try canvas.fading(fading ? block.fade : nil) { () throws(GraphicsError) in
                try canvas.draw(block.layout, at: block.origin, color: block.color, shadow: nil)
            }
            try canvas.finish()
            return canvas
        }
        let plain = try draw(fading: false).snapshot(), faded = try draw(fading: true).snapshot()
        let last = try XCTUnwrap(layout.lineRects.last)
        let lastTop = Int((block.origin.y + last.minY).rounded(.down))
        var changedAbove = 0, changedInside = 0
        for y in 0..<plain.height {
            for x in 0..<plain.width where plain.rgba(x: x, y: y) != faded.rgba(x: x, y: y) {
                if y < lastTop { changedAbove += 1 } else { changedInside += 1 }
            }
        }
        XCTAssertEqual(changedAbove, 0, "the fade changed \(changedAbove) pixels above the cut line")
        XCTAssertGreaterThan(changedInside, 50, "the fade did not thin the cut line")
    }
}
