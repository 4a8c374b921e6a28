import Foundation
import PosterGraphics

/// Everything about a frame that does not depend on the time, made once per song and preset:
/// the backdrop in the cover's own colours, the text scheme it suits, a smooth scrim fitted to
/// where text goes, and the sharp cover card with its shadow.
public struct Background: Sendable {
    public let geometry: PosterGeometry
    /// The full-canvas backdrop, opaque.
    public let bitmap: Bitmap
    /// The scrim colour for the text's scheme: the cover's colour darkened (keeping its hue)
    /// under light text, or lightened to a frost under dark text.
    public let tint: Color
    /// The cover's average colour.
    public let average: Color

    /// The cover's most colourful hue (its "vibrant" colour), or nil for a grey cover.
    public let vibrant: Color?
    /// The cover's quiet colour: the mean of its mid-tone, low-saturation pixels (or its average).
    public let muted: Color
    /// The text colours chosen for this backdrop.
    public let palette: Palette
    /// For classic rows: the cover blurred, seen through the rows' band so that sharp artwork
    /// does not run through the text.
    public let frost: Bitmap?

    /// The colours measured on a cover, shared by everything that draws it.
    struct CoverColours {
        var average: Color
        var vibrant: Color?
        /// A second colourful hue, clearly apart from `vibrant` (for two-colour gradients).
        var second: Color?
        var muted: Color
        /// The mean colours of the cover's top and bottom thirds.
        var top: Color
        var bottom: Color

        init(_ cover: Bitmap) {
            average = averageColour(cover)
            top = averageColour(cover, rows: 0..<max(1, cover.height / 3))
            bottom = averageColour(cover, rows: (cover.height - max(1, cover.height / 3))..<cover.height)
            let hues = vibrantColours(cover)
            vibrant = hues.first
            second = hues.count > 1 ? hues[1] : nil
            muted = mutedColour(cover) ?? average
        }
    }

