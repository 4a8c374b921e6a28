import CPNG
import Foundation

/// PNG reading and writing through libpng (via the `CPNG` C target, which keeps libpng's
/// longjmp-based errors on the C side).
package enum PNG {}

extension PNG {
    enum Decoder {
        /// `fast`: the common case read without libpng first (lp_png_decode_fast: the same pixels,
        /// and libpng for everything it does not take); false only for tests that compare the two.
        static func decode(_ data: Data, limits: DecodeLimits, fast: Bool = true) throws(ImageError) -> Bitmap {
            var info = lp_png_info()
            let headerStatus = data.withUnsafeBytes { raw in
                lp_png_read_header(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &info)
            }
            guard headerStatus == 0 else { throw .malformed(PNG.message(&info.message, fallback: "not a valid PNG file")) }
            let width = Int(info.width), height = Int(info.height)
            // The dimensions come from the header alone: refuse before allocating anything.
            try limits.check(width: width, height: height)

            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let status = data.withUnsafeBytes { raw in
                pixels.withUnsafeMutableBytes { out in
                    let input = raw.bindMemory(to: UInt8.self).baseAddress, output = out.bindMemory(to: UInt8.self).baseAddress
                    if fast, lp_png_decode_fast(input, raw.count, output, width * 4, &info) == 1 { return Int32(0) }
                    return lp_png_decode_argb32(input, raw.count, output, width * 4, &info)
                }
            }
            guard status == 0 else { throw .malformed("corrupt PNG: " + PNG.message(&info.message, fallback: "decode failed")) }
            return Bitmap(width: width, height: height, stride: width * 4, pixels: pixels)
                .oriented(Int(info.exif_orientation))
        }
    }

    static func message<T>(_ tuple: inout T, fallback: String) -> String {
        let text = withUnsafeBytes(of: &tuple) { raw -> String in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
        return text.isEmpty ? fallback : text
    }
}
