import CPixels
import Foundation
import PosterGraphics
import TestSupport
import XCTest

/// The area-averaging reduction (lp_area_reduce_argb32) that pictures reduced by more than 3/4 are
/// drawn from, against the same integral taken in Swift the obvious way; its refusals; and the
/// card-sized reduction against Cairo's own GOOD filter. And a mask tinted into a picture.
final class AreaReduceTests: XCTestCase {
    /// Premultiplied random pixels (no channel above its alpha), with runs of opaque ones.
    func randomBitmap(width: Int, height: Int, _ random: inout SplitMix64) -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            let a = random.below(3) == 0 ? 255 : random.below(256)
            for c in 0..<3 { pixels[4 * i + c] = UInt8(random.below(a + 1)) }
            pixels[4 * i + 3] = UInt8(a)
        }
        return Bitmap(width: width, height: height, stride: width * 4, pixels: pixels)
    }

    /// Each output pixel: the integral of the source over the area it covers (edge pixels
    /// repeating beyond the picture), divided by that area, rounded.
    func reference(_ b: Bitmap, source: Rect, width w: Int, height h: Int) -> [UInt8] {
        let fx = source.width / Double(w), fy = source.height / Double(h)
        func spans(_ start: Double, _ step: Double, _ i: Int) -> [(index: Int, weight: Double)] {
            let a = start + step * Double(i), e = a + step
            var out: [(Int, Double)] = []
            var k = Int(a.rounded(.down))
            while Double(k) < e {
                out.append((k, (min(e, Double(k + 1)) - max(a, Double(k))) / step))
                k += 1
            }
            return out
        }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let ys = spans(source.y, fy, y)
            for x in 0..<w {
                let xs = spans(source.x, fx, x)
                var acc = [0.0, 0.0, 0.0, 0.0]
                for (sy, wy) in ys {
                    for (sx, wx) in xs {
                        let px = min(max(sx, 0), b.width - 1), py = min(max(sy, 0), b.height - 1)
                        for c in 0..<4 { acc[c] += wx * wy * Double(b.pixels[py * b.stride + 4 * px + c]) }
                    }
                }
                for c in 0..<4 { out[(y * w + x) * 4 + c] = UInt8(min(255, max(0, acc[c].rounded()))) }
            }
        }
        return out
    }

    func testReductionIsTheAreaAverage() throws {
        var random = SplitMix64(seed: 17)
        let cases: [(Int, Int, Rect, Int, Int)] = [
            (40, 30, Rect(x: 0, y: 0, width: 40, height: 30), 25, 17),
            (40, 30, Rect(x: 3.3, y: 1.7, width: 30.5, height: 21.25), 13, 9),
            (33, 47, Rect(x: -2.5, y: -1.25, width: 38, height: 50), 20, 31),   // beyond the edges
            (64, 64, Rect(x: 0, y: 0, width: 64, height: 64), 32, 32),          // exact halving
            (64, 16, Rect(x: 0.5, y: 0.5, width: 63, height: 15), 7, 2),        // large factors
            (9, 9, Rect(x: 0, y: 0, width: 9, height: 9), 1, 1),                // one pixel: the mean
        ]
        for (width, height, source, w, h) in cases {
            let bitmap = randomBitmap(width: width, height: height, &random)
            let reduced = try XCTUnwrap(bitmap.areaReduced(source: source, width: w, height: h))
            XCTAssertEqual(reduced.width, w)
            XCTAssertEqual(reduced.height, h)
            let expected = reference(bitmap, source: source, width: w, height: h)
            var worst = 0
            for y in 0..<h {
                for x in 0..<w {
                    for c in 0..<4 {
                        let got = Int(reduced.pixels[y * reduced.stride + 4 * x + c]), want = Int(expected[(y * w + x) * 4 + c])
                        worst = max(worst, abs(got - want))
                    }
                    let p = y * reduced.stride + 4 * x
                    XCTAssertTrue((0..<3).allSatisfy { reduced.pixels[p + $0] <= reduced.pixels[p + 3] }, "premultiplied at \(x),\(y)")
                }
            }
            // Single-precision sums against double: at most one step of rounding apart.
            XCTAssertLessThanOrEqual(worst, 1, "\(width)×\(height) \(source) → \(w)×\(h)")
        }
    }

    /// The SSE2 path (four channels summed side by side, rounded and clamped by packs) gives the
    /// bytes of the one-channel-at-a-time loop it replaced: random premultiplied pixels, opaque and
    /// not, fractional and out-of-picture sources, small and large factors, a card's reduction.
    func testVectorPathIsTheScalarPathByteForByte() {
        var random = SplitMix64(seed: 23)
        let cases: [(Int, Int, (Double, Double, Double, Double), Int, Int)] = [
            (40, 30, (0, 0, 40, 30), 25, 17),
            (40, 30, (3.3, 1.7, 30.5, 21.25), 13, 9),
            (33, 47, (-2.5, -1.25, 38, 50), 20, 31),
            (64, 16, (0.5, 0.5, 63, 15), 7, 2),
            (9, 9, (0, 0, 9, 9), 1, 1),
            (375, 375, (0, 0, 375, 375), 215, 215),
            (301, 200, (12.75, 0, 275.5, 200), 256, 187),
        ]
        for (width, height, source, w, h) in cases {
            let bitmap = randomBitmap(width: width, height: height, &random)
            var vector = [UInt8](repeating: 0xEE, count: w * h * 4), scalar = vector
            let statuses = bitmap.pixels.withUnsafeBufferPointer { src -> (Int32, Int32) in
                let a = vector.withUnsafeMutableBufferPointer {
                    lp_area_reduce_argb32(src.baseAddress, bitmap.stride, Int32(width), Int32(height), source.0, source.1, source.2,
                                          source.3, $0.baseAddress, w * 4, Int32(w), Int32(h))
                }
                let b = scalar.withUnsafeMutableBufferPointer {
                    lp_area_reduce_argb32_scalar(src.baseAddress, bitmap.stride, Int32(width), Int32(height), source.0, source.1,
                                                 source.2, source.3, $0.baseAddress, w * 4, Int32(w), Int32(h))
                }
                return (a, b)
            }
            XCTAssertEqual(statuses.0, 0)
            XCTAssertEqual(statuses.1, 0)
            XCTAssertTrue(vector == scalar, "\(width)×\(height) \(source) → \(w)×\(h): the paths differ")
        }
    }

    func testAFlatColourStaysExactlyThatColour() throws {
        let flat = [[UInt8]](repeating: [40, 90, 200, 255], count: 37 * 23).flatMap { $0 }
        let bitmap = Bitmap(width: 37, height: 23, stride: 37 * 4, pixels: flat)
        let reduced = try XCTUnwrap(bitmap.areaReduced(source: Rect(x: 1.3, y: 0.6, width: 33.1, height: 21.7), width: 11, height: 7))
        for i in 0..<(11 * 7) { XCTAssertEqual(Array(reduced.pixels[4 * i..<4 * i + 4]), [40, 90, 200, 255], "pixel \(i)") }
    }

    func testSizesItCannotTakeAreRefused() {
        let bitmap = Bitmap(width: 16, height: 16)
        let whole = Rect(x: 0, y: 0, width: 16, height: 16)
        XCTAssertNil(bitmap.areaReduced(source: whole, width: 0, height: 4))
        XCTAssertNil(bitmap.areaReduced(source: whole, width: 4, height: -1))
        XCTAssertNil(bitmap.areaReduced(source: whole, width: 40_000, height: 4))
        XCTAssertNil(bitmap.areaReduced(source: Rect(x: 0, y: 0, width: 0, height: 16), width: 4, height: 4))
        XCTAssertNil(bitmap.areaReduced(source: Rect(x: .nan, y: 0, width: 16, height: 16), width: 4, height: 4))
        XCTAssertNil(bitmap.areaReduced(source: Rect(x: 0, y: .infinity, width: 16, height: 16), width: 4, height: 4))
        XCTAssertNil(bitmap.areaReduced(source: Rect(x: 0, y: 0, width: 1e9, height: 16), width: 1, height: 4))
        XCTAssertNotNil(bitmap.areaReduced(source: whole, width: 4, height: 4))
    }

    /// Spans thinner than a double can tell apart (a huge picture coordinate, a tiny area) each
    /// take the source pixel they lie in, the same every time; output sizes past a canvas's are
    /// refused by the C function itself.
    func testDegenerateSpansAndHugeOutputs() throws {
        var random = SplitMix64(seed: 23)
        let bitmap = randomBitmap(width: 8, height: 8, &random)
        // At x = 4e6 a double's step is 1e-9: every span's ends are the same number. Beyond the
        // picture, the edge column repeats.
        let thin = Rect(x: 4e6, y: 2.25, width: 1e-10, height: 1e-10)
        let a = try XCTUnwrap(bitmap.areaReduced(source: thin, width: 64, height: 3))
        let b = try XCTUnwrap(bitmap.areaReduced(source: thin, width: 64, height: 3))
        XCTAssertEqual(a.pixels, b.pixels)
        let p = 2 * bitmap.stride + 7 * 4
        for x in 0..<64 { XCTAssertEqual(Array(a.pixels[4 * x..<4 * x + 4]), Array(bitmap.pixels[p..<p + 4]), "pixel \(x)") }
        var out = [UInt8](repeating: 0, count: 16)
        let refused = bitmap.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                lp_area_reduce_argb32(src.baseAddress, bitmap.stride, 8, 8, 0, 0, 8, 8, dst.baseAddress, 16, 40_000, 1)
            }
        }
        XCTAssertEqual(refused, -1)
    }

    /// A picture reduced by more than 3/4 into a rounded card (drawn from the area average) looks
    /// like the same picture drawn through Cairo's GOOD filter (Pixman's box convolution).
    func testCardReductionMatchesCairosGoodFilter() throws {
        var random = SplitMix64(seed: 5)
        // Smooth shapes with sharp edges: blocks of colour.
        let side = 750
        let blocks = side / 25
        let colours: [[UInt8]] = (0..<(blocks * blocks)).map { _ in
            [UInt8(random.below(256)), UInt8(random.below(256)), UInt8(random.below(256)), 255]
        }
        var pixels = [UInt8](repeating: 0, count: side * side * 4)
        for y in 0..<side {
            for x in 0..<side {
                let colour = colours[(y / 25) * blocks + x / 25]
                for c in 0..<4 { pixels[(y * side + x) * 4 + c] = colour[c] }
            }
        }
        let picture = Bitmap(width: side, height: side, stride: side * 4, pixels: pixels)
        let destination = Rect(x: 10, y: 12.4, width: 480, height: 480)
        let viaLevels = try Canvas(width: 500, height: 500), viaCairo = try Canvas(width: 500, height: 500)
        viaLevels.draw(BitmapLevels(picture), in: destination, cornerRadius: 40)
        viaCairo.draw(picture, in: destination, cornerRadius: 40)
        let a = viaLevels.snapshot(), b = viaCairo.snapshot()
        var total = 0, worst = 0
        for i in 0..<a.pixels.count {
            let d = abs(Int(a.pixels[i]) - Int(b.pixels[i]))
            total += d
            worst = max(worst, d)
        }
        let mean = Double(total) / Double(a.pixels.count)
        XCTAssertLessThan(mean, 1.0, "mean difference per channel")
        XCTAssertLessThan(worst, 64, "largest difference (at colour edges)")
        // Inside a block, far from its edges, both are the block's colour.
        let p = (250 * 500 + 250) * 4
        XCTAssertEqual(Array(a.pixels[p..<p + 4]).map { Int($0) }, Array(b.pixels[p..<p + 4]).map { Int($0) }, accuracy: 1)
    }

    func testMaskTintedIntoAPicture() {
        let mask = Bitmap(width: 3, height: 1, stride: 12, pixels: [0, 0, 0, 255, 0, 0, 0, 100, 0, 0, 0, 0])
        let black = mask.tinted(Color(red: 0, green: 0, blue: 0, alpha: 0.5))
        XCTAssertEqual(Array(black.pixels[0..<4]), [0, 0, 0, 128])
        XCTAssertEqual(Array(black.pixels[4..<8]), [0, 0, 0, 50])
        XCTAssertEqual(Array(black.pixels[8..<12]), [0, 0, 0, 0])
        let white = mask.tinted(Color(red: 1, green: 1, blue: 1, alpha: 1))
        XCTAssertEqual(Array(white.pixels[4..<8]), [100, 100, 100, 100])
    }

    /// Every mask value, in a bitmap whose rows are wider than its pixels, in several colours,
    /// against each pixel's bytes worked out one by one (premultiplied, rounded to nearest).
    func testEveryMaskValueTintedAsEachPixelsBytes() {
        let width = 37, height = 7, stride = width * 4 + 8
        var random = SplitMix64(seed: 4)
        var bytes = [UInt8](repeating: 0x5A, count: stride * height)
        for y in 0..<height {
            for x in 0..<width { bytes[y * stride + 4 * x + 3] = UInt8((y * width + x) % 256) }
        }
        bytes[3 * stride + 4 * 5 + 3] = 255
        let mask = Bitmap(width: width, height: height, stride: stride, pixels: bytes)
        let colors = [Color(red: 0, green: 0, blue: 0, alpha: 0.5), Color(red: 1, green: 1, blue: 1, alpha: 1)]
            + (0..<6).map { _ in
                Color(red: Double(random.next() % 1001) / 1000, green: Double(random.next() % 1001) / 1000,
                      blue: Double(random.next() % 1001) / 1000, alpha: Double(random.next() % 1001) / 1000)
            }
        for color in colors {
            let out = mask.tinted(color)
            XCTAssertEqual(out.stride, width * 4)
            func byte(_ v: Double) -> Int { Int((min(1, max(0, v)) * 255).rounded()) }
            for y in 0..<height {
                for x in 0..<width {
                    let a = (Int(bytes[y * stride + 4 * x + 3]) * byte(color.alpha) + 127) / 255
                    let expected = [color.blue, color.green, color.red].map { UInt8((byte($0) * a + 127) / 255) } + [UInt8(a)]
                    let p = y * out.stride + 4 * x
                    XCTAssertEqual(Array(out.pixels[p..<p + 4]), expected, "\(color) at \(x), \(y)")
                }
            }
        }
    }
}

private func XCTAssertEqual(_ a: [Int], _ b: [Int], accuracy: Int, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, file: file, line: line)
    for (x, y) in zip(a, b) { XCTAssertLessThanOrEqual(abs(x - y), accuracy, "\(a) vs \(b)", file: file, line: line) }
}
