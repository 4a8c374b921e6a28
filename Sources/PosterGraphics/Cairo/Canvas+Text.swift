import CCairoPango
import Foundation

/// Text: plain, shadowed, blurred (depth of field), revealed as it is sung, faded where cut.
extension Canvas {
    // MARK: Text

    /// A blurred copy of text drawn behind it: (colour, blur radius in px, offset).
    package struct Shadow: Hashable, Sendable {
        package var color: Color
        package var radius: Int
        package var offset: Point
        package init(color: Color, radius: Int, offset: Point) {
            self.color = color; self.radius = radius; self.offset = offset
        }
    }

    /// A part of a text layout to show, in canvas pixels (for text that fills as it is sung).
    package struct Reveal: Hashable, Sendable {
        package var rect: Rect
        /// The span's end is still moving: it ends in a soft gradient centred on its edge.
        package var frontier: Bool
        /// The span grows leftwards (right-to-left text).
        package var rightToLeft: Bool
        package init(rect: Rect, frontier: Bool, rightToLeft: Bool) {
            self.rect = rect; self.frontier = frontier; self.rightToLeft = rightToLeft
        }
    }

    /// Draws only the parts of `layout` (origin at `origin`) that `spans` reveal; a frontier span
    /// fades out over `feather` pixels centred on its moving edge, so no glyph is split hard.
    package func draw(_ layout: TextLayout, at origin: Point, color: Color, revealed spans: [Reveal], feather: Double) {
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
            show(layout)
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
    package struct Fade: Hashable, Sendable {
        package var zone: Rect
        package var towardsLeft: Bool
        package init(zone: Rect, towardsLeft: Bool) { self.zone = zone; self.towardsLeft = towardsLeft }
    }

    /// Runs `body` (drawing calls on this canvas) and composites what it drew faded out over
    /// `fade`'s zone; without a fade, draws directly. `within`: an area holding every pixel `body`
    /// draws, which the layer is cut to (whole pixels around it); without it the layer is the
    /// canvas, and composited whole.
    package func fading(_ fade: Fade?, within: Rect? = nil, _ body: () throws(GraphicsError) -> Void) throws(GraphicsError) {
        guard let fade, !fade.zone.isEmpty else { return try body() }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        if let within {
            let x0 = within.minX.rounded(.down), y0 = within.minY.rounded(.down)
            cairo_rectangle(cr, x0, y0, within.maxX.rounded(.up) - x0, within.maxY.rounded(.up) - y0)
            cairo_clip(cr)
        }
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

    /// Shows `layout` at the current point, under `FontLock`; from then on the context holds
    /// fonts, and is released under the lock too.
    func show(_ layout: TextLayout) {
        holdsFonts = true
        FontLock.held { layout.show(on: cr) }
    }

    /// With `blur` > 0 the text itself is drawn blurred by that many pixels (depth of field).
    package func draw(_ layout: TextLayout, at origin: Point, color: Color, shadow: Shadow? = nil, blur: Int = 0) throws(GraphicsError) {
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
        let ink = layout.inkRect
        try withOpacity(color.alpha, clip: Rect(x: origin.x + ink.x - 2, y: origin.y + ink.y - 2, width: ink.width + 4,
                                                height: ink.height + 4)) { () throws(GraphicsError) in
            setSource(color.withAlpha(1))
            cairo_move_to(cr, origin.x, origin.y)
            show(layout)
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
    func drawBlurred(_ layout: TextLayout, at origin: Point, color: Color, pad: Int, boxRadius: Int,
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
            layer.show(layout)
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
}
