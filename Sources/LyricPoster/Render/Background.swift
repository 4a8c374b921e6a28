import PosterGraphics

/// Everything about a frame that does not depend on the time, made once per song and preset:
/// the blurred, darkened backdrop, the sharp cover card with its shadow, and the cover's tint.
public struct Background: Sendable {
    public let geometry: PosterGeometry
    /// The full-canvas backdrop, opaque.
    public let bitmap: Bitmap
    /// The cover's average colour darkened (keeping its hue) until white text on it reaches
    /// 7:1; used for scrims.
    public let tint: Color
    /// The cover's average colour.
    public let average: Color

    /// Prepares the backdrop for `geometry` from an upright cover.
    public static func prepare(cover: Bitmap, geometry: PosterGeometry) throws(GraphicsError) -> Background {
        let w = geometry.preset.width, h = geometry.preset.height
        let canvas = try Canvas(width: w, height: h)
        canvas.fill(.black)
        let average = averageColour(cover)
        let tint = darkened(average)
        let full = Rect(x: 0, y: 0, width: Double(w), height: Double(h))

        switch geometry.preset.arrangement {
        case .classic:
            canvas.draw(cover, source: aspectFill(cover, into: full), in: full)
            // The rows' half-black bands, darker where the cover behind a row is too light for
            // white text to reach 4.5:1 (the original used a fixed 50 %).
            for row in geometry.rows {
                let alpha = scrimAlpha(canvas: canvas, rect: row, tint: .black, minimum: 0.5)
                canvas.fill(row, color: Color.black.withAlpha(alpha))
            }
        case .stack, .header, .split:
            // Backdrop: the cover zoomed ×1.15 and heavily blurred. Blurring at 1/8 scale and
            // scaling up is as smooth as a full-size blur and far cheaper.
            let small = try Canvas(width: max(8, w / 8), height: max(8, h / 8))
            let smallRect = Rect(x: 0, y: 0, width: Double(small.width), height: Double(small.height))
            let zoomed = aspectFill(cover, into: smallRect, zoom: 1.15)
            small.draw(cover, source: zoomed, in: smallRect)
            try small.finish()
            let blurred = small.snapshot().blurred(radius: max(2, Int((6 * geometry.unit).rounded())))
            canvas.draw(blurred, in: full)
            canvas.fill(Color.black.withAlpha(0.34))
            canvas.fillVerticalGradient(full, stops: [(0, Color.black.withAlpha(0.12)), (0.5, Color.black.withAlpha(0.22)),
                                                      (1, Color.black.withAlpha(0.5))])
            if let card = geometry.card {
                try canvas.dropShadow(for: card, cornerRadius: geometry.cardRadius, blur: Int(36 * geometry.unit),
                                      offsetY: 14 * geometry.unit, color: Color.black.withAlpha(0.5))
                canvas.draw(cover, source: aspectFill(cover, into: card), in: card, cornerRadius: geometry.cardRadius)
            }
        }
        try canvas.finish()
        return Background(geometry: geometry, bitmap: canvas.snapshot(), tint: tint, average: average)
    }

    /// The part of `image` that fills `rect` without distortion, centred (cropping the excess).
    static func aspectFill(_ image: Bitmap, into rect: Rect, zoom: Double = 1) -> Rect {
        let iw = Double(image.width), ih = Double(image.height)
        let scale = max(rect.width / iw, rect.height / ih) * zoom
        let sw = rect.width / scale, sh = rect.height / scale
        return Rect(x: (iw - sw) / 2, y: (ih - sh) / 2, width: sw, height: sh)
    }

    static func averageColour(_ image: Bitmap) -> Color {
        var r = 0.0, g = 0.0, b = 0.0, n = 0.0
        let step = max(1, min(image.width, image.height) / 64)
        for y in Swift.stride(from: 0, to: image.height, by: step) {
            for x in Swift.stride(from: 0, to: image.width, by: step) {
                let p = image.rgba(x: x, y: y)
                r += Double(p.r); g += Double(p.g); b += Double(p.b); n += 1
            }
        }
        return Color(red: r / n / 255, green: g / n / 255, blue: b / n / 255)
    }

    /// Darkens `colour`, keeping its hue, until white reaches 7:1 against it: deep enough that a
    /// partly transparent scrim of it can always lift text over the brightest cover to 4.5:1.
    static func darkened(_ colour: Color) -> Color {
        var c = colour
        var k = 1.0
        while Color.contrast(1, c.relativeLuminance) < 7, k > 0 {
            k -= 0.02
            c = Color(red: colour.red * k, green: colour.green * k, blue: colour.blue * k)
        }
        return c
    }

    /// The weakest overlay of `tint` (at least `minimum`) under which white text over `rect`
    /// reaches the contrast target against every pixel there.
    static func scrimAlpha(canvas: Canvas, rect: Rect, tint: Color, minimum: Double) -> Double {
        func passes(_ alpha: Double) -> Bool {
            let l = canvas.luminance(in: rect, quantile: 1.0, overlay: tint.withAlpha(alpha))
            return Color.contrast(1, l) >= Renderer.contrastTarget
        }
        if passes(minimum) { return minimum }
        var low = minimum, high = 1.0
        for _ in 0..<10 {
            let mid = (low + high) / 2
            if passes(mid) { high = mid } else { low = mid }
        }
        return high
    }
}
