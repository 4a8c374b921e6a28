import Foundation
import PosterGraphics

/// Draws frames: the prepared background, a legibility scrim where the pixels behind the current
/// line need one, then the text blocks.
///
/// Holds a `LayoutEngine` (and so a Pango context): one renderer per thread.
public final class Renderer {
    /// WCAG contrast the current line must reach against the pixels behind it (4.5:1 is the AA
    /// level for normal text; a little margin absorbs rounding).
    public static let contrastTarget = 4.6
    /// What lines other than the current one (neighbours, translations, captions) must reach:
    /// WCAG's 3:1 for large text, with the same margin.
    public static let neighbourContrastTarget = 3.1

    public let background: Background
    public let layoutEngine: LayoutEngine

    public init(background: Background, layoutEngine: LayoutEngine) {
        self.background = background
        self.layoutEngine = layoutEngine
    }

    /// A rendered frame: pixels plus what was drawn where.
    public struct Frame {
        public let canvas: Canvas
        public let layout: FrameLayout
        /// Measured contrast of the current line's colour against the brightest pixel behind it
        /// (after the scrim); nil when no line is current.
        public let contrast: Double?
        /// The lowest contrast of any dimmed line (neighbours, translations, captions) against
        /// the brightest pixel behind it, at the opacity it was drawn with; nil when there is none.
        public let dimmedContrast: Double?
    }

