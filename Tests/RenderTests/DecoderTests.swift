import CWebP
import Foundation
@testable import PosterGraphics
import TestSupport
import XCTest

/// The cover decoders on the fixtures in Tests/Fixtures/covers (see its README): every good file
/// decodes upright to red | green over blue | white quadrants; every bad file fails with a reason.
final class DecoderTests: XCTestCase {
    /// The limits' part of a backdrop's cache key names every stored property with its value.
    func testLimitsKeySpellsOutEveryField() {
        let limits = DecodeLimits(maxPixels: 12_345, maxSide: 678)
        let fields = Mirror(reflecting: limits).children.map { "\($0.label ?? "?")=\($0.value)" }
        XCTAssertEqual(limits.keyText, fields.joined(separator: ";"), "DecodeLimits changed: spell it out in keyText")
    }

    func decode(_ name: String, limits: DecodeLimits = DecodeLimits()) throws -> Bitmap {
        try ImageDecoder.decode(try Data(contentsOf: Paths.fixture(name)), limits: limits)
    }

    func assertQuadrants(_ name: String, tolerance: Int = 12, grey: Bool = false, transparentCorner: Bool = false,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        let image = try decode(name)
        XCTAssertEqual(image.width, 64, name, file: file, line: line)
        XCTAssertEqual(image.height, 48, name, file: file, line: line)
        // Quadrant centres, away from JPEG chroma bleed at the borders.
        let points = [(16, 12), (48, 12), (16, 36), (48, 36)]
        let expected: [(Int, Int, Int)] = grey
            ? [(0, 0, 0), (85, 85, 85), (170, 170, 170), (255, 255, 255)]
            : [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
        for (i, (x, y)) in points.enumerated() {
            let p = image.rgba(x: x, y: y)
            if transparentCorner && i == 3 {
                XCTAssertEqual(p.a, 0, "\(name) bottom-right should be transparent", file: file, line: line)
                continue
            }
            let e = expected[i]
            let d = max(abs(Int(p.r) - e.0), abs(Int(p.g) - e.1), abs(Int(p.b) - e.2))
            XCTAssertLessThanOrEqual(d, tolerance, "\(name) quadrant \(i) is \(p), expected \(e)", file: file, line: line)
        }
    }

    func testPNGVariants() throws {
        for name in ["rgb8.png", "rgb16.png", "palette.png", "interlaced.png"] { try assertQuadrants(name, tolerance: 0) }
        try assertQuadrants("grey8.png", tolerance: 0, grey: true)
        try assertQuadrants("grey16.png", tolerance: 1, grey: true)
        try assertQuadrants("grey-alpha.png", tolerance: 1, grey: true, transparentCorner: true)
        let greyAlpha = try decode("grey-alpha.png")
        XCTAssertEqual(greyAlpha.rgba(x: 16, y: 36).a, 128)
        XCTAssertEqual(Int(greyAlpha.rgba(x: 16, y: 36).r), 170, accuracy: 2, "straight colour survives premultiplication")
        try assertQuadrants("rgba8.png", tolerance: 0, transparentCorner: true)
        _ = try decode("palette-trns.png")
    }

    /// A lossy WebP is decoded with libwebp's filtering thread (`use_threads`): the pixels are
    /// those of libwebp's one-thread decode, on a picture of many macroblock rows.
    func testThreadedWebPDecodeGivesTheOneThreadPixels() throws {
        let canvas = try Canvas(width: 720, height: 960)
        canvas.fill(Color(red: 0.12, green: 0.3, blue: 0.55))
        for i in 0..<24 {
            let t = Double(i) / 24
            canvas.fill(Rect(x: 17 * Double(i), y: 40 * Double(i), width: 300, height: 90),
                        color: Color(red: t, green: 1 - t, blue: 0.5 + 0.4 * t, alpha: 0.6), cornerRadius: 20)
        }
        let webp = try PictureFormat.webp.encode(pixels: try canvas.pixels(opaque: false), quality: 80)
        let threaded = try ImageDecoder.decode(Data(webp))
        var width: Int32 = 0, height: Int32 = 0
        let single = webp.withUnsafeBufferPointer { WebPDecodeBGRA($0.baseAddress, $0.count, &width, &height) }
        let pixels = try XCTUnwrap(single)
        defer { WebPFree(pixels) }
        XCTAssertEqual(Int(width), threaded.width)
        XCTAssertEqual(Int(height), threaded.height)
        var differing = 0
        for y in 0..<threaded.height {
            for x in 0..<threaded.width * 4 where threaded.pixels[y * threaded.stride + x] != pixels[(y * threaded.width) * 4 + x] {
                differing += 1
            }
        }
        XCTAssertEqual(differing, 0, "bytes differing from libwebp's one-thread decode (an opaque picture: premultiplied = straight)")
    }

    func testJPEGVariants() throws {
        for name in ["baseline.jpg", "progressive.jpg", "cmyk.jpg"] { try assertQuadrants(name) }
        try assertQuadrants("grey.jpg", grey: true)
    }

    func testWebPVariants() throws {
        try assertQuadrants("lossless.webp", tolerance: 0)
        try assertQuadrants("lossy.webp", tolerance: 12)
        try assertQuadrants("alpha.webp", tolerance: 1, transparentCorner: true)
        let alpha = try decode("alpha.webp")
        XCTAssertEqual(alpha.rgba(x: 16, y: 36).a, 128)
        XCTAssertEqual(Int(alpha.rgba(x: 16, y: 36).b), 255, accuracy: 2, "straight colour survives premultiplication")
        // An animated WebP: the first frame is the cover (the second is black).
        try assertQuadrants("animated.webp", tolerance: 0)
    }

    func testBadWebPFilesFailWithAReason() throws {
        XCTAssertThrowsError(try decode("truncated.webp")) { error in
            XCTAssertTrue("\(error)".contains("WebP"), "\(error)")
        }
        // 16383×16383 in the header: refused before any pixel memory is allocated.
        XCTAssertThrowsError(try decode("bomb.webp")) { error in
            XCTAssertEqual(error as? ImageError, .tooLarge(width: 16383, height: 16383, limit: 100_000_000))
        }
        XCTAssertThrowsError(try decode("lossless.webp", limits: DecodeLimits(maxPixels: 100))) { error in
            XCTAssertEqual(error as? ImageError, .tooLarge(width: 64, height: 48, limit: 100))
        }
    }

    func testEXIFOrientationIsApplied() throws {
        for name in ["exif-orient-3.jpg", "exif-orient-6.jpg", "exif-orient-8.jpg"] { try assertQuadrants(name) }
    }

    func testOutOfRangeEXIFOffsetIsIgnored() throws {
        try assertQuadrants("exif-bad-offset.png", tolerance: 0)
    }

    func testFormatIsSniffedNotTakenFromTheName() throws {
        try assertQuadrants("wrong-extension.jpg", tolerance: 0)
    }

    func testBadFilesFailWithAReason() throws {
        let cases: [(String, String)] = [
            ("truncated.png", "corrupt PNG"), ("truncated.jpg", "corrupt JPEG"), ("corrupt.jpg", "corrupt JPEG"),
            ("not-an-image.png", "not a PNG, JPEG or WebP image"), ("empty.png", "file is empty"),
        ]
        for (name, reason) in cases {
            XCTAssertThrowsError(try decode(name), name) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(name): '\(error)' should mention '\(reason)'")
            }
        }
    }

