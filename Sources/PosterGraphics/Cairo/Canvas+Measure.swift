import CCairoPango
import CPixels
import Foundation

/// Measurement: the luminance of the pixels behind text (for contrast and scrims).
extension Canvas {
    // MARK: Measurement

    /// The relative luminance that a share `quantile` of the (opaque) pixels inside `rect` do not
    /// exceed; 1.0 picks the brightest pixel. With `overlay`, each pixel is first composited with
    /// that colour (its alpha as coverage) the way Cairo's OVER blends 8-bit sRGB values, so a
    /// caller can find the scrim strength a contrast target needs before drawing it.
    package func luminance(in rect: Rect, quantile: Double, overlay: Color? = nil) -> Double {
        let query = LuminanceMemo.Query(rect: rect, quantile: quantile, overlay: overlay)
        if let known = luminanceMemo?.lookup(query) { return known }
        let value = measureLuminance(in: rect, quantile: quantile, overlay: overlay)
        luminanceMemo?.record(query, value)
        return value
    }

    func measureLuminance(in rect: Rect, quantile: Double, overlay: Color?) -> Double {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return 0 }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let x0 = max(0, Int(rect.minX.rounded(.down))), x1 = min(width, Int(rect.maxX.rounded(.up)))
        let y0 = max(0, Int(rect.minY.rounded(.down))), y1 = min(height, Int(rect.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return 0 }
        // Per-channel lookup: 8-bit value → linear light after the overlay.
        let a = overlay?.alpha ?? 0
        func table(_ tint: Double) -> [Double] {
            (0..<256).map { i in
                let blended = ((Double(i) * (1 - a) + tint * 255 * a).rounded()) / 255
                return Color.linear(blended)
            }
        }
        // Without an overlay every channel's table is the plain one (the same values), made once.
        let (red, green, blue) = overlay.map { (table($0.red), table($0.green), table($0.blue)) }
            ?? (Color.linearOfByte, Color.linearOfByte, Color.linearOfByte)
        // Histogram of luminance in 1/1024 steps; exact enough for a contrast threshold.
        return red.withUnsafeBufferPointer { r in
            green.withUnsafeBufferPointer { g in
                blue.withUnsafeBufferPointer { b in
                    lp_luminance_quantile(data, stride, Int32(x0), Int32(x1), Int32(y0), Int32(y1),
                                          r.baseAddress, g.baseAddress, b.baseAddress, quantile)
                }
            }
        }
    }
}
