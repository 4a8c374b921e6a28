import CPNG
import CZlib
import Foundation
@testable import PosterGraphics
import TestSupport
import XCTest

/// The PNG reader that skips libpng for the common case (lp_png_decode_fast): on every file it
/// takes, the pixels are libpng's; every file it does not take is left to libpng, so a cover gives
/// the same bitmap, or the same error, either way. The files are made here, row filter by row
/// filter, so that each of PNG's five filters, odd widths and split image data are met.
final class PNGFastReadTests: XCTestCase {
    /// Pixels of a small photograph-like picture: gradients, noise and a hard edge.
    func pixels(width: Int, height: Int, channels: Int, seed: UInt64) -> [UInt8] {
        var state = seed | 1
        func next() -> UInt8 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        var out: [UInt8] = []
        out.reserveCapacity(width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                let edge = x > width / 2 ? 90 : 0
                out.append(UInt8(truncatingIfNeeded: x * 7 + edge + Int(next() % 9)))
                out.append(UInt8(truncatingIfNeeded: y * 5 + Int(next() % 5)))
                out.append(UInt8(truncatingIfNeeded: (x + y) * 3))
                if channels == 4 { out.append([0, 255, 128, next()][(x + y) % 4]) }
            }
        }
        return out
    }

    /// PNG's filter `type` applied to `row`, given the row above (unfiltered; zeros for the first).
    func filter(_ type: UInt8, _ row: ArraySlice<UInt8>, above: ArraySlice<UInt8>, bpp: Int) -> [UInt8] {
        let r = Array(row), b = Array(above)
        var out = [type]
        for i in 0..<r.count {
            let a = i >= bpp ? Int(r[i - bpp]) : 0, up = Int(b[i]), c = i >= bpp ? Int(b[i - bpp]) : 0
            let predicted: Int
            switch type {
            case 1: predicted = a
            case 2: predicted = up
            case 3: predicted = (a + up) / 2
            case 4:
                let p = a + up - c, pa = abs(p - a), pb = abs(p - up), pc = abs(p - c)
                predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? up : c)
            default: predicted = 0
            }
            out.append(UInt8(truncatingIfNeeded: Int(r[i]) - predicted))
        }
        return out
    }

    func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        let crc = UInt32(typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) })
        return be32(UInt32(body.count)) + typed + be32(crc)
    }

    func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    func zlib(_ bytes: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        XCTAssertEqual(compress2(&out, &size, bytes, uLong(bytes.count), 6), Z_OK)
        return Array(out.prefix(Int(size)))
    }

    /// A PNG of `pixels`, row y filtered with `filters(y)`, its zlib stream cut into IDATs of
    /// `idatSize` bytes; `edit` changes the filtered rows or the stream, `before`/`between` add
    /// chunks before the image data or between its first two IDATs.
    func png(width: Int, height: Int, channels: Int, pixels: [UInt8], filters: (Int) -> UInt8, idatSize: Int = 1 << 20,
             editRows: (inout [UInt8]) -> Void = { _ in }, editStream: (inout [UInt8]) -> Void = { _ in },
             before: [[UInt8]] = [], between: [[UInt8]] = [], end: Bool = true) -> Data {
        let rowBytes = width * channels
        var filtered: [UInt8] = []
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        for y in 0..<height {
            let row = pixels[(y * rowBytes)..<((y + 1) * rowBytes)]
            let above = y == 0 ? zeros[...] : pixels[((y - 1) * rowBytes)..<(y * rowBytes)]
            filtered += filter(filters(y), row, above: above, bpp: channels)
        }
        editRows(&filtered)
        var stream = zlib(filtered)
        editStream(&stream)
        var file: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        file += chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, channels == 4 ? 6 : 2, 0, 0, 0])
        for extra in before { file += extra }
        var pieces: [[UInt8]] = []
        var at = 0
        repeat {
            pieces.append(Array(stream[at..<min(stream.count, at + idatSize)]))
            at += idatSize
        } while at < stream.count
        for (i, piece) in pieces.enumerated() {
            file += chunk("IDAT", piece)
            if i == 0 { for extra in between { file += extra } }
        }
        if end { file += chunk("IEND", []) }
        return Data(file)
    }

    /// Whether the fast reader takes `data`, and what each reader makes of it (the pixels, or the
    /// error's text).
    func read(_ data: Data) -> (taken: Bool, fast: String, libpng: String) {
        var info = lp_png_info()
        let headerOK = data.withUnsafeBytes { lp_png_read_header($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &info) } == 0
        var taken = false
        if headerOK {
            var out = [UInt8](repeating: 0, count: Int(info.width) * Int(info.height) * 4)
            taken = data.withUnsafeBytes { raw in
                out.withUnsafeMutableBytes {
                    lp_png_decode_fast(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, $0.bindMemory(to: UInt8.self).baseAddress,
                                       Int(info.width) * 4, &info)
                }
            } == 1
        }
        func outcome(_ fast: Bool) -> String {
            do {
                let bitmap = try PNG.Decoder.decode(data, limits: DecodeLimits(), fast: fast)
                return "\(bitmap.width)x\(bitmap.height) " + bitmap.pixels.map { String($0) }.joined(separator: ",")
            } catch { return "error: \(error)" }
        }
        return (taken, outcome(true), outcome(false))
    }

    func testEveryFilterOddWidthsAndSplitDataGiveLibpngsPixels() throws {
        var files = 0
        for channels in [3, 4] {
            for (width, height) in [(1, 1), (1, 5), (2, 3), (3, 2), (5, 7), (64, 9), (129, 4)] {
                let pixels = pixels(width: width, height: height, channels: channels, seed: UInt64(width * 131 + height * 7 + channels))
                let schemes: [(String, (Int) -> UInt8)] = [
                    ("none", { _ in 0 }), ("sub", { _ in 1 }), ("up", { _ in 2 }), ("average", { _ in 3 }), ("paeth", { _ in 4 }),
                    ("mixed", { UInt8($0 % 5) }), ("mixed backwards", { UInt8(4 - $0 % 5) }),
                ]
                for (name, filters) in schemes {
                    for idatSize in [1 << 20, 7, 1] {
                        let data = png(width: width, height: height, channels: channels, pixels: pixels, filters: filters, idatSize: idatSize)
                        let read = read(data)
                        let label = "\(channels) channels \(width)x\(height) \(name), IDATs of \(idatSize)"
                        XCTAssertTrue(read.taken, label)
                        XCTAssertFalse(read.fast.hasPrefix("error"), "\(label): \(read.fast)")
                        XCTAssertEqual(read.fast, read.libpng, label)
                        files += 1
                    }
                }
            }
        }
        XCTAssertEqual(files, 2 * 7 * 7 * 3)
    }

    /// Files the fast reader leaves to libpng, and files both refuse: the same outcome either way.
    func testWhatItDoesNotTakeIsLibpngs() throws {
        let (width, height) = (17, 6)
        let rgb = pixels(width: width, height: height, channels: 3, seed: 99)
        let mixed: (Int) -> UInt8 = { UInt8($0 % 5) }
        func make(_ edit: (inout [UInt8]) -> Void = { _ in }, stream: (inout [UInt8]) -> Void = { _ in },
                  before: [[UInt8]] = [], between: [[UInt8]] = [], idatSize: Int = 40, end: Bool = true) -> Data {
            png(width: width, height: height, channels: 3, pixels: rgb, filters: mixed, idatSize: idatSize, editRows: edit,
                editStream: stream, before: before, between: between, end: end)
        }
        let exif = Array("MM".utf8) + [0, 42] + be32(8) + [0, 1] + [0x01, 0x12, 0, 3] + be32(1) + [0, 6, 0, 0] + be32(0)
        let windowOf16K: (inout [UInt8]) -> Void = { stream in
            // CINFO 6 (a 16 KiB window), its check bits made right again.
            stream[0] = 0x68
            stream[1] = UInt8((31 - (0x68 * 256) % 31) % 31)
        }
        let cases: [(String, Data, takenByNeither: Bool)] = [
            ("a filter type PNG lacks", make({ $0[0] = 5 }), true),
            ("a transparent colour (tRNS)", make(before: [chunk("tRNS", [0, 1, 0, 2, 0, 3])]), false),
            ("an orientation (eXIf)", make(before: [chunk("eXIf", exif)]), false),
            ("a suggested palette (PLTE)", make(before: [chunk("PLTE", [1, 2, 3, 4, 5, 6])]), false),
            ("a wrong Adler-32", make(stream: { $0[$0.count - 1] ^= 1 }), true),
            ("an image data CRC wrong", {
                var bytes = [UInt8](make())
                bytes[33 + 8] ^= 1  // the first IDAT's first byte, its CRC unchanged
                return Data(bytes)
            }(), true),
            ("no IEND", make(end: false), true),
            ("an IEND CRC wrong", {
                var bytes = [UInt8](make())
                bytes[bytes.count - 1] ^= 1
                return Data(bytes)
            }(), true),
            // Past the chunk memory limit libpng is given (skipped unread, but left to it all the same).
            ("an ancillary chunk past 8 MiB", make(before: [chunk("zzZz", [UInt8](repeating: 7, count: (8 << 20) + 1))]), false),
            ("a 16 KiB window declared", make(stream: windowOf16K), false),
            ("a text chunk between IDATs", make(between: [chunk("tEXt", Array("k\0v".utf8))]), true),
            ("more rows than the header's", make({ $0 += [0] + [UInt8](repeating: 1, count: width * 3) }), false),
            ("fewer rows than the header's", make({ $0.removeLast(width * 3 + 1) }), true),
            ("an unknown critical chunk", make(before: [chunk("ABCD", [1])]), true),
            ("a chunk name that is not letters", make(before: [chunk("a1cd", [1])]), true),
        ]
        for (name, data, refused) in cases {
            let read = read(data)
            XCTAssertFalse(read.taken, name)
            XCTAssertEqual(read.fast, read.libpng, name)
            XCTAssertEqual(read.libpng.hasPrefix("error"), refused, "\(name): \(read.libpng.prefix(80))")
        }
        // The same file without the change is taken, and is the same bitmap.
        let plain = read(make())
        XCTAssertTrue(plain.taken)
        XCTAssertEqual(plain.fast, plain.libpng)
        // An ancillary chunk the reader skips (before and after the image data) changes nothing.
        let annotated = read(make(before: [chunk("tEXt", Array("Title\0cover".utf8)), chunk("gAMA", be32(45455))]))
        XCTAssertTrue(annotated.taken)
        XCTAssertEqual(annotated.fast, plain.fast)
    }

    /// libpng's buffers are bounded by the file (lp_png.c's bounded_malloc): a few bytes declaring
    /// a 2 GiB text chunk are refused without a 2 GiB allocation (libpng, given no buffer, reads
    /// on from the chunk's first bytes and finds no chunk there), and a file with a large real
    /// chunk (a 3 MiB comment, read into a buffer of its size) still decodes.
    func testLibpngBuffersAreBoundedByTheFile() throws {
        let (width, height) = (9, 4)
        let rgb = pixels(width: width, height: height, channels: 3, seed: 5)
        let plain = png(width: width, height: height, channels: 3, pixels: rgb, filters: { _ in 2 })
        var hostile = [UInt8](plain.prefix(33)) + be32(0x7fff_fff0) + Array("tEXt".utf8) + Array("Title\0".utf8)
        hostile += [UInt8](plain.dropFirst(33))
        let refused = read(Data(hostile))
        XCTAssertFalse(refused.taken)
        XCTAssertEqual(refused.libpng, refused.fast)
        XCTAssertTrue(refused.libpng.hasPrefix("error"), refused.libpng)

        let comment = chunk("tEXt", Array("Comment\0".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 3 << 20))
        let annotated = read(png(width: width, height: height, channels: 3, pixels: rgb, filters: { _ in 2 }, before: [comment]))
        XCTAssertTrue(annotated.taken)
        XCTAssertFalse(annotated.libpng.hasPrefix("error"), annotated.libpng)
        XCTAssertEqual(annotated.libpng, read(plain).libpng)
    }

    /// The fixtures the fast reader takes (8-bit RGB and RGBA) decode as they did through libpng.
    func testFixturesTakenAreLibpngsPixels() throws {
        for name in ["rgb8.png", "rgba8.png"] {
            let read = read(try Data(contentsOf: Paths.fixture(name)))
            XCTAssertTrue(read.taken, name)
            XCTAssertEqual(read.fast, read.libpng, name)
        }
        for name in ["rgb16.png", "palette.png", "interlaced.png", "grey8.png", "grey-alpha.png", "palette-trns.png"] {
            let read = read(try Data(contentsOf: Paths.fixture(name)))
            XCTAssertFalse(read.taken, name)
            XCTAssertEqual(read.fast, read.libpng, name)
        }
    }
}
