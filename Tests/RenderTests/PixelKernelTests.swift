import CPNG
import CPixels
import Foundation
@testable import LyricPoster
import PosterGraphics
import TestSupport
import XCTest

extension SplitMix64 {
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// The C pixel loops (CPixels' lp_pixels.c) against plain Swift written the obvious way: the box
/// blur against a window's mean taken whole at every pixel, and the brightest and darkest pixel of
/// an area against every pixel's luminance, on seeded random pixels. Both loops take shortcuts
/// (a table of quotients; runs of pixels skipped by their bytes' highest and lowest values) that
/// must not change a single value.
final class PixelKernelTests: XCTestCase {
    /// Pixels with runs of full values (where a window's sum reaches its largest) between random ones.
    func randomPixels(_ count: Int, _ random: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in random.below(3) == 0 ? 255 : UInt8(truncatingIfNeeded: random.next()) }
    }

    /// Three horizontal-then-vertical passes, each pixel the floor of its clamped window's mean.
    func referenceBlur(_ pixels: [UInt8], width: Int, height: Int, radius: Int, channels: Range<Int>) -> [UInt8] {
        var p = pixels
        func pass(count: Int, length: Int, at index: (Int, Int) -> Int) {
            for line in 0..<count {
                for c in channels {
                    let before = (0..<length).map { Int(p[index(line, $0) + c]) }
                    for i in 0..<length {
                        var sum = 0
                        for k in -radius...radius { sum += before[min(max(i + k, 0), length - 1)] }
                        p[index(line, i) + c] = UInt8(sum / (2 * radius + 1))
                    }
                }
            }
        }
        for _ in 0..<3 {
            pass(count: height, length: width) { y, x in (y * width + x) * 4 }
            pass(count: width, length: height) { x, y in (y * width + x) * 4 }
        }
        return p
    }

    func testBoxBlurIsTheMeanOfEachClampedWindow() {
        var random = SplitMix64(seed: 27)
        for trial in 0..<40 {
            let width = 1 + random.below(70), height = 1 + random.below(50), radius = 1 + random.below(30)
            let alphaOnly = trial % 2 == 0
            let pixels = randomPixels(width * height * 4, &random)
            let blurred = Bitmap(width: width, height: height, stride: width * 4, pixels: pixels).blurred(radius: radius, alphaOnly: alphaOnly)
            let expected = referenceBlur(pixels, width: width, height: height, radius: radius, channels: alphaOnly ? 3..<4 : 0..<4)
            XCTAssertEqual(Array(blurred.pixels.prefix(width * height * 4)), expected,
                           "\(width)×\(height), radius \(radius), \(alphaOnly ? "alpha" : "every channel")")
        }
    }

    /// Rows wider than their pixels (a Cairo stride): the same blur of the pixels, and the bytes
    /// between rows left as they were. Sizes either side of a frame's shadow layer.
    func testBoxBlurKeepsTheBytesBetweenRows() {
        var random = SplitMix64(seed: 44)
        for (width, height, radius) in [(3, 2, 5), (33, 17, 4), (230, 70, 5), (41, 150, 12)] {
            let stride = width * 4 + 12
            let pixels = randomPixels(stride * height, &random)
            var packed: [UInt8] = []
            for y in 0..<height { packed += pixels[(y * stride)..<(y * stride + width * 4)] }
            for alphaOnly in [true, false] {
                let blurred = Bitmap(width: width, height: height, stride: stride, pixels: pixels).blurred(radius: radius, alphaOnly: alphaOnly)
                let expected = referenceBlur(packed, width: width, height: height, radius: radius, channels: alphaOnly ? 3..<4 : 0..<4)
                for y in 0..<height {
                    let row = y * stride
                    XCTAssertEqual(Array(blurred.pixels[row..<(row + width * 4)]), Array(expected[(y * width * 4)..<((y + 1) * width * 4)]),
                                   "\(width)×\(height), radius \(radius), row \(y)")
                    XCTAssertEqual(Array(blurred.pixels[(row + width * 4)..<(row + stride)]), Array(pixels[(row + width * 4)..<(row + stride)]),
                                   "\(width)×\(height): the bytes after row \(y) changed")
                }
            }
        }
    }

