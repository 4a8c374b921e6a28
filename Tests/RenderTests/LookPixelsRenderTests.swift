import Foundation
import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// Contrast measured on the finished pixels, as a reader of the poster sees it, not by the
/// renderer's own arithmetic: dimmed lines on saturated blocks, classic's translations on a white
/// cover; and minimal's gradient taken from what a cover mostly is, not from a few spots.
///
/// At the canvas sizes people post (1080 pixels and up). On canvases a third that size, type
/// under about 14 pixels has strokes thinner than a pixel, which anti-aliasing never draws at
/// full strength: its pixels fall short of its colour whatever its opacity.
final class LookPixelsRenderTests: XCTestCase {
    /// Saturated and busy covers: the block theme's ground is their colour.
    static let saturated: [(String, Bitmap)] = {
        do {
            return [
                ("pink", try makeCover(top: Color(red: 1, green: 0, blue: 0.35), bottom: Color(red: 1, green: 0, blue: 0.35))),
                ("blue", try makeCover(top: Color(red: 0, green: 0, blue: 1), bottom: Color(red: 0, green: 0, blue: 1))),
                ("red", try makeCover(top: Color(red: 0.9, green: 0.1, blue: 0.05), bottom: Color(red: 0.9, green: 0.1, blue: 0.05))),
                ("green", try makeCover(top: Color(red: 0.1, green: 0.75, blue: 0.2), bottom: Color(red: 0.1, green: 0.75, blue: 0.2))),
                ("split", try makeCover(top: Color(red: 1, green: 0, blue: 0.35), bottom: Color(red: 0, green: 0.86, blue: 1))),
                ("spots", try photoCover(hue: 0.98, saturation: 0.85, spotHue: 0.6, seed: 9)),
            ]
        } catch { fatalError("covers: \(error)") }
    }()

    func testBlockNeighboursReachThreeToOneOnTheirPixels() throws {
        var lowest = Double.infinity
        for (name, cover) in Self.saturated {
            for preset in [Preset.lockscreen, .square] {
                for t in [4_500] {
                    let frame = try renderFrame(cover: cover, lrc: LookRenderTests.song, at: t, preset: preset, theme: .block)
                    let bitmap = frame.canvas.snapshot()
                    for block in frame.layout.blocks where [.previous, .next, .translation].contains(block.role) {
                        let measured = pixelContrast(bitmap, block.box)
                        lowest = min(lowest, measured)
                        XCTAssertGreaterThanOrEqual(measured, 3.0, "block on \(name) \(preset) @\(t): \(block.role) '\(block.text)' alpha \(block.color.alpha) size \(block.fontSize)")
                    }
                }
            }
        }
        print("block: lowest neighbour contrast on the pixels \(String(format: "%.2f", lowest))")
    }

    func testClassicTranslationsReachThreeToOneOnAWhiteCover() throws {
        let white = try makeCover(top: .white, bottom: .white)
        let cream = try makeCover(top: Color(red: 0.98, green: 0.97, blue: 0.93), bottom: Color(red: 0.98, green: 0.97, blue: 0.93))
        var lowest = Double.infinity, seen = 0
        for (name, cover) in [("white", white), ("cream", cream)] {
            for preset in [Preset.lockscreen, .classic, .landscape] {
                for t in [4_500] {
                    let frame = try renderFrame(cover: cover, lrc: LookRenderTests.song, at: t, preset: preset, theme: .classic)
                    let bitmap = frame.canvas.snapshot()
                    for block in frame.layout.blocks where [.previous, .next, .translation, .romanisation].contains(block.role) {
                        let measured = pixelContrast(bitmap, block.box)
                        if block.role == .translation { seen += 1 }
                        lowest = min(lowest, measured)
                        XCTAssertGreaterThanOrEqual(measured, 3.0, "classic on \(name) \(preset) @\(t): \(block.role) '\(block.text)'")
                    }
                }
            }
        }
        XCTAssertGreaterThan(seen, 0, "the song's translation is on the frames")
        print("classic on white: lowest dimmed contrast on the pixels \(String(format: "%.2f", lowest))")
    }

