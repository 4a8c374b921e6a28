import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// Ruby (furigana) from TTML: drawn small above the characters it reads on the current line, in a
/// band of its own, without moving the line off its anchor.
final class RubyLayoutTests: XCTestCase {
    static let ttml = """
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="ja"><body><div>\
        <p begin="1" end="4"><span tts:ruby="container"><span tts:ruby="base">東京</span>\
        <span tts:ruby="text" begin="1" end="2">とうきょう</span></span><span begin="2" end="3">の</span>\
        <span tts:ruby="container"><span tts:ruby="base">夜空</span><span tts:ruby="text" begin="3" end="4">よぞら</span></span></p>\
        <p begin="4" end="6"><span begin="4" end="6">東京の夜空</span></p>\
        </div></body></tt>
        """

    func layout(at ms: Int, preset: Preset, theme: Theme = .card) throws -> FrameLayout {
        let lyrics = try TTML.parse(Self.ttml)
        let geometry = PosterGeometry(preset: preset, before: theme.before, after: theme.after, theme: theme)
        let engine = LayoutEngine(geometry: geometry, text: try TextEngine(fonts: LayoutTests.fonts), theme: theme)
        let builder = SceneBuilder(lyrics: lyrics, before: theme.before, after: theme.after)
        return engine.layout(builder.scene(at: Timestamp(milliseconds: ms)))
    }

    func testReadingsSitOverTheirCharacters() throws {
        for preset in Preset.all {
            let layout = try layout(at: 2000, preset: preset)
            let current = try XCTUnwrap(layout.blocks.first { $0.role == .current })
            let rubies = layout.blocks.filter { $0.role == .ruby }
            XCTAssertEqual(rubies.map(\.text), ["とうきょう", "よぞら"], "\(preset)")
            let lineTop = current.origin.y + (current.layout.lineRects.first?.minY ?? 0)
            // Each reading is above the line, centred over its base characters (東京 is the first
            // two characters, 夜空 the last two).
            let clusters = current.layout.clusters.sorted { $0.byteIndex < $1.byteIndex }
            let firstBase = clusters.prefix(2).map(\.rect).reduce(clusters[0].rect) { $0.union($1) }
            let lastBase = clusters.suffix(2).map(\.rect).reduce(clusters[clusters.count - 1].rect) { $0.union($1) }
            for (ruby, base) in zip(rubies, [firstBase, lastBase]) {
                XCTAssertLessThanOrEqual(ruby.box.maxY, lineTop + 0.3 * current.fontSize, "\(preset)")
                XCTAssertLessThan(ruby.fontSize, current.fontSize * 0.5)
                let centre = ruby.origin.x + ruby.layout.logicalRect.midX
                XCTAssertEqual(centre, current.origin.x + base.midX, accuracy: 3, "\(preset)")
            }
        }
    }

    func testTheLineKeepsItsAnchor() throws {
        for preset in Preset.all {
            func anchor(_ ms: Int) throws -> Double {
                let current = try XCTUnwrap(try layout(at: ms, preset: preset).blocks.first { $0.role == .current })
                return current.origin.y + (current.layout.lineRects.first?.midY ?? 0)
            }
            XCTAssertEqual(try anchor(2000), try anchor(5000), accuracy: 0.5, "\(preset)")
        }
    }

    func testNoReadingsWithoutRuby() throws {
        XCTAssertTrue(try layout(at: 5000, preset: .phone).blocks.allSatisfy { $0.role != .ruby })
    }
}
