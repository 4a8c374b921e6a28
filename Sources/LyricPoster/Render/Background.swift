import Foundation
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

    /// The cover's most colourful hue (its "vibrant" colour), or nil for a grey cover.
    public let vibrant: Color?
    /// The cover's quiet colour: the mean of its mid-tone, low-saturation pixels (or its average).
    public let muted: Color

    /// Prepares the backdrop for `geometry` and `theme` from an upright cover.
    public static func prepare(cover: Bitmap, geometry: PosterGeometry, theme: Theme = .card) throws(GraphicsError) -> Background {
        let w = geometry.preset.width, h = geometry.preset.height
        let canvas = try Canvas(width: w, height: h)
        canvas.fill(.black)
        let average = averageColour(cover)
        let vibrant = vibrantColour(cover)
        let muted = mutedColour(cover) ?? average
        let tint = darkened(average)
        let full = Rect(x: 0, y: 0, width: Double(w), height: Double(h))

        if geometry.layout == .classic {
            canvas.draw(cover, source: aspectFill(cover, into: full), in: full)
            // The rows' half-black bands, darker where the cover behind a row is too light for the
            // current line's colour to reach 4.5:1 (the original used a fixed 50 %). Rows are
            // snapped to whole pixels so that neighbouring bands do not leave a lighter seam.
            let textLuminance = Background.currentColor(for: theme, vibrant: vibrant).relativeLuminance
            for row in geometry.rows {
                let y0 = row.minY.rounded(), y1 = row.maxY.rounded()
                let snapped = Rect(x: row.minX, y: y0, width: row.width, height: y1 - y0)
                let alpha = scrimAlpha(canvas: canvas, rect: snapped, tint: .black, minimum: 0.5, textLuminance: textLuminance)
                canvas.fill(snapped, color: Color.black.withAlpha(alpha))
            }
        } else {
            switch theme.background {
            case .blurredCover:
                // The cover zoomed ×1.15 and heavily blurred. Blurring at 1/8 scale and scaling up
                // is as smooth as a full-size blur and far cheaper.
                let small = try Canvas(width: max(8, w / 8), height: max(8, h / 8))
                let smallRect = Rect(x: 0, y: 0, width: Double(small.width), height: Double(small.height))
                small.draw(cover, source: aspectFill(cover, into: smallRect, zoom: 1.15), in: smallRect)
                try small.finish()
                let radius = max(2, Int((theme.backgroundBlur * geometry.unit).rounded()))
                canvas.draw(small.snapshot().blurred(radius: radius), in: full)
            case .cover:
                canvas.draw(cover, source: aspectFill(cover, into: full), in: full)
            case .gradient:
                let top = darkened(vibrant ?? average, to: 7), bottom = darkened(muted, to: 12)
                canvas.fillVerticalGradient(full, stops: [(0, top), (1, bottom)])
            }
            if theme.backgroundBrightness < 1 { canvas.fill(Color.black.withAlpha(1 - theme.backgroundBrightness)) }
            // The scrim: black, or for a full-bleed cover its own darkened colour, strongest where
            // the lyrics sit.
            let scrimColour = theme.background == .cover ? tint : .black
            canvas.fillVerticalGradient(full, stops: [(0, scrimColour.withAlpha(theme.scrim[0])),
                                                      (0.5, scrimColour.withAlpha(theme.scrim[1])),
                                                      (1, scrimColour.withAlpha(theme.scrim[2]))])
            if let card = geometry.card, theme.card {
                try canvas.dropShadow(for: card, cornerRadius: geometry.cardRadius, blur: Int(36 * geometry.unit),
                                      offsetY: 14 * geometry.unit, color: Color.black.withAlpha(0.5))
                canvas.draw(cover, source: aspectFill(cover, into: card), in: card, cornerRadius: geometry.cardRadius)
            }
        }
        try canvas.finish()
        return Background(geometry: geometry, bitmap: canvas.snapshot(), tint: tint, average: average, vibrant: vibrant,
                          muted: muted)
    }

    /// The colour the current line is drawn in under `theme`: the text colour, a fixed accent, or
    /// the cover's vibrant colour lightened (hue kept) until it is at least as light as
    /// relative luminance 0.55, so that scrims can always bring it to 4.5:1.
    public func currentColor(for theme: Theme) -> Color {
        Background.currentColor(for: theme, vibrant: vibrant)
    }

    static func currentColor(for theme: Theme, vibrant: Color?) -> Color {
        if let accent = theme.accentColor { return accent }
        guard theme.accentFromCover, let vibrant else { return theme.textColor }
        var c = vibrant
        var k = 0.0
        while c.relativeLuminance < 0.55, k < 1 {
            k += 0.02
            c = Color(red: vibrant.red + (1 - vibrant.red) * k, green: vibrant.green + (1 - vibrant.green) * k,
                      blue: vibrant.blue + (1 - vibrant.blue) * k)
        }
        return c
    }

    /// The mean colour of the cover's mid-tone pixels of low saturation, or nil if it has none.
    static func mutedColour(_ image: Bitmap) -> Color? {
        var r = 0.0, g = 0.0, b = 0.0, n = 0.0
        forEachSample(of: image) { pixel in
            guard (0.08...0.35).contains(pixel.saturation), (0.25...0.8).contains(pixel.value) else { return }
            r += pixel.r; g += pixel.g; b += pixel.b; n += 1
        }
        return n > 0 ? Color(red: r / n, green: g / n, blue: b / n) : nil
    }

    /// The most saturated hue family of the cover: hues of bright, saturated pixels are binned
    /// (weighted by saturation), and the busiest bin's mean colour is returned.
    static func vibrantColour(_ image: Bitmap) -> Color? {
        var weights = [Double](repeating: 0, count: 24)
        var sums = [(Double, Double, Double)](repeating: (0, 0, 0), count: 24)
        forEachSample(of: image) { pixel in
            guard pixel.saturation > 0.35, pixel.value > 0.35 else { return }
            let bin = min(23, Int(pixel.hue * 24))
            weights[bin] += pixel.saturation
            sums[bin].0 += pixel.r * pixel.saturation
            sums[bin].1 += pixel.g * pixel.saturation
            sums[bin].2 += pixel.b * pixel.saturation
        }
        guard let best = weights.indices.max(by: { weights[$0] < weights[$1] }), weights[best] > 0 else { return nil }
        let w = weights[best]
        return Color(red: sums[best].0 / w, green: sums[best].1 / w, blue: sums[best].2 / w)
    }

    /// One sampled pixel: straight RGB in 0…1, with HSV hue (0…1), saturation and value.
    struct Sample {
        var r, g, b: Double
        var hue: Double { hsv.hue }
        var saturation: Double { hsv.saturation }
        var value: Double { max(r, g, b) }
        private var hsv: (hue: Double, saturation: Double) {
            let maxC = max(r, g, b), minC = min(r, g, b)
            guard maxC > minC else { return (0, 0) }
            var h: Double
            if maxC == r { h = (g - b) / (maxC - minC) } else if maxC == g { h = 2 + (b - r) / (maxC - minC) } else { h = 4 + (r - g) / (maxC - minC) }
            h = (h < 0 ? h + 6 : h) / 6
            return (h, (maxC - minC) / maxC)
        }
    }

    /// Calls `body` for about 64×64 pixels spread evenly over `image` (palette work needs no more).
    static func forEachSample(of image: Bitmap, _ body: (Sample) -> Void) {
        let step = max(1, min(image.width, image.height) / 64)
        for y in Swift.stride(from: 0, to: image.height, by: step) {
            for x in Swift.stride(from: 0, to: image.width, by: step) {
                let p = image.rgba(x: x, y: y)
                body(Sample(r: Double(p.r) / 255, g: Double(p.g) / 255, b: Double(p.b) / 255))
            }
        }
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
        forEachSample(of: image) { pixel in
            r += pixel.r; g += pixel.g; b += pixel.b; n += 1
        }
        return Color(red: r / n, green: g / n, blue: b / n)
    }

    /// Darkens `colour`, keeping its hue, until white reaches `ratio` (default 7:1) against it:
    /// deep enough that a partly transparent scrim of it can always lift text over the brightest
    /// cover to 4.5:1.
    static func darkened(_ colour: Color, to ratio: Double = 7, against textLuminance: Double = 1) -> Color {
        var c = colour
        var k = 1.0
        while Color.contrast(textLuminance, c.relativeLuminance) < ratio, k > 0 {
            k -= 0.02
            c = Color(red: colour.red * k, green: colour.green * k, blue: colour.blue * k)
        }
        return c
    }

    /// The weakest overlay of `tint` (at least `minimum`) under which text of `textLuminance`
    /// (white by default) over `rect` reaches the contrast target against every pixel there.
    static func scrimAlpha(canvas: Canvas, rect: Rect, tint: Color, minimum: Double, textLuminance: Double = 1) -> Double {
        scrimAlpha(canvas: canvas, rect: rect, tint: tint, minimum: minimum) { background in
            Color.contrast(textLuminance, background) >= Renderer.contrastTarget
        }
    }

    /// The weakest overlay of `tint` (at least `minimum`) under which `accepts` holds for the
    /// brightest pixel's luminance in `rect`; 1 when none does.
    static func scrimAlpha(canvas: Canvas, rect: Rect, tint: Color, minimum: Double, accepts: (Double) -> Bool) -> Double {
        func passes(_ alpha: Double) -> Bool {
            accepts(canvas.luminance(in: rect, quantile: 1.0, overlay: tint.withAlpha(alpha)))
        }
        if passes(minimum) { return minimum }
        var low = minimum, high = 1.0
        for _ in 0..<10 {
            let mid = (low + high) / 2
            if passes(mid) { high = mid } else { low = mid }
        }
        return high
    }

    /// The WCAG contrast between text of `textLuminance` drawn at `alpha` over a grey background
    /// of `backgroundLuminance` (blended in sRGB, as Cairo does) and that background.
    static func blendedContrast(textLuminance: Double, alpha: Double, backgroundLuminance: Double) -> Double {
        func encode(_ l: Double) -> Double { l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055 }
        func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        let glyph = alpha * encode(textLuminance) + (1 - alpha) * encode(backgroundLuminance)
        return Color.contrast(decode(glyph), backgroundLuminance)
    }
}