    /// Prepares the backdrop for `geometry` and `theme` from an upright cover.
    public static func prepare(cover: Bitmap, geometry: PosterGeometry, theme: Theme = .card) throws(GraphicsError) -> Background {
        let w = geometry.preset.width, h = geometry.preset.height
        let canvas = try Canvas(width: w, height: h)
        let colours = CoverColours(cover)
        let average = colours.average
        let full = Rect(x: 0, y: 0, width: Double(w), height: Double(h))

        // 1. The base: the cover, blurred or sharp, or a gradient of two of its colours.
        let frost = try drawBase(on: canvas, cover: cover, colours: colours, theme: theme, layout: geometry.layout, unit: geometry.unit)

        // 2. The scheme, decided on the cover itself (the same for every preset, so a song's
        // posters at several sizes belong together): whichever text — light or dark — its
        // backdrop serves with the lighter scrim. Classic rows sit on dark bands: light text.
        let zones = textZones(geometry)
        let palette = try scheme(for: cover, colours: colours, theme: theme, layout: geometry.layout)
        let scheme = palette.scheme
        let tint = tint(for: palette, average: average)

        if geometry.layout != .classic {
            // 3. Under the lyrics of a full-bleed cover, the cover turns soft (a progressive blur)
            // so that its detail does not run through the letters.
            if theme.background == .cover {
                let soft = try blurred(cover, width: w, height: h, colours: colours, radius: 16 * geometry.unit, factor: 4,
                                       saturation: theme.backgroundSaturation)
                // Soft under the lyrics (from their top down) and under the captions, eased in
                // over a seventh of the height; the cover stays itself in between.
                let ease = 0.15 * Double(h)
                let regions = [geometry.lyrics, geometry.caption].compactMap { $0 }
                let mask = (0..<h).map { y -> Double in
                    regions.map { r -> Double in
                        let d = max(r.minY - Double(y), Double(y) - (r.maxY + (r == geometry.lyrics ? Double(h) : 0)), 0)
                        let t = max(0, 1 - d / ease)
                        return t * t * (3 - 2 * t)
                    }.max() ?? 0
                }
                canvas.draw(soft, throughRows: mask)
            }
            // 4. The theme's tone: darker (or, for dark text, lighter) and a gentle tinted wash.
            if scheme == .dark {
                if theme.backgroundBrightness < 1 { canvas.fill(tint.withAlpha(1 - theme.backgroundBrightness)) }
            } else {
                canvas.fill(tint.withAlpha(min(0.5, (1 - theme.backgroundBrightness) * 0.8)))
            }
            if theme.scrim.contains(where: { $0 > 0 }) {
                canvas.fillVerticalGradient(full, stops: [(0, tint.withAlpha(theme.scrim[0])), (0.5, tint.withAlpha(theme.scrim[1])),
                                                          (1, tint.withAlpha(theme.scrim[2]))])
            }
            // 5. A smooth scrim fitted to the text: as strong as each row of the text regions
            // needs for its contrast target, eased out far beyond them (no edge, no rectangle).
            try canvas.finish()
            let alphas = fogProfile(canvas.snapshot(), zones: zones, tint: tint, palette: palette, theme: theme, geometry: geometry)
            if alphas.contains(where: { $0 > 0.004 }) { canvas.fillRows(color: tint, alphas: alphas) }
        }

        // 6. The sharp cover card, its shadow following the cover's shape.
        if let slot = geometry.card, theme.card, geometry.layout != .classic {
            let card = cardRect(slot, cover: cover)
            let radius = geometry.cardRadius * card.width / max(1, slot.width)
            let source = aspectFill(cover, into: card)
            try canvas.dropShadow(of: cover, source: source, in: card, cornerRadius: radius, blur: Int(36 * geometry.unit),
                                  offsetY: 14 * geometry.unit, color: Color.black.withAlpha(scheme == .dark ? 0.5 : 0.28))
            canvas.draw(cover, source: source, in: card, cornerRadius: radius)
            // A hairline edge where the cover would melt into the backdrop (very dark or very light).
            if !cover.hasTransparency {
                let l = average.relativeLuminance
                let hairline = max(1.5, 2 * geometry.unit)
                if l < 0.03 { canvas.stroke(card, color: Color.white.withAlpha(0.2), lineWidth: hairline, cornerRadius: radius) }
                if l > 0.8 { canvas.stroke(card, color: Color.black.withAlpha(0.12), lineWidth: hairline, cornerRadius: radius) }
            }
        }
        try canvas.finish()
        return Background(geometry: geometry, bitmap: canvas.snapshot(), tint: tint, average: average, vibrant: colours.vibrant,
                          muted: colours.muted, palette: palette, frost: frost)
    }

    /// The cover drawn at a reduced scale (1/`factor`) to fill `width`×`height`, blurred by
    /// `radius` output pixels and saturated: as smooth as a full-size blur, far cheaper.
    static func blurred(_ cover: Bitmap, width w: Int, height h: Int, colours: CoverColours, radius: Double, factor: Int,
                        saturation: Double, zoom: Double = 1) throws(GraphicsError) -> Bitmap {
        let tiny = try Canvas(width: max(8, w / factor), height: max(8, h / factor))
        let tinyRect = Rect(x: 0, y: 0, width: Double(tiny.width), height: Double(tiny.height))
        tiny.fill(colours.average)
        tiny.draw(cover, source: aspectFill(cover, into: tinyRect, zoom: zoom), in: tinyRect)
        try tiny.finish()
        let soft = tiny.snapshot().blurred(radius: max(1, Int((radius / Double(factor)).rounded())))
        return saturation == 1 ? soft : soft.saturated(by: saturation)
    }

