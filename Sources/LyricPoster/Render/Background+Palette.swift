import Foundation
import PosterGraphics

/// The cover's colours (average, vibrant hues, quiet colour, top and bottom) and what is made
/// of them: the text palettes, scrim tints, accents and gradient colours.
extension Background {
    /// The colours measured on a cover, shared by everything that draws it.
    struct CoverColours {
        var average: Color
        var vibrant: Color?
        /// A second colourful hue, clearly apart from `vibrant` (for two-colour gradients).
        var second: Color?
        /// The share of the cover's samples in `vibrant`'s and `second`'s hue families (0…1): a
        /// hue a few small spots give is an accent, not a colour of the cover's gradient.
        var vibrantShare = 0.0, secondShare = 0.0
        var muted: Color
        /// The colour most of the cover is (the `block` theme's ground): see ``dominantColour(_:)``.
        var dominant: Color
        /// The mean colours of the cover's top and bottom thirds.
        var top: Color
        var bottom: Color
        /// The colour of each of six horizontal bands of the cover, top to bottom (the colour most
        /// of a band is, where it has one, else its mean).
        var bands: [Color]

        init(_ cover: Bitmap) {
            average = averageColour(cover)
            // A third's colour is the colour most of it is, where it has one: the plain mean of
            // purple and green is a grey neither shows.
            let third = max(1, cover.height / 3)
            let topRows = 0..<third, bottomRows = (cover.height - third)..<cover.height
            top = dominantColour(cover, rows: topRows) ?? averageColour(cover, rows: topRows)
            bottom = dominantColour(cover, rows: bottomRows) ?? averageColour(cover, rows: bottomRows)
            let hues = vibrantColours(cover)
            vibrant = hues.first?.colour
            second = hues.count > 1 ? hues[1].colour : nil
            vibrantShare = hues.first?.share ?? 0
            secondShare = hues.count > 1 ? hues[1].share : 0
            muted = mutedColour(cover) ?? average
            dominant = dominantColour(cover) ?? average
            bands = (0..<6).map { k in
                let rows = (cover.height * k / 6)..<max(cover.height * k / 6 + 1, cover.height * (k + 1) / 6)
                return dominantColour(cover, rows: rows) ?? averageColour(cover, rows: rows)
            }
        }
    }

