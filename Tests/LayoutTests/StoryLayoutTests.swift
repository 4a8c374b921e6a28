import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// `--preset story`: every text block and the cover card of every theme stays inside the safe
/// area the story apps leave free (top 14 %, bottom 35 %, 6 % a side), at every line of a song.
final class StoryLayoutTests: XCTestCase {
    func testStoriesKeepEverythingInsideTheAppsSafeArea() throws {
        let lyrics = try LRC.parse(AnchorLayoutTests.song)
        let preset = Preset.story
        let safe = try XCTUnwrap(preset.safeArea).rect(width: 1080, height: 1920)
        XCTAssertEqual(safe, Rect(x: 65, y: 269, width: 950, height: 979))
        var checked = 0
        for theme in Theme.builtIn {
            let geometry = PosterGeometry(preset: preset, before: theme.before, after: theme.after, theme: theme)
            XCTAssertEqual(geometry.preset, preset, "the canvas is the whole story")
            if let card = geometry.card { XCTAssertTrue(safe.contains(card), "\(theme.name): card \(card)") }
            let engine = LayoutEngine(geometry: geometry, text: try TextEngine(fonts: LayoutTests.fonts), theme: theme)
            var builder = SceneBuilder(lyrics: lyrics, before: theme.before, after: theme.after)
            builder.timeSensitive = theme.showProgress
            for ms in stride(from: 0, through: 32_000, by: 1_000) {
                let layout = engine.layout(builder.scene(at: Timestamp(milliseconds: ms)))
                XCTAssertFalse(layout.blocks.isEmpty)
                checked += layout.blocks.count
                for block in layout.blocks {
                    XCTAssertTrue(safe.insetBy(dx: -1, dy: -1).contains(block.box),
                                  "\(theme.name) at \(ms) ms: \(block.role) '\(block.text)' at \(block.box) leaves \(safe)")
                }
            }
        }
        XCTAssertGreaterThan(checked, 33 * Theme.builtIn.count * 3, "blocks checked")
        print("story: \(checked) blocks of \(Theme.builtIn.count) themes inside the safe area")
    }
}
