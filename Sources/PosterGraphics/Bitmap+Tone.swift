import Foundation
import CPixels

extension Bitmap {
    /// A copy with every opaque pixel's saturation scaled by `factor` (1 = unchanged) around its
    /// own luma, as CSS `saturate()` does: a backdrop keeps the cover's hue and gains life.
    package func saturated(by factor: Double) -> Bitmap {
        var out = self
        let k = factor
        out.pixels.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            for i in words.indices {
                let v = words[i]
                let a = Double(v >> 24)
                guard a > 0 else { continue }
                let r = Double((v >> 16) & 0xff), g = Double((v >> 8) & 0xff), b = Double(v & 0xff)
                let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
                func channel(_ c: Double) -> UInt32 { UInt32(min(a, max(0, (luma + (c - luma) * k).rounded()))) }
                words[i] = (v & 0xff00_0000) | channel(r) << 16 | channel(g) << 8 | channel(b)
            }
        }
        return out
    }

    /// True when some pixel is not fully opaque (sampled on a grid of about 128×128).
    package var hasTransparency: Bool {
        let step = max(1, min(width, height) / 128)
        for y in Swift.stride(from: 0, to: height, by: step) {
            for x in Swift.stride(from: 0, to: width, by: step) where argb(x: x, y: y) >> 24 < 255 { return true }
        }
        return false
    }

    /// For each row, the most colourful pixel's chroma — max(r, g, b) − min(r, g, b), 0…1 — over
    /// the columns `x0..<x1` (every other column: backdrops are smooth).
    package func rowChroma(x0: Int, x1: Int, rows: Range<Int>? = nil) -> [Double] {
        let x0 = max(0, x0), x1 = min(width, x1)
        let rows = (rows ?? 0..<height).clamped(to: 0..<height)
        return (0..<height).map { y in
            guard rows.contains(y) else { return 0 }
            var most = 0
            for x in Swift.stride(from: x0, to: x1, by: 2) {
                let p = rgba(x: x, y: y)
                most = max(most, Int(max(p.r, p.g, p.b)) - Int(min(p.r, p.g, p.b)))
            }
            return Double(most) / 255
        }
    }

    /// For each row, the largest (`brightest`) or smallest value of each of the red, green and
    /// blue channels (straight, 0…255) over the columns `x0..<x1`: a colour at least as extreme
    /// as every pixel of the row, for bounding contrast without looking at each pixel again.
    /// Rows outside `rows` (default: all) are not read and hold the neutral extreme.
    package func rowExtremes(x0: Int, x1: Int, rows: Range<Int>? = nil, brightest: Bool) -> [(r: Double, g: Double, b: Double)] {
        let x0 = max(0, x0), x1 = max(x0, min(width, x1))
        let rows = (rows ?? 0..<height).clamped(to: 0..<height)
        let neutral: Double = brightest ? 0 : 255
        var out = [(r: Double, g: Double, b: Double)](repeating: (neutral, neutral, neutral), count: height)
        guard !rows.isEmpty else { return out }
        var bytes = [UInt8](repeating: 0, count: rows.count * 3)
        pixels.withUnsafeBytes { raw in
            bytes.withUnsafeMutableBufferPointer { o in
                lp_row_extremes(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), stride, Int32(x0), Int32(x1),
                                Int32(rows.lowerBound), Int32(rows.upperBound), brightest ? 1 : 0, o.baseAddress!)
            }
        }
        for (i, y) in rows.enumerated() { out[y] = (Double(bytes[3 * i]), Double(bytes[3 * i + 1]), Double(bytes[3 * i + 2])) }
        return out
    }

    /// `rowExtremes(x0:x1:rows:brightest:)` pixel by pixel in Swift: the reference the C loop is
    /// held to.
    package func rowExtremesReference(x0: Int, x1: Int, rows: Range<Int>? = nil, brightest: Bool) -> [(r: Double, g: Double, b: Double)] {
        let x0 = max(0, x0), x1 = min(width, x1)
        let rows = (rows ?? 0..<height).clamped(to: 0..<height)
        let rowWords = stride / 4
        return pixels.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            return (0..<height).map { y in
                var r: UInt32 = brightest ? 0 : 255, g = r, b = r
                guard rows.contains(y) else { return (Double(r), Double(g), Double(b)) }
                for x in Swift.stride(from: x0, to: x1, by: 1) {
                    var v = words[y * rowWords + x]
                    if v >> 24 != 255 {
                        let p = rgba(x: x, y: y)
                        v = UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b)
                    }
                    let pr = (v >> 16) & 0xff, pg = (v >> 8) & 0xff, pb = v & 0xff
                    if brightest {
                        r = max(r, pr); g = max(g, pg); b = max(b, pb)
                    } else {
                        r = min(r, pr); g = min(g, pg); b = min(b, pb)
                    }
                }
                return (Double(r), Double(g), Double(b))
            }
        }
    }
}

