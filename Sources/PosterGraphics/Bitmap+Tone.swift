import Foundation

extension Bitmap {
    /// A copy with every opaque pixel's saturation scaled by `factor` (1 = unchanged) around its
    /// own luma, as CSS `saturate()` does: a backdrop keeps the cover's hue and gains life.
    public func saturated(by factor: Double) -> Bitmap {
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
    public var hasTransparency: Bool {
        let step = max(1, min(width, height) / 128)
        for y in Swift.stride(from: 0, to: height, by: step) {
            for x in Swift.stride(from: 0, to: width, by: step) where argb(x: x, y: y) >> 24 < 255 { return true }
        }
        return false
    }

    /// For each row, the largest (`brightest`) or smallest value of each of the red, green and
    /// blue channels (straight, 0…255) over the columns `x0..<x1`: a colour at least as extreme
    /// as every pixel of the row, for bounding contrast without looking at each pixel again.
    public func rowExtremes(x0: Int, x1: Int, brightest: Bool) -> [(r: Double, g: Double, b: Double)] {
        let x0 = max(0, x0), x1 = min(width, x1)
        let rowWords = stride / 4
        return pixels.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            return (0..<height).map { y in
                var r: UInt32 = brightest ? 0 : 255, g = r, b = r
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
