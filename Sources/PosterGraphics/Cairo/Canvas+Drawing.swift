import CCairoPango
import Foundation

/// Drawing: shapes, gradients and scrims, pictures, shadows of pictures.
extension Canvas {
    // MARK: Shapes

    func path(_ rect: Rect, cornerRadius: Double) {
        let r = min(cornerRadius, rect.width / 2, rect.height / 2)
        guard r > 0 else {
            cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
            return
        }
        cairo_new_sub_path(cr)
        cairo_arc(cr, rect.maxX - r, rect.minY + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, rect.maxX - r, rect.maxY - r, r, 0, Double.pi / 2)
        cairo_arc(cr, rect.minX + r, rect.maxY - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, rect.minX + r, rect.minY + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    func setSource(_ color: Color) {
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
    }

    /// Fills the whole canvas.
    package func fill(_ color: Color) {
        setSource(color)
        cairo_paint(cr)
    }

    package func fill(_ rect: Rect, color: Color, cornerRadius: Double = 0) {
        setSource(color)
        path(rect, cornerRadius: cornerRadius)
        cairo_fill(cr)
    }

    /// Fills `rect` with a vertical gradient; `stops` are (offset 0…1 from top to bottom, colour).
    package func fillVerticalGradient(_ rect: Rect, stops: [(Double, Color)]) {
        guard let pattern = cairo_pattern_create_linear(0, rect.minY, 0, rect.maxY) else { return }
        defer { cairo_pattern_destroy(pattern) }
        for (offset, c) in stops {
            cairo_pattern_add_color_stop_rgba(pattern, offset, c.red, c.green, c.blue, c.alpha)
        }
        cairo_set_source(cr, pattern)
        cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        cairo_fill(cr)
    }

    /// Fills `rect` with `color` whose opacity fades to zero over `featherX` at the left and right
    /// edges and `featherY` at the top and bottom (a soft-edged scrim). A feather of 0 is a hard edge.
    package func fillSoft(_ rect: Rect, color: Color, featherX: Double, featherY: Double) {
        func ramp(_ from: Double, _ to: Double, _ feather: Double, vertical: Bool, alpha: Double) -> OpaquePointer? {
            guard let p = vertical ? cairo_pattern_create_linear(0, from, 0, to) : cairo_pattern_create_linear(from, 0, to, 0)
            else { return nil }
            let f = feather > 0 ? min(0.5, feather / (to - from)) : 0
            guard f > 0 else {
                cairo_pattern_add_color_stop_rgba(p, 0, color.red, color.green, color.blue, alpha)
                cairo_pattern_add_color_stop_rgba(p, 1, color.red, color.green, color.blue, alpha)
                return p
            }
            // Eased (smoothstep) edges: no visible kink where the fade meets the solid part.
            for k in 0...8 {
                let t = Double(k) / 8, eased = t * t * (3 - 2 * t)
                cairo_pattern_add_color_stop_rgba(p, f * t, color.red, color.green, color.blue, alpha * eased)
                cairo_pattern_add_color_stop_rgba(p, 1 - f * t, color.red, color.green, color.blue, alpha * eased)
            }
            return p
        }
        guard let vertical = ramp(rect.minY, rect.maxY, featherY, vertical: true, alpha: color.alpha) else { return }
        defer { cairo_pattern_destroy(vertical) }
        guard let horizontal = ramp(rect.minX, rect.maxX, featherX, vertical: false, alpha: 1) else { return }
        defer { cairo_pattern_destroy(horizontal) }
        cairo_save(cr)
        cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(cr)
        // The vertical ramp (carrying the colour's opacity) as the source, the horizontal ramp (a
        // pure 0…1 fade) as the mask: their product.
        cairo_set_source(cr, vertical)
        cairo_mask(cr, horizontal)
        cairo_restore(cr)
    }

    // MARK: Images

    /// Runs `body` with a Cairo surface over `bitmap`'s pixels, without copying them. Cairo only
    /// reads a source surface, so handing it the immutable buffer is safe; the surface does not
    /// outlive the call.
    func withSurface(_ bitmap: Bitmap, _ body: (OpaquePointer) -> Void) {
        bitmap.pixels.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            let data = UnsafeMutableRawPointer(mutating: base).assumingMemoryBound(to: UInt8.self)
            guard let image = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_ARGB32, Int32(bitmap.width),
                                                                  Int32(bitmap.height), Int32(bitmap.stride)) else { return }
            defer { cairo_surface_destroy(image) }
            guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS else { return }
            body(image)
        }
    }

