import Foundation
import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// Every built-in theme: a golden per theme at a portrait and a landscape size, legibility over
/// generated covers, and karaoke fill measured on the pixels.
final class ThemeRenderTests: XCTestCase {
    static let song = """
    [ti:Theme Song]
    [ar:Reference Band]
    [al:Swatches]
    [length:00:30]
    [00:01.00]The first line of the song
    [00:04.00]<00:04.00>Every <00:05.00>word <00:06.00>in <00:07.00>turn<00:08.00>
    [00:04.00]每个字依次亮起
    [00:09.00]A third line to follow
    [00:13.00]Last line
    """

    static let dusk = Result { try makeCover(top: Color(red: 0.9, green: 0.5, blue: 0.3), bottom: Color(red: 0.2, green: 0.1, blue: 0.4)) }

    func testGoldenPerThemeAndPreset() throws {
        for theme in Theme.builtIn {
            for (name, preset) in [("portrait", Preset.custom(width: 270, height: 480)), ("landscape", .custom(width: 480, height: 270)),
                                   ("classic", Preset(name: "classic-half", width: 240, height: 400, arrangement: .classic))] {
                let frame = try renderFrame(cover: try Self.dusk.get(), lrc: Self.song, at: 9_500, preset: preset, theme: theme)
                try assertGolden(frame.canvas, named: "theme-\(theme.name)-\(name)-9500")
            }
        }
    }

    func testKaraokeFillsWhatHasBeenSung() throws {
        // At 6.5 s "Every word " is sung and "in" is half sung: the left of the line is bright,
        // the right dim.
        let frame = try renderFrame(cover: try makeCover(top: .black, bottom: .black), lrc: Self.song, at: 6_500,
                                    preset: .custom(width: 540, height: 960), theme: .card, karaoke: true)
        let current = try XCTUnwrap(frame.layout.blocks.first { $0.role == .current })
        let box = current.box
        let left = Rect(x: box.minX, y: box.minY, width: box.width * 0.3, height: box.height)
        let right = Rect(x: box.maxX - box.width * 0.2, y: box.minY, width: box.width * 0.2, height: box.height)
        let bright = frame.canvas.luminance(in: left, quantile: 1.0), dim = frame.canvas.luminance(in: right, quantile: 1.0)
        XCTAssertGreaterThan(bright, 0.9, "sung text in full white")
        XCTAssertLessThan(dim, 0.5, "unsung text dimmed")
        // The scene records per-character progress.
        var builder = SceneBuilder(lyrics: try LRC.parse(Self.song))
        builder.karaoke = true
        let sung = try XCTUnwrap(builder.scene(at: Timestamp(milliseconds: 6_500)).lines.first { $0.role == .current }?.sung)
        XCTAssertEqual(sung.count, "Every word in turn".count)
        XCTAssertEqual(sung.prefix(11), [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
        XCTAssertEqual(sung.last, 0)
        XCTAssertNotEqual(builder.scene(at: Timestamp(milliseconds: 6_500)).withoutTime,
                          builder.scene(at: Timestamp(milliseconds: 6_600)).withoutTime, "a filling line changes the picture")
        XCTAssertEqual(builder.scene(at: Timestamp(milliseconds: 8_100)).withoutTime,
                       builder.scene(at: Timestamp(milliseconds: 8_500)).withoutTime, "once sung, the picture holds")
        builder.karaoke = false
        XCTAssertEqual(builder.scene(at: Timestamp(milliseconds: 6_500)).lines.first { $0.role == .current }?.sung, [])
    }

    func testTranslationModes() throws {
        var builder = SceneBuilder(lyrics: try LRC.parse(Self.song))
        let current = { builder.scene(at: Timestamp(milliseconds: 4_500)).lines.first { $0.role == .current } }
        XCTAssertEqual(current()?.translation, "每个字依次亮起")
        builder.translations = .hide
        XCTAssertNil(current()?.translation)
        XCTAssertEqual(current()?.text, "Every word in turn")
        builder.translations = .only
        XCTAssertEqual(current()?.text, "每个字依次亮起")
        XCTAssertNil(current()?.translation)
    }

    func testProgressBarShowsElapsedAndTotal() throws {
        let frame = try renderFrame(cover: try Self.dusk.get(), lrc: Self.song, at: 9_500, preset: .custom(width: 540, height: 960),
                                    theme: .immersive)
        XCTAssertEqual(frame.layout.blocks.first { $0.role == .elapsed }?.text, "0:09")
        XCTAssertEqual(frame.layout.blocks.first { $0.role == .total }?.text, "0:30")
    }
}

extension ThemeRenderTests {
    /// A share card per theme: three chosen lines (one with a translation) as a story and a feed
    /// card, at a quarter of their sizes.
    func testGoldenCardPerTheme() throws {
        let lyrics = try LyricsReader.parse(Self.song)
        for theme in Theme.builtIn {
            for (name, preset) in [("story", Preset.custom(width: 270, height: 480)), ("feed", .custom(width: 270, height: 338))] {
                let geometry = PosterGeometry(preset: preset, before: theme.before, after: theme.after, theme: theme)
                let background = try Background.prepare(cover: try Self.dusk.get(), geometry: geometry, theme: theme)
                let engine = LayoutEngine(geometry: geometry, text: try TextEngine(fonts: Shared.fonts), theme: theme,
                                          palette: background.palette)
                let scene = SceneBuilder(lyrics: lyrics, before: theme.before, after: theme.after).quote(Array(lyrics.numberedLines[0..<3]))
                let frame = try Renderer(background: background, layoutEngine: engine).render(scene)
                XCTAssertFalse(frame.layout.overflow, "\(theme.name) \(name)")
                XCTAssertGreaterThanOrEqual(try XCTUnwrap(frame.contrasts["quote"]), 4.5, "\(theme.name) \(name)")
                try assertGolden(frame.canvas, named: "card-\(theme.name)-\(name)")
            }
        }
    }
}
