import Foundation
import PosterGraphics
import XCTest

/// E-ink output: palettes and palette files, the quantiser (dither the picture, not the glyphs)
/// and the indexed PNG it is written as.
final class EInkTests: XCTestCase {
    // MARK: Pictures

    /// A photograph-like RGBA picture: gradients in each channel, a hard edge and a little noise
    /// from a fixed seed (the same picture every run).
    func picture(width: Int, height: Int, seed: UInt64 = 7) -> [UInt8] {
        var state = seed | 1
        func noise() -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % 17) - 8
        }
        var out: [UInt8] = []
        out.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let edge = x > width / 2 ? 60 : 0
                let r = x * 255 / max(1, width - 1), g = y * 255 / max(1, height - 1), b = 255 - (x + y) * 255 / max(1, width + height - 2)
                for value in [r + edge, g, b] { out.append(UInt8(clamping: value + noise())) }
                out.append(255)
            }
        }
        return out
    }

    /// `width`×`height` opaque pixels of `colour`.
    func flat(_ colour: RGB, width: Int, height: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(width * height * 4)
        for _ in 0..<(width * height) { out += [colour.r, colour.g, colour.b, 255] }
        return out
    }

    func colour(of rgba: [UInt8], pixel: Int) -> RGB { RGB(rgba[4 * pixel], rgba[4 * pixel + 1], rgba[4 * pixel + 2]) }

    /// A text mask: coverage 255 in `body`, 64 in a one-pixel ring around it (an anti-aliased
    /// edge), 0 elsewhere.
    func mask(width: Int, height: Int, body: (x: Range<Int>, y: Range<Int>)) -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: width * height)
        for y in (body.y.lowerBound - 1)...body.y.upperBound {
            for x in (body.x.lowerBound - 1)...body.x.upperBound {
                mask[y * width + x] = body.x.contains(x) && body.y.contains(y) ? 255 : 64
            }
        }
        return mask
    }

    // MARK: Quantiser

    func testEveryIndexIsInThePalette() {
        let width = 61, height = 37
        let rgba = picture(width: width, height: height)
        let text = mask(width: width, height: height, body: (10..<30, 5..<20))
        for palette in EInkPalette.builtIn {
            for textMask in [nil, text] {
                let indices = EInkQuantizer.quantize(rgba: rgba, width: width, height: height, palette: palette, textMask: textMask)
                XCTAssertEqual(indices.count, width * height)
                XCTAssertTrue(indices.allSatisfy { Int($0) < palette.colours.count }, palette.name)
            }
        }
    }

    /// A picture already in the palette's colours is left as it is: no error, so no dither noise.
    func testAPaletteColourMapsToItsOwnIndexEverywhere() {
        for palette in EInkPalette.builtIn {
            for (index, colour) in palette.colours.enumerated() {
                let indices = EInkQuantizer.quantize(rgba: flat(colour, width: 17, height: 9), width: 17, height: 9, palette: palette)
                XCTAssertEqual(indices, [UInt8](repeating: UInt8(index), count: 17 * 9), "\(palette.name) colour \(index)")
            }
        }
    }

    /// sRGB 188 reflects half the light of white (linear 0.503): on a black-and-white panel it
    /// dithers to half black dots, nearly a checkerboard.
    func testALinearMidGreyDithersToHalfBlackInAChecker() {
        let size = 64
        let indices = EInkQuantizer.quantize(rgba: flat(RGB(188, 188, 188), width: size, height: size), width: size, height: size,
                                             palette: .mono)
        let black = Double(indices.filter { $0 == 0 }.count) / Double(indices.count)
        XCTAssertEqual(black, 0.5, accuracy: 0.1)
        // A checker-like pattern: neighbours mostly differ (blocks or stripes would not).
        var across = 0, down = 0
        for y in 0..<size {
            for x in 0..<size {
                if x + 1 < size, indices[y * size + x] != indices[y * size + x + 1] { across += 1 }
                if y + 1 < size, indices[y * size + x] != indices[(y + 1) * size + x] { down += 1 }
            }
        }
        XCTAssertGreaterThan(Double(across) / Double(size * (size - 1)), 0.8)
        XCTAssertGreaterThan(Double(down) / Double(size * (size - 1)), 0.8)
    }

    /// The error is carried in linear light: sRGB 128 is 21.6 % of white's light, so about a
    /// fifth of its dots are white (an sRGB-space dither would make half of them white, and the
    /// grey look far too light from a distance).
    func testTheErrorIsCarriedInLinearLight() {
        let size = 64
        let indices = EInkQuantizer.quantize(rgba: flat(RGB(128, 128, 128), width: size, height: size), width: size, height: size,
                                             palette: .mono)
        let white = Double(indices.filter { $0 == 1 }.count) / Double(indices.count)
        XCTAssertEqual(white, 0.216, accuracy: 0.04)
    }

    /// sRGB 8-bit → linear light (0…1).
    func linear(_ code: UInt8) -> Double {
        let v = Double(code) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// linear light (0…1) → sRGB 8-bit.
    func srgb(_ value: Double) -> UInt8 {
        let v = value <= 0.0031308 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055
        return UInt8((min(1, max(0, v)) * 255).rounded())
    }

    /// A flat colour the palette can mix dithers to dots whose average light is that colour's,
    /// channel by channel: no hue creeps in (greys on the colour panels stay grey).
    func testDitheredColoursAverageToTheirOwnLight() {
        let size = 96
        var cases: [(EInkPalette, RGB)] = []
        for palette in EInkPalette.builtIn {
            // Greys between the palette's black and white, and a colour halfway (in light)
            // between two of its colours, so inside what it can mix.
            cases += [RGB(60, 60, 60), RGB(146, 146, 146), RGB(190, 190, 190)].map { (palette, $0) }
            let a = palette.colours[palette.colours.count - 2], b = palette.colours[palette.colours.count - 1]
            let half = { (x: UInt8, y: UInt8) -> UInt8 in self.srgb((self.linear(x) + self.linear(y)) / 2) }
            cases.append((palette, RGB(half(a.r, b.r), half(a.g, b.g), half(a.b, b.b))))
        }
        for (palette, colour) in cases {
            let indices = EInkQuantizer.quantize(rgba: flat(colour, width: size, height: size), width: size, height: size, palette: palette)
            var sums = [0.0, 0.0, 0.0]
            for index in indices {
                let dot = palette.colours[Int(index)]
                sums[0] += linear(dot.r)
                sums[1] += linear(dot.g)
                sums[2] += linear(dot.b)
            }
            let expected = [linear(colour.r), linear(colour.g), linear(colour.b)]
            for channel in 0..<3 {
                XCTAssertEqual(sums[channel] / Double(indices.count), expected[channel], accuracy: 0.01,
                               "\(palette.name) \(colour.hex) channel \(channel)")
            }
        }
    }

    /// Inside a text mask over a gradient, every pixel is the palette colour nearest its own: no
    /// error reaches it from the dithered picture around it.
    func testTextPixelsTakeTheirNearestColourExactly() {
        let width = 96, height = 64
        let rgba = picture(width: width, height: height)
        let text = mask(width: width, height: height, body: (20..<60, 10..<40))
        for palette in EInkPalette.builtIn {
            let indices = EInkQuantizer.quantize(rgba: rgba, width: width, height: height, palette: palette, textMask: text)
            var checked = 0
            for p in 0..<(width * height) where text[p] != 0 {
                XCTAssertEqual(indices[p], EInkQuantizer.nearest(colour(of: rgba, pixel: p), in: palette), "\(palette.name) pixel \(p)")
                checked += 1
            }
            XCTAssertEqual(checked, 42 * 32)
            // And the picture outside is dithered: a gradient on few colours cannot be flat.
            XCTAssertGreaterThan(Set(indices).count, 1, palette.name)
        }
    }

    /// Text spreads no error: whatever colours lie under the mask, the picture around it comes
    /// out the same.
    func testTextSpreadsNoErrorIntoThePicture() {
        let width = 80, height = 50
        let rgba = picture(width: width, height: height)
        let text = mask(width: width, height: height, body: (15..<50, 12..<30))
        var repainted = rgba
        for p in 0..<(width * height) where text[p] != 0 {
            repainted[4 * p] = 255
            repainted[4 * p + 1] = p % 2 == 0 ? 0 : 255
            repainted[4 * p + 2] = 0
        }
        for palette in EInkPalette.builtIn {
            let before = EInkQuantizer.quantize(rgba: rgba, width: width, height: height, palette: palette, textMask: text)
            let after = EInkQuantizer.quantize(rgba: repainted, width: width, height: height, palette: palette, textMask: text)
            for p in 0..<(width * height) where text[p] == 0 {
                XCTAssertEqual(before[p], after[p], "\(palette.name) pixel \(p)")
            }
        }
    }

    /// Transparent pixels are paper: laid over white before they are matched.
    func testTransparentPixelsAreLaidOverWhite() {
        let rgba = [UInt8](repeating: 0, count: 8 * 8 * 4)
        XCTAssertEqual(EInkQuantizer.quantize(rgba: rgba, width: 8, height: 8, palette: .mono), [UInt8](repeating: 1, count: 64))
        XCTAssertEqual(EInkQuantizer.quantize(rgba: rgba, width: 8, height: 8, palette: .gray4), [UInt8](repeating: 3, count: 64))
    }

    /// A canvas's RGB pixels quantise as the same pixels in RGBA do.
    func testRGBPixelBuffersMatchRGBA() {
        let width = 33, height = 21
        let rgba = picture(width: width, height: height)
        let rgb = rgba.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        let buffer = PixelBuffer(width: width, height: height, channels: 3, bytes: rgb)
        XCTAssertEqual(EInkQuantizer.quantize(buffer, palette: .inky7),
                       EInkQuantizer.quantize(rgba: rgba, width: width, height: height, palette: .inky7))
    }

    func testQuantizingIsDeterministic() throws {
        let width = 120, height = 70
        let rgba = picture(width: width, height: height, seed: 99)
        let text = mask(width: width, height: height, body: (30..<90, 20..<40))
        for palette in EInkPalette.builtIn {
            let first = EInkQuantizer.quantize(rgba: rgba, width: width, height: height, palette: palette, textMask: text)
            let second = EInkQuantizer.quantize(rgba: rgba, width: width, height: height, palette: palette, textMask: text)
            XCTAssertEqual(first, second, palette.name)
            XCTAssertEqual(try IndexedPNG.encode(indices: first, width: width, height: height, palette: palette),
                           try IndexedPNG.encode(indices: second, width: width, height: height, palette: palette), palette.name)
        }
    }

    func testExpandGivesThePaletteColours() {
        XCTAssertEqual(EInkQuantizer.expand(indices: [0, 3, 1], palette: .gray4), [0, 0, 0, 255, 255, 255, 85, 85, 85])
    }

    // MARK: Indexed PNG

    /// The chunk types of `png`, in order.
    func chunkTypes(_ png: [UInt8]) -> [String] {
        var types: [String] = []
        var offset = 8
        while offset + 8 <= png.count {
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self))
            offset += 12 + length
        }
        return types
    }

    /// Each palette's PNG is colour type 3 at the palette's depth, holds nothing but IHDR, PLTE,
    /// IDAT and IEND, and decodes to the palette colour of every pixel's index. Odd widths leave
    /// part of each row's last byte unused at depths under 8.
    func testIndexedPNGRoundTrips() throws {
        let seventeen = EInkPalette(name: "seventeen", colours: (0..<17).map { (i: Int) -> RGB in
            let step = UInt8(i * 15)
            return RGB(step, 255 - step, UInt8(i * 7))
        })
        for palette in EInkPalette.builtIn + [seventeen] {
            for (width, height) in [(13, 7), (1, 1), (64, 3)] {
                let indices = (0..<(width * height)).map { (p: Int) -> UInt8 in UInt8((p * 5 + p / width) % palette.colours.count) }
                let png = try IndexedPNG.encode(indices: indices, width: width, height: height, palette: palette)
                XCTAssertEqual(png[25], 3, "colour type")
                XCTAssertEqual(Int(png[24]), palette.bitDepth, "bit depth")
                let types = chunkTypes(png)
                XCTAssertEqual(types.first, "IHDR")
                XCTAssertEqual(types.dropFirst().first, "PLTE")
                XCTAssertEqual(types.last, "IEND")
                XCTAssertEqual(Set(types.dropFirst(2).dropLast()), ["IDAT"], "\(types)")

                let bitmap = try ImageDecoder.decode(Data(png))
                XCTAssertEqual(bitmap.width, width)
                XCTAssertEqual(bitmap.height, height)
                for y in 0..<height {
                    for x in 0..<width {
                        let pixel = bitmap.rgba(x: x, y: y), expected = palette.colours[Int(indices[y * width + x])]
                        XCTAssertEqual([pixel.r, pixel.g, pixel.b, pixel.a], [expected.r, expected.g, expected.b, 255],
                                       "\(palette.name) \(width)×\(height) pixel (\(x), \(y))")
                    }
                }
            }
        }
        XCTAssertEqual(seventeen.bitDepth, 8)
    }

    func testIndexedPNGRefusesAnIndexPastThePalette() {
        var indices = [UInt8](repeating: 1, count: 12)
        indices[7] = 2
        XCTAssertThrowsError(try IndexedPNG.encode(indices: indices, width: 4, height: 3, palette: .mono)) { error in
            guard case .encode(let reason) = error as? GraphicsError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("(3, 1)") && reason.contains("index 2"), reason)
        }
    }

    // MARK: Palettes and panels

    func testBuiltInPalettesAndPanels() {
        XCTAssertEqual(EInkPalette.builtIn.map(\.name), ["inky7", "spectra6", "gray4", "mono"])
        XCTAssertEqual(EInkPalette.builtIn.map(\.bitDepth), [4, 4, 2, 1])
        XCTAssertEqual(EInkPalette.builtIn.map(\.colours.count), [7, 6, 4, 2])
        XCTAssertEqual(EInkPalette.named("Spectra6"), .spectra6)
        XCTAssertNil(EInkPalette.named("cmyk"))
        XCTAssertEqual(EInkPalette.inky7.colours[6], RGB(216, 123, 36))
        XCTAssertEqual(EInkPalette.spectra6.colours[1], RGB(208, 209, 210))
        for palette in EInkPalette.builtIn {
            XCTAssertEqual(Set(palette.colours).count, palette.colours.count, "\(palette.name) repeats a colour")
        }

        let panel = EInkPanel.named("inky-impression-7.3")
        XCTAssertEqual(panel?.width, 800)
        XCTAssertEqual(panel?.height, 480)
        XCTAssertEqual(panel?.palette, .inky7)
        XCTAssertEqual(EInkPanel.named("SPECTRA6-13.3")?.width, 1600)
        XCTAssertEqual(EInkPanel.named("waveshare-7.5")?.palette, .mono)
        XCTAssertEqual(Set(EInkPanel.builtIn.map(\.name)).count, EInkPanel.builtIn.count)
        XCTAssertNil(EInkPanel.named("inky"))
    }

    func testPaletteFilesParse() throws {
        let text = """
        // A panel's inks, index order.
        # black and white first
        #1c181c
        FFFFFF   // paper
        \t29, 173,35\t

        #
        #1E1DAE
        """
        let palette = try EInkPalette.parse(text, name: "mine")
        XCTAssertEqual(palette.name, "mine")
        XCTAssertEqual(palette.colours, [RGB(28, 24, 28), RGB(255, 255, 255), RGB(29, 173, 35), RGB(30, 29, 174)])
        XCTAssertEqual(palette.bitDepth, 2)
        // CRLF line ends, no final newline, the least and the most colours.
        XCTAssertEqual(try EInkPalette.parse("0,0,0\r\n255,255,255", name: "crlf").colours, [RGB(0, 0, 0), RGB(255, 255, 255)])
        let sixteen = (0..<16).map { "\($0 * 16),0,0" }.joined(separator: "\n")
        XCTAssertEqual(try EInkPalette.parse(sixteen, name: "sixteen").bitDepth, 4)
    }

    /// What `parse` threw for `text`, nil if it parsed.
    func parseError(_ text: String) -> EInkPaletteError? {
        do throws(EInkPaletteError) {
            _ = try EInkPalette.parse(text, name: "hostile")
            return nil
        } catch {
            return error
        }
    }

    func testHostilePaletteFilesAreRefused() {
        XCTAssertEqual(parseError(""), .tooFew(0))
        XCTAssertEqual(parseError("# only a comment\n\n"), .tooFew(0))
        XCTAssertEqual(parseError("#000000"), .tooFew(1))
        XCTAssertEqual(parseError((0..<17).map { "\($0),\($0),\($0)" }.joined(separator: "\n")), .tooMany(17))
        XCTAssertEqual(parseError("#000000\n#ffffff\n0,0,0"), .duplicate(line: 3))
        XCTAssertEqual(parseError("#abcdef\n\n#ABCDEF"), .duplicate(line: 3))
        for bad in ["#fff", "#1234567", "GGGGGG", "256,0,0", "-1,0,0", "1,2", "1,2,3,4", "1,,3", "0x10,0,0", "+1,2,3",
                    "#00000g", "١,٢,٣", "#ｆｆｆｆｆｆ", "white", "#\u{1B}[31m", "1 2 3"] {
            XCTAssertEqual(parseError("#000000\n\(bad)\n#ffffff"), .badColour(line: 2, text: bad), bad)
        }
        // Long lines are cut in the error, which stays one line whatever the file holds.
        let long = String(repeating: "z", count: 500)
        XCTAssertEqual(parseError(long), .badColour(line: 1, text: String(repeating: "z", count: 40)))
        XCTAssertFalse(EInkPaletteError.badColour(line: 2, text: "a\u{1B}b\rc").description.contains { $0.isNewline || $0 == "\u{1B}" })

        // Size is checked first: a file of nothing but comments is still refused when too large.
        let oversized = String(repeating: "// padding\n", count: 373)
        XCTAssertEqual(parseError(oversized), .tooLarge(bytes: oversized.utf8.count))
        XCTAssertGreaterThan(oversized.utf8.count, EInkPalette.maxFileBytes)
        XCTAssertNil(parseError("0,0,0\n255,255,255\n" + String(repeating: "/", count: EInkPalette.maxFileBytes - 18)))

        for error in [EInkPaletteError.tooLarge(bytes: 5000), .badColour(line: 1, text: "x"), .tooFew(1), .tooMany(20), .duplicate(line: 4)] {
            XCTAssertFalse(error.description.isEmpty)
            XCTAssertFalse(error.description.contains("\n"))
        }
    }
}