    /// Paints the part `source` (in the bitmap's pixels) of `bitmap` scaled into `destination`,
    /// clipped to a rounded rectangle when `cornerRadius` > 0. Downscaling uses Cairo's GOOD filter
    /// (a proper box-filtered reduction, not point sampling).
    package func draw(_ bitmap: Bitmap, source: Rect? = nil, in destination: Rect, cornerRadius: Double = 0,
                     opacity: Double = 1) {
        let src = source ?? Rect(x: 0, y: 0, width: Double(bitmap.width), height: Double(bitmap.height))
        guard !src.isEmpty, !destination.isEmpty else { return }
        withSurface(bitmap) { image in
            cairo_save(cr)
            path(destination, cornerRadius: cornerRadius)
            cairo_clip(cr)
            cairo_translate(cr, destination.x, destination.y)
            cairo_scale(cr, destination.width / src.width, destination.height / src.height)
            cairo_set_source_surface(cr, image, -src.x, -src.y)
            let pattern = cairo_get_source(cr)
            cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            if opacity < 1 { cairo_paint_with_alpha(cr, opacity) } else { cairo_paint(cr) }
            cairo_restore(cr)
        }
    }

    /// Paints the part `source` (in full-size pixels) of a picture scaled into `destination`, as
    /// `draw(_:source:in:cornerRadius:opacity:)` does, from the smallest of its levels that has as
    /// many pixels as the destination.
    package func draw(_ levels: BitmapLevels, source: Rect? = nil, in destination: Rect, cornerRadius: Double = 0,
                     opacity: Double = 1) {
        let full = levels.full
        let src = source ?? Rect(x: 0, y: 0, width: Double(full.width), height: Double(full.height))
        let (bitmap, reduced) = levels.level(for: src, width: destination.width, height: destination.height)
        // Reduced by less than 3/4, Cairo's GOOD filter is Pixman's separable convolution, on its
        // generic path (a 750-pixel cover into a 480-pixel card: 13 ms). The same box-filtered
        // reduction is made here by area averaging, one picture pixel per canvas pixel, and drawn
        // from that (bilinear, at scale 1). Not when either side is enlarged (Cairo's filter then).
        let fx = reduced.width / destination.width, fy = reduced.height / destination.height
        if fx > 4 / 3 || fy > 4 / 3, fx >= 1, fy >= 1, fx.isFinite, fy.isFinite,
           destination.width <= 32767, destination.height <= 32767 {
            let w = Int(destination.width.rounded(.up)), h = Int(destination.height.rounded(.up))
            if let small = bitmap.areaReduced(source: Rect(x: reduced.x, y: reduced.y, width: Double(w) * fx, height: Double(h) * fy),
                                              width: w, height: h) {
                draw(small, source: Rect(x: 0, y: 0, width: destination.width, height: destination.height), in: destination,
                     cornerRadius: cornerRadius, opacity: opacity)
                return
            }
        }
        draw(bitmap, source: reduced, in: destination, cornerRadius: cornerRadius, opacity: opacity)
    }