    /// Draws `scene`; with `timings`, adds the time spent to the "layout" and "raster" stages.
    public func render(_ scene: Scene, timings: Timings? = nil) throws(GraphicsError) -> Frame {
        let start = DispatchTime.now().uptimeNanoseconds
        var layout = layoutEngine.layout(scene)
        let laidOut = DispatchTime.now().uptimeNanoseconds
        timings?.add("layout", seconds: Double(laidOut - start) / 1e9)
        defer { timings?.add("raster", seconds: Double(DispatchTime.now().uptimeNanoseconds - laidOut) / 1e9) }
        let geometry = background.geometry
        let canvas = try Canvas(width: geometry.preset.width, height: geometry.preset.height)
        let full = Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height))
        canvas.draw(background.bitmap, in: full)

        let textLuminance = layoutEngine.currentColor.relativeLuminance
        let contrast = scrimLyrics(on: canvas, layout: layout, textLuminance: textLuminance)
        scrimCaptions(on: canvas, layout: layout)
        let dimmedContrast = raiseDimmedOpacity(on: canvas, layout: &layout)
        if let bar = geometry.progress, let duration = scene.duration, duration.milliseconds > 0 {
            drawProgress(on: canvas, in: bar, fraction: Double(scene.time.milliseconds) / Double(duration.milliseconds))
        }

        let sung = scene.lines.first { $0.role == .current }?.sung ?? []
        for block in layout.blocks {
            if block.role == .current, !sung.isEmpty {
                // Karaoke: the whole line dimmed, then the sung part over it in full colour.
                try canvas.draw(block.layout, at: block.origin, color: block.color.withAlpha(block.color.alpha * 0.45),
                                shadow: block.shadow)
                canvas.draw(block.layout, at: block.origin, color: block.color,
                            clippedTo: Self.sungRegion(block, text: block.text, shares: sung))
                continue
            }
            try canvas.draw(block.layout, at: block.origin, color: block.color, shadow: block.shadow, blur: Int(block.blur.rounded()))
        }
        try canvas.finish()
        return Frame(canvas: canvas, layout: layout, contrast: contrast, dimmedContrast: dimmedContrast)
    }

    /// Lays a soft band of the cover's tint behind the lyrics at the weakest opacity that brings
    /// the current line to 4.5:1 (and, within limits, the dimmed lines to 3:1), checks the drawn
    /// pixels, and deepens the band with black where quantisation left it short. Returns the
    /// current line's measured contrast.
    private func scrimLyrics(on canvas: Canvas, layout: FrameLayout, textLuminance: Double) -> Double? {
        let geometry = background.geometry
        let full = Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height))
        let current = layout.blocks.filter { $0.role == .current }.map(\.box).reduce(nil) { $0?.union($1) ?? $1 }
        guard let current else { return nil }
        let behind = current.insetBy(dx: -4 * geometry.unit, dy: 0)
        // Classic rows got their bands, dark enough for the current line, with the background;
        // they are only checked below.
        if geometry.layout != .classic {
        // The cover's own colour, dark enough that some opacity of it always suffices.
        let tint = textLuminance >= 0.99 ? background.tint
            : Background.darkened(background.average, to: 7, against: textLuminance)
        var alpha = Background.scrimAlpha(canvas: canvas, rect: behind, tint: tint, minimum: 0, textLuminance: textLuminance)
        // The dimmed lines around it should stay readable too (3:1): deepen the band for them as
        // far as a still-transparent scrim allows; the rest is made up by their opacity later.
        for block in layout.blocks where Self.isDimmed(block.role) && layout.lyricsBounds?.contains(block.box) == true {
            alpha = max(alpha, min(Self.scrimForDimmed(block, on: canvas, tint: tint), 0.8))
        }
        if alpha > 0, let lyrics = layout.lyricsBounds {
            // Solid over all the lyrics and feathered at its edges. Where the lyrics have a column
            // of their own, the band stays in that column, clear of the cover card; it is not
            // clamped to the canvas, so its fade may run off the edge but never over the text.
            let feather = 2.5 * geometry.neighbourSize
            let column = geometry.lyrics.width < 0.8 * full.width
            var x0 = column ? geometry.lyrics.minX - 2 * feather : 0
            if column, let card = geometry.card, card.maxX <= geometry.lyrics.minX { x0 = max(x0, card.maxX) }
            let x1 = column ? geometry.lyrics.maxX + 2 * feather : full.width
            let band = Rect(x: x0, y: lyrics.minY - feather, width: x1 - x0, height: lyrics.height + 2 * feather)
            canvas.fillSoft(band, color: tint.withAlpha(alpha), featherX: column ? 2 * feather : 0, featherY: feather)
        }
        }
        // Verify on the pixels as drawn (gradients are quantised to 8 bits).
        var measured = Color.contrast(textLuminance, canvas.luminance(in: behind, quantile: 1.0))
        if measured < Renderer.contrastTarget {
            let extra = Background.scrimAlpha(canvas: canvas, rect: behind, tint: .black, minimum: 0, textLuminance: textLuminance)
            canvas.fill(behind.insetBy(dx: -geometry.neighbourSize, dy: -0.3 * geometry.neighbourSize),
                        color: Color.black.withAlpha(min(1, extra + 0.02)), cornerRadius: 0.3 * geometry.neighbourSize)
            measured = Color.contrast(textLuminance, canvas.luminance(in: behind, quantile: 1.0))
        }
        return measured
    }

    /// Captions (title and artist line, progress times) are large or secondary text: where the
    /// backdrop is too light for them to reach 3:1, a soft band of the cover's tint goes behind
    /// them as well, kept clear of the cover card.
    private func scrimCaptions(on canvas: Canvas, layout: FrameLayout) {
        for roles in [[Scene.Role.title, .artist], [.elapsed, .total]] {
            let blocks = layout.blocks.filter { roles.contains($0.role) }
            guard let area = blocks.map(\.box).reduce(nil, { $0?.union($1) ?? $1 }) else { continue }
            let alpha = blocks.map { Self.scrimForDimmed($0, on: canvas, tint: background.tint) }.max() ?? 0
            guard alpha > 0 else { continue }
            let feather = 1.2 * background.geometry.artistSize
            var band = area.insetBy(dx: -2 * feather, dy: -feather)
            if let card = background.geometry.card, band.intersects(card) {
                if card.maxX <= area.minX {
                    band = Rect(x: card.maxX, y: band.y, width: band.maxX - card.maxX, height: band.height)
                } else if card.maxY <= area.minY {
                    band = Rect(x: band.x, y: card.maxY, width: band.width, height: band.maxY - card.maxY)
                }
            }
            canvas.fillSoft(band, color: background.tint.withAlpha(alpha), featherX: 2 * feather, featherY: feather)
        }
    }

    /// Any dimmed line (or title) still under 3:1 — at a band's feathered edge, on a classic band —
    /// is drawn more opaque, as far as needed. Returns the lowest contrast reached.
    private func raiseDimmedOpacity(on canvas: Canvas, layout: inout FrameLayout) -> Double? {
        var lowest: Double?
        for i in layout.blocks.indices where Self.isDimmed(layout.blocks[i].role) || layout.blocks[i].role == .title {
            let block = layout.blocks[i]
            let background = canvas.luminance(in: block.box, quantile: 1.0)
            let luminance = block.color.withAlpha(1).relativeLuminance
            func reached(_ alpha: Double) -> Double {
                Background.blendedContrast(textLuminance: luminance, alpha: alpha, backgroundLuminance: background)
            }
            var alpha = block.color.alpha
            while alpha < 1, reached(alpha) < Renderer.neighbourContrastTarget { alpha = min(1, alpha + 0.05) }
            layout.blocks[i].color = block.color.withAlpha(alpha)
            lowest = min(lowest ?? reached(alpha), reached(alpha))
        }
        return lowest
    }

    /// The weakest opacity of `tint` under which `block`, at its own opacity, reaches 3:1.
    private static func scrimForDimmed(_ block: TextBlock, on canvas: Canvas, tint: Color) -> Double {
        let luminance = block.color.withAlpha(1).relativeLuminance
        return Background.scrimAlpha(canvas: canvas, rect: block.box, tint: tint, minimum: 0) { background in
            Background.blendedContrast(textLuminance: luminance, alpha: block.color.alpha,
                                       backgroundLuminance: background) >= Renderer.neighbourContrastTarget
        }
    }

    /// The sung part of a karaoke line, as rectangles in canvas pixels: each cluster is covered
    /// as far as its characters have been sung, from its start edge (the right in right-to-left runs).
    static func sungRegion(_ block: TextBlock, text: String, shares: [Double]) -> [Rect] {
        // Character index by UTF-8 offset of its first byte.
        var starts: [(offset: Int, share: Double)] = []
        var offset = 0
        for (character, share) in zip(text, shares) {
            starts.append((offset, share))
            offset += character.utf8.count
        }
        let clusters = block.layout.clusters.sorted { $0.byteIndex < $1.byteIndex }
        var rects: [Rect] = []
        for (n, cluster) in clusters.enumerated() {
            let end = n + 1 < clusters.count ? clusters[n + 1].byteIndex : Int.max
            let inside = starts.filter { $0.offset >= cluster.byteIndex && $0.offset < end }.map(\.share)
            guard !inside.isEmpty else { continue }
            let share = inside.reduce(0, +) / Double(inside.count)
            guard share > 0 else { continue }
            var r = cluster.rect
            r.x += block.origin.x
            r.y += block.origin.y
            if share < 1 {
                let width = r.width * share
                if cluster.rightToLeft { r.x = r.maxX - width }
                r.width = width
            }
            rects.append(r)
        }
        return rects
    }

    static func isDimmed(_ role: Scene.Role) -> Bool {
        switch role {
        case .previous, .next, .translation, .artist, .interlude, .elapsed, .total: return true
        case .current, .title: return false
        }
    }

    /// The progress bar: a thin track along the bottom of `rect`, filled up to `fraction` in the
    /// current line's colour (the elapsed and total times are text blocks of the layout).
    private func drawProgress(on canvas: Canvas, in rect: Rect, fraction: Double) {
        let u = background.geometry.unit
        let track = Rect(x: rect.minX, y: rect.maxY - 6 * u, width: rect.width, height: 6 * u)
        canvas.fill(track, color: layoutEngine.theme.textColor.withAlpha(0.25), cornerRadius: 3 * u)
        let filled = Rect(x: track.minX, y: track.minY, width: track.width * min(1, max(0, fraction)), height: track.height)
        if filled.width > 0 { canvas.fill(filled, color: layoutEngine.currentColor, cornerRadius: 3 * u) }
    }
}
