import Foundation
import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// A picture of your own behind the lyrics: goldens over a busy photograph, the card still
/// showing the cover, and the contrast the text reaches there.
final class PictureBackdropRenderTests: XCTestCase {
    func render(theme: Theme, preset: Preset, at ms: Int) throws -> Renderer.Frame {
        let cover = try makeCover(top: Color(red: 0.9, green: 0.5, blue: 0.3), bottom: Color(red: 0.2, green: 0.1, blue: 0.4))
        let photo = try photoCover(hue: 0.1, saturation: 0.9, spotHue: 0.6, seed: 21, size: 360)
        let geometry = PosterGeometry(preset: preset, before: theme.before, after: theme.after, theme: theme)
        let background = try Background.prepare(cover: cover, geometry: geometry, theme: theme, canvas: nil, picture: photo)
        let engine = LayoutEngine(geometry: geometry, text: try TextEngine(fonts: Shared.fonts), theme: theme, palette: background.palette)
        let renderer = Renderer(background: background, layoutEngine: engine)
        let builder = SceneBuilder(lyrics: try LyricsReader.parse(ThemeRenderTests.song), before: theme.before, after: theme.after)
        return try renderer.render(builder.scene(at: Timestamp(milliseconds: ms)))
    }

    func testGoldenPictureBackdrops() throws {
        for theme in [Theme.card, .block] {
            let frame = try render(theme: theme, preset: .custom(width: 270, height: 480), at: 9_500)
            try assertGolden(frame.canvas, named: "picture-\(theme.name)-portrait-9500")
        }
    }

    func testTextStaysLegibleAndTheCardShowsTheCover() throws {
        for theme in Theme.tested {
            let frame = try render(theme: theme, preset: .custom(width: 540, height: 960), at: 9_500)
            for (role, value) in frame.contrasts {
                XCTAssertGreaterThanOrEqual(value, role == "current" ? 4.5 : 3.0, "\(theme.name): \(role)")
            }
            let bitmap = frame.canvas.snapshot()
            // The block theme's ground, a flat colour of the cover's, is the picture instead: not flat.
            if theme.layout == .block {
                let a = bitmap.rgba(x: 5, y: 900), b = bitmap.rgba(x: 535, y: 900), c = bitmap.rgba(x: 270, y: 940)
                XCTAssertFalse(a == b && b == c, "the picture, not a flat ground")
            }
            // The card shows the cover: orange at its top, deep purple at its bottom.
            if theme.card, theme.layout == .card {
                let geometry = PosterGeometry(preset: .custom(width: 540, height: 960), before: theme.before, after: theme.after, theme: theme)
                let slot = try XCTUnwrap(geometry.card)
                let top = bitmap.rgba(x: Int(slot.midX), y: Int(slot.minY + 0.1 * slot.height))
                let bottom = bitmap.rgba(x: Int(slot.midX), y: Int(slot.maxY - 0.1 * slot.height))
                XCTAssertGreaterThan(Int(top.r), Int(top.b) + 60, "the cover's orange top: \(top)")
                XCTAssertGreaterThan(Int(bottom.b), Int(bottom.g) + 20, "the cover's purple bottom: \(bottom)")
            }
        }
    }
}
