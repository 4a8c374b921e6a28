import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// Look v3: the sung line is held where the eye already is. In every theme and preset, the centre
/// of the current line's first line sits at one height for every line of a song (short and
/// wrapped lines, with and without translations), with its neighbours arranged around it.
final class AnchorLayoutTests: XCTestCase {
    /// Lines from one word to two wrapped lines, a few with translations, and a duet pair.
    static let song = """
    [ti:Anchor Song]
    [ar:The Fixed Points]
    [00:02.00]Hold
    [00:05.00]A line of moderate length that wraps on narrow canvases
    [00:09.00]Short again
    [00:09.00]又短了
    [00:13.00]The middle of the song, where a longer line takes two rows on a phone
    [00:17.00]ここで少し
    [00:21.00]Almost there
    [00:21.00]快到了
    [00:25.00]The last line
    [00:30.00]
    """

    static let presets: [Preset] = Preset.all + [.custom(width: 1600, height: 400), .custom(width: 720, height: 720)]

    /// The first line's centre of the current line at the middle of each sung line.
    func anchors(theme: Theme, preset: Preset, translations: SceneBuilder.TranslationMode) throws -> [Double] {
        let lyrics = try LRC.parse(Self.song)
        let geometry = PosterGeometry(preset: preset, before: theme.before, after: theme.after, theme: theme)
        let engine = LayoutEngine(geometry: geometry, text: try TextEngine(fonts: LayoutTests.fonts), theme: theme)
        var builder = SceneBuilder(lyrics: lyrics, before: theme.before, after: theme.after)
        builder.translations = translations
        return try lyrics.lines.filter(\.isSung).map { line in
            let t = Timestamp(milliseconds: (line.start.milliseconds + line.end.milliseconds) / 2)
            let layout = engine.layout(builder.scene(at: t))
            let current = try XCTUnwrap(layout.blocks.first { $0.role == .current }, "\(theme.name) \(preset) @\(t)")
            XCTAssertFalse(current.cut)
            return current.origin.y + (current.layout.lineRects.first?.midY ?? 0)
        }
    }

    func testTheCurrentLineStaysAtItsAnchor() throws {
        var report: [String] = []
        for theme in Theme.builtIn {
            for preset in Self.presets {
                for translations in [SceneBuilder.TranslationMode.show, .hide] {
                    let ys = try anchors(theme: theme, preset: preset, translations: translations)
                    let spread = (ys.max() ?? 0) - (ys.min() ?? 0)
                    report.append(String(format: "%@ %@ %@: spread %.1f px", theme.name, preset.name, translations.rawValue, spread))
                    XCTAssertLessThanOrEqual(spread, 2, "\(theme.name) \(preset) translations \(translations): anchors \(ys)")
                }
            }
        }
        print(report.joined(separator: "\n"))
    }

    func testNeighboursSitAroundTheAnchorAndLeaveAnEmptySideEmpty() throws {
        let lyrics = try LRC.parse(Self.song)
        let theme = Theme.card
        let geometry = PosterGeometry(preset: .lockscreen, before: 2, after: 3, theme: theme)
        let engine = LayoutEngine(geometry: geometry, text: try TextEngine(fonts: LayoutTests.fonts), theme: theme)
        let builder = SceneBuilder(lyrics: lyrics, before: 2, after: 3)
        // The first line: nothing above it, the next lines below.
        let first = engine.layout(builder.scene(at: Timestamp(milliseconds: 3_000)))
        let current = try XCTUnwrap(first.blocks.first { $0.role == .current })
        XCTAssertTrue(first.blocks.filter { $0.role == .previous }.isEmpty)
        XCTAssertGreaterThanOrEqual(first.blocks.filter { $0.role == .next }.count, 2)
        for next in first.blocks where next.role == .next { XCTAssertGreaterThan(next.box.minY, current.box.maxY) }
        // A line in the middle: previous lines above, next lines below.
        let middle = engine.layout(builder.scene(at: Timestamp(milliseconds: 18_000)))
        let sung = try XCTUnwrap(middle.blocks.first { $0.role == .current })
        XCTAssertGreaterThanOrEqual(middle.blocks.filter { $0.role == .previous }.count, 1)
        XCTAssertGreaterThanOrEqual(middle.blocks.filter { $0.role == .next }.count, 1)
        for block in middle.blocks where block.role == .previous { XCTAssertLessThan(block.box.maxY, sung.box.minY) }
        for block in middle.blocks where block.role == .next { XCTAssertGreaterThan(block.box.minY, sung.box.maxY) }
    }
}

/// Look v3 on wide canvases: lyric type is sized from the lyric column, not the short side, and
/// the progress bar spans the text column.
final class WideCanvasLayoutTests: XCTestCase {
    func testBannerTypeFollowsTheLyricColumn() throws {
        let banner = Preset.custom(width: 1600, height: 400)
        for theme in [Theme.card, .immersive, .minimal, .block] {
            let geometry = PosterGeometry(preset: banner, before: theme.before, after: theme.after, theme: theme)
            // The short side alone would give 22–28 px; the 1100–1500-pixel column gives about twice that.
            XCTAssertGreaterThanOrEqual(geometry.currentSize, 40, "\(theme.name): \(geometry.currentSize) px")
            XCTAssertGreaterThanOrEqual(geometry.lyrics.width, 0.7 * 1600, "\(theme.name): the lyric column is \(geometry.lyrics.width) px")
            if let card = geometry.card {
                XCTAssertLessThanOrEqual(geometry.lyrics.minX - card.maxX, 0.1 * 1600, "\(theme.name): gap beside the card")
            }
            if let bar = geometry.progress {
                XCTAssertEqual(bar.minX, geometry.lyrics.minX, accuracy: 0.5, "\(theme.name): the bar starts with the text")
                XCTAssertEqual(bar.maxX, geometry.lyrics.maxX, accuracy: 0.5, "\(theme.name): the bar ends with the text column")
            }
        }
        // The landscape preset keeps the sizes it was tuned at.
        let landscape = PosterGeometry(preset: .landscape, before: 2, after: 3, theme: .card)
        XCTAssertEqual(landscape.currentSize, 60, accuracy: 0.5)
    }
}