    /// Draws the theme's base over the whole of `canvas` (before tone, scrims and card) and, for
    /// classic rows, returns the blurred cover their band shows.
    static func drawBase(on canvas: Canvas, cover: Bitmap, colours: CoverColours, theme: Theme, layout: Theme.Layout,
                         unit: Double) throws(GraphicsError) -> Bitmap? {
        let w = canvas.width, h = canvas.height
        let full = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
        canvas.fill(colours.average)
        // A cover enlarged more than twice to fill the canvas is not blown up into visible pixels:
        // it is drawn small, softened in proportion to its enlargement, and scaled up smoothly.
        let enlargement = max(Double(w) / Double(cover.width), Double(h) / Double(cover.height))
        func drawCover() throws(GraphicsError) {
            if enlargement > 2 {
                let factor = min(8, max(1, Int(enlargement / 2)))
                canvas.draw(try blurred(cover, width: w, height: h, colours: colours, radius: max(1, enlargement), factor: factor,
                                        saturation: 1), in: full)
            } else {
                canvas.draw(cover, source: aspectFill(cover, into: full), in: full)
            }
        }
        if layout == .classic {
            try drawCover()
            try canvas.finish()
            return try blurred(cover, width: w, height: h, colours: colours, radius: 24 * unit, factor: 8,
                               saturation: theme.backgroundSaturation)
        }
        switch theme.background {
        case .blurredCover:
            canvas.draw(try blurred(cover, width: w, height: h, colours: colours, radius: 8 * theme.backgroundBlur * unit, factor: 8,
                                    saturation: theme.backgroundSaturation, zoom: 1.15), in: full)
        case .cover: try drawCover()
        case .gradient:
            let (top, bottom) = gradientColours(colours)
            canvas.fillVerticalGradient(full, stops: [(0, top), (1, bottom)])
        }
        try canvas.finish()
        return nil
    }

    /// The text scheme for `cover` under `theme`: fixed by the theme, or (auto) the one whose
    /// scrim over the cover's own base, drawn small and square, is the lighter.
    static func scheme(for cover: Bitmap, colours: CoverColours, theme: Theme, layout: Theme.Layout) throws(GraphicsError) -> Palette {
        let dark = makePalette(theme: theme, scheme: .dark, colours: colours)
        let light = makePalette(theme: theme, scheme: .light, colours: colours)
        switch theme.scheme {
        case .dark: return dark
        case .light: return light
        case .auto:
            guard layout != .classic else { return dark }
            let side = 216
            let probe = try Canvas(width: side, height: side)
            _ = try drawBase(on: probe, cover: cover, colours: colours, theme: theme, layout: layout, unit: Double(side) / 1080)
            let base = probe.snapshot()
            let preset = Preset.custom(width: side, height: side)
            let geometry = PosterGeometry(preset: preset, before: 0, after: 0, theme: theme)
            let zones = [Zone(rect: Rect(x: 0, y: 0, width: Double(side), height: Double(side)), isLyrics: true)]
            func load(_ p: Palette) -> Double {
                fogProfile(base, zones: zones, tint: tint(for: p, average: colours.average), palette: p, theme: theme,
                           geometry: geometry, smooth: false).reduce(0, +)
            }
            // Ties go to light text, the look people expect of a lyric poster.
            return load(light) < 0.8 * load(dark) ? light : dark
        }
    }

    /// The scrim colour for `palette`: the cover's colour, a little richer, darkened (keeping its
    /// hue) until light text reaches 10:1 on it, or lightened to a frost where dark text does.
    static func tint(for palette: Palette, average: Color) -> Color {
        let rich = saturated(average, by: 1.4)
        let weakest = min(palette.text.relativeLuminance, palette.current.relativeLuminance)
        let strongest = max(palette.text.relativeLuminance, palette.current.relativeLuminance)
        return palette.isDark ? darkened(rich, to: 10, against: weakest) : lightened(rich, to: 8, against: strongest)
    }

    /// `colour` with its distance from its own luma scaled by `factor`, kept inside 0…1.
    static func saturated(_ colour: Color, by factor: Double) -> Color {
        let luma = 0.2126 * colour.red + 0.7152 * colour.green + 0.0722 * colour.blue
        func c(_ v: Double) -> Double { min(1, max(0, luma + (v - luma) * factor)) }
        return Color(red: c(colour.red), green: c(colour.green), blue: c(colour.blue))
    }

    /// `colour` with its HSV saturation at most `limit` (its value kept): no neon accents.
    static func capped(_ colour: Color, saturation limit: Double) -> Color {
        let maxC = max(colour.red, colour.green, colour.blue), minC = min(colour.red, colour.green, colour.blue)
        guard maxC > 0, (maxC - minC) / maxC > limit else { return colour }
        let k = limit / ((maxC - minC) / maxC)
        func c(_ v: Double) -> Double { maxC - (maxC - v) * k }
        return Color(red: c(colour.red), green: c(colour.green), blue: c(colour.blue))
    }

