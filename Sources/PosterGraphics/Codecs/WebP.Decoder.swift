import CWebP
import Foundation

/// WebP reading through libwebp (still images) and libwebpdemux (animated ones: the first frame).
package enum WebP {}

extension WebP {
    enum Decoder {
        /// Decodes `data` into premultiplied BGRA, which is Cairo's ARGB32 on little-endian machines.
        /// The canvas size comes from the header and is checked against `limits` before any pixel
        /// memory is allocated.
        static func decode(_ data: Data, limits: DecodeLimits) throws(ImageError) -> Bitmap {
            var features = WebPBitstreamFeatures()
            let status = data.withUnsafeBytes { raw in
                WebPGetFeatures(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &features)
            }
            guard status == VP8_STATUS_OK else { throw .malformed("not a valid WebP file (\(reason(status)))") }
            let width = Int(features.width), height = Int(features.height)
            try limits.check(width: width, height: height)
            return features.has_animation != 0
                ? try firstFrame(data, width: width, height: height)
                : try still(data, width: width, height: height)
        }

        private static func still(_ data: Data, width: Int, height: Int) throws(ImageError) -> Bitmap {
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let decoded = data.withUnsafeBytes { raw in
                pixels.withUnsafeMutableBytes { out -> Bool in
                    guard let input = raw.bindMemory(to: UInt8.self).baseAddress,
                          let output = out.bindMemory(to: UInt8.self).baseAddress else { return false }
                    var config = WebPDecoderConfig()
                    guard WebPInitDecoderConfig(&config) != 0 else { return false }
                    config.output.colorspace = MODE_bgrA
                    config.output.is_external_memory = 1
                    config.output.u.RGBA.rgba = output
                    config.output.u.RGBA.stride = Int32(width * 4)
                    config.output.u.RGBA.size = width * height * 4
                    // libwebp's filtering thread: the same pixels (DecoderTests holds them to the
                    // one-thread decode), a 3000² lossy cover about 13 % sooner on 2 cores.
                    config.options.use_threads = 1
                    let result = WebPDecode(input, raw.count, &config)
                    WebPFreeDecBuffer(&config.output)
                    return result == VP8_STATUS_OK
                }
            }
            guard decoded else { throw .malformed("corrupt WebP: decode failed") }
            return Bitmap(width: width, height: height, stride: width * 4, pixels: pixels)
        }

        private static func firstFrame(_ data: Data, width: Int, height: Int) throws(ImageError) -> Bitmap {
            let pixels = data.withUnsafeBytes { raw -> [UInt8]? in
                guard let input = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
                var webp = WebPData(bytes: input, size: raw.count)
                var options = WebPAnimDecoderOptions()
                guard WebPAnimDecoderOptionsInit(&options) != 0 else { return nil }
                options.color_mode = MODE_bgrA
                options.use_threads = 0
                guard let decoder = WebPAnimDecoderNew(&webp, &options) else { return nil }
                defer { WebPAnimDecoderDelete(decoder) }
                var info = WebPAnimInfo()
                guard WebPAnimDecoderGetInfo(decoder, &info) != 0,
                      Int(info.canvas_width) == width, Int(info.canvas_height) == height else { return nil }
                var frame: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else { return nil }
                return Array(UnsafeBufferPointer(start: frame, count: width * height * 4))
            }
            guard let pixels else { throw .malformed("corrupt animated WebP: its first frame could not be decoded") }
            return Bitmap(width: width, height: height, stride: width * 4, pixels: pixels)
        }

        private static func reason(_ status: VP8StatusCode) -> String {
            switch status {
            case VP8_STATUS_OUT_OF_MEMORY: return "out of memory"
            case VP8_STATUS_INVALID_PARAM: return "invalid parameter"
            case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error"
            case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature"
            case VP8_STATUS_NOT_ENOUGH_DATA: return "truncated"
            default: return "status \(status.rawValue)"
            }
        }
    }
}
