import CPixels
import CTurboJPEG
import CWebP
import Foundation

/// The formats a single picture (`frame`, `card`) is written in, chosen by the output's
/// extension: PNG (lossless, the default), JPEG (libjpeg-turbo, 4:2:0, no alpha) and WebP
/// (libwebp, lossy, alpha kept).
package enum PictureFormat: String, CaseIterable, Sendable {
    case png, jpeg, webp

    /// The format for a file name's extension (`.jpg` and `.jpeg` are JPEG); PNG for a name with
    /// none; nil for one this tool does not write.
    package init?(path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "", "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }

    package static let extensions = ".png, .jpg, .jpeg, .webp"
    package static let defaultQuality = 90

    /// `pixels` (opaque RGB, or straight RGBA) in this format at `quality` (1–100; PNG is
    /// lossless and ignores it). PNG as the renderer encodes a frame (`PNG.Compression.fast`):
    /// the same bytes for the same pixels.
    package func encode(pixels: PixelBuffer, quality: Int = PictureFormat.defaultQuality) throws(GraphicsError) -> [UInt8] {
        switch self {
        case .png:
            return try PNG.encode(pixels, method: PNG.Compression.fast.method)
        case .jpeg:
            guard pixels.channels == 3 else { throw .encode("JPEG has no transparency: write the picture as .png or .webp") }
            return try Self.jpeg(pixels.bytes, width: pixels.width, height: pixels.height, quality: quality)
        case .webp:
            return try Self.webp(pixels.bytes, width: pixels.width, height: pixels.height, alpha: pixels.channels == 4, quality: quality)
        }
    }

    /// `png` decoded to straight RGBA, or to RGB when `alphaWhenTransparent` and the picture is
    /// opaque (for the benchmark's inputs).
    package static func decoded(png: [UInt8], alphaWhenTransparent: Bool) throws(GraphicsError) -> PixelBuffer {
        let bitmap: Bitmap
        do { bitmap = try ImageDecoder.decode(Data(png)) } catch { throw .encode("cannot read the rendered picture: \(error)") }
        let opaque = alphaWhenTransparent && !bitmap.hasTransparency
        let channels = opaque ? 3 : 4
        var pixels = [UInt8](repeating: 0, count: bitmap.width * bitmap.height * channels)
        bitmap.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { out in
                lp_argb32_to_rgb(source.baseAddress, UInt32(bitmap.width), UInt32(bitmap.height), bitmap.stride, opaque ? 1 : 0,
                                 out.baseAddress)
            }
        }
        return PixelBuffer(width: bitmap.width, height: bitmap.height, channels: channels, bytes: pixels)
    }

    static func jpeg(_ rgb: [UInt8], width: Int, height: Int, quality: Int) throws(GraphicsError) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw .encode("could not start the JPEG encoder") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = rgb.withUnsafeBufferPointer { source in
            tjCompress2(handle, source.baseAddress, Int32(width), Int32(width * 3), Int32(height), Int32(TJPF_RGB.rawValue), &output, &size,
                        Int32(TJSAMP_420.rawValue), Int32(quality), 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { throw .encode(String(cString: tjGetErrorStr2(handle))) }
        return [UInt8](UnsafeBufferPointer(start: output, count: Int(size)))
    }

    static func webp(_ pixels: [UInt8], width: Int, height: Int, alpha: Bool, quality: Int) throws(GraphicsError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        let size = pixels.withUnsafeBufferPointer { source in
            alpha ? WebPEncodeRGBA(source.baseAddress, Int32(width), Int32(height), Int32(width * 4), Float(quality), &output)
                  : WebPEncodeRGB(source.baseAddress, Int32(width), Int32(height), Int32(width * 3), Float(quality), &output)
        }
        defer { if let output { WebPFree(output) } }
        guard size > 0, let output else { throw .encode("libwebp could not encode the picture") }
        return [UInt8](UnsafeBufferPointer(start: output, count: size))
    }
}