extension Bitmap {
    /// The picture inside a plain frame: where a cover has a band of one flat colour along an
    /// edge (a border, a letterbox), at most `limit` of its side deep and ending in a hard step to
    /// the picture, the rectangle without those bands (x, y, width, height). The whole bitmap
    /// when it has none. An edge that is simply flat (a plain sky) is not a frame: the band must
    /// end within the limit.
    package func frameFreeRect(limit: Double = 0.08) -> (x: Int, y: Int, width: Int, height: Int) {
        // A line's colour and spread, from about 64 samples along it.
        func line(_ index: Int, horizontal: Bool) -> (mean: (Double, Double, Double), spread: Double) {
            let length = horizontal ? width : height
            let step = max(1, length / 64)
            var sum = (0.0, 0.0, 0.0), lo = (255.0, 255.0, 255.0), hi = (0.0, 0.0, 0.0), n = 0.0
            for k in Swift.stride(from: 0, to: length, by: step) {
                let p = horizontal ? rgba(x: k, y: index) : rgba(x: index, y: k)
                let c = (Double(p.r), Double(p.g), Double(p.b))
                sum = (sum.0 + c.0, sum.1 + c.1, sum.2 + c.2)
                lo = (min(lo.0, c.0), min(lo.1, c.1), min(lo.2, c.2))
                hi = (max(hi.0, c.0), max(hi.1, c.1), max(hi.2, c.2))
                n += 1
            }
            return ((sum.0 / n, sum.1 / n, sum.2 / n), max(hi.0 - lo.0, hi.1 - lo.1, hi.2 - lo.2))
        }
        func distance(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
            abs(a.0 - b.0) + abs(a.1 - b.1) + abs(a.2 - b.2)
        }
        /// How many lines from one edge belong to a frame.
        func depth(count: Int, horizontal: Bool, index: (Int) -> Int) -> Int {
            let maximum = Int(Double(count) * limit)
            guard count > 16, maximum >= 1 else { return 0 }
            let edge = line(index(0), horizontal: horizontal)
            guard edge.spread <= 24 else { return 0 }
            for k in 1...maximum {
                let l = line(index(k), horizontal: horizontal)
                if l.spread <= 24, distance(l.mean, edge.mean) <= 24 { continue }
                // The band ends here: a frame only if the picture steps away from its colour.
                return distance(l.mean, edge.mean) > 60 ? k : 0
            }
            return 0
        }
        let top = depth(count: height, horizontal: true) { $0 }
        let bottom = depth(count: height, horizontal: true) { self.height - 1 - $0 }
        let left = depth(count: width, horizontal: false) { $0 }
        let right = depth(count: width, horizontal: false) { self.width - 1 - $0 }
        let w = width - left - right, h = height - top - bottom
        guard w > width / 2, h > height / 2 else { return (0, 0, width, height) }
        return (left, top, w, h)
    }

    /// A copy of the rectangle (x, y, width, height), which must lie inside the bitmap.
    package func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Bitmap {
        precondition(x >= 0 && y >= 0 && w > 0 && h > 0 && x + w <= width && y + h <= height)
        if x == 0, y == 0, w == width, h == height { return self }
        var bytes = [UInt8](repeating: 0, count: w * 4 * h)
        pixels.withUnsafeBytes { source in
            bytes.withUnsafeMutableBytes { target in
                for row in 0..<h {
                    let from = (y + row) * stride + x * 4
                    target.baseAddress!.advanced(by: row * w * 4).copyMemory(from: source.baseAddress!.advanced(by: from), byteCount: w * 4)
                }
            }
        }
        return Bitmap(width: w, height: h, stride: w * 4, pixels: bytes)
    }
}