    func testBrightestAndDarkestPixelsAreThoseOfEveryPixel() throws {
        var random = SplitMix64(seed: 91)
        // Small boxes (a line of text) and areas larger than a frame's text.
        let width = 640, height = 400
        let canvas = try Canvas(width: width, height: height)
        let linear = (0..<256).map { Color.linear(Double($0) / 255) }
        for trial in 0..<24 {
            // Opaque pixels in memory order B, G, R, A; some trials in a narrow range of colours,
            // where many pixels share their red and green.
            var pixels = [UInt8](repeating: 255, count: width * height * 4)
            for i in stride(from: 0, to: pixels.count, by: 4) {
                for c in 0..<3 {
                    pixels[i + c] = trial % 3 == 0 ? UInt8(100 + random.below(40)) : UInt8(truncatingIfNeeded: random.next())
                }
            }
            canvas.copyRows(0..<height, from: Bitmap(width: width, height: height, stride: width * 4, pixels: pixels))
            let x0 = random.below(width - 1), y0 = random.below(height - 1)
            // Small boxes (a line of text) and large areas in turn.
            let big = trial % 2 == 1
            let x1 = big ? width : min(width, x0 + 1 + random.below(300)), y1 = big ? height : min(height, y0 + 1 + random.below(120))
            var brightest = -1.0, darkest = 2.0
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let i = (y * width + x) * 4
                    let l = 0.2126 * linear[Int(pixels[i + 2])] + 0.7152 * linear[Int(pixels[i + 1])] + 0.0722 * linear[Int(pixels[i])]
                    brightest = max(brightest, l)
                    darkest = min(darkest, l)
                }
            }
            func bucketed(_ l: Double) -> Double { min(1024, (l * 1024).rounded(.up)) / 1024 }
            let rect = Rect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0))
            XCTAssertEqual(canvas.luminance(in: rect, quantile: 1), bucketed(brightest), "brightest in \(rect)")
            XCTAssertEqual(canvas.luminance(in: rect, quantile: 0), bucketed(darkest), "darkest in \(rect)")
        }
    }

    /// The brightest and darkest pixel found by skipping runs of pixels (by their bytes' highest
    /// and lowest values) against every pixel's luminance, on pictures where runs are skipped:
    /// smooth gradients like a blurred backdrop, a flat area with a single odd pixel (at a run's
    /// first, middle and last place, and past the last whole run), ties, widths that are not a
    /// multiple of a run; with the plain tables, with an overlay's, and with tables that do not
    /// always increase (where every pixel is read).
    func testBrightestAndDarkestFoundBySkippingRunsAreEveryPixels() {
        var random = SplitMix64(seed: 1207)
        let width = 301, height = 40, stride = width * 4 + 12
        let plain = (0..<256).map { Color.linear(Double($0) / 255) }
        let overlaid = (0..<256).map { Color.linear(((Double($0) * 0.6 + 0.3 * 255 * 0.4).rounded()) / 255) }
        let bumpy = (0..<256).map { Color.linear(Double($0 ^ 0x15) / 255) }
        func reference(_ p: [UInt8], _ r: [Double], _ g: [Double], _ b: [Double], _ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int)
            -> (Double, Double) {
            var hi = -1.0, lo = 2.0
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let i = y * stride + x * 4
                    let l = 0.2126 * r[Int(p[i + 2])] + 0.7152 * g[Int(p[i + 1])] + 0.0722 * b[Int(p[i])]
                    hi = max(hi, l)
                    lo = min(lo, l)
                }
            }
            func bucketed(_ l: Double) -> Double { min(1024, (l * 1024).rounded(.up)) / 1024 }
            return (bucketed(hi), bucketed(lo))
        }
        for trial in 0..<60 {
            var p = [UInt8](repeating: 0, count: stride * height)
            let odd = (x: [0, 7, 15, 16, 63, 64, 300][trial % 7], y: random.below(height))
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * stride + x * 4
                    switch trial % 3 {
                    case 0:  // a gradient with a little noise
                        p[i + 2] = UInt8((x * 200 / width + y) % 256)
                        p[i + 1] = UInt8((80 + y * 3 + random.below(3)) % 256)
                        p[i] = UInt8((x / 3 + random.below(2)) % 256)
                    case 1:  // flat, one odd pixel
                        p[i + 2] = 120; p[i + 1] = 121; p[i] = 122
                        if x == odd.x && y == odd.y {
                            p[i + 2] = UInt8(random.below(256)); p[i + 1] = UInt8(random.below(256)); p[i] = UInt8(random.below(256))
                        }
                    default:  // two colours that tie
                        let a = (x + y) % 2 == 0
                        p[i + 2] = a ? 200 : 10; p[i + 1] = a ? 30 : 30; p[i] = a ? 5 : 240
                    }
                    p[i + 3] = 255
                }
            }
            let x0 = trial < 30 ? 0 : random.below(width - 1), y0 = trial < 30 ? 0 : random.below(height - 1)
            let x1 = trial < 30 ? width : x0 + 1 + random.below(width - x0), y1 = trial < 30 ? height : y0 + 1 + random.below(height - y0)
            for (r, g, b) in [(plain, plain, plain), (overlaid, plain, overlaid), (bumpy, plain, bumpy)] {
                let expected = reference(p, r, g, b, x0, x1, y0, y1)
                let found = p.withUnsafeBufferPointer { data in
                    r.withUnsafeBufferPointer { r in
                        g.withUnsafeBufferPointer { g in
                            b.withUnsafeBufferPointer { b in
                                [1.0, 0.0].map {
                                    lp_luminance_quantile(data.baseAddress, stride, Int32(x0), Int32(x1), Int32(y0), Int32(y1),
                                                          r.baseAddress, g.baseAddress, b.baseAddress, $0)
                                }
                            }
                        }
                    }
                }
                XCTAssertEqual(found, [expected.0, expected.1], "trial \(trial): [\(x0), \(x1)) × [\(y0), \(y1))")
            }
        }
    }

    /// The C loop behind the scrim's row measurement against the Swift one it replaced: opaque
    /// rows (packed maxima), translucent and empty pixels (un-premultiplied), column and row
    /// ranges cut by the edges, both directions.
    /// Opaque ARGB32 rows to packed RGB (the byte shuffle 4 pixels at a time, then pixel by
    /// pixel) against each pixel's bytes taken one by one, at every width up to 40 and a frame's,
    /// with a stride wider than the row; nothing is written past the rows.
    func testOpaqueRowsToRGBAreEachPixelsBytes() {
        var random = SplitMix64(seed: 2026)
        for (width, height) in (1...40).map({ ($0, 3) }) + [(1080, 2), (1179, 2)] {
            let stride = width * 4 + 8
            let pixels = randomPixels(stride * height, &random)
            var expected: [UInt8] = []
            for y in 0..<height {
                for x in 0..<width {
                    let p = y * stride + x * 4  // B, G, R, A in memory
                    expected += [pixels[p + 2], pixels[p + 1], pixels[p]]
                }
            }
            var out = [UInt8](repeating: 0xEE, count: width * height * 3 + 16)
            pixels.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    lp_argb32_to_rgb(src.baseAddress, UInt32(width), UInt32(height), stride, 1, dst.baseAddress)
                }
            }
            XCTAssertEqual(Array(out.prefix(width * height * 3)), expected, "width \(width)")
            XCTAssertEqual(Array(out.suffix(16)), [UInt8](repeating: 0xEE, count: 16), "width \(width): written past the rows")
        }
    }

    func testRowExtremesAreThoseOfEveryPixel() {
        var random = SplitMix64(seed: 99)
        for (width, height, opaqueRows) in [(1, 1, false), (7, 5, false), (64, 33, false), (301, 19, false), (1, 3, true), (7, 5, true),
                                            (64, 33, true), (301, 19, true)] {
            var pixels = randomPixels(width * height * 4, &random)
            // Mostly opaque, as a backdrop is, with some translucent and empty pixels; or (the
            // rows read sixteen bytes at a time) whole rows opaque, with a few that are not.
            for i in 0..<(width * height) where opaqueRows || random.below(4) != 0 { pixels[4 * i + 3] = 255 }
            for i in 0..<(width * height) where random.below(opaqueRows ? 4 * width : 9) == 0 { pixels[4 * i + 3] = 0 }
            let bitmap = Bitmap(width: width, height: height, stride: width * 4, pixels: pixels)
            for _ in 0..<12 {
                let x0 = random.below(width + 4) - 2, x1 = x0 + random.below(width + 4)
                let y0 = random.below(height + 2) - 1, y1 = y0 + random.below(height + 2)
                for brightest in [true, false] {
                    let fast = bitmap.rowExtremes(x0: x0, x1: x1, rows: y0..<max(y0, y1), brightest: brightest)
                    let slow = bitmap.rowExtremesReference(x0: x0, x1: x1, rows: y0..<max(y0, y1), brightest: brightest)
                    XCTAssertEqual(fast.count, slow.count)
                    for (a, b) in zip(fast, slow) {
                        XCTAssertTrue(a == b, "\(width)×\(height) x \(x0)..<\(x1) y \(y0)..<\(y1) brightest \(brightest): \(a) vs \(b)")
                    }
                }
            }
        }
    }

    /// The scrim's dilation (a sliding window's maximum) against every window scanned whole: runs
    /// of zeros, ties, rises and falls, windows wider than the rows.
    func testWindowMaximaAreEachWindowsLargest() {
        var random = SplitMix64(seed: 3)
        for n in [1, 2, 9, 200, 1920] {
            let values: [Double] = (0..<n).map { _ in
                switch random.below(4) {
                case 0: return 0
                case 1: return 0.5
                default: return Double(random.below(1000)) / 997
                }
            }
            for radius in [0, 1, 5, 326, 5000] {
                let fast = Background.windowMaxima(values, radius: radius)
                let slow = values.indices.map { y in
                    values[max(0, y - radius)...min(n - 1, y + radius)].reduce(0.0) { max($0, $1) }
                }
                XCTAssertEqual(fast, slow, "n \(n) radius \(radius)")
            }
        }
    }
}
