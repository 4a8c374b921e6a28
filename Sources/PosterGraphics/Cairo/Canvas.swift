import CCairoPango
import Foundation

/// A drawing surface: a Cairo ARGB32 image surface and its context.
///
/// The corresponding C types are `cairo_surface_t` and `cairo_t`. Every drawing call is checked
/// through `finish()`, since Cairo's errors are sticky. Its jobs live in files of their own:
/// drawing (`Canvas+Drawing`), text (`Canvas+Text`), measurement (`Canvas+Measure`), pixels out
/// (`Canvas+Pixels`), and the caches a renderer keeps with it (`CanvasCaches`).
package final class Canvas {
    let surface: OpaquePointer
    let cr: OpaquePointer
    package let width: Int
    package let height: Int
    /// Blurred text layers (shadows, depth of field) kept for the next frames drawn on this canvas.
    package var blurCache: BlurCache?
    /// Luminance measurements replayed for frames drawn the same way up to the measurement.
    package var luminanceMemo: LuminanceMemo?

    /// The pixels, for a canvas drawn into an array of its own (`init(width:height:ownPixels:)`):
    /// Cairo writes them through a pointer taken once from `withUnsafeMutableBytes` and kept past
    /// it (formally outside the pointer's scope). That holds because the array is made here,
    /// uniquely referenced, and never mutated or resized through Swift while the canvas lives: its
    /// storage stays where it is. Bitmaps that share it (`withPixels`, `takeBitmap`) copy it before
    /// any change of their own.
    let ownedPixels: [UInt8]?
    /// Set by `takeBitmap`: the pixels belong to a bitmap now, and nothing may write them.
    var pixelsTaken = false
    /// Whether text was drawn: the context then holds fonts (see `show(_:)`).
    var holdsFonts = false

    /// A transparent canvas. `ownPixels`: Cairo draws into a Swift array the canvas holds, so
    /// that the pixels can be read (`withPixels`) and handed over (`takeBitmap`) without a copy
    /// (the same pixels either way; the array is cleared up front instead of page by page).
    package init(width: Int, height: Int, ownPixels: Bool = false) throws(GraphicsError) {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw .cairo("invalid canvas size \(width)×\(height)")
        }
        let made: OpaquePointer?
        if ownPixels {
            let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
            var pixels = LargeBuffers.bytes(stride * height) { memset($0, 0, stride * height) }
            let data = pixels.withUnsafeMutableBytes { $0.baseAddress!.assumingMemoryBound(to: UInt8.self) }
            made = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride))
            ownedPixels = pixels
        } else {
            made = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
            ownedPixels = nil
        }
        guard let surface = made else { throw .cairo("out of memory") }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw .cairo(String(cString: cairo_status_to_string(status)))
        }
        if !ownPixels {
            // Cleared by the allocator, not yet touched.
            LargeBuffers.adviseHugePages(cairo_image_surface_get_data(surface),
                                         count: Int(cairo_image_surface_get_stride(surface)) * height)
        }
        guard let cr = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            throw .cairo("out of memory")
        }
        self.surface = surface
        self.cr = cr
        self.width = width
        self.height = height
    }

    deinit {
        // A context that drew text may hold the last reference to a font (see FontLock); one
        // that drew none (a decoded cover, a mask) need not wait for the lock.
        if holdsFonts { FontLock.held { cairo_destroy(cr) } } else { cairo_destroy(cr) }
        // A surface over the canvas's own array must not outlive it, even if something Cairo
        // keeps (a pattern) still refers to it.
        if ownedPixels != nil { cairo_surface_finish(surface) }
        cairo_surface_destroy(surface)
    }

    /// Throws the first error any drawing call since creation hit.
    package func finish() throws(GraphicsError) {
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
        cairo_surface_flush(surface)
    }
}
