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
    let png: [UInt8]
    /// The JPEG and WebP quality when none is given.
    public static let defaultQuality = PictureFormat.defaultQuality

    init(_ frame: RenderedFrame, width: Int, height: Int) {
        png = frame.png
        report = frame.report
        self.width = width
        self.height = height
    }

    /// The poster as PNG: the same bytes the `lyricposter` command writes for the same song,
    /// instant and style.
    public func pngData() -> Data { Data(png) }

    /// The poster as JPEG at `quality` (1–100). A text layer (transparent) has no JPEG form.
    public func jpegData(quality: Int = Poster.defaultQuality) throws(PosterError) -> Data {
        try encoded(.jpeg, quality: quality)
    }

    /// The poster as lossy WebP at `quality` (1–100), transparency kept.
    public func webpData(quality: Int = Poster.defaultQuality) throws(PosterError) -> Data {
        try encoded(.webp, quality: quality)
    }

    /// The poster's pixels: straight (not premultiplied) RGBA, 4 bytes a pixel, rows top to bottom.
    public func pixels() throws(PosterError) -> Pixels {
        do {
            let buffer = try PictureFormat.rgba(png: png)
            return Pixels(width: buffer.width, height: buffer.height, rgba: buffer.bytes)
        } catch {
            throw .failed(path: "poster", reason: error.description)
        }
    }

    private func encoded(_ format: PictureFormat, quality: Int) throws(PosterError) -> Data {
        guard (1...100).contains(quality) else { throw .failed(path: "poster", reason: "quality \(quality) is not between 1 and 100") }
        do { return Data(try format.encode(png: png, quality: quality)) } catch {
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
