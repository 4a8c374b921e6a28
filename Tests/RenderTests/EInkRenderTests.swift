import Foundation
import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// E-ink frames from the engine: goldens in two palettes, every pixel a palette colour, the
/// picture dithered and the text not.
final class EInkRenderTests: XCTestCase {
    /// The paper theme's frame over a vivid cover, quantised to `palette`: indices, the mask of
    /// the text, and the frame's own pixels.
    func eink(_ palette: EInkPalette, preset: Preset = .custom(width: 400, height: 240)) throws -> (indices: [UInt8], mask: [UInt8], pixels: PixelBuffer) {
        let cover = try makeCover(top: Color(red: 1, green: 0.1, blue: 0.45), bottom: Color(red: 0.05, green: 0.7, blue: 1), stripes: true)
        let frame = try renderFrame(cover: cover, lrc: ThemeRenderTests.song, at: 9_500, preset: preset, theme: .paper)
        let (pixels, mask) = try SequenceRenderer.crispText(try frame.canvas.pixels(opaque: true), layout: frame.layout)
        return (EInkQuantizer.quantize(pixels, palette: palette, textMask: mask), mask, pixels)
    }

    /// `indices` in `palette`'s colours on a canvas (for goldens).
    func canvas(_ indices: [UInt8], palette: EInkPalette, width: Int, height: Int) throws -> Canvas {
        let rgb = EInkQuantizer.expand(indices: indices, palette: palette)
        var argb = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            argb[4 * i] = rgb[3 * i + 2]
            argb[4 * i + 1] = rgb[3 * i + 1]
            argb[4 * i + 2] = rgb[3 * i]
        }
        let canvas = try Canvas(width: width, height: height)
        canvas.draw(Bitmap(width: width, height: height, stride: width * 4, pixels: argb),
                    in: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        try canvas.finish()
        return canvas
    }

    func testGoldenEInkFrames() throws {
        for palette in [EInkPalette.inky7, .mono] {
            let (indices, _, pixels) = try eink(palette)
            try assertGolden(try canvas(indices, palette: palette, width: pixels.width, height: pixels.height),
                             named: "eink-\(palette.name)-9500", threshold: 1, maxShare: 0.002)
        }
    }

    func testPicturesAreDitheredAndTextIsNot() throws {
        for palette in EInkPalette.builtIn {
            let (indices, mask, pixels) = try eink(palette)
            XCTAssertTrue(indices.allSatisfy { Int($0) < palette.colours.count }, palette.name)
            var text = 0, textWrong = 0
            for i in indices.indices where mask[i] >= 128 {
                text += 1
                let own = RGB(pixels.bytes[3 * i], pixels.bytes[3 * i + 1], pixels.bytes[3 * i + 2])
                if indices[i] != EInkQuantizer.nearest(own, in: palette) { textWrong += 1 }
            }
            XCTAssertGreaterThan(text, 500, "\(palette.name): the text is there")
            XCTAssertEqual(textWrong, 0, "\(palette.name): \(textWrong) of \(text) text pixels are not their own nearest colour")
            // Type takes two colours, its ink's and its ground's: no third at its edges.
            let textColours = Set(indices.indices.filter { mask[$0] >= 128 }.map { indices[$0] })
            XCTAssertLessThanOrEqual(textColours.count, 2, "\(palette.name): the text's pixels take \(textColours.count) colours")
            // The cover card, a gradient with stripes, comes out in several colours mixed: dithered.
            let geometry = PosterGeometry(preset: .custom(width: 400, height: 240), before: Theme.paper.before, after: Theme.paper.after,
                                          theme: .paper)
            let card = try XCTUnwrap(geometry.card)
            var used = Set<UInt8>(), changes = 0
            let y = Int(card.midY)
            var last: UInt8?
            for x in Int(card.minX + 4)..<Int(card.maxX - 4) {
                let index = indices[y * pixels.width + x]
                used.insert(index)
                if let last, last != index { changes += 1 }
                last = index
            }
            XCTAssertGreaterThanOrEqual(used.count, 2, "\(palette.name): the picture uses several colours")
            XCTAssertGreaterThan(changes, 10, "\(palette.name): and mixes them (\(changes) changes along a row)")
        }
    }

    /// Colours a palette cannot mix are moved to the nearest mixture it can, then dithered: cyan
    /// on Spectra 6 (no cyan ink) mixes blue, green and white rather than turning into a white
    /// page; pink on four greys keeps its brightness in a mix of greys.
    func testColoursOutsideThePaletteAreMixedNotFlattened() throws {
        func flat(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> PixelBuffer {
            PixelBuffer(width: 64, height: 64, channels: 3, bytes: (0..<(64 * 64)).flatMap { _ in [r, g, b] })
        }
        func shares(_ indices: [UInt8]) -> [UInt8: Double] {
            var counts: [UInt8: Double] = [:]
            for i in indices { counts[i, default: 0] += 1 / Double(indices.count) }
            return counts
        }
        let cyan = shares(EInkQuantizer.quantize(flat(0, 220, 255), palette: .spectra6))
        XCTAssertGreaterThanOrEqual(cyan.filter { $0.value > 0.1 }.count, 2, "cyan on spectra6: \(cyan)")
        let pink = EInkQuantizer.quantize(flat(255, 0, 90), palette: .gray4)
        let greys = shares(pink)
        XCTAssertGreaterThanOrEqual(greys.filter { $0.value > 0.1 }.count, 2, "pink on gray4: \(greys)")
        // Its luminance, in linear light, is pink's: 0.2126 * 1 + 0.0722 * lin(90).
        func linear(_ v: UInt8) -> Double { Color.linear(Double(v) / 255) }
        let mean = pink.map { linear(EInkPalette.gray4.colours[Int($0)].r) }.reduce(0, +) / Double(pink.count)
        XCTAssertEqual(mean, 0.2126 + 0.0722 * linear(90), accuracy: 0.02)
    }

    /// A session is shared by tasks: e-ink pictures (a frame in each palette and a card with a QR
    /// code) made from eight tasks at once are the bytes made one by one (under ThreadSanitizer
    /// in make test-sanitized).
    func testOneSessionMakesEInkPicturesFromManyTasksAtOnce() async throws {
        let lyrics = try LyricsReader.parse(ThemeRenderTests.song)
        let cover = try Data(contentsOf: Paths.fixture("rgb8.png"))
        let song = ResolvedSong(lyrics: lyrics, lyricsData: Data(ThemeRenderTests.song.utf8), lyricsPath: "song.lrc", lyricsSource: "file",
                                coverData: cover, coverPath: "rgb8.png", coverSource: "file", audio: nil)
        var options = RenderOptions()
        options.preset = .custom(width: 320, height: 192)
        options.theme = .paper
        options.qr = "https://example.org/eink"
        let session = try PosterSession(song: song, options: options)
        let palettes = EInkPalette.builtIn
        let choice = LineChoice.numbers([1...2])
        func make(_ n: Int) throws -> [UInt8] {
            n < palettes.count ? try session.renderEInk(at: Timestamp(milliseconds: 9_500), palette: palettes[n]).png
                : try session.renderEInkCard(choice, palette: palettes[n % palettes.count]).png
        }
        let count = 2 * palettes.count
        let alone = try (0..<count).map(make)
        let together = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for n in 0..<count { group.addTask { (n, try make(n)) } }
            var made = [[UInt8]](repeating: [], count: count)
            for try await (n, png) in group { made[n] = png }
            return made
        }
        XCTAssertEqual(together, alone)
        XCTAssertEqual(Set(alone).count, count, "each palette, frame and card, is a picture of its own")
    }
}
