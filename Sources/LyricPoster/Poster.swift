import Foundation
import PosterGraphics

/// A rendered poster: its picture, as PNG, JPEG or WebP bytes or as pixels, and a report of what
/// was drawn where.
public struct Poster: Sendable {
    /// The canvas's size in pixels.
    public let width: Int
    public let height: Int
    /// The lines, captions and boxes drawn, with their places and colours.
    public let report: FrameReport
    /// The pixels as drawn: opaque RGB, or straight RGBA for a text layer. Each format is encoded
    /// from them when asked for.
    let drawn: PixelBuffer
    /// The JPEG and WebP quality when none is given.
    public static let defaultQuality = PictureFormat.defaultQuality

    init(_ drawn: PixelBuffer, report: FrameReport) {
        self.drawn = drawn
        self.report = report
        width = drawn.width
        height = drawn.height
    }

    /// The poster as PNG: the same bytes the `lyricposter` command writes for the same song,
    /// instant and style.
    public func pngData() throws(PosterError) -> Data {
        try encoded(.png, quality: Poster.defaultQuality)
    }

    /// The poster as JPEG at `quality` (1–100). A text layer (transparent) has no JPEG form.
    public func jpegData(quality: Int = Poster.defaultQuality) throws(PosterError) -> Data {
        try encoded(.jpeg, quality: quality)
    }

    /// The poster as lossy WebP at `quality` (1–100), transparency kept.
    public func webpData(quality: Int = Poster.defaultQuality) throws(PosterError) -> Data {
        try encoded(.webp, quality: quality)
    }

    /// The poster's pixels: straight (not premultiplied) RGBA, 4 bytes a pixel, rows top to bottom.
    public func pixels() -> Pixels {
        guard drawn.channels == 3 else { return Pixels(width: width, height: height, rgba: drawn.bytes) }
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        drawn.bytes.withUnsafeBufferPointer { rgb in
            for i in 0..<(width * height) {
                rgba[4 * i] = rgb[3 * i]
                rgba[4 * i + 1] = rgb[3 * i + 1]
                rgba[4 * i + 2] = rgb[3 * i + 2]
            }
        }
        return Pixels(width: width, height: height, rgba: rgba)
    }

    private func encoded(_ format: PictureFormat, quality: Int) throws(PosterError) -> Data {
        guard (1...100).contains(quality) else { throw .failed(path: "poster", reason: "quality \(quality) is not between 1 and 100") }
        do { return Data(try format.encode(pixels: drawn, quality: quality)) } catch {
            throw .failed(path: "poster", reason: error.description)
        }
    }
}

/// A picture's pixels: straight RGBA, 4 bytes a pixel, rows top to bottom with no padding.
public struct Pixels: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width × height × 4` bytes: red, green, blue, alpha.
    public let rgba: [UInt8]
}
