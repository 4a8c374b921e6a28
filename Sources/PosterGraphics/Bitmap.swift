import CPixels
import Glibc
/// Pixels in Cairo's `CAIRO_FORMAT_ARGB32` layout: premultiplied alpha, one native-endian
/// `UInt32` per pixel (`0xAARRGGBB`), rows `stride` bytes apart.
///
/// A value type: decoders return one, the renderer prepares one per song and paints it into every
/// frame, and tests read its pixels.
package struct Bitmap: Sendable, Equatable {
    package let width: Int
    package let height: Int
    package let stride: Int
    package internal(set) var pixels: [UInt8]

    /// A transparent bitmap.
    package init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "bitmap must not be empty")
        self.width = width
        self.height = height
        self.stride = width * 4
        self.pixels = LargeBuffers.bytes(width * 4 * height) { memset($0, 0, width * 4 * height) }
    }

    package init(width: Int, height: Int, stride: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && stride >= width * 4 && pixels.count >= stride * height)
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
    }

    /// The part `source` (in this bitmap's pixels; beyond its edges, the edge pixels repeat)
    /// reduced to `width`×`height` by area averaging: each pixel the mean of the area it covers.
    /// Nil for sizes it cannot take.
    package func areaReduced(source: Rect, width w: Int, height h: Int) -> Bitmap? {
        guard w > 0, h > 0, w <= 32767, h <= 32767 else { return nil }
        var out = Bitmap(width: w, height: h)
        let status = out.pixels.withUnsafeMutableBytes { dst in
            pixels.withUnsafeBytes { src in
                lp_area_reduce_argb32(src.baseAddress!.assumingMemoryBound(to: UInt8.self), stride, Int32(width), Int32(height),
                                      source.x, source.y, source.width, source.height,
                                      dst.baseAddress!.assumingMemoryBound(to: UInt8.self), out.stride, Int32(w), Int32(h))
            }
        }
        return status == 0 ? out : nil
    }

    /// `color` (its opacity times each pixel's) through this bitmap's alpha, premultiplied: a
    /// mask turned into a picture of one colour.
    package func tinted(_ color: Color) -> Bitmap {
        func byte(_ v: Double) -> UInt32 { UInt32((min(1, max(0, v)) * 255).rounded()) }
        let alpha = byte(color.alpha), red = byte(color.red), green = byte(color.green), blue = byte(color.blue)
        // A pixel depends only on the mask's alpha there: one table of the 256 it can be.
        var table = [UInt32](repeating: 0, count: 256)
        for m in 0..<256 {
            let a = (UInt32(m) * alpha + 127) / 255
            table[m] = a << 24 | ((red * a + 127) / 255) << 16 | ((green * a + 127) / 255) << 8 | (blue * a + 127) / 255
        }
        let outStride = width * 4
        let pixels = LargeBuffers.bytes(outStride * height) { dst in
            self.pixels.withUnsafeBufferPointer { src in
                table.withUnsafeBufferPointer { table in
                    let out = UnsafeMutableRawPointer(dst)
                    for y in 0..<height {
                        let from = src.baseAddress! + y * stride + 3, to = out + y * outStride
                        for x in 0..<width {
                            to.storeBytes(of: table[Int(from[4 * x])], toByteOffset: 4 * x, as: UInt32.self)
                        }
                    }
                }
            }
        }
        return Bitmap(width: width, height: height, stride: outStride, pixels: pixels)
    }

    /// The pixel at (x, y) as straight (un-premultiplied) 8-bit RGBA.
    package func rgba(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let v = argb(x: x, y: y)
        let a = UInt32(v >> 24), r = (v >> 16) & 0xff, g = (v >> 8) & 0xff, b = v & 0xff
        guard a != 0 else { return (0, 0, 0, 0) }
        func straight(_ c: UInt32) -> UInt8 { UInt8(min(255, (c * 255 + a / 2) / a)) }
        return (straight(r), straight(g), straight(b), UInt8(a))
    }

    func argb(x: Int, y: Int) -> UInt32 {
        let i = y * stride + x * 4
        return UInt32(pixels[i]) | UInt32(pixels[i + 1]) << 8 | UInt32(pixels[i + 2]) << 16 | UInt32(pixels[i + 3]) << 24
    }

    /// The pixels rotated/flipped by an EXIF orientation (1–8) so that they display upright.
    package func oriented(_ orientation: Int) -> Bitmap {
        guard (2...8).contains(orientation) else { return self }
        let swaps = orientation >= 5
        let outW = swaps ? height : width, outH = swaps ? width : height
        var out = [UInt8](repeating: 0, count: outW * outH * 4)
        pixels.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                let s = src.bindMemory(to: UInt32.self), d = dst.bindMemory(to: UInt32.self)
                let rowWords = stride / 4
                for y in 0..<outH {
                    for x in 0..<outW {
                        // (sx, sy): the stored pixel shown at displayed (x, y).
                        let sx: Int, sy: Int
                        switch orientation {
                        case 2: sx = width - 1 - x; sy = y
                        case 3: sx = width - 1 - x; sy = height - 1 - y
                        case 4: sx = x; sy = height - 1 - y
                        case 5: sx = y; sy = x
                        case 6: sx = y; sy = height - 1 - x
                        case 7: sx = width - 1 - y; sy = height - 1 - x
                        default: sx = width - 1 - y; sy = x  // 8
                        }
                        d[y * outW + x] = s[sy * rowWords + sx]
                    }
                }
            }
        }
        return Bitmap(width: outW, height: outH, stride: outW * 4, pixels: out)
    }

    /// A box blur run three times (close to a Gaussian of the same radius), on all four channels,
    /// or only on alpha when `alphaOnly` (for masks, four times less work).
    /// Works on premultiplied values, so transparent edges blur correctly.
    package func blurred(radius: Int, alphaOnly: Bool = false) -> Bitmap {
        guard radius > 0 else { return self }
        var out = self
        // ARGB32 is native-endian: on little-endian machines alpha is the fourth byte.
        let channels = alphaOnly ? 3..<4 : 0..<4
        // Scratch the C loop fills before it reads: two planes of one channel and a sum per column.
        func scratch<T>(_ count: Int) -> [T] { [T](unsafeUninitializedCapacity: count) { $1 = count } }
        var plane: [UInt8] = scratch(width * height), other: [UInt8] = scratch(width * height)
        var sums: [Int32] = scratch(width)
        out.pixels.withUnsafeMutableBytes { raw in
            lp_box_blur(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(height), stride, Int32(radius),
                        Int32(channels.lowerBound), Int32(channels.upperBound), 3, &plane, &other, &sums)
        }
        return out
    }
}
