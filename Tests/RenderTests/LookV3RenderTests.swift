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
    /// A cover is decoded no larger than it is drawn: the canvas where it fills it, the card's
    /// side where a card is the sharpest use, else what the blur and colours read.
    func testCoversAreDecodedAtTheSizeTheyAreDrawn() throws {
        for preset in Preset.all {
            for theme in [Theme.card, .classic, .immersive, .minimal, .block] {
                let geometry = PosterGeometry(preset: preset, before: theme.before, after: theme.after, theme: theme)
                let size = Background.coverSize(geometry: geometry, theme: theme)
                let w = preset.width, h = preset.height
                if geometry.layout == .classic || theme.background == .cover {
                    XCTAssertTrue(size == (w, h), "\(theme.name) at \(preset.name)")
                    continue
                }
                XCTAssertGreaterThanOrEqual(min(size.width, size.height), 512)
                // The blurred base is drawn at an eighth of the canvas, zoomed 1.15×.
                XCTAssertGreaterThanOrEqual(Double(size.width), Double(w) / 8 * 1.15)
                XCTAssertGreaterThanOrEqual(Double(size.height), Double(h) / 8 * 1.15)
                if let card = geometry.card, theme.card {
                    XCTAssertGreaterThanOrEqual(Double(min(size.width, size.height)), card.width, "\(theme.name) at \(preset.name)")
                }
                XCTAssertLessThan(size.width * size.height, w * h, "\(theme.name) at \(preset.name): smaller than the canvas")
            }
        }
    }

    func testKaraokeSungAndUnsungAreClearlyApart() throws {
        let preset = Preset.custom(width: 540, height: 960)
        var worst: (Double, String) = (.infinity, "")
        for (name, cover) in try generatedCovers() {
            for theme in Theme.tested {
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

extension LookV3RenderTests {
    static let bilingual = """
    [ti:White Paper]
    [ar:The Testers]
    [00:01.00]The first line of the song
    [00:01.00]歌的第一行
    [00:04.00]A second line that is sung
    [00:04.00]被唱出的第二行
    [00:08.00]And a third one after it
    [00:08.00]之后的第三行
    [00:12.00]
    """

    /// Classic on a white cover: the band's edges are soft everywhere (no step of more than two
    /// levels between neighbouring rows, the canvas's own edge columns included), and its
    /// translations reach 3:1.
    func testClassicOnWhiteHasNoStepAndReadableTranslations() throws {
        let white = try makeCover(width: 600, height: 600, top: .white, bottom: .white)
        for preset in [Preset.classic, .lockscreen] {
            let frame = try renderFrame(cover: white, lrc: Self.bilingual, at: 5_000, preset: preset, theme: .classic)
            let bitmap = frame.canvas.snapshot()
            var worst = (step: 0, x: 0, y: 0)
            for x in [0, 1, 2, 3, bitmap.width / 2 - 200, bitmap.width - 4, bitmap.width - 3, bitmap.width - 2, bitmap.width - 1] {
                // Columns the text does not reach.
                guard !frame.layout.blocks.contains(where: { $0.box.insetBy(dx: -30, dy: -30).minX <= Double(x) && Double(x) <= $0.box.insetBy(dx: -30, dy: -30).maxX }) else { continue }
                for y in 0..<(bitmap.height - 1) {
                    let a = bitmap.rgba(x: x, y: y), b = bitmap.rgba(x: x, y: y + 1)
                    let step = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                    if step > worst.step { worst = (step, x, y) }
                }
            }
            XCTAssertLessThanOrEqual(worst.step, 2, "\(preset.name): a step of \(worst.step) levels at x \(worst.x), y \(worst.y)")
            XCTAssertGreaterThanOrEqual(try XCTUnwrap(frame.contrasts["translation"]), 3.0, "\(preset.name): translations")
        }
    }
}

extension LookV3RenderTests {
    /// A cream cover with a saturated orange sun in the middle.
    static func creamWithOrangeCentre() throws -> Bitmap {
        let canvas = try Canvas(width: 600, height: 600)
        canvas.fill(Color(red: 0.95, green: 0.92, blue: 0.85))
        canvas.fillSoft(Rect(x: 150, y: 160, width: 300, height: 300), color: Color(red: 1, green: 0.35, blue: 0), featherX: 80, featherY: 80)
        try canvas.finish()
        return canvas.snapshot()
    }

    /// Purple to magenta, with a green band along the bottom: a vivid cover of three hues.
    static func vivid() throws -> Bitmap {
        let canvas = try Canvas(width: 600, height: 600)
        canvas.fillVerticalGradient(Rect(x: 0, y: 0, width: 600, height: 420),
                                    stops: [(0, Color(red: 0.48, green: 0.12, blue: 0.88)), (1, Color(red: 0.88, green: 0.08, blue: 0.6))])
        canvas.fill(Rect(x: 0, y: 420, width: 600, height: 180), color: Color(red: 0.09, green: 0.75, blue: 0.38))
        try canvas.finish()
        return canvas.snapshot()
    }

    /// A light cover's saturated centre does not stain the text: behind the lyrics and captions
    /// of a light-scheme backdrop no pixel keeps more than a pale tint of it.
    func testALightCoversVividCentreDoesNotSitBehindText() throws {
        let cover = try Self.creamWithOrangeCentre()
        for theme in [Theme.card, .immersive] {
            for preset in [Preset.lockscreen, .feed, .landscape] {
                let geometry = PosterGeometry(preset: preset, before: theme.before, after: theme.after, theme: theme)
                let background = try Background.prepare(cover: cover, geometry: geometry, theme: theme)
                XCTAssertEqual(background.palette.scheme, .light, "\(theme.name) \(preset.name)")
                for zone in [geometry.lyrics, geometry.caption].compactMap({ $0 }) {
                    let rows = background.bitmap.rowChroma(x0: Int(zone.minX), x1: Int(zone.maxX))
                    let most = rows[max(0, Int(zone.minY))..<min(rows.count, Int(zone.maxY))].max() ?? 0
                    XCTAssertLessThanOrEqual(most, 0.22, "\(theme.name) \(preset.name): chroma \(most) behind text in \(zone)")
                }
            }
        }
    }

    /// Hue (0…1) and HSV saturation of a colour.
    static func hueAndSaturation(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double) {
        let maxC = max(r, g, b), minC = min(r, g, b), d = maxC - minC
        guard d > 1e-6 else { return (0, 0) }
        var h: Double
        if maxC == r { h = (g - b) / d } else if maxC == g { h = 2 + (b - r) / d } else { h = 4 + (r - g) / d }
        return ((h < 0 ? h + 6 : h) / 6, d / maxC)
    }

    /// Minimal keeps a vivid cover vivid, in its own hues: the gradient's colours stay saturated,
    /// and at least four fifths of its height is within 30° of hue of one of the cover's colours
    /// (purple, magenta, green) — never slate or brown; the rest is the passage between two.
    func testMinimalKeepsAVividCoversHues() throws {
        let cover = try Self.vivid()
        let coverHues = [0.74, 0.88, 0.40]
        let geometry = PosterGeometry(preset: .lockscreen, before: 0, after: 0, theme: .minimal)
        let background = try Background.prepare(cover: cover, geometry: geometry, theme: .minimal)
        let bitmap = background.bitmap
        var saturations: [Double] = [], near = 0, far: [String] = []
        for y in stride(from: 0, to: bitmap.height, by: 20) {
            let p = bitmap.rgba(x: bitmap.width / 2, y: y)
            let (hue, saturation) = Self.hueAndSaturation(Double(p.r) / 255, Double(p.g) / 255, Double(p.b) / 255)
            saturations.append(saturation)
            let distance = coverHues.map { min(abs(hue - $0), 1 - abs(hue - $0)) }.min() ?? 1
            if distance * 360 <= 30 { near += 1 } else { far.append("\(y): \(Int(hue * 360))°") }
        }
        XCTAssertGreaterThanOrEqual(Double(near), 0.8 * Double(saturations.count), "rows in none of the cover's hues: \(far)")
        let mean = saturations.reduce(0, +) / Double(saturations.count)
        XCTAssertGreaterThanOrEqual(mean, 0.45, "the gradient's mean saturation \(mean)")
        XCTAssertGreaterThanOrEqual(saturations.min() ?? 0, 0.3)
    }
}