    /// The card's place: the layout's slot, or — for a cover smaller than half of it — the cover
    /// at no more than twice its own size, centred across the slot and sitting on its bottom edge
    /// (next to the title, not floating in a hole), so that it is never blown up.
    public static func cardRect(_ slot: Rect, cover: Bitmap) -> Rect {
        let side = min(slot.width, 2 * Double(min(cover.width, cover.height)))
        return Rect(x: slot.midX - side / 2, y: slot.maxY - side, width: side, height: side)
    }

    /// Two clearly different colours of the cover for a gradient, in the cover's own order: the
    /// mean of its top third at the top and of its bottom third at the bottom; where those are
    /// alike, its two most colourful hues (or its quiet colour and its vibrant one). Never neon,
    /// and each moved halfway (in luminance) towards the cover's own lightness, so a dark cover
    /// gives a dark poster and a light one a light poster, in the cover's hues.
    static func gradientColours(_ colours: CoverColours) -> (Color, Color) {
        func distance(_ a: Color, _ b: Color) -> Double { abs(a.red - b.red) + abs(a.green - b.green) + abs(a.blue - b.blue) }
        var top = colours.top, bottom = colours.bottom
        if distance(top, bottom) < 0.3 {
            top = colours.second ?? colours.muted
            bottom = colours.vibrant ?? colours.average
        }
        top = capped(top, saturation: 0.85)
        bottom = capped(bottom, saturation: 0.85)
        if distance(top, bottom) < 0.25 {
            // A one-colour cover: the same hue, a clear step darker at the bottom.
            bottom = Color(red: bottom.red * 0.72, green: bottom.green * 0.72, blue: bottom.blue * 0.72)
            top = Color(red: top.red + (1 - top.red) * 0.2, green: top.green + (1 - top.green) * 0.2, blue: top.blue + (1 - top.blue) * 0.2)
        }
        let anchor = colours.average.relativeLuminance
        func toward(_ c: Color) -> Color {
            let target = sqrt(max(0.0005, c.relativeLuminance) * max(0.0005, anchor))
            if target < c.relativeLuminance { return darkened(c, toLuminance: target) }
            return lightened(c, toLuminance: target)
        }
        return (toward(top), toward(bottom))
    }

    /// `colour` scaled towards black (hue kept) until its relative luminance is at most `target`.
    static func darkened(_ colour: Color, toLuminance target: Double) -> Color {
        var k = 1.0, c = colour
        while c.relativeLuminance > target, k > 0 {
            k -= 0.01
            c = Color(red: colour.red * k, green: colour.green * k, blue: colour.blue * k)
        }
        return c
    }

    /// `colour` mixed towards white (hue kept) until its relative luminance is at least `target`.
    static func lightened(_ colour: Color, toLuminance target: Double) -> Color {
        var k = 0.0, c = colour
        while c.relativeLuminance < target, k < 1 {
            k += 0.01
            c = Color(red: colour.red + (1 - colour.red) * k, green: colour.green + (1 - colour.green) * k,
                      blue: colour.blue + (1 - colour.blue) * k)
        }
        return c
    }

    /// Where text goes and what it needs: the lyrics (the current line's colour at 4.5:1, dimmed
    /// lines at 3:1 through a partly raised opacity) and the captions and progress times (3:1).
    struct Zone {
        var rect: Rect
        var isLyrics: Bool
    }

    static func textZones(_ geometry: PosterGeometry) -> [Zone] {
        var zones = [Zone(rect: geometry.lyrics, isLyrics: true)]
        if let caption = geometry.caption { zones.append(Zone(rect: caption, isLyrics: false)) }
        if let progress = geometry.progress { zones.append(Zone(rect: progress, isLyrics: false)) }
        return zones
    }