    func testDecompressionBombsAreRefusedFromTheHeader() throws {
        for name in ["bomb.png", "bomb.jpg"] {
            let start = Date()
            XCTAssertThrowsError(try decode(name), name) { error in
                guard case ImageError.tooLarge = error else { return XCTFail("\(name): \(error)") }
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 1.0 * Sanitizers.allowance, "\(name) must be refused before decoding")
        }
        // The limit is a setting: a tiny limit refuses even the small fixtures.
        XCTAssertThrowsError(try decode("rgb8.png", limits: DecodeLimits(maxPixels: 100)))
    }

    func testJPEGDCTScalingKeepsEnoughPixels() throws {
        // A 256×192 source asked to cover 60×40 decodes at 1/2 scale or smaller, never below the request.
        let data = try Data(contentsOf: Paths.fixture("baseline.jpg"))
        let image = try ImageDecoder.decode(data, minimumSize: (20, 14))
        XCTAssertGreaterThanOrEqual(image.width, 20)
        XCTAssertGreaterThanOrEqual(image.height, 14)
        XCTAssertLessThan(image.width, 64, "decoded with DCT scaling")
    }

    func testJPEGScalesBelowHalfAreOnlyAQuarterOrAnEighth() throws {
        // 3000 wide: covering 1000 would be 3/8 (1125) by size alone; 1/2 (1500) is taken instead,
        // TurboJPEG's SIMD scale, faster than 3/8. Covering 300 is 1/8; covering 2000, 3/4.
        XCTAssertEqual(JPEG.Decoder.scaledSize(width: 3000, height: 3000, minimum: (1000, 1000), swapped: false).0, 1500)
        XCTAssertEqual(JPEG.Decoder.scaledSize(width: 3000, height: 3000, minimum: (300, 300), swapped: false).0, 375)
        XCTAssertEqual(JPEG.Decoder.scaledSize(width: 3000, height: 3000, minimum: (600, 600), swapped: false).0, 750)
        XCTAssertEqual(JPEG.Decoder.scaledSize(width: 3000, height: 3000, minimum: (2000, 2000), swapped: false).0, 2250)
        XCTAssertEqual(JPEG.Decoder.scaledSize(width: 3000, height: 3000, minimum: (4000, 4000), swapped: false).0, 3000)
    }

