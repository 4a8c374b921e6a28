import Foundation
import PosterGraphics
import Locks

/// Everything about a frame that does not depend on the time, made once per song and preset:
/// the backdrop in the cover's own colours, the text scheme it suits, a smooth scrim fitted to
/// where text goes, and the sharp cover card with its shadow.
package struct Background: Sendable {
    package let geometry: PosterGeometry
    /// The full-canvas backdrop, opaque.
    package let bitmap: Bitmap
    /// The scrim colour for the text's scheme: the cover's colour darkened (keeping its hue)
    /// under light text, or lightened to a frost under dark text.
    package let tint: Color
    /// The cover's average colour.
    package let average: Color

    /// The cover's most colourful hue (its "vibrant" colour), or nil for a grey cover.
    package let vibrant: Color?
    /// The cover's quiet colour: the mean of its mid-tone, low-saturation pixels (or its average).
    package let muted: Color
    /// The text colours chosen for this backdrop.
    package let palette: Palette
    /// For classic rows: the cover blurred, seen through the rows' band so that sharp artwork
    /// does not run through the text.
    package let frost: Bitmap?

    /// Prepares the backdrop for `geometry` and `theme` from an upright cover.
    package static func prepare(cover: Bitmap, geometry: PosterGeometry, theme: Theme = .card) throws(GraphicsError) -> Background {
        try prepare(cover: cover, geometry: geometry, theme: theme, canvas: nil)
    }

    /// The same, drawn on `fresh` (a canvas that owns its pixels, made ahead for it) when it has
    /// the poster's size. With `picture`, the backdrop is made from it instead of the cover (its
    /// colours, its scheme, the scrims fitted to it), as the theme makes it: blurred, or sharp;
    /// themes of a flat colour or a gradient show it sharp. The card still shows the cover.
    package static func prepare(cover: Bitmap, geometry: PosterGeometry, theme: Theme, canvas fresh: Canvas?,
                        picture: Bitmap? = nil) throws(GraphicsError) -> Background {
        var theme = theme
        if picture != nil, theme.background == .solid || theme.background == .gradient { theme.background = .cover }
        let w = geometry.preset.width, h = geometry.preset.height
        // Drawn into memory of its own: the scrim reads it and the backdrop takes it, no copies.
        let canvas: Canvas
        if let fresh, fresh.width == w, fresh.height == h {
            canvas = fresh
        } else {
            canvas = try Canvas(width: w, height: h, ownPixels: true)
        }
        // The backdrop is made from the artwork inside any plain frame the cover has (a border,
        // a letterbox): blurred and stretched over the canvas, a frame's hard edge would show as
        // dark bars at its sides. The sharp card keeps the cover whole.
        let source = picture ?? cover
        let inner = source.frameFreeRect()
        let artwork = source.cropped(x: inner.x, y: inner.y, width: inner.width, height: inner.height)
        // Drawn small (the blur's base, the scheme's probe, the card's shadow), the pictures are
        // read from their halvings rather than whole.
        let artworkLevels = BitmapLevels(artwork)
        let coverLevels = picture == nil && inner.width == cover.width && inner.height == cover.height ? artworkLevels : BitmapLevels(cover)

        let colours = CoverColours(artwork)
        let average = colours.average
        let full = Rect(x: 0, y: 0, width: Double(w), height: Double(h))

        // 1. The scheme, decided on the cover itself (the same for every preset, so a song's
        // posters at several sizes belong together): whichever text — light or dark — its
        // backdrop serves with the lighter scrim. Classic rows sit on dark bands: light text.
        let zones = textZones(geometry)
        let palette = try scheme(for: artworkLevels, colours: colours, theme: theme, layout: geometry.layout)
        let scheme = palette.scheme
        let tint = tint(for: palette, average: average)

        // 2. The sharp cover card and its shadow (as strong as the scheme asks), on a layer of
        // their own drawn at once with the backdrop under them (steps 3 to 5).
        var card: (rect: Rect, radius: Double)?
        if let slot = geometry.card, theme.card, geometry.layout != .classic {
            let rect = cardRect(slot, cover: cover)
            card = (rect, geometry.cardRadius * rect.width / max(1, slot.width))
        }
        // On paper (e-ink) a soft shadow would only be dithered into a halo of dots.
        let shadow = Color.black.withAlpha(theme.background == .paper ? 0 : scheme == .dark ? 0.5 : 0.28)
        let (base, layer) = Fork.both({ () -> Result<Bitmap?, GraphicsError> in
            Result { () throws(GraphicsError) in
                try drawBackdrop(on: canvas, artwork: artworkLevels, colours: colours, palette: palette, tint: tint, zones: zones, full: full,
                                 geometry: geometry, theme: theme)
            }
        }, { () -> Result<CardLayer, GraphicsError>? in
            card.map { card in
                Result { () throws(GraphicsError) in
                    try cardLayer(cover: coverLevels, card: card.rect, radius: card.radius, geometry: geometry, shadow: shadow)
                }
            }
        })
        let frost = try base.get()

        // 6. The card with its shadow (step 2's layer) over the backdrop.
        if let layer, let card {
            let layer = try layer.get()
            canvas.draw(layer.canvas, in: Rect(x: Double(layer.x), y: Double(layer.y), width: Double(layer.canvas.width),
                                               height: Double(layer.canvas.height)))
            // A hairline edge where the cover would melt into the backdrop (very dark or very light).
            if !cover.hasTransparency {
                let l = average.relativeLuminance
                let hairline = max(1.5, 2 * geometry.unit)
                if l < 0.03 { canvas.stroke(card.rect, color: Color.white.withAlpha(0.2), lineWidth: hairline, cornerRadius: card.radius) }
                if l > 0.8 {
                    // On paper, a line a panel can show (a faint one would dither to dots).
                    let paper = theme.background == .paper
                    canvas.stroke(card.rect, color: Color.black.withAlpha(paper ? 0.85 : 0.12), lineWidth: paper ? 2 * hairline : hairline,
                                  cornerRadius: card.radius)
                }
            }
        }
        return Background(geometry: geometry, bitmap: try canvas.takeBitmap(), tint: tint, average: average, vibrant: colours.vibrant,
                          muted: colours.muted, palette: palette, frost: frost)
    }

    /// Steps 3 to 5 of ``prepare(cover:geometry:theme:canvas:)`` on `canvas`: the base (the
    /// cover blurred or sharp, or a gradient), the soft cover under the text, the theme's tone and
    /// the scrim fitted to the text. Returns the frost classic rows read, if any.
    private static func drawBackdrop(on canvas: Canvas, artwork artworkLevels: BitmapLevels, colours: CoverColours, palette: Palette,
                                     tint: Color, zones: [Zone], full: Rect, geometry: PosterGeometry,
                                     theme: Theme) throws(GraphicsError) -> Bitmap? {
        let w = geometry.preset.width, h = geometry.preset.height
        let scheme = palette.scheme
        // 3. The base: the cover, blurred or sharp, or a gradient of two of its colours.
        let frost = try drawBase(on: canvas, cover: artworkLevels, colours: colours, theme: theme, layout: geometry.layout, unit: geometry.unit)
        guard geometry.layout != .classic else { return frost }
        // 3. Under the lyrics of a full-bleed cover, the cover turns soft (a progressive blur)
        // so that its detail does not run through the letters.
        if theme.background == .cover {
            let soft = try blurred(artworkLevels, width: w, height: h, colours: colours, radius: 16 * geometry.unit, factor: 4,
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
        let alphas = try canvas.withPixels { fogProfile($0, zones: zones, tint: tint, palette: palette, theme: theme) }
        if alphas.contains(where: { $0 > 0.004 }) { canvas.fillRows(color: tint, alphas: alphas) }
        return frost
    }

    /// The card and its shadow on a transparent canvas, and where that canvas goes on the poster.
    struct CardLayer {
        let canvas: Canvas
        let x: Int
        let y: Int
    }

    /// Draws the cover as a card into `card` (poster pixels), with its shadow following its shape
    /// (`blur` 36 and an offset of 14 units down), on a layer just large enough for both, at whole
    /// pixels so that it is painted back without resampling.
    static func cardLayer(cover: BitmapLevels, card: Rect, radius: Double, geometry: PosterGeometry,
                          shadow: Color) throws(GraphicsError) -> CardLayer {
        let w = geometry.preset.width, h = geometry.preset.height
        let blur = Int(36 * geometry.unit), offsetY = 14 * geometry.unit
        let pad = Double(blur * 3)
        let x0 = max(0, Int((card.minX - pad).rounded(.down))), y0 = max(0, Int((card.minY - pad + min(0, offsetY)).rounded(.down)))
        let x1 = min(w, Int((card.maxX + pad).rounded(.up))), y1 = min(h, Int((card.maxY + pad + max(0, offsetY)).rounded(.up)))
        let layer = try Canvas(width: max(1, x1 - x0), height: max(1, y1 - y0))
        let local = Rect(x: card.x - Double(x0), y: card.y - Double(y0), width: card.width, height: card.height)
        let source = aspectFill(cover.full, into: card)
        let mask = try Canvas.ShadowMask(of: cover, source: source, in: local, cornerRadius: radius, blur: blur)
        layer.paint(mask, offsetY: offsetY, color: shadow)
        layer.draw(cover, source: source, in: local, cornerRadius: radius)
        try layer.finish()
        return CardLayer(canvas: layer, x: x0, y: y0)
    }

    /// The smallest size (width, height) a cover must have to be drawn as sharp as it can be for
    /// `geometry` and `theme`: the canvas where the cover fills it (classic rows, a full-bleed
    /// cover), else the card's side where a card is shown, else what the blur and the colour
    /// analysis read (at least 512 on a side). Large JPEGs are decoded no larger (DCT scaling),
    /// which is most of a first poster's time.
    package static func coverSize(geometry: PosterGeometry, theme: Theme) -> (width: Int, height: Int) {
        let w = geometry.preset.width, h = geometry.preset.height
        if geometry.layout == .classic || theme.background == .cover { return (w, h) }
        var side = 512
        if let slot = geometry.card, theme.card { side = max(side, Int(slot.width.rounded(.up))) }
        // The blurred base is drawn at an eighth of the canvas, zoomed 1.15×.
        return (max(side, (w * 23 + 159) / 160), max(side, (h * 23 + 159) / 160))
    }

    /// The cover drawn at a reduced scale (1/`factor`) to fill `width`×`height`, blurred by
    /// `radius` output pixels and saturated: as smooth as a full-size blur, far cheaper.
    static func blurred(_ cover: BitmapLevels, width w: Int, height h: Int, colours: CoverColours, radius: Double, factor: Int,
                        saturation: Double, zoom: Double = 1) throws(GraphicsError) -> Bitmap {
        let tiny = try Canvas(width: max(8, w / factor), height: max(8, h / factor))
        let tinyRect = Rect(x: 0, y: 0, width: Double(tiny.width), height: Double(tiny.height))
        tiny.fill(colours.average)
        tiny.draw(cover, source: aspectFill(cover.full, into: tinyRect, zoom: zoom), in: tinyRect)
        try tiny.finish()
        let soft = tiny.snapshot().blurred(radius: max(1, Int((radius / Double(factor)).rounded())))
        return saturation == 1 ? soft : soft.saturated(by: saturation)
    }

    /// Draws the theme's base over the whole of `canvas` (before tone, scrims and card) and, for
    /// classic rows, returns the blurred cover their band shows.
    static func drawBase(on canvas: Canvas, cover: BitmapLevels, colours: CoverColours, theme: Theme, layout: Theme.Layout,
                         unit: Double) throws(GraphicsError) -> Bitmap? {
        let w = canvas.width, h = canvas.height
        let full = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
        // The blurred cover is opaque and covers the canvas edge to edge (it is filled with the
        // average first and drawn padded): nothing under it shows.
        if layout == .classic || theme.background != .blurredCover { canvas.fill(colours.average) }
        // A cover enlarged more than twice to fill the canvas is not blown up into visible pixels:
        // it is drawn small, softened in proportion to its enlargement, and scaled up smoothly.
        let enlargement = max(Double(w) / Double(cover.full.width), Double(h) / Double(cover.full.height))
        func drawCover() throws(GraphicsError) {
            if enlargement > 2 {
                let factor = min(8, max(1, Int(enlargement / 2)))
                canvas.draw(try blurred(cover, width: w, height: h, colours: colours, radius: max(1, enlargement), factor: factor,
                                        saturation: 1), in: full)
            } else {
                canvas.draw(cover, source: aspectFill(cover.full, into: full), in: full)
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
            canvas.fillVerticalGradient(full, stops: gradientStops(colours))
        case .solid:
            canvas.fill(colours.dominant)
        case .paper:
            canvas.fill(.white)
        }
        try canvas.finish()
        return nil
    }

    /// The text scheme for `cover` under `theme`: fixed by the theme, or (auto) the one whose
    /// scrim over the cover's own base, drawn small and square, is the lighter.
    static func scheme(for cover: BitmapLevels, colours: CoverColours, theme: Theme, layout: Theme.Layout) throws(GraphicsError) -> Palette {
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
            let zones = [Zone(rect: Rect(x: 0, y: 0, width: Double(side), height: Double(side)), isLyrics: true)]
            func load(_ p: Palette) -> Double {
                fogProfile(base, zones: zones, tint: tint(for: p, average: colours.average), palette: p, theme: theme,
                           smooth: false).reduce(0, +)
            }
            // Ties go to light text, the look people expect of a lyric poster.
            return load(light) < 0.8 * load(dark) ? light : dark
        }
    }

    /// The card's place: the layout's slot, or — for a cover smaller than half of it — the cover
    /// at no more than twice its own size, centred across the slot and sitting on its bottom edge
    /// (next to the title, not floating in a hole), so that it is never blown up.
    package static func cardRect(_ slot: Rect, cover: Bitmap) -> Rect {
        let side = min(slot.width, 2 * Double(min(cover.width, cover.height)))
        return Rect(x: slot.midX - side / 2, y: slot.maxY - side, width: side, height: side)
    }

    /// The part of `image` that fills `rect` without distortion, centred (cropping the excess).
    static func aspectFill(_ image: Bitmap, into rect: Rect, zoom: Double = 1) -> Rect {
        let iw = Double(image.width), ih = Double(image.height)
        let scale = max(rect.width / iw, rect.height / ih) * zoom
        let sw = rect.width / scale, sh = rect.height / scale
        return Rect(x: (iw - sw) / 2, y: (ih - sh) / 2, width: sw, height: sh)
    }
}
