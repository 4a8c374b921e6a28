import CCairoPango
import CPixels
import Foundation

/// Pixels out: snapshots, conversion to packed RGB(A) rows, row copies, PNG.
extension Canvas {
    // MARK: Pixels

    /// A copy of the current pixels.
    package func snapshot() -> Bitmap {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return Bitmap(width: width, height: height) }
        let pixels = LargeBuffers.bytes(stride * height) { memcpy($0, data, stride * height) }
        return Bitmap(width: width, height: height, stride: stride, pixels: pixels)
    }

    /// `body` run on the current pixels as a bitmap: the canvas's own memory for a canvas that
    /// owns its pixels (no copy; `body` must not keep the bitmap, which later drawing would
    /// change), else a snapshot.
    package func withPixels<Result>(_ body: (Bitmap) throws(GraphicsError) -> Result) throws(GraphicsError) -> Result {
        try finish()
        guard let ownedPixels else { return try body(snapshot()) }
        return try body(Bitmap(width: width, height: height, stride: Int(cairo_image_surface_get_stride(surface)), pixels: ownedPixels))
    }

    /// The pixels as a bitmap, and the canvas done with: for a canvas that owns its pixels they
    /// are handed over without a copy. Its surface is finished, so that Cairo draws nothing more
    /// there (a drawing call sets an error that the next `finish()` throws), and the row copies
    /// (`copyRows`, `restoreRows`, `prefault`) refuse to run. Else a snapshot.
    package func takeBitmap() throws(GraphicsError) -> Bitmap {
        try finish()
        guard let ownedPixels else { return snapshot() }
        let bitmap = Bitmap(width: width, height: height, stride: Int(cairo_image_surface_get_stride(surface)), pixels: ownedPixels)
        cairo_surface_finish(surface)
        pixelsTaken = true
        return bitmap
    }

    /// The pixels as packed 8-bit RGB (`opaque`: alpha dropped) or straight RGBA, ready to encode.
    package func pixels(opaque: Bool = true) throws(GraphicsError) -> PixelBuffer {
        try finish()
        guard let data = cairo_image_surface_get_data(surface) else { throw .encode("no pixel data") }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let channels = opaque ? 3 : 4
        let bytes = LargeBuffers.bytes(width * height * channels) { out in
            lp_argb32_to_rgb(data, UInt32(width), UInt32(height), stride, opaque ? 1 : 0, out)
        }
        return PixelBuffer(width: width, height: height, channels: channels, bytes: bytes)
    }

    /// Converts rows `rows` to packed 8-bit RGB (alpha dropped) into `out`, which holds a whole
    /// frame (`width * height * 3` bytes; row y starts at `y * width * 3`).
    package func convertRows(_ rows: Range<Int>, into out: UnsafeMutableBufferPointer<UInt8>) throws(GraphicsError) {
        precondition(out.count == width * height * 3 && rows.lowerBound >= 0 && rows.upperBound <= height)
        try finish()
        guard !rows.isEmpty else { return }
        guard let data = cairo_image_surface_get_data(surface) else { throw .encode("no pixel data") }
        let stride = Int(cairo_image_surface_get_stride(surface))
        lp_argb32_to_rgb(data + rows.lowerBound * stride, UInt32(width), UInt32(rows.count), stride, 1,
                         out.baseAddress! + rows.lowerBound * width * 3)
    }

    /// Touches every page of the pixels, writing the zeros a new canvas holds (the same pixels):
    /// a thread with time to spare pays the page faults of a fresh canvas before it is drawn on.
    package func prefault() {
        precondition(!pixelsTaken, "the canvas's pixels were handed to a bitmap")
        guard let data = cairo_image_surface_get_data(surface) else { return }
        cairo_surface_flush(surface)
        let count = Int(cairo_image_surface_get_stride(surface)) * height
        for offset in stride(from: 0, to: count, by: 4096) { data[offset] = 0 }
        cairo_surface_mark_dirty(surface)
    }

    /// Puts rows `rows` of `bitmap` (the canvas's size) back over the canvas, as they are.
    package func copyRows(_ rows: Range<Int>, from bitmap: Bitmap) {
        precondition(bitmap.width == width && bitmap.height == height && rows.lowerBound >= 0 && rows.upperBound <= height)
        precondition(!pixelsTaken, "the canvas's pixels were handed to a bitmap")
        guard !rows.isEmpty, let data = cairo_image_surface_get_data(surface) else { return }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let rowBytes = width * 4
        bitmap.pixels.withUnsafeBufferPointer { source in
            for y in rows {
                memcpy(data + y * stride, source.baseAddress! + y * bitmap.stride, rowBytes)
            }
        }
        cairo_surface_mark_dirty_rectangle(surface, 0, Int32(rows.lowerBound), Int32(width), Int32(rows.count))
    }

    /// Rows `rows` of the canvas as they are now, to put back with `restoreRows`.
    package func savedRows(_ rows: Range<Int>) -> [UInt8] {
        precondition(rows.lowerBound >= 0 && rows.upperBound <= height)
        guard !rows.isEmpty, let data = cairo_image_surface_get_data(surface) else { return [] }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        return [UInt8](unsafeUninitializedCapacity: rows.count * stride) { out, count in
            memcpy(out.baseAddress!, data + rows.lowerBound * stride, rows.count * stride)
            count = rows.count * stride
        }
    }

    /// Puts back rows `rows` saved by `savedRows(rows)`.
    package func restoreRows(_ rows: Range<Int>, from saved: [UInt8]) {
        precondition(!pixelsTaken, "the canvas's pixels were handed to a bitmap")
        guard !rows.isEmpty, let data = cairo_image_surface_get_data(surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface))
        precondition(rows.lowerBound >= 0 && rows.upperBound <= height && saved.count == rows.count * stride)
        cairo_surface_flush(surface)
        saved.withUnsafeBufferPointer { source in
            _ = memcpy(data + rows.lowerBound * stride, source.baseAddress!, rows.count * stride)
        }
        cairo_surface_mark_dirty_rectangle(surface, 0, Int32(rows.lowerBound), Int32(width), Int32(rows.count))
    }

    /// The canvas as an opaque RGB PNG, the bytes of `PNG.encode(pixels(opaque: true), method:
    /// PNG.Compression.fast.method)`, converted chunk by chunk by the threads that compress them
    /// (no whole RGB copy first).
    package func opaquePNG() throws(GraphicsError) -> [UInt8] {
        try finish()
        guard let data = cairo_image_surface_get_data(surface) else { throw .encode("no pixel data") }
        return try PNG.RowsEncoder.encodeOpaque(argb: data, stride: Int(cairo_image_surface_get_stride(surface)), width: width,
                                                height: height)
    }

    /// `opaquePNG()`, and the frame kept with its segments for a base picture made
    /// afterwards (``PNG/RowsEncoder/seed(from:argb:)``). Nothing may draw on the canvas after.
    /// `previous`: a frame kept so before, whose segments are taken for the chunks whose rows
    /// (and the row above) this one shares with it.
    package func opaquePNGKeepingSegments(previous: PNG.WholeFrame? = nil) throws(GraphicsError) -> (png: [UInt8], whole: PNG.WholeFrame) {
        try finish()
        guard let data = cairo_image_surface_get_data(surface) else { throw .encode("no pixel data") }
        let (segments, taken) = try PNG.RowsEncoder.opaqueSegments(argb: data, stride: Int(cairo_image_surface_get_stride(surface)),
                                                                   width: width, height: height, previous: previous)
        let png = try PNG.RowsEncoder.assemble(segments, width: width, height: height, channels: PNG.RowsEncoder.channels)
        return (png, PNG.WholeFrame(canvas: self, segments: segments, fromPrevious: taken))
    }

    /// Encodes the canvas as PNG; `opaque` drops the alpha channel (RGB PNG).
    package func pngData(opaque: Bool = true, compression: PNG.Compression = .fast) throws(GraphicsError) -> [UInt8] {
        try PNG.encode(try pixels(opaque: opaque), method: compression.method)
    }
}