    /// The scrim colour for `palette`: the cover's colour, a little richer, darkened (keeping its
    /// hue) until light text reaches 10:1 on it, or lightened to a frost where dark text does.
    static func tint(for palette: Palette, average: Color) -> Color {
        let rich = saturated(average, by: 1.4)
        let weakest = min(palette.text.relativeLuminance, palette.current.relativeLuminance)
        let strongest = max(palette.text.relativeLuminance, palette.current.relativeLuminance)
        // Under dark text the frost is pale: a rich tint would itself be the stain it covers.
        return palette.isDark ? darkened(rich, to: 10, against: weakest)
            : lightened(capped(average, saturation: 0.15), to: 8, against: strongest)
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

    /// Two clearly different colours of the cover for a gradient, in the cover's own order: the
    /// mean of its top third at the top and of its bottom third at the bottom; where those are
    /// alike, its two most colourful hues (or its quiet colour and its vibrant one) where each
    /// covers at least ``gradientHueShare`` of it, else its quiet colour and the colour most of it
    /// is. Never neon, and each moved halfway (in luminance) towards the cover's own lightness, so
    /// a dark cover gives a dark poster and a light one a light poster, in the cover's hues.
    static func gradientColours(_ colours: CoverColours) -> (Color, Color) {
        func distance(_ a: Color, _ b: Color) -> Double { abs(a.red - b.red) + abs(a.green - b.green) + abs(a.blue - b.blue) }
        var top = colours.top, bottom = colours.bottom
        if distance(top, bottom) < 0.3 {
            // Orange street lights on a blue-grey photo are not its colour: covers unlike but
            // for a few spots of one hue would all end in that hue.
            let vibrant = colours.vibrantShare >= gradientHueShare ? colours.vibrant : nil
            let second = vibrant != nil && colours.secondShare >= gradientHueShare ? colours.second : nil
            top = second ?? colours.muted
            bottom = vibrant ?? colours.dominant
        }
        top = capped(top, saturation: 0.85)
        bottom = capped(bottom, saturation: 0.85)
        if distance(top, bottom) < 0.25 {
            // A one-colour cover: the same hue, a clear step darker at the bottom.
            bottom = Color(red: bottom.red * 0.72, green: bottom.green * 0.72, blue: bottom.blue * 0.72)
            top = Color(red: top.red + (1 - top.red) * 0.2, green: top.green + (1 - top.green) * 0.2, blue: top.blue + (1 - top.blue) * 0.2)
        }
        let anchor = colours.average.relativeLuminance
        return (towardLightness(of: anchor, top), towardLightness(of: anchor, bottom))
    }

    /// The least share of a cover's samples a colourful hue needs to be an end of its gradient.
    static let gradientHueShare = 0.08

    /// Gradient stops from `a` to `b` that travel round the hue circle (the shorter way) with
    /// saturation and value changing evenly, instead of a straight line through RGB, which
    /// passes through grey between opposite hues (purple to green goes by slate, not by blue).
    /// A grey end takes the other end's hue.
    static func huePath(from a: Color, to b: Color, steps: Int = 12) -> [(Double, Color)] {
        func hsv(_ c: Color) -> (h: Double, s: Double, v: Double) {
            let x = Background.hsv(c.red, c.green, c.blue)
            return (x.hue, x.saturation, x.value)
        }
        var ha = hsv(a), hb = hsv(b)
        if ha.s < 0.05 { ha.h = hb.h }
        if hb.s < 0.05 { hb.h = ha.h }
        var dh = hb.h - ha.h
        if dh > 0.5 { dh -= 1 } else if dh < -0.5 { dh += 1 }
        return (0...steps).map { k in
            let t = Double(k) / Double(steps)
            let h = ha.h + dh * t
            return (t, rgb(h - h.rounded(.down), ha.s + (hb.s - ha.s) * t, ha.v + (hb.v - ha.v) * t))
        }
    }

    /// The gradient theme's stops, top to bottom. A cover of several colours gives its own colours
    /// in its own order — each sixth of the cover's height one stop, at its colour — so that a
    /// purple, magenta and green cover stays purple, magenta and green; neighbouring stops are
    /// joined round the hue circle (``huePath(from:to:steps:)``), not through grey. A cover of
    /// one colour keeps the two-colour gradient of ``gradientColours(_:)``. Each colour is moved
    /// halfway (in luminance) towards the cover's own lightness, as there.
    static func gradientStops(_ colours: CoverColours) -> [(Double, Color)] {
        func distance(_ a: Color, _ b: Color) -> Double { abs(a.red - b.red) + abs(a.green - b.green) + abs(a.blue - b.blue) }
        let bands = colours.bands.map { capped($0, saturation: 0.85) }
        let spread = bands.flatMap { a in bands.map { distance(a, $0) } }.max() ?? 0
        guard bands.count > 1, spread >= 0.3 else {
            let (top, bottom) = gradientColours(colours)
            return huePath(from: top, to: bottom)
        }
        let anchor = colours.average.relativeLuminance
        let toned = bands.map { towardLightness(of: anchor, $0) }
        var stops: [(Double, Color)] = []
        for k in 0..<(toned.count - 1) {
            let from = Double(k) / Double(toned.count - 1), to = Double(k + 1) / Double(toned.count - 1)
            for (t, colour) in huePath(from: toned[k], to: toned[k + 1], steps: 4) where k == 0 || t > 0 {
                stops.append((from + (to - from) * t, colour))
            }
        }
        return stops
    }

    /// `c` moved halfway (geometrically, in luminance) towards `anchor`, its hue kept.
    static func towardLightness(of anchor: Double, _ c: Color) -> Color {
        let target = sqrt(max(0.0005, c.relativeLuminance) * max(0.0005, anchor))
        if target < c.relativeLuminance { return darkened(c, step: 0.01) { $0.relativeLuminance <= target } }
        return lightened(c, step: 0.01) { $0.relativeLuminance >= target }
    }

    /// `colour` scaled towards black (hue kept) in steps of `step` until `done` holds, or black.
    static func darkened(_ colour: Color, step: Double, until done: (Color) -> Bool) -> Color {
        var k = 1.0, c = colour
        while !done(c), k > 0 {
            k -= step
            c = Color(red: colour.red * k, green: colour.green * k, blue: colour.blue * k)
        }
        return c
    }

    /// `colour` mixed towards white (hue kept) in steps of `step` until `done` holds, or white.
    static func lightened(_ colour: Color, step: Double, until done: (Color) -> Bool) -> Color {
        var k = 0.0, c = colour
        while !done(c), k < 1 {
            k += step
            c = Color(red: colour.red + (1 - colour.red) * k, green: colour.green + (1 - colour.green) * k,
                      blue: colour.blue + (1 - colour.blue) * k)
        }
        return c
    }

    /// The text colours for `scheme`: the theme's (light) colours on a dark backdrop; on a light
    /// one, an ink of the cover's own hue and an accent deepened until it reads there.
    static func makePalette(theme: Theme, scheme: Palette.Scheme, colours: CoverColours) -> Palette {
        let accent = currentColor(for: theme, vibrant: colours.vibrant)
        // The duet's second voice: the complement of the cover's hue (a warm gold on a grey cover),
        // clearly apart from the lead, as legible as the current line.
        let duetHue = capped(complement(colours.vibrant) ?? Color(red: 0.95, green: 0.75, blue: 0.4), saturation: 0.55)
        guard scheme == .light else {
            let duet = lightened(duetHue, step: 0.02) { $0.relativeLuminance >= 0.55 }
            return Palette(scheme: .dark, text: theme.textColor, current: accent, duet: duet)
        }
        // Paper's type is black: a tinted ink would fall to a panel's coloured ink, or dither.
        let ink = theme.background == .paper ? Color.black : darkened(colours.muted, to: 14)
        let current = accent == theme.textColor || theme.background == .paper ? ink
            : darkened(capped(theme.accentColor ?? colours.vibrant ?? accent, saturation: 0.8), to: 8)
        return Palette(scheme: .light, text: ink, current: current, duet: darkened(duetHue, to: 8))
    }

    /// The opposite hue of `colour` at the same lightness and saturation (`nil` for none or a grey).
    static func complement(_ colour: Color?) -> Color? {
        guard let c = colour else { return nil }
        let high = max(c.red, c.green, c.blue), low = min(c.red, c.green, c.blue)
        guard high - low > 0.08 else { return nil }
        return Color(red: high + low - c.red, green: high + low - c.green, blue: high + low - c.blue)
    }

    /// The colour the current line is drawn in under `theme` on a dark backdrop: a fixed accent,
    /// the text colour, or the cover's vibrant colour calmed and lightened (hue kept) until its
    /// relative luminance is at least 0.5, so that scrims can always bring it to 4.5:1.
    static func currentColor(for theme: Theme, vibrant: Color?) -> Color {
        if let accent = theme.accentColor { return accent }
        guard theme.accentFromCover, let found = vibrant else {
            return theme.accentFromCover ? theme.accentFallback ?? theme.textColor : theme.textColor
        }
        // Calm, not neon: saturation at most 0.6 and a little below full value.
        var vibrant = capped(found, saturation: 0.6)
        let value = max(vibrant.red, vibrant.green, vibrant.blue)
        if value > 0.94 { vibrant = Color(red: vibrant.red * 0.94 / value, green: vibrant.green * 0.94 / value, blue: vibrant.blue * 0.94 / value) }
        let c = lightened(vibrant, step: 0.02) { $0.relativeLuminance >= 0.5 }
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
    /// a sixth of its weight — the busiest bin at least 60° of hue away from it; each with the
    /// share of all samples in its bin and the two beside it.
    static func vibrantColours(_ image: Bitmap) -> [(colour: Color, share: Double)] {
        var weights = [Double](repeating: 0, count: 24)
        var counts = [Int](repeating: 0, count: 24)
        var total = 0
        var sums = [(Double, Double, Double)](repeating: (0, 0, 0), count: 24)
        forEachSample(of: image) { pixel in
            total += 1
            guard pixel.saturation > 0.35, pixel.value > 0.35 else { return }
            let bin = min(23, Int(pixel.hue * 24))
            counts[bin] += 1
            weights[bin] += pixel.saturation
            sums[bin].0 += pixel.r * pixel.saturation
            sums[bin].1 += pixel.g * pixel.saturation
            sums[bin].2 += pixel.b * pixel.saturation
        }
        func mean(_ bin: Int) -> (colour: Color, share: Double) {
            let w = weights[bin]
            let family = [(bin + 23) % 24, bin, (bin + 1) % 24].reduce(0) { $0 + counts[$1] }
            return (Color(red: sums[bin].0 / w, green: sums[bin].1 / w, blue: sums[bin].2 / w), Double(family) / Double(max(1, total)))
        }
        guard let best = weights.indices.max(by: { weights[$0] < weights[$1] }), weights[best] > 0 else { return [] }
        let apart = weights.indices.filter { min(abs($0 - best), 24 - abs($0 - best)) >= 4 && weights[$0] >= weights[best] / 6 }
        guard let second = apart.max(by: { weights[$0] < weights[$1] }) else { return [mean(best)] }
        return [mean(best), mean(second)]
    }

    /// The colour most of the cover is: of its coloured pixels (saturation over 0.2), the hue
    /// range of 75° holding the most of them, as their mean colour — a gradient over neighbouring
    /// hues counts as one colour, where ``vibrantColours(_:)`` would pick its most saturated strip.
    /// Nil when under a quarter of the cover is coloured (the average then stands for it).
    static func dominantColour(_ image: Bitmap, rows: Range<Int>? = nil) -> Color? {
        var counts = [Int](repeating: 0, count: 24)
        var sums = [(Double, Double, Double)](repeating: (0, 0, 0), count: 24)
        var total = 0
        forEachSample(of: image, rows: rows) { pixel in
            total += 1
            guard pixel.saturation > 0.2, pixel.value > 0.12 else { return }
            let bin = min(23, Int(pixel.hue * 24))
            counts[bin] += 1
            sums[bin].0 += pixel.r
            sums[bin].1 += pixel.g
            sums[bin].2 += pixel.b
        }
        let coloured = counts.reduce(0, +)
        guard total > 0, coloured * 4 >= total else { return nil }
        // Windows of five bins (75°), centred on each bin, wrapping round the hue circle.
        func window(_ centre: Int) -> [Int] { (-2...2).map { (centre + $0 + 24) % 24 } }
        let best = (0..<24).max { a, b in
            let wa = window(a).reduce(0) { $0 + counts[$1] }, wb = window(b).reduce(0) { $0 + counts[$1] }
            return wa != wb ? wa < wb : a > b
        } ?? 0
        let bins = window(best)
        let n = Double(bins.reduce(0) { $0 + counts[$1] })
        guard n > 0 else { return nil }
        return Color(red: bins.reduce(0) { $0 + sums[$1].0 } / n, green: bins.reduce(0) { $0 + sums[$1].1 } / n,
                     blue: bins.reduce(0) { $0 + sums[$1].2 } / n)
    }

    /// One sampled pixel: straight RGB in 0…1, with HSV hue (0…1), saturation and value.
    struct Sample {
        var r, g, b: Double
        var hue: Double { hsv.hue }
        var saturation: Double { hsv.saturation }
        var value: Double { max(r, g, b) }
        private var hsv: (hue: Double, saturation: Double, value: Double) { Background.hsv(r, g, b) }
    }

    /// The colour of HSV hue `h` (0…1, wrapping), saturation `s` and value `v`: ``hsv(_:_:_:)``'s inverse.
    package static func rgb(_ h: Double, _ s: Double, _ v: Double) -> Color {
        let x = (h - h.rounded(.down)) * 6, i = Int(x) % 6, f = x - Double(Int(x))
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        switch i {
        case 0: return Color(red: v, green: t, blue: p)
        case 1: return Color(red: q, green: v, blue: p)
        case 2: return Color(red: p, green: v, blue: t)
        case 3: return Color(red: p, green: q, blue: v)
        case 4: return Color(red: t, green: p, blue: v)
        default: return Color(red: v, green: p, blue: q)
        }
    }

    /// HSV of straight RGB in 0…1: hue (0…1, 0 for a grey), saturation and value.
    package static func hsv(_ r: Double, _ g: Double, _ b: Double) -> (hue: Double, saturation: Double, value: Double) {
        let maxC = max(r, g, b), minC = min(r, g, b)
        guard maxC > minC else { return (0, 0, maxC) }
        var h: Double
        if maxC == r { h = (g - b) / (maxC - minC) } else if maxC == g { h = 2 + (b - r) / (maxC - minC) } else { h = 4 + (r - g) / (maxC - minC) }
        h = (h < 0 ? h + 6 : h) / 6
        return (h, (maxC - minC) / maxC, maxC)
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

    static func averageColour(_ image: Bitmap, rows: Range<Int>? = nil) -> Color {
        var r = 0.0, g = 0.0, b = 0.0, n = 0.0
        forEachSample(of: image, rows: rows) { pixel in
            r += pixel.r; g += pixel.g; b += pixel.b; n += 1
        }
        return n > 0 ? Color(red: r / n, green: g / n, blue: b / n) : .black
    }

    /// Darkens `colour`, keeping its hue, until text of `textLuminance` (white by default) reaches
    /// `ratio` against it: deep enough that a partly transparent scrim of it can always lift
    /// light text over the brightest cover to 4.5:1.
    static func darkened(_ colour: Color, to ratio: Double = 7, against textLuminance: Double = 1) -> Color {
        darkened(colour, step: 0.02) { Color.contrast(textLuminance, $0.relativeLuminance) >= ratio }
    }

    /// Lightens `colour` towards white, keeping its hue, until text of `textLuminance` (dark)
    /// reaches `ratio` against it: a frost for dark text.
    static func lightened(_ colour: Color, to ratio: Double = 7, against textLuminance: Double = 0) -> Color {
        lightened(colour, step: 0.02) { Color.contrast(textLuminance, $0.relativeLuminance) >= ratio }
    }
}
