import Foundation

/// Reduces a rendered poster to an e-ink panel's few colours: Floyd–Steinberg error diffusion in
/// linear light for the picture, the plain nearest colour for text, so that glyphs stay crisp.
///
/// Every result is one palette index per pixel, row-major, for `IndexedPNG.encode` or a driver.
/// After a 256-entry sRGB decode table the arithmetic is integer (linear light as 16-bit fixed
/// point), so the same input gives the same bytes whatever the build's optimisation; nothing is
/// random, threaded or kept between calls.
package enum EInkQuantizer {
    /// Quantises straight (not premultiplied) RGBA8 pixels, `width * 4` bytes a row, to indices
    /// into `palette.colours`.
    ///
    /// - Pixels that are not opaque are first laid over white (the panel's paper), as a viewer
    ///   shows a transparent PNG.
    /// - `textMask`: `width * height` coverages (0–255) of text and glyph pixels, nil for none.
    ///   A pixel of any coverage (1–127 is an anti-aliased edge, 128–255 the glyph's body) takes
    ///   the palette colour nearest its own, receives no diffused error (what would flow into it
    ///   is dropped) and spreads none: the picture around it dithers as if the text were a hole,
    ///   and the text is never speckled.
    /// - Traps if `rgba` or `textMask` is not the size `width` and `height` give.
    package static func quantize(rgba: UnsafeBufferPointer<UInt8>, width: Int, height: Int, palette: EInkPalette,
                                textMask: [UInt8]? = nil) -> [UInt8] {
        precondition(width >= 0 && height >= 0 && rgba.count == width * height * 4, "rgba must hold width × height × 4 bytes")
        return diffuse(pixels: rgba, channels: 4, width: width, height: height, palette: palette, textMask: textMask)
    }

    /// `quantize(rgba:width:height:palette:textMask:)` on an array.
    package static func quantize(rgba: [UInt8], width: Int, height: Int, palette: EInkPalette,
                                textMask: [UInt8]? = nil) -> [UInt8] {
        rgba.withUnsafeBufferPointer { quantize(rgba: $0, width: width, height: height, palette: palette, textMask: textMask) }
    }

    /// Quantises a canvas's packed pixels (`Canvas.pixels(opaque:)`: RGB, or straight RGBA laid
    /// over white), as `quantize(rgba:width:height:palette:textMask:)` does.
    package static func quantize(_ pixels: PixelBuffer, palette: EInkPalette, textMask: [UInt8]? = nil) -> [UInt8] {
        precondition(pixels.channels == 3 || pixels.channels == 4, "pixels must be RGB or RGBA")
        return pixels.bytes.withUnsafeBufferPointer {
            diffuse(pixels: $0, channels: pixels.channels, width: pixels.width, height: pixels.height, palette: palette, textMask: textMask)
        }
    }

    /// The index of the palette colour nearest `colour`, as the quantiser picks it for a text
    /// pixel: the smallest squared distance in linear light, the lowest index on a tie. Builds
    /// its tables each call: for tests and single look-ups, not for loops.
    package static func nearest(_ colour: RGB, in palette: EInkPalette) -> UInt8 {
        let decode = makeDecodeTable()
        let linear = LinearPalette(palette, decode: decode)
        return UInt8(linear.nearest(decode[Int(colour.r)], decode[Int(colour.g)], decode[Int(colour.b)]))
    }

    /// Packed RGB8 of `indices` (each below `palette.colours.count`, else this traps): a preview
    /// of what the panel will show.
    package static func expand(indices: [UInt8], palette: EInkPalette) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: indices.count * 3)
        for (i, index) in indices.enumerated() {
            let colour = palette.colours[Int(index)]
            out[3 * i] = colour.r
            out[3 * i + 1] = colour.g
            out[3 * i + 2] = colour.b
        }
        return out
    }

    // MARK: - Linear light

    /// Full scale of linear light in fixed point: 16 bits give the darkest sRGB codes distinct,
    /// even steps (1, 2, 3 → 20, 40, 60; at 8 bits all three would be 0), and every sum of a
    /// value and its share of error still fits Int32 (squared distances go to Int64).
    static let one: Int32 = 65535

    /// sRGB 8-bit → linear light (IEC 61966-2-1), 0…`one`, rounded: 256 entries.
    static func makeDecodeTable() -> [Int32] {
        (0..<256).map { code -> Int32 in
            let v = Double(code) / 255
            let linear = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
            return Int32((linear * Double(one)).rounded())
        }
    }

    /// A palette in linear light, with what matching against it needs.
    struct LinearPalette {
        let red: [Int32], green: [Int32], blue: [Int32]
        /// The palette's per-channel range. Diffusion clamps each accumulated value into it: a
        /// value beyond every colour (white brighter than a Spectra panel's grey-white, say) can
        /// never be reached, and its error, carried on, would only bleed into the next pixels
        /// and grow without bound.
        let low: (Int32, Int32, Int32), high: (Int32, Int32, Int32)

        init(_ palette: EInkPalette, decode: [Int32]) {
            red = palette.colours.map { decode[Int($0.r)] }
            green = palette.colours.map { decode[Int($0.g)] }
            blue = palette.colours.map { decode[Int($0.b)] }
            low = (red.min() ?? 0, green.min() ?? 0, blue.min() ?? 0)
            high = (red.max() ?? one, green.max() ?? one, blue.max() ?? one)
        }

        /// The index of the colour nearest (r, g, b), lowest index on a tie.
        ///
        /// Plain (unweighted) squared distance in linear light. Weighting by Rec. 709 luminance
        /// (0.2126, 0.7152, 0.0722) was tried and dropped: it gives blue so little say that a
        /// blue deficit is never repaid before the clamp above discards it, and greys on the
        /// Inky palette came out yellow-green (sRGB 146 grey averaged 146,146,68 in light; plain
        /// distance gives 146,146,146). Its one gain, a calmer dot pattern, is not worth a
        /// wrong hue.
        func nearest(_ r: Int32, _ g: Int32, _ b: Int32) -> Int {
            var best = 0
            var bestDistance = Int64.max
            for i in red.indices {
                let dr = Int64(r - red[i]), dg = Int64(g - green[i]), db = Int64(b - blue[i])
                let distance = dr * dr + dg * dg + db * db
                if distance < bestDistance {
                    bestDistance = distance
                    best = i
                }
            }
            return best
        }
    }

    // MARK: - Gamut

    /// Moves colours the palette cannot mix into the nearest mixture it can (the nearest point of
    /// the palette's convex hull), before diffusion. Error diffusion only reproduces what lies
    /// inside the hull: a colour outside (cyan on a Spectra 6 panel, any saturated colour on a
    /// grey one) picks the same nearest colour at every pixel, its error thrown away by the clamp,
    /// and a cyan sky becomes a white page. Distances are weighed by luminance on a grey palette
    /// (a red keeps its brightness in greys), evenly on a colour one (as ``LinearPalette/nearest``).
    ///
    /// A colour inside the hull is left exactly as it is. Worked out once per distinct colour.
    struct Gamut {
        typealias Point = (Double, Double, Double)
        /// The palette in linear light, each channel scaled by the square root of its weight, so
        /// that plain Euclidean geometry here is the weighted distance.
        let points: [Point]
        let scale: Point
        /// Outward facets of the hull (a point and a normal), when it has a volume; empty for a
        /// flat or straight one (a grey palette), where every triangle and segment is tried.
        let facets: [(Point, Point)]
        private var moved: [Int: (Int32, Int32, Int32)] = [:]

        init(_ linear: LinearPalette, palette: EInkPalette) {
            let grey = palette.colours.allSatisfy { $0.r == $0.g && $0.g == $0.b }
            let w: Point = grey ? (0.2126, 0.7152, 0.0722) : (1, 1, 1)
            scale = (w.0.squareRoot(), w.1.squareRoot(), w.2.squareRoot())
            let scale = self.scale
            let points = linear.red.indices.map {
                (Double(linear.red[$0]) * scale.0, Double(linear.green[$0]) * scale.1, Double(linear.blue[$0]) * scale.2)
            }
            self.points = points
            self.facets = Self.facets(of: points)
        }

        /// The outward facets of the hull of `points`, or none when it has no volume.
        static func facets(of points: [Point]) -> [(Point, Point)] {
            var facets: [(Point, Point)] = []
            let n = points.count
            let one = Double(EInkQuantizer.one)
            for i in 0..<n { for j in (i + 1)..<max(i + 1, n) { for k in (j + 1)..<max(j + 1, n) {
                var normal = cross(minus(points[j], points[i]), minus(points[k], points[i]))
                let length = dot(normal, normal).squareRoot()
                guard length > 1e-6 * one * one else { continue }
                normal = (normal.0 / length, normal.1 / length, normal.2 / length)
                let sides = points.map { dot(normal, minus($0, points[i])) }
                if sides.allSatisfy({ $0 <= 1e-4 * one }) {
                    facets.append((points[i], normal))
                } else if sides.allSatisfy({ $0 >= -1e-4 * one }) {
                    facets.append((points[i], (-normal.0, -normal.1, -normal.2)))
                }
            } } }
            // Facets only describe a hull with a volume: some point must lie well inside a plane.
            let solid = facets.contains { f in points.contains { dot(f.1, minus($0, f.0)) < -1e-2 * one } }
            return solid ? facets : []
        }

        /// (r, g, b) in linear light, moved into the hull.
        mutating func map(_ r: Int32, _ g: Int32, _ b: Int32) -> (Int32, Int32, Int32) {
            let key = Int(r) << 32 | Int(g) << 16 | Int(b)
            if let known = moved[key] { return known }
            let c: Point = (Double(r) * scale.0, Double(g) * scale.1, Double(b) * scale.2)
            let mapped: (Int32, Int32, Int32)
            if !facets.isEmpty, facets.allSatisfy({ Self.dot($0.1, Self.minus(c, $0.0)) <= 0 }) {
                mapped = (r, g, b)
            } else {
                let p = closest(c)
                mapped = (Int32((p.0 / scale.0).rounded()), Int32((p.1 / scale.1).rounded()), Int32((p.2 / scale.2).rounded()))
            }
            moved[key] = mapped
            return mapped
        }

        /// The point of the hull nearest `c`: the nearest of its vertices, edges and triangles.
        func closest(_ c: Point) -> Point {
            var best = points[0]
            var bestDistance = Double.infinity
            func consider(_ q: Point) {
                let d = Self.minus(q, c)
                let distance = Self.dot(d, d)
                if distance < bestDistance { bestDistance = distance; best = q }
            }
            let n = points.count
            for i in 0..<n {
                consider(points[i])
                for j in (i + 1)..<max(i + 1, n) {
                    consider(Self.onSegment(c, points[i], points[j]))
                    for k in (j + 1)..<max(j + 1, n) { consider(Self.onTriangle(c, points[i], points[j], points[k])) }
                }
            }
            return best
        }

        static func minus(_ a: Point, _ b: Point) -> Point { (a.0 - b.0, a.1 - b.1, a.2 - b.2) }
        static func dot(_ a: Point, _ b: Point) -> Double { a.0 * b.0 + a.1 * b.1 + a.2 * b.2 }
        static func cross(_ a: Point, _ b: Point) -> Point { (a.1 * b.2 - a.2 * b.1, a.2 * b.0 - a.0 * b.2, a.0 * b.1 - a.1 * b.0) }
        static func along(_ a: Point, _ d: Point, _ t: Double) -> Point { (a.0 + t * d.0, a.1 + t * d.1, a.2 + t * d.2) }

        static func onSegment(_ c: Point, _ a: Point, _ b: Point) -> Point {
            let d = minus(b, a)
            let length = dot(d, d)
            guard length > 0 else { return a }
            return along(a, d, min(1, max(0, dot(minus(c, a), d) / length)))
        }

        /// The point of triangle abc nearest `c` (Ericson, Real-Time Collision Detection 5.1.5).
        static func onTriangle(_ p: Point, _ a: Point, _ b: Point, _ c: Point) -> Point {
            let ab = minus(b, a), ac = minus(c, a), ap = minus(p, a)
            let d1 = dot(ab, ap), d2 = dot(ac, ap)
            if d1 <= 0, d2 <= 0 { return a }
            let bp = minus(p, b)
            let d3 = dot(ab, bp), d4 = dot(ac, bp)
            if d3 >= 0, d4 <= d3 { return b }
            let vc = d1 * d4 - d3 * d2
            if vc <= 0, d1 >= 0, d3 <= 0 { return along(a, ab, d1 / (d1 - d3)) }
            let cp = minus(p, c)
            let d5 = dot(ab, cp), d6 = dot(ac, cp)
            if d6 >= 0, d5 <= d6 { return c }
            let vb = d5 * d2 - d1 * d6
            if vb <= 0, d2 >= 0, d6 <= 0 { return along(a, ac, d2 / (d2 - d6)) }
            let va = d3 * d6 - d5 * d4
            if va <= 0, d4 - d3 >= 0, d5 - d6 >= 0 { return along(b, minus(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6))) }
            let total = va + vb + vc
            guard total != 0 else { return a }
            let v = vb / total, w = vc / total
            return (a.0 + ab.0 * v + ac.0 * w, a.1 + ab.1 * v + ac.1 * w, a.2 + ab.2 * v + ac.2 * w)
        }
    }

    // MARK: - Diffusion

    /// Floyd–Steinberg over `pixels` (`channels` 3 or 4 bytes each, straight alpha), serpentine:
    /// even rows left to right, odd rows right to left, so the error's drift does not pile up
    /// along one side.
    ///
    /// The error goes 7/16 ahead, 3/16 behind-below, 5/16 below, 1/16 ahead-below, in linear
    /// light, where mixing dots averages as the eye does (sRGB 128 on a black-and-white panel is
    /// about 22 % white dots, not 50 %). Only two rows of error are kept, each with a slot of
    /// padding either side where error leaving the picture falls away.
    static func diffuse(pixels: UnsafeBufferPointer<UInt8>, channels: Int, width: Int, height: Int, palette: EInkPalette,
                        textMask: [UInt8]?) -> [UInt8] {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * channels, "pixels do not match the size")
        precondition(textMask.map { $0.count == width * height } ?? true, "textMask must hold width × height coverages")
        let count = width * height
        guard count > 0 else { return [] }
        let decode = makeDecodeTable()
        let linear = LinearPalette(palette, decode: decode)
        var gamut = Gamut(linear, palette: palette)
        let mask = textMask ?? []
        let hasMask = textMask != nil
        // Two rows of error slots, row y's from (y % 2) * rowSlots; pixel x's channel c at
        // (x + 1) * 3 + c within it (slots 0-2 and the last three are the padding).
        let rowSlots = (width + 2) * 3
        var errors = [Int32](repeating: 0, count: 2 * rowSlots)
        var out = [UInt8](repeating: 0, count: count)

        errors.withUnsafeMutableBufferPointer { errors in
            for y in 0..<height {
                let forward = y % 2 == 0
                let ahead = forward ? 3 : -3
                let here = (y % 2) * rowSlots, below = rowSlots - here
                for step in 0..<width {
                    let x = forward ? step : width - 1 - step
                    let p = y * width + x
                    let (r, g, b) = decodePixel(pixels, at: p * channels, channels: channels, table: decode)
                    if hasMask, mask[p] != 0 {
                        // Text: its own nearest colour; the error waiting in its slot is dropped.
                        out[p] = UInt8(linear.nearest(r, g, b))
                        continue
                    }
                    let slot = (x + 1) * 3
                    let (mr, mg, mb) = gamut.map(r, g, b)
                    let vr = clamp(mr + errors[here + slot], linear.low.0, linear.high.0)
                    let vg = clamp(mg + errors[here + slot + 1], linear.low.1, linear.high.1)
                    let vb = clamp(mb + errors[here + slot + 2], linear.low.2, linear.high.2)
                    let index = linear.nearest(vr, vg, vb)
                    out[p] = UInt8(index)
                    spread(vr - linear.red[index], into: errors, channel: here + slot, ahead: ahead, below: below - here)
                    spread(vg - linear.green[index], into: errors, channel: here + slot + 1, ahead: ahead, below: below - here)
                    spread(vb - linear.blue[index], into: errors, channel: here + slot + 2, ahead: ahead, below: below - here)
                }
                // This row's slots become the row after next's: start them empty.
                for i in here..<(here + rowSlots) { errors[i] = 0 }
            }
        }
        return out
    }

    /// Pixel `offset`'s colour in linear light, laid over white first if it is not opaque (in
    /// sRGB, as a viewer blends it).
    @inline(__always)
    static func decodePixel(_ pixels: UnsafeBufferPointer<UInt8>, at offset: Int, channels: Int,
                            table: [Int32]) -> (Int32, Int32, Int32) {
        var r = Int(pixels[offset]), g = Int(pixels[offset + 1]), b = Int(pixels[offset + 2])
        if channels == 4 {
            let a = Int(pixels[offset + 3])
            if a != 255 {
                let paper = 255 * (255 - a)
                r = (r * a + paper + 127) / 255
                g = (g * a + paper + 127) / 255
                b = (b * a + paper + 127) / 255
            }
        }
        return (table[r], table[g], table[b])
    }

    @inline(__always)
    static func clamp(_ value: Int32, _ low: Int32, _ high: Int32) -> Int32 { min(max(value, low), high) }

    /// Shares `error` out from slot `channel` (in the current row) with Floyd–Steinberg's
    /// weights: `ahead` slots along the row, `below` slots down to the next row. Rounded, with
    /// the 1/16 share taking what rounding left so that no error is made or lost.
    @inline(__always)
    static func spread(_ error: Int32, into errors: UnsafeMutableBufferPointer<Int32>, channel: Int, ahead: Int, below: Int) {
        guard error != 0 else { return }
        let seven = (error * 7 + 8) >> 4, three = (error * 3 + 8) >> 4, five = (error * 5 + 8) >> 4
        errors[channel + ahead] += seven
        errors[channel + below - ahead] += three
        errors[channel + below] += five
        errors[channel + below + ahead] += error - seven - three - five
    }
}