    /// Paints another canvas scaled into `destination` (for thumbnails).
    package func draw(_ other: Canvas, in destination: Rect) {
        cairo_surface_flush(other.surface)
        cairo_save(cr)
        cairo_rectangle(cr, destination.x, destination.y, destination.width, destination.height)
        cairo_clip(cr)
        cairo_translate(cr, destination.x, destination.y)
        cairo_scale(cr, destination.width / Double(other.width), destination.height / Double(other.height))
        cairo_set_source_surface(cr, other.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// A soft drop shadow that follows the alpha of `bitmap` drawn into `rect` (a round or cut-out
    /// cover casts a round or cut-out shadow), clipped like the card to `cornerRadius`.
    package func dropShadow(of bitmap: BitmapLevels, source: Rect, in rect: Rect, cornerRadius: Double, blur: Int, offsetY: Double,
                           color: Color) throws(GraphicsError) {
        paint(try ShadowMask(of: bitmap, source: source, in: rect, cornerRadius: cornerRadius, blur: blur), offsetY: offsetY,
              color: color)
    }

    /// The shadow of `dropShadow(of:source:in:cornerRadius:blur:offsetY:color:)` before it is
    /// given a colour (so that it can be made before the colour is known).
    package struct ShadowMask: Sendable {
        let blurred: Bitmap
        let origin: Point
        let scale: Double

        package init(of bitmap: BitmapLevels, source: Rect, in rect: Rect, cornerRadius: Double, blur: Int) throws(GraphicsError) {
            scale = blur >= 8 ? 0.25 : 1.0
            let pad = Double(blur * 3)
            let w = Int(((rect.width + 2 * pad) * scale).rounded(.up)), h = Int(((rect.height + 2 * pad) * scale).rounded(.up))
            let mask = try Canvas(width: w, height: h)
            mask.draw(bitmap, source: source, in: Rect(x: pad * scale, y: pad * scale, width: rect.width * scale, height: rect.height * scale),
                      cornerRadius: cornerRadius * scale)
            try mask.finish()
            blurred = mask.snapshot().blurred(radius: max(1, Int((Double(blur) / 2 * scale).rounded())), alphaOnly: true)
            origin = Point(x: rect.x - pad, y: rect.y - pad)
        }
    }

    /// Paints `shadow` in `color`, `offsetY` pixels down.
    package func paint(_ shadow: ShadowMask, offsetY: Double, color: Color) {
        paintMask(shadow.blurred, at: Point(x: shadow.origin.x, y: shadow.origin.y + offsetY), color: color, scale: 1 / shadow.scale)
    }

    /// Strokes the outline of a (rounded) rectangle, `lineWidth` pixels wide, inside its edge.
    package func stroke(_ rect: Rect, color: Color, lineWidth: Double, cornerRadius: Double = 0) {
        setSource(color)
        cairo_set_line_width(cr, lineWidth)
        path(rect.insetBy(dx: lineWidth / 2, dy: lineWidth / 2), cornerRadius: max(0, cornerRadius - lineWidth / 2))
        cairo_stroke(cr)
    }

    /// Fills the whole width with `color` whose opacity follows `alphas`: one value per pixel row
    /// from the top (a smooth, content-fitted scrim). Rows past the end take the last value.
    package func fillRows(color: Color, alphas: [Double]) {
        guard let pattern = rowRamp(alphas, color: color) else { return }
        defer { cairo_pattern_destroy(pattern) }
        cairo_set_source(cr, pattern)
        cairo_paint(cr)
    }

    /// A vertical gradient over the canvas's height whose opacity follows `alphas`, one value
    /// per pixel row from the top; rows past the end take the last value. The caller destroys it.
    func rowRamp(_ alphas: [Double], color: Color) -> OpaquePointer? {
        guard let pattern = cairo_pattern_create_linear(0, 0, 0, Double(height)) else { return nil }
        // One stop every few rows: Cairo interpolates linearly between them.
        let step = max(1, alphas.count / 256)
        var y = 0
        while y < alphas.count {
            cairo_pattern_add_color_stop_rgba(pattern, (Double(y) + 0.5) / Double(height), color.red, color.green, color.blue, alphas[y])
            y += step
        }
        if let last = alphas.last {
            cairo_pattern_add_color_stop_rgba(pattern, 1, color.red, color.green, color.blue, last)
        }
        return pattern
    }

    /// Paints `bitmap` scaled over the whole canvas, seen only through a band: opaque over
    /// `band` and fading to nothing (eased) over `feather` pixels above and below it.
    package func draw(_ bitmap: Bitmap, throughBand band: Rect, feather: Double) {
        draw(bitmap, throughRows: (0..<height).map { y in
            let d = max(band.minY - Double(y), Double(y) - band.maxY, 0)
            let t = feather > 0 ? max(0, 1 - d / feather) : (d > 0 ? 0 : 1)
            return t * t * (3 - 2 * t)
        })
    }

    /// Paints `bitmap` scaled over the whole canvas with the opacity of each pixel row given by
    /// `alphas` (one value per row from the top).
    package func draw(_ bitmap: Bitmap, throughRows alphas: [Double]) {
        guard let ramp = rowRamp(alphas, color: .black) else { return }
        defer { cairo_pattern_destroy(ramp) }
        withSurface(bitmap) { image in
            guard let source = cairo_pattern_create_for_surface(image) else { return }
            defer { cairo_pattern_destroy(source) }
            // The pattern's matrix maps canvas pixels to the bitmap's.
            var matrix = cairo_matrix_t()
            cairo_matrix_init_scale(&matrix, Double(bitmap.width) / Double(width), Double(bitmap.height) / Double(height))
            cairo_pattern_set_matrix(source, &matrix)
            cairo_pattern_set_filter(source, CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(source, CAIRO_EXTEND_PAD)
            cairo_save(cr)
            cairo_set_source(cr, source)
            cairo_mask(cr, ramp)
            cairo_restore(cr)
        }
    }

    /// Paints `color` through the alpha of `mask`, placed with its top-left corner at `origin` and
    /// enlarged by `scale` (bilinear). The mask is coloured at its own (reduced) size and then
    /// enlarged as a picture: Pixman enlarges a picture over a canvas on its SIMD bilinear path,
    /// where a colour through an enlarged mask takes its generic one (about 7 times slower for a
    /// card's shadow; most of Pixman's time in a batch of frames was text shadows painted that way).
    func paintMask(_ mask: Bitmap, at origin: Point, color: Color, scale: Double = 1) {
        withSurface(mask.tinted(color)) { image in
            cairo_save(cr)
            cairo_translate(cr, origin.x, origin.y)
            cairo_scale(cr, scale, scale)
            cairo_set_source_surface(cr, image, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
            cairo_paint(cr)
            cairo_restore(cr)
        }
    }

    // MARK: Motion

    /// Runs `body` (drawing calls on this canvas) scaled by `scale` about `anchor` and then moved
    /// by `offset`: text on its way from one place and size to another.
    package func transformed(scale: Double, about anchor: Point, offset: Point,
                            _ body: () throws(GraphicsError) -> Void) throws(GraphicsError) {
        guard scale != 1 || offset.x != 0 || offset.y != 0 else { return try body() }
        cairo_save(cr)
        cairo_translate(cr, anchor.x + offset.x, anchor.y + offset.y)
        cairo_scale(cr, scale, scale)
        cairo_translate(cr, -anchor.x, -anchor.y)
        defer { cairo_restore(cr) }
        try body()
    }

    /// Runs `body` (drawing calls on this canvas) changing rows `rows` alone: inside them, the
    /// pixels `body` would draw unclipped.
    package func clipped(toRows rows: Range<Int>, _ body: () throws(GraphicsError) -> Void) throws(GraphicsError) {
        guard !rows.isEmpty else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_rectangle(cr, 0, Double(rows.lowerBound), Double(width), Double(rows.count))
        cairo_clip(cr)
        try body()
    }

    /// Runs `body` and composites what it drew at `opacity` as one layer (overlapping parts do
    /// not show through each other); `clip` (in the current coordinates) bounds the layer.
    package func withOpacity(_ opacity: Double, clip: Rect, _ body: () throws(GraphicsError) -> Void) throws(GraphicsError) {
        guard opacity < 1 else { return try body() }
        guard opacity > 0, !clip.isEmpty else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_rectangle(cr, clip.x.rounded(.down), clip.y.rounded(.down), clip.width.rounded(.up) + 1, clip.height.rounded(.up) + 1)
        cairo_clip(cr)
        cairo_push_group(cr)
        do { try body() } catch {
            cairo_pattern_destroy(cairo_pop_group(cr))
            throw error
        }
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, opacity)
    }

}