    /// The text colours for `scheme`: the theme's (light) colours on a dark backdrop; on a light
    /// one, an ink of the cover's own hue and an accent deepened until it reads there.
    static func makePalette(theme: Theme, scheme: Palette.Scheme, colours: CoverColours) -> Palette {
        let accent = currentColor(for: theme, vibrant: colours.vibrant)
        guard scheme == .light else { return Palette(scheme: .dark, text: theme.textColor, current: accent) }
        let ink = darkened(colours.muted, to: 14)
        let current = accent == theme.textColor ? ink
            : darkened(capped(theme.accentColor ?? colours.vibrant ?? accent, saturation: 0.8), to: 8)
        return Palette(scheme: .light, text: ink, current: current)
    }

    /// Per pixel row, the weakest opacity of `tint` under which every text zone's row reaches its
    /// target against the most extreme pixel of that row; then widened and smoothed so that the
    /// scrim has no visible step (it never falls below what a row needs).
    static func fogProfile(_ base: Bitmap, zones: [Zone], tint: Color, palette: Palette, theme: Theme,
                           geometry: PosterGeometry, smooth: Bool = true) -> [Double] {
        let h = base.height
        var need = [Double](repeating: 0, count: h)
        let dark = palette.isDark
        for zone in zones {
            let extremes = base.rowExtremes(x0: Int(zone.rect.minX.rounded(.down)), x1: Int(zone.rect.maxX.rounded(.up)), brightest: dark)
            let y0 = max(0, Int(zone.rect.minY.rounded(.down))), y1 = min(h, Int(zone.rect.maxY.rounded(.up)))
            guard y1 > y0 else { continue }
            for y in y0..<y1 {
                let p = extremes[y]
                func luminance(_ a: Double) -> Double {
                    func c(_ v: Double, _ t: Double) -> Double { ((v * (1 - a) + t * 255 * a).rounded()) / 255 }
                    return Color.luminance(red: c(p.r, tint.red), green: c(p.g, tint.green), blue: c(p.b, tint.blue))
                }
                func passes(_ a: Double) -> Bool {
                    let l = luminance(a)
                    if zone.isLyrics {
                        return Color.contrast(palette.current.relativeLuminance, l) >= Renderer.contrastTarget
                            && Color.contrast(palette.text.relativeLuminance, l) >= Renderer.contrastTarget
                            && blendedContrast(textLuminance: palette.text.relativeLuminance, alpha: 0.8, backgroundLuminance: l)
                                >= Renderer.neighbourContrastTarget
                    }
                    return blendedContrast(textLuminance: palette.text.relativeLuminance, alpha: theme.artistOpacity, backgroundLuminance: l)
                        >= Renderer.neighbourContrastTarget
                }
                if passes(0) { continue }
                var low = 0.0, high = 1.0
                for _ in 0..<10 {
                    let mid = (low + high) / 2
                    if passes(mid) { high = mid } else { low = mid }
                }
                need[y] = max(need[y], min(1, high + 0.01))
            }
        }
        guard smooth, need.contains(where: { $0 > 0 }) else { return need }
        // Dilate by 2r, then two box passes of radius r: the result is never below the need,
        // and changes by at most about max/2r per row.
        let r = max(4, Int(0.085 * Double(max(geometry.preset.width, h))))
        var dilated = need
        for y in 0..<h {
            var m = 0.0
            for k in max(0, y - 2 * r)...min(h - 1, y + 2 * r) where need[k] > m { m = need[k] }
            dilated[y] = m
        }
        func boxPass(_ v: [Double]) -> [Double] {
            var prefix = [Double](repeating: 0, count: v.count + 1)
            for i in v.indices { prefix[i + 1] = prefix[i] + v[i] }
            return v.indices.map { i in
                let lo = i - r, hi = i + r
                // Outside the canvas the scrim continues at its edge value.
                var sum = prefix[min(v.count, hi + 1)] - prefix[max(0, lo)]
                if lo < 0 { sum += Double(-lo) * v[0] }
                if hi >= v.count { sum += Double(hi - v.count + 1) * v[v.count - 1] }
                return sum / Double(2 * r + 1)
            }
        }
        return boxPass(boxPass(dilated))
    }

    /// The colour the current line is drawn in under `theme`: the text colour, a fixed accent, or
    /// the cover's vibrant colour lightened (hue kept) until it is at least as light as
    /// relative luminance 0.55, so that scrims can always bring it to 4.5:1.
    public func currentColor(for theme: Theme) -> Color {
        Background.currentColor(for: theme, vibrant: vibrant)
    }