    /// Three photographs unlike one another (blue-grey, moss, plum) sharing only some small orange
    /// lights: before, each gradient ran from its grey to the same orange.
    func testMinimalFollowsWhatACoverMostlyIs() throws {
        let covers = [("city", try photoCover(hue: 0.6, saturation: 0.25, spotHue: 0.08, seed: 1)),
                      ("moss", try photoCover(hue: 0.3, saturation: 0.3, spotHue: 0.08, seed: 2)),
                      ("plum", try photoCover(hue: 0.85, saturation: 0.25, spotHue: 0.08, seed: 3))]
        var posters: [(String, Bitmap)] = []
        for (name, cover) in covers {
            let frame = try renderFrame(cover: cover, lrc: LookRenderTests.song, at: 1_500, preset: .custom(width: 300, height: 300), theme: .minimal)
            posters.append((name, frame.canvas.snapshot()))
        }
        func hue(_ bitmap: Bitmap, rows: Range<Int>) -> (hue: Double, mean: (Double, Double, Double)) {
            var r = 0.0, g = 0.0, b = 0.0, n = 0.0
            for y in rows { for x in stride(from: 0, to: bitmap.width, by: 3) {
                let p = bitmap.rgba(x: x, y: y)
                r += Double(p.r) / 255; g += Double(p.g) / 255; b += Double(p.b) / 255; n += 1
            } }
            let mean = (r / n, g / n, b / n)
            return (Background.hsv(mean.0, mean.1, mean.2).hue, mean)
        }
        for (name, poster) in posters {
            let cover = try XCTUnwrap(covers.first { $0.0 == name }?.1)
            let coverHue = hue(cover, rows: 0..<cover.height).hue
            for rows in [0..<20, (poster.height - 20)..<poster.height] {
                let got = hue(poster, rows: rows).hue
                let apart = min(abs(got - coverHue), 1 - abs(got - coverHue))
                XCTAssertLessThan(apart, 1.0 / 12, "minimal on \(name), rows \(rows): hue \(got) against the cover's \(coverHue)")
            }
        }
        for (i, a) in posters.enumerated() {
            for b in posters[(i + 1)...] {
                for rows in [0..<20, 280..<300] {
                    let x = hue(a.1, rows: rows).mean, y = hue(b.1, rows: rows).mean
                    let d = sqrt(pow(x.0 - y.0, 2) + pow(x.1 - y.1, 2) + pow(x.2 - y.2, 2))
                    XCTAssertGreaterThan(d, 0.06, "minimal on \(a.0) and \(b.0), rows \(rows): \(x) vs \(y)")
                }
            }
        }
    }
}

/// The WCAG contrast of the text in `rect` as drawn: its most extreme pixels (the 99.5th
/// percentile of luminance away from the ground) against the ground (the median pixel).
func pixelContrast(_ bitmap: Bitmap, _ rect: Rect) -> Double {
    var values: [Double] = []
    let x0 = max(0, Int(rect.minX)), x1 = min(bitmap.width, Int(rect.maxX.rounded(.up)))
    let y0 = max(0, Int(rect.minY)), y1 = min(bitmap.height, Int(rect.maxY.rounded(.up)))
    for y in y0..<y1 { for x in x0..<x1 {
        let p = bitmap.rgba(x: x, y: y)
        values.append(0.2126 * Color.linear(Double(p.r) / 255) + 0.7152 * Color.linear(Double(p.g) / 255)
                      + 0.0722 * Color.linear(Double(p.b) / 255))
    } }
    guard !values.isEmpty else { return .infinity }
    values.sort()
    let ground = values[values.count / 2]
    let high = values[min(values.count - 1, Int(Double(values.count) * 0.995))]
    let low = values[Int(Double(values.count) * 0.005)]
    let text = abs(high - ground) >= abs(low - ground) ? high : low
    return Color.contrast(text, ground)
}

/// A cover like a photograph: a soft, blotchy texture of one hue at `saturation`, with some 60
/// small spots of `spotHue` (about 3 % of it).
func photoCover(hue: Double, saturation: Double, spotHue: Double, seed: UInt64, size: Int = 240) throws -> Bitmap {
    var state = seed &* 6364136223846793005 &+ 1442695040888963407
    func next() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
    let canvas = try Canvas(width: size, height: size)
    let cell = Double(size) / 24
    for j in 0..<24 { for i in 0..<24 {
        canvas.fill(Rect(x: Double(i) * cell, y: Double(j) * cell, width: cell + 1, height: cell + 1),
                    color: Background.rgb(hue + (next() - 0.5) * 0.04, saturation, 0.25 + 0.5 * next()))
    } }
    for _ in 0..<60 {
        let d = Double(size) * (0.01 + 0.03 * next())
        canvas.fill(Rect(x: next() * Double(size), y: next() * Double(size), width: d, height: d),
                    color: Background.rgb(spotHue, 0.9, 0.95), cornerRadius: d / 2)
    }
    try canvas.finish()
    return canvas.snapshot()
}