    func testHalvingAveragesTwoByTwoAndLevelsStayAtLeastTheDestination() throws {
        // 5×3: the odd column and row are dropped; each pixel is the rounded mean of its block.
        var pixels = [UInt8](repeating: 0, count: 5 * 4 * 3)
        for i in pixels.indices { pixels[i] = UInt8((i * 37) % 256) }
        let bitmap = Bitmap(width: 5, height: 3, stride: 20, pixels: pixels)
        let half = try XCTUnwrap(bitmap.halved())
        XCTAssertEqual(half.width, 2)
        XCTAssertEqual(half.height, 1)
        for x in 0..<2 {
            for c in 0..<4 {
                let sum = [0, 4].map { dx in [0, 20].map { dy in Int(pixels[dy + (2 * x) * 4 + dx + c]) }.reduce(0, +) }.reduce(0, +)
                XCTAssertEqual(Int(half.pixels[x * 4 + c]), (sum + 2) / 4, "pixel \(x) channel \(c)")
            }
        }
        XCTAssertNil(Bitmap(width: 1, height: 9).halved())
        // A 1600² picture drawn at 300×300 comes from the 400² level (at least the destination),
        // its source rectangle scaled with it; at 900×900, from the whole.
        let levels = BitmapLevels(Bitmap(width: 1600, height: 1600))
        let small = levels.level(for: Rect(x: 100, y: 0, width: 1400, height: 1600), width: 300, height: 300)
        XCTAssertEqual(small.bitmap.width, 400)
        XCTAssertEqual(small.source.x, 25)
        XCTAssertEqual(small.source.width, 350)
        XCTAssertEqual(levels.level(for: Rect(x: 0, y: 0, width: 1600, height: 1600), width: 900, height: 900).bitmap.width, 1600)
    }

    func testPNGEncodeRoundTripsAndIsDeterministic() throws {
        let canvas = try Canvas(width: 40, height: 30)
        canvas.fill(Color(red: 0.2, green: 0.4, blue: 0.6))
        canvas.fill(Rect(x: 10, y: 10, width: 10, height: 10), color: .white)
        for compression in PNG.Compression.allCases {
            let bytes = try canvas.pngData(opaque: true, compression: compression)
            XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            XCTAssertEqual(bytes, try canvas.pngData(opaque: true, compression: compression))
            let back = try ImageDecoder.decode(Data(bytes))
            XCTAssertEqual(back.rgba(x: 15, y: 15).r, 255)
            XCTAssertEqual(back.rgba(x: 0, y: 0).b, 153)
            // Opaque frames are written as RGB (colour type 2), not RGBA.
            XCTAssertEqual(bytes[25], 2)
        }
    }
}