    static func currentColor(for theme: Theme, vibrant: Color?) -> Color {
        if let accent = theme.accentColor { return accent }
        guard theme.accentFromCover, let found = vibrant else {
            return theme.accentFromCover ? theme.accentFallback ?? theme.textColor : theme.textColor
        }
        // Calm, not neon: saturation at most 0.6 and a little below full value.
        var vibrant = capped(found, saturation: 0.6)
        let value = max(vibrant.red, vibrant.green, vibrant.blue)
        if value > 0.94 { vibrant = Color(red: vibrant.red * 0.94 / value, green: vibrant.green * 0.94 / value, blue: vibrant.blue * 0.94 / value) }
        var c = vibrant
        var k = 0.0
        while c.relativeLuminance < 0.5, k < 1 {
            k += 0.02
            c = Color(red: vibrant.red + (1 - vibrant.red) * k, green: vibrant.green + (1 - vibrant.green) * k,
                      blue: vibrant.blue + (1 - vibrant.blue) * k)
        }
        // Lightened until it reads, a colour can fade to a grey tint that looks like dimmed text;
        // then the text colour itself is the clearer accent.
        let maxC = max(c.red, c.green, c.blue), minC = min(c.red, c.green, c.blue)
        if maxC > 0, (maxC - minC) / maxC < 0.28 { return theme.accentFallback ?? theme.textColor }
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

    /// The cover's colourful hue families, busiest first: hues of bright, saturated pixels are
    /// binned (weighted by saturation); the busiest bin's mean colour, then — if one has at least
    /// a sixth of its weight — the busiest bin at least 60° of hue away from it.
    static func vibrantColours(_ image: Bitmap) -> [Color] {
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
        func mean(_ bin: Int) -> Color {
            let w = weights[bin]
            return Color(red: sums[bin].0 / w, green: sums[bin].1 / w, blue: sums[bin].2 / w)
        }
        guard let best = weights.indices.max(by: { weights[$0] < weights[$1] }), weights[best] > 0 else { return [] }
        let apart = weights.indices.filter { min(abs($0 - best), 24 - abs($0 - best)) >= 4 && weights[$0] >= weights[best] / 6 }
        guard let second = apart.max(by: { weights[$0] < weights[$1] }) else { return [mean(best)] }
        return [mean(best), mean(second)]
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
    static func forEachSample(of image: Bitmap, rows: Range<Int>? = nil, _ body: (Sample) -> Void) {
        let step = max(1, min(image.width, image.height) / 64)
        let rows = rows ?? 0..<image.height
        for y in Swift.stride(from: rows.lowerBound, to: rows.upperBound, by: step) {
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

    static func averageColour(_ image: Bitmap, rows: Range<Int>? = nil) -> Color {
        var r = 0.0, g = 0.0, b = 0.0, n = 0.0
        forEachSample(of: image, rows: rows) { pixel in
            r += pixel.r; g += pixel.g; b += pixel.b; n += 1
        }
        return n > 0 ? Color(red: r / n, green: g / n, blue: b / n) : .black
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

    /// Lightens `colour` towards white, keeping its hue, until text of `textLuminance` (dark)
    /// reaches `ratio` against it: a frost for dark text.
    static func lightened(_ colour: Color, to ratio: Double = 7, against textLuminance: Double = 0) -> Color {
        var c = colour
        var k = 0.0
        while Color.contrast(textLuminance, c.relativeLuminance) < ratio, k < 1 {
            k += 0.02
            c = Color(red: colour.red + (1 - colour.red) * k, green: colour.green + (1 - colour.green) * k,
                      blue: colour.blue + (1 - colour.blue) * k)
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
        // A light tint lifts dark text off the darkest pixels; a dark one, light text off the brightest.
        let quantile = tint.relativeLuminance > 0.18 ? 0.0 : 1.0
        func passes(_ alpha: Double) -> Bool {
            accepts(canvas.luminance(in: rect, quantile: quantile, overlay: tint.withAlpha(alpha)))
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
