import CCairoPango
import CPNGShim
import Foundation

/// A drawing surface: a Cairo ARGB32 image surface and its context.
///
/// The corresponding C types are `cairo_surface_t` and `cairo_t`. Every drawing call is checked
/// through `finish()`, since Cairo's errors are sticky.
public final class Canvas {
    let surface: OpaquePointer
    let cr: OpaquePointer
    public let width: Int
    public let height: Int
    /// Blurred text layers (shadows, depth of field) kept for the next frames drawn on this canvas.
    public var blurCache: BlurCache?
    /// Luminance measurements replayed for frames drawn the same way up to the measurement.
    public var luminanceMemo: LuminanceMemo?

    public init(width: Int, height: Int) throws(GraphicsError) {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw .cairo("invalid canvas size \(width)×\(height)")
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw .cairo("out of memory")
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw .cairo(String(cString: cairo_status_to_string(status)))
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
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    /// Throws the first error any drawing call since creation hit.
    public func finish() throws(GraphicsError) {
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
        cairo_surface_flush(surface)
    }

    // MARK: Shapes

    private func path(_ rect: Rect, cornerRadius: Double) {
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

    private func setSource(_ color: Color) {
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
    }

    /// Fills the whole canvas.
    public func fill(_ color: Color) {
        setSource(color)
        cairo_paint(cr)
    }

    public func fill(_ rect: Rect, color: Color, cornerRadius: Double = 0) {
        setSource(color)
        path(rect, cornerRadius: cornerRadius)
        cairo_fill(cr)
    }

    /// Fills `rect` with a vertical gradient; `stops` are (offset 0…1 from top to bottom, colour).
    public func fillVerticalGradient(_ rect: Rect, stops: [(Double, Color)]) {
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
    public func fillSoft(_ rect: Rect, color: Color, featherX: Double, featherY: Double) {
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
    private func withSurface(_ bitmap: Bitmap, _ body: (OpaquePointer) -> Void) {
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
    public func draw(_ bitmap: Bitmap, source: Rect? = nil, in destination: Rect, cornerRadius: Double = 0,
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
    public func draw(_ levels: BitmapLevels, source: Rect? = nil, in destination: Rect, cornerRadius: Double = 0,
                     opacity: Double = 1) {
        let full = levels.full
        let src = source ?? Rect(x: 0, y: 0, width: Double(full.width), height: Double(full.height))
        let (bitmap, reduced) = levels.level(for: src, width: destination.width, height: destination.height)
        draw(bitmap, source: reduced, in: destination, cornerRadius: cornerRadius, opacity: opacity)
    }

    /// Paints another canvas scaled into `destination` (for thumbnails).
    public func draw(_ other: Canvas, in destination: Rect) {
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
    public func dropShadow(of bitmap: BitmapLevels, source: Rect, in rect: Rect, cornerRadius: Double, blur: Int, offsetY: Double,
                           color: Color) throws(GraphicsError) {
        let scale = blur >= 8 ? 0.25 : 1.0
        let pad = Double(blur * 3)
        let w = Int(((rect.width + 2 * pad) * scale).rounded(.up)), h = Int(((rect.height + 2 * pad) * scale).rounded(.up))
        let mask = try Canvas(width: w, height: h)
        mask.draw(bitmap, source: source, in: Rect(x: pad * scale, y: pad * scale, width: rect.width * scale, height: rect.height * scale),
                  cornerRadius: cornerRadius * scale)
        try mask.finish()
        let blurred = mask.snapshot().blurred(radius: max(1, Int((Double(blur) / 2 * scale).rounded())), alphaOnly: true)
        paintMask(blurred, at: Point(x: rect.x - pad, y: rect.y - pad + offsetY), color: color, scale: 1 / scale)
    }

    /// Strokes the outline of a (rounded) rectangle, `lineWidth` pixels wide, inside its edge.
    public func stroke(_ rect: Rect, color: Color, lineWidth: Double, cornerRadius: Double = 0) {
        setSource(color)
        cairo_set_line_width(cr, lineWidth)
        path(rect.insetBy(dx: lineWidth / 2, dy: lineWidth / 2), cornerRadius: max(0, cornerRadius - lineWidth / 2))
        cairo_stroke(cr)
    }

    /// Fills the whole width with `color` whose opacity follows `alphas`: one value per pixel row
    /// from the top (a smooth, content-fitted scrim). Rows past the end take the last value.
    public func fillRows(color: Color, alphas: [Double]) {
        guard let pattern = rowRamp(alphas, color: color) else { return }
        defer { cairo_pattern_destroy(pattern) }
        cairo_set_source(cr, pattern)
        cairo_paint(cr)
    }

    /// A vertical gradient over the canvas's height whose opacity follows `alphas`, one value
    /// per pixel row from the top; rows past the end take the last value. The caller destroys it.
    private func rowRamp(_ alphas: [Double], color: Color) -> OpaquePointer? {
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
    public func draw(_ bitmap: Bitmap, throughBand band: Rect, feather: Double) {
        draw(bitmap, throughRows: (0..<height).map { y in
            let d = max(band.minY - Double(y), Double(y) - band.maxY, 0)
            let t = feather > 0 ? max(0, 1 - d / feather) : (d > 0 ? 0 : 1)
            return t * t * (3 - 2 * t)
        })
    }

    /// Paints `bitmap` scaled over the whole canvas with the opacity of each pixel row given by
    /// `alphas` (one value per row from the top).
    public func draw(_ bitmap: Bitmap, throughRows alphas: [Double]) {
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
    /// enlarged by `scale` (bilinear).
    func paintMask(_ mask: Bitmap, at origin: Point, color: Color, scale: Double = 1) {
        withSurface(mask) { image in
            cairo_save(cr)
            setSource(color)
            cairo_translate(cr, origin.x, origin.y)
            cairo_scale(cr, scale, scale)
            let pattern = cairo_pattern_create_for_surface(image)
            cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR)
            cairo_mask(cr, pattern)
            cairo_pattern_destroy(pattern)
            cairo_restore(cr)
        }
    }

    // MARK: Text

    /// A blurred copy of text drawn behind it: (colour, blur radius in px, offset).
    public struct Shadow: Hashable, Sendable {
        public var color: Color
        public var radius: Int
        public var offset: Point
        public init(color: Color, radius: Int, offset: Point) {
            self.color = color; self.radius = radius; self.offset = offset
        }
    }

    /// A part of a text layout to show, in canvas pixels (for text that fills as it is sung).
    public struct Reveal: Hashable, Sendable {
        public var rect: Rect
        /// The span's end is still moving: it ends in a soft gradient centred on its edge.
        public var frontier: Bool
        /// The span grows leftwards (right-to-left text).
        public var rightToLeft: Bool
        public init(rect: Rect, frontier: Bool, rightToLeft: Bool) {
            self.rect = rect; self.frontier = frontier; self.rightToLeft = rightToLeft
        }
    }

    /// Draws only the parts of `layout` (origin at `origin`) that `spans` reveal; a frontier span
    /// fades out over `feather` pixels centred on its moving edge, so no glyph is split hard.
    public func draw(_ layout: TextLayout, at origin: Point, color: Color, revealed spans: [Reveal], feather: Double) {
        for span in spans {
            let r = span.rect
            let soft = span.frontier && feather > 0
            let edge = span.rightToLeft ? r.minX : r.maxX
            // A soft span reaches half the feather past its edge, fading across the edge.
            let x0 = soft && span.rightToLeft ? edge - feather / 2 : r.minX
            let x1 = soft && !span.rightToLeft ? edge + feather / 2 : r.maxX
            cairo_save(cr)
            cairo_rectangle(cr, x0, r.minY, x1 - x0, r.height)
            cairo_clip(cr)
            let ramp = soft ? (span.rightToLeft ? cairo_pattern_create_linear(edge + feather / 2, 0, edge - feather / 2, 0)
                                                : cairo_pattern_create_linear(edge - feather / 2, 0, edge + feather / 2, 0)) : nil
            if let ramp {
                cairo_pattern_add_color_stop_rgba(ramp, 0, 0, 0, 0, 1)
                cairo_pattern_add_color_stop_rgba(ramp, 1, 0, 0, 0, 0)
                cairo_push_group(cr)
            }
            setSource(color)
            cairo_move_to(cr, origin.x, origin.y)
            pango_cairo_show_layout(cr, layout.handle)
            if let ramp {
                cairo_pop_group_to_source(cr)
                cairo_mask(cr, ramp)
                cairo_pattern_destroy(ramp)
            }
            cairo_restore(cr)
        }
    }

    /// Where cut text fades out: a zone in canvas pixels over which it goes from opaque to clear,
    /// towards its right edge (or its left, for right-to-left text).
    public struct Fade: Hashable, Sendable {
        public var zone: Rect
        public var towardsLeft: Bool
        public init(zone: Rect, towardsLeft: Bool) { self.zone = zone; self.towardsLeft = towardsLeft }
    }

    /// Runs `body` (drawing calls on this canvas) and composites what it drew faded out over
    /// `fade`'s zone; without a fade, draws directly.
    public func fading(_ fade: Fade?, _ body: () throws(GraphicsError) -> Void) throws(GraphicsError) {
        guard let fade, !fade.zone.isEmpty else { return try body() }
        cairo_push_group(cr)
        do { try body() } catch {
            cairo_pattern_destroy(cairo_pop_group(cr))
            throw error
        }
        guard let group = cairo_pop_group(cr) else { return }
        defer { cairo_pattern_destroy(group) }
        let z = fade.zone
        cairo_save(cr)
        // Everything outside the zone as drawn…
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_rectangle(cr, -1, -1, Double(width) + 2, Double(height) + 2)
        cairo_rectangle(cr, z.x, z.y, z.width, z.height)
        cairo_clip(cr)
        cairo_set_source(cr, group)
        cairo_paint(cr)
        cairo_restore(cr)
        // …and inside it through a ramp from opaque to clear.
        guard let ramp = fade.towardsLeft ? cairo_pattern_create_linear(z.maxX, 0, z.minX, 0)
                                          : cairo_pattern_create_linear(z.minX, 0, z.maxX, 0) else { return }
        defer { cairo_pattern_destroy(ramp) }
        // An eased ramp: the letters thin out gradually instead of hitting a visible line.
        for k in 0...8 {
            let t = Double(k) / 8
            cairo_pattern_add_color_stop_rgba(ramp, t, 0, 0, 0, 1 - t * t * (3 - 2 * t))
        }
        cairo_save(cr)
        cairo_rectangle(cr, z.x, z.y, z.width, z.height)
        cairo_clip(cr)
        cairo_set_source(cr, group)
        cairo_mask(cr, ramp)
        cairo_restore(cr)
    }

    /// With `blur` > 0 the text itself is drawn blurred by that many pixels (depth of field).
    public func draw(_ layout: TextLayout, at origin: Point, color: Color, shadow: Shadow? = nil, blur: Int = 0) throws(GraphicsError) {
        if let shadow, shadow.color.alpha > 0 {
            // The shadow is soft, so it is drawn and blurred at half size and scaled back up:
            // a quarter of the pixels to blur, and no visible difference.
            let scale = shadow.radius >= 4 ? 0.5 : 1.0
            try drawBlurred(layout, at: Point(x: origin.x + shadow.offset.x, y: origin.y + shadow.offset.y), color: shadow.color,
                            pad: shadow.radius * 3 + 2, boxRadius: max(1, Int((Double(shadow.radius) / 2 * scale).rounded())),
                            scale: scale)
        }
        if blur > 0 {
            // Colour glyphs need their colours blurred too; plain text only its coverage (cheaper).
            if try drawBlurred(layout, at: origin, color: color, pad: blur * 3 + 2, boxRadius: max(1, blur / 2), scale: 1,
                               keepColours: layout.hasColourGlyphs) {
                return
            }
        }
        // Colour glyphs (emoji) ignore the source's opacity: translucent text is drawn opaque
        // into a group that is then painted at that opacity, so emoji dim with their line.
        // The group is clipped to the text's ink, so it stays as small as the text.
        let grouped = color.alpha < 1
        if grouped {
            let ink = layout.inkRect
            cairo_save(cr)
            cairo_rectangle(cr, (origin.x + ink.x - 2).rounded(.down), (origin.y + ink.y - 2).rounded(.down),
                            (ink.width + 4).rounded(.up) + 1, (ink.height + 4).rounded(.up) + 1)
            cairo_clip(cr)
            cairo_push_group(cr)
        }
        setSource(color.withAlpha(1))
        cairo_move_to(cr, origin.x, origin.y)
        pango_cairo_show_layout(cr, layout.handle)
        if grouped {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, color.alpha)
            cairo_restore(cr)
        }
    }

    /// Paints `layout` in `color`, blurred: its glyphs are drawn on a layer padded by `pad` pixels,
    /// box-blurred with `boxRadius` (three passes) at `scale` and enlarged back. With
    /// `keepColours`, the layer is drawn in `color` itself and blurred in every channel, so colour
    /// glyphs (emoji) keep their own colours, and it is painted at `color`'s opacity; otherwise
    /// only its coverage is blurred (cheaper) and `color` is painted through it. A layer larger
    /// than any sane text block (pathological ink) is skipped, not an error; returns whether
    /// anything was painted.
    @discardableResult
    private func drawBlurred(_ layout: TextLayout, at origin: Point, color: Color, pad: Int, boxRadius: Int,
                             scale: Double, keepColours: Bool = false) throws(GraphicsError) -> Bool {
        let ink = layout.inkRect
        let pad = Double(pad)
        let w = Int(((ink.width + 2 * pad) * scale).rounded(.up)), h = Int(((ink.height + 2 * pad) * scale).rounded(.up))
        guard w > 0, h > 0, w <= 8192, h <= 8192 else { return false }
        let key = BlurCache.Key(layout: ObjectIdentifier(layout), pad: pad, boxRadius: boxRadius, scale: scale,
                                colour: keepColours ? color.withAlpha(1) : nil)
        let blurred: Bitmap
        if let cached = blurCache?.bitmap(for: key) {
            blurred = cached
        } else {
            let layer = try Canvas(width: w, height: h)
            cairo_scale(layer.cr, scale, scale)
            if keepColours {
                cairo_set_source_rgba(layer.cr, color.red, color.green, color.blue, 1)
            } else {
                cairo_set_source_rgba(layer.cr, 0, 0, 0, 1)
            }
            cairo_move_to(layer.cr, pad - ink.x, pad - ink.y)
            pango_cairo_show_layout(layer.cr, layout.handle)
            try layer.finish()
            blurred = layer.snapshot().blurred(radius: boxRadius, alphaOnly: !keepColours)
            blurCache?.store(blurred, for: key, layout: layout)
        }
        let corner = Point(x: origin.x + ink.x - pad, y: origin.y + ink.y - pad)
        if keepColours {
            draw(blurred, in: Rect(x: corner.x, y: corner.y, width: Double(w) / scale, height: Double(h) / scale), opacity: color.alpha)
        } else {
            paintMask(blurred, at: corner, color: color, scale: 1 / scale)
        }
        return true
    }

    // MARK: Pixels

    /// A copy of the current pixels.
    public func snapshot() -> Bitmap {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return Bitmap(width: width, height: height) }
        let pixels = [UInt8](UnsafeBufferPointer(start: data, count: stride * height))
        return Bitmap(width: width, height: height, stride: stride, pixels: pixels)
    }

    /// The relative luminance that a share `quantile` of the (opaque) pixels inside `rect` do not
    /// exceed; 1.0 picks the brightest pixel. With `overlay`, each pixel is first composited with
    /// that colour (its alpha as coverage) the way Cairo's OVER blends 8-bit sRGB values, so a
    /// caller can find the scrim strength a contrast target needs before drawing it.
    public func luminance(in rect: Rect, quantile: Double, overlay: Color? = nil) -> Double {
        let query = LuminanceMemo.Query(rect: rect, quantile: quantile, overlay: overlay)
        if let known = luminanceMemo?.lookup(query) { return known }
        let value = measureLuminance(in: rect, quantile: quantile, overlay: overlay)
        luminanceMemo?.record(query, value)
        return value
    }

    private func measureLuminance(in rect: Rect, quantile: Double, overlay: Color?) -> Double {
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
        let red = table(overlay?.red ?? 0), green = table(overlay?.green ?? 0), blue = table(overlay?.blue ?? 0)
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

    /// The pixels as packed 8-bit RGB (`opaque`: alpha dropped) or straight RGBA, ready to encode.
    public func pixels(opaque: Bool = true) throws(GraphicsError) -> PixelBuffer {
        try finish()
        guard let data = cairo_image_surface_get_data(surface) else { throw .encode("no pixel data") }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let channels = opaque ? 3 : 4
        let bytes = [UInt8](unsafeUninitializedCapacity: width * height * channels) { buffer, count in
            lp_argb32_to_rgb(data, UInt32(width), UInt32(height), stride, opaque ? 1 : 0, buffer.baseAddress)
            count = width * height * channels
        }
        return PixelBuffer(width: width, height: height, channels: channels, bytes: bytes)
    }

    /// Converts rows `rows` to packed 8-bit RGB (alpha dropped) into `out`, which holds a whole
    /// frame (`width * height * 3` bytes; row y starts at `y * width * 3`).
    public func convertRows(_ rows: Range<Int>, into out: UnsafeMutableBufferPointer<UInt8>) throws(GraphicsError) {
        precondition(out.count == width * height * 3 && rows.lowerBound >= 0 && rows.upperBound <= height)
        try finish()
        guard !rows.isEmpty else { return }
        guard let data = cairo_image_surface_get_data(surface) else { throw .encode("no pixel data") }
        let stride = Int(cairo_image_surface_get_stride(surface))
        lp_argb32_to_rgb(data + rows.lowerBound * stride, UInt32(width), UInt32(rows.count), stride, 1,
                         out.baseAddress! + rows.lowerBound * width * 3)
    }

    /// Puts rows `rows` of `bitmap` (the canvas's size) back over the canvas, as they are.
    public func copyRows(_ rows: Range<Int>, from bitmap: Bitmap) {
        precondition(bitmap.width == width && bitmap.height == height && rows.lowerBound >= 0 && rows.upperBound <= height)
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

    /// Encodes the canvas as PNG; `opaque` drops the alpha channel (RGB PNG).
    public func pngData(opaque: Bool = true, compression: PNG.Compression = .fast) throws(GraphicsError) -> [UInt8] {
        try PNG.encode(try pixels(opaque: opaque), method: compression.method)
    }
}

/// The blurred layers of text blocks a renderer drew recently: a block drawn again the next frame
/// (the neighbours, the current line's shadow while it is sung) reuses its layer instead of
/// blurring it again. Layouts are immutable and kept alive by their entry, so their identity is a
/// safe key. Not thread-safe: one per renderer.
public final class BlurCache {
    struct Key: Hashable {
        var layout: ObjectIdentifier
        var pad: Double
        var boxRadius: Int
        var scale: Double
        var colour: Color?
    }

    public static let capacity = 8
    private var entries: [(key: Key, bitmap: Bitmap, layout: TextLayout)] = []

    public init() {}

    func bitmap(for key: Key) -> Bitmap? {
        guard let i = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: i)
        entries.append(entry)
        return entry.bitmap
    }

    func store(_ bitmap: Bitmap, for key: Key, layout: TextLayout) {
        entries.append((key, bitmap, layout))
        if entries.count > Self.capacity { entries.removeFirst() }
    }
}

/// Luminance measurements of the frames a renderer draws, replayed in order: frames drawn the same
/// way up to a measurement (the same base, the same layout but for how far the current line has
/// been sung — the ticks of one line in a `sequence`) ask the same questions of the same pixels,
/// in the same order. The renderer says when a frame starts (`begin` with a key for everything
/// drawn before the measurements) and when it draws something the key does not cover (`end`).
/// A question that differs from the one recorded at its place drops the rest of the record.
/// Not thread-safe: one per renderer.
public final class LuminanceMemo {
    struct Query: Equatable {
        var rect: Rect
        var quantile: Double
        var overlay: Color?
    }

    private var key = ""
    private var recorded: [(query: Query, value: Double)] = []
    private var index = 0
    private var active = false

    public init() {}

    public func begin(_ key: String) {
        if key != self.key {
            self.key = key
            recorded = []
        }
        index = 0
        active = true
    }

    public func end() { active = false }

    func lookup(_ query: Query) -> Double? {
        guard active, index < recorded.count else { return nil }
        guard recorded[index].query == query else {
            recorded.removeSubrange(index...)
            return nil
        }
        index += 1
        return recorded[index - 1].value
    }

    func record(_ query: Query, _ value: Double) {
        guard active, index == recorded.count else { return }
        recorded.append((query, value))
        index += 1
    }
}
