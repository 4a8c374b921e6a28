import Foundation
import PosterGraphics

/// Draws frames: the prepared background, a legibility scrim where the pixels behind the current
/// line need one, then the text blocks.
///
/// Holds a `LayoutEngine` (and so a Pango context): one renderer per thread.
package final class Renderer {
    /// WCAG contrast the current line must reach against the pixels behind it (4.5:1 is the AA
    /// level for normal text; a little margin absorbs rounding).
    package static let contrastTarget = 4.6
    /// What lines other than the current one (neighbours, translations, captions) must reach:
    /// WCAG's 3:1 for large text, with the same margin.
    package static let neighbourContrastTarget = 3.1

    package let background: Background
    package let layoutEngine: LayoutEngine
    /// A canvas of the frame's size made (and its pages touched) while the backdrop was being
    /// prepared: the first frame drawn whole starts on it instead of a new one.
    package var spareCanvas: Canvas?

    package init(background: Background, layoutEngine: LayoutEngine) {
        self.background = background
        self.layoutEngine = layoutEngine
    }

    /// A rendered frame: pixels plus what was drawn where.
    package struct Frame {
        package let canvas: Canvas
        package let layout: FrameLayout
        /// The text scheme the frame was drawn in.
        package let scheme: Palette.Scheme
        /// The lowest measured contrast per role drawn ("current", "next", "title", …, and
        /// "unsung" for the part of a karaoke line not yet sung), against the least favourable
        /// pixel behind each block before any text was drawn.
        package let contrasts: [String: Double]
        /// Measured contrast of the current line's colour against the least favourable pixel
        /// behind it (after any scrim); nil when no line is current.
        package var contrast: Double? { contrasts["current"] }
    }

    /// Draws `scene` on a canvas of its own; with `timings`, adds the time spent to the "layout"
    /// and "raster" stages. `layout`: the scene's, if already made. In the middle of `motion`,
    /// its blocks are on their way from the picture of `motion.from`. `backdrop` false: the text
    /// over a transparent canvas (the text layer).
    package func render(_ scene: Scene, motion: Motion? = nil, layout laidOutAlready: FrameLayout? = nil, timings: Timings? = nil,
                       backdrop: Bool = true) throws(GraphicsError) -> Frame {
        let layout = laidOutAlready ?? self.layout(scene, timings: timings)
        let moving = motion.map { ($0, from: self.layout($0.from, timings: timings)) }
        return try draw(scene, layout: layout, motion: moving, on: try startCanvas(backdrop: backdrop), over: nil, timings: timings)
    }

    /// Draws `scene` (laid out as `layout`) on `canvas`: the one way a frame is drawn.
    ///
    /// `canvas` holds the backdrop (``startCanvas(backdrop:)``), or `base`: the backdrop with the
    /// captions drawn (see ``SequenceRenderer``), and then everything but the captions is drawn
    /// and the captions are reported in the base's colours. In the middle of `motion` (with
    /// `from`, the layout of the picture before the change), every block is on its way there.
    /// `beforeSung`: for a still, called with a karaoke block's index among those drawn just
    /// before its sung part is drawn. `replaying`: the key of what is drawn before the
    /// measurements, for the canvas's ``LuminanceMemo``. Adds the time spent to the "raster" stage.
    func draw(_ scene: Scene, layout: FrameLayout, motion: (Motion, from: FrameLayout)?, on canvas: Canvas, over base: SequenceRenderer.BaseLayer?,
              replaying key: SequenceRenderer.MemoKey? = nil, timings: Timings?, beforeSung: ((Int) -> Void)? = nil) throws(GraphicsError) -> Frame {
        if let key, let memo = canvas.luminanceMemo {
            return try memo.replaying(key) { () throws(GraphicsError) in
                try draw(scene, layout: layout, motion: motion, on: canvas, over: base, timings: timings, beforeSung: beforeSung)
            }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        defer { timings?.add("raster", seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) }
        var contrasts = base?.contrasts ?? [:]
        var drawn = base == nil ? layout : Self.withoutCaptions(layout)
        if let (motion, laidOutFrom) = motion {
            drawn = try drawMotion(scene, motion: motion, from: base == nil ? laidOutFrom : Self.withoutCaptions(laidOutFrom), to: drawn,
                                   on: canvas, contrasts: &contrasts)
        } else {
            try drawLayers(scene, layout: &drawn, on: canvas, contrasts: &contrasts, beforeSung: beforeSung)
        }
        try canvas.finish()
        return Frame(canvas: canvas, layout: base.map { withCaptions(drawn, of: layout, base: $0) } ?? drawn,
                     scheme: layoutEngine.palette.scheme, contrasts: contrasts)
    }

    /// `layout` without its captions (what is drawn over a base).
    static func withoutCaptions(_ layout: FrameLayout) -> FrameLayout {
        var changing = layout
        changing.blocks = layout.blocks.filter { !isCaption($0.role) }
        return changing
    }

    /// A canvas of the frame's size holding the prepared background (`backdrop`), or clear.
    func startCanvas(backdrop: Bool) throws(GraphicsError) -> Canvas {
        let geometry = background.geometry
        let canvas: Canvas
        if let spare = spareCanvas, spare.width == geometry.preset.width, spare.height == geometry.preset.height {
            spareCanvas = nil
            canvas = spare
        } else {
            canvas = try Canvas(width: geometry.preset.width, height: geometry.preset.height)
        }
        guard backdrop else { return canvas }
        let bitmap = background.bitmap
        if bitmap.width == canvas.width, bitmap.height == canvas.height {
            // Painted over a clear canvas, the backdrop's pixels are copied as they are: copy them.
            canvas.copyRows(0..<canvas.height, from: bitmap)
        } else {
            canvas.draw(bitmap, in: Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height)))
        }
        return canvas
    }

    /// Everything drawn over the background, in order: the classic band, the current line's
    /// scrim, the progress bar, the text blocks (dimmed ones raised to 3:1 first).
    /// `beforeSung`: called with a karaoke block's index just before its sung part is drawn.
    private func drawLayers(_ scene: Scene, layout: inout FrameLayout, on canvas: Canvas,
                            contrasts: inout [String: Double], beforeSung: ((Int) -> Void)? = nil) throws(GraphicsError) {
        let geometry = background.geometry
        if let band = layout.band { drawClassicBand(band, on: canvas, layout: layout) }
        if let rect = layout.qr, let code = layoutEngine.qr { canvas.draw(code, in: rect) }
        let focusRole: Scene.Role = scene.state == .quote ? .quote : .current
        contrasts[focusRole.rawValue] = checkCurrentLine(on: canvas, layout: layout, role: focusRole)
        raiseDimmedOpacity(on: canvas, layout: &layout, contrasts: &contrasts)
        if let bar = geometry.progress, let duration = scene.duration, duration.milliseconds > 0 {
            drawProgress(on: canvas, in: bar, fraction: Double(scene.time.milliseconds) / Double(duration.milliseconds))
        }

        for (index, block) in layout.blocks.enumerated() {
            try canvas.fading(block.fade, within: reach(of: block)) { () throws(GraphicsError) in
                var unsung: Color?
                if !block.sung.isEmpty {
                    if let bar = geometry.progress, bar.insetBy(dx: 0, dy: -2).intersects(block.box) { canvas.luminanceMemo?.stop() }
                    let measured = unsungColor(block, on: canvas)
                    contrasts["unsung"] = measured.contrast
                    unsung = measured.color
                }
                try paint(block, unsung: unsung, on: canvas, beforeSung: beforeSung.map { call in { call(index) } })
            }
        }
    }

    /// Draws one text block: plain (with its shadow or depth blur), or for a karaoke line (with
    /// `unsung`, the colour of its part not yet sung) the whole line in the unsung colour, then
    /// the sung part over it in full colour, its front edge a soft half-em gradient rather than a cut.
    func paint(_ block: TextBlock, unsung: Color?, on canvas: Canvas, beforeSung: (() -> Void)? = nil) throws(GraphicsError) {
        if let unsung, !block.sung.isEmpty {
            try canvas.draw(block.layout, at: block.origin, color: unsung, shadow: block.shadow)
            // What is drawn from here on depends on how far the line is sung.
            canvas.luminanceMemo?.stop()
            beforeSung?()
            drawSung(block, on: canvas)
        } else {
            try canvas.draw(block.layout, at: block.origin, color: block.color, shadow: block.shadow,
                            blur: Int(block.blur.rounded()))
        }
    }

    /// The sung part of a karaoke block, over the block drawn in its unsung colour.
    func drawSung(_ block: TextBlock, on canvas: Canvas) {
        canvas.draw(block.layout, at: block.origin, color: block.color,
                    revealed: Self.sungRegion(block, text: block.text, shares: block.sung), feather: 0.5 * block.fontSize)
    }

    /// Lays `scene` out; with `timings`, adds the time spent to the "layout" stage.
    package func layout(_ scene: Scene, timings: Timings? = nil) -> FrameLayout {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { timings?.add("layout", seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) }
        return layoutEngine.layout(scene)
    }

    // MARK: Captions

    /// Blocks that are the same in every frame of a song.
    static func isCaption(_ role: Scene.Role) -> Bool { role == .title || role == .artist }

    /// Everything that decides a block's pixels: blocks with the same signature draw the same.
    /// The key of base pictures and of the measurements a frame replays.
    struct BlockSignature: Hashable, Sendable {
        var role: Scene.Role
        var text: String
        var origin: Point
        var fontSize: Double
        var color: Color
        var shadow: Canvas.Shadow?
        var blur: Double
        var cut: Bool
        var sung: [Double]
        var box: Rect

        init(_ block: TextBlock) {
            role = block.role
            text = block.text
            origin = block.origin
            fontSize = block.fontSize
            color = block.color
            shadow = block.shadow
            blur = block.blur
            cut = block.cut
            sung = block.sung
            box = block.box
        }

        /// The same block as if nothing of it were sung yet.
        var unsung: BlockSignature {
            var signature = self
            signature.sung = sung.map { _ in 0 }
            return signature
        }
    }

    /// `layout` with its blocks as drawn over `base`: the captions in the base's colours, the
    /// others as `drawn` (the same blocks without the captions, in order) has them.
    func withCaptions(_ drawn: FrameLayout, of layout: FrameLayout, base: SequenceRenderer.BaseLayer) -> FrameLayout {
        var merged = layout
        var blocks = drawn.blocks.makeIterator()
        var colors = base.colors.makeIterator()
        for i in merged.blocks.indices {
            if Self.isCaption(merged.blocks[i].role) {
                merged.blocks[i].color = colors.next() ?? merged.blocks[i].color
            } else if let block = blocks.next() {
                merged.blocks[i] = block
            }
        }
        return merged
    }

    /// The rows a block's pixels can reach: its box and ink, grown by its shadow or blur (drawn
    /// on layers padded by three radii) and its fade zone, plus a pixel for antialiasing.
    func reach(of block: TextBlock) -> Rect {
        let ink = block.layout.inkRect
        var r = block.box.union(Rect(x: block.origin.x + ink.x, y: block.origin.y + ink.y, width: ink.width, height: ink.height))
        if let fade = block.fade { r = r.union(fade.zone) }
        let pad = reachMargin(of: block)
        return r.insetBy(dx: -pad, dy: -pad)
    }

    /// How far beyond its box, ink and fade zone a block's pixels can reach: its shadow or blur,
    /// or a pixel for antialiasing.
    func reachMargin(of block: TextBlock) -> Double {
        var pad = 1.0
        if let shadow = block.shadow, shadow.color.alpha > 0 {
            pad = max(pad, Double(shadow.radius * 3 + 2) + abs(shadow.offset.y) + 2)
        }
        if block.blur > 0 { pad = max(pad, Double(Int(block.blur.rounded()) * 3 + 2) + 2) }
        return pad
    }

    /// Whole pixel rows covering `rects`, clamped to the canvas, sorted and merged.
    static func merge(_ rects: [Rect], height: Int) -> [Range<Int>] {
        merge(rects.compactMap { r -> Range<Int>? in
            let lo = max(0, Int(r.minY.rounded(.down))), hi = min(height, Int(r.maxY.rounded(.up)))
            return lo < hi ? lo..<hi : nil
        })
    }

    /// `rows` sorted, overlapping or touching ranges merged, empty ones dropped.
    static func merge(_ rows: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for r in rows.sorted(by: { $0.lowerBound < $1.lowerBound }) where !r.isEmpty {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        return merged
    }

    /// The relative luminance of the pixels in `rect` that text of `textLuminance` contrasts
    /// least with: the brightest under light text, the darkest under dark text.
    static func worstBackground(_ canvas: Canvas, _ rect: Rect, textLuminance: Double) -> Double {
        canvas.luminance(in: rect, quantile: textLuminance >= 0.18 ? 1.0 : 0.0)
    }

    /// Checks the current line against the pixels as drawn (the prepared scrim should have made
    /// it pass); where it falls short — text pushed outside its region — a soft band of the
    /// scrim colour goes behind it, deepened to black (or white) if quantisation leaves it short.
    /// Returns the measured contrast. A card's chosen lines (`quote`) are checked the same way.
    func checkCurrentLine(on canvas: Canvas, layout: FrameLayout, role: Scene.Role) -> Double? {
        let geometry = background.geometry
        let textLuminance = layoutEngine.currentColor.relativeLuminance
        let blocks = layout.blocks.filter { $0.role == role }
        guard let current = blocks.map(\.box).reduce(nil, { $0?.union($1) ?? $1 }) else {
            return nil
        }
        let target = currentTarget(karaoke: blocks.contains { !$0.sung.isEmpty })
        let behind = current.insetBy(dx: -4 * geometry.unit, dy: 0)
        func measure() -> Double { Color.contrast(textLuminance, Self.worstBackground(canvas, behind, textLuminance: textLuminance)) }
        var measured = measure()
        if measured < target {
            let tint = background.tint
            let alpha = Background.scrimAlpha(canvas: canvas, rect: behind, tint: tint, minimum: 0, textLuminance: textLuminance,
                                              target: target)
            let feather = 2 * geometry.neighbourSize
            canvas.fillSoft(behind.insetBy(dx: -2 * feather, dy: -feather), color: tint.withAlpha(min(1, alpha + 0.02)),
                            featherX: 2 * feather, featherY: feather)
            measured = measure()
        }
        if measured < target {
            let extreme: Color = layoutEngine.palette.isDark ? .black : .white
            let extra = Background.scrimAlpha(canvas: canvas, rect: behind, tint: extreme, minimum: 0, textLuminance: textLuminance,
                                              target: target)
            canvas.fill(behind.insetBy(dx: -geometry.neighbourSize, dy: -0.3 * geometry.neighbourSize),
                        color: extreme.withAlpha(min(1, extra + 0.02)), cornerRadius: 0.3 * geometry.neighbourSize)
            measured = measure()
        }
        return measured
    }

    /// How far apart, in CIE L*, a karaoke line's sung and unsung parts are kept.
    static let karaokeLightnessGap = 22.0

    /// The contrast the current line needs against the pixels behind it: 4.5:1 (with a margin);
    /// for a karaoke line, enough more that its unsung part, dimmed to its 3:1 floor, stays
    /// ``karaokeLightnessGap`` L* away from the sung colour (white against a light grey is not a
    /// split anyone sees at poster size).
    func currentTarget(karaoke: Bool) -> Double {
        guard karaoke else { return Renderer.contrastTarget }
        let sung = layoutEngine.currentColor.relativeLuminance
        // What the unsung part reaches (see unsungColor), with the margin its steps leave.
        let floor = Renderer.neighbourContrastTarget + 0.2
        if layoutEngine.palette.isDark {
            let unsung = Color.luminance(lightness: max(0, Color.lightness(sung) - Self.karaokeLightnessGap))
            let behind = max(0, (unsung + 0.05) / floor - 0.05)
            return max(Renderer.contrastTarget, (sung + 0.05) / (behind + 0.05))
        }
        let unsung = Color.luminance(lightness: min(100, Color.lightness(sung) + Self.karaokeLightnessGap))
        let behind = min(1, floor * (unsung + 0.05) - 0.05)
        return max(Renderer.contrastTarget, (behind + 0.05) / (sung + 0.05))
    }

    /// Classic rows sit on one band: the cover, blurred, seen through it (so sharp artwork does
    /// not run through the text) under the cover's darkened colour, as dark as the rows need for
    /// 4.5:1 (at least the original's half-black), with soft top and bottom edges (classicFeather).
    func drawClassicBand(_ band: Rect, on canvas: Canvas, layout: FrameLayout) {
        let tint = background.tint
        // How dark the band must be, measured on the cover before the band's frost.
        var alpha = 0.55
        for block in layout.blocks {
            let luminance = block.color.withAlpha(1).relativeLuminance
            let needed = block.role == .current || block.role == .interlude || block.role == .quote
                ? Background.scrimAlpha(canvas: canvas, rect: block.box, tint: tint, minimum: 0, textLuminance: luminance)
                : Self.scrimForDimmed(block, on: canvas, tint: tint)
            alpha = max(alpha, min(1, needed + 0.02))
        }
        let feather = classicFeather(band, alpha: alpha, on: canvas)
        if let frost = background.frost { canvas.draw(frost, throughBand: band, feather: feather) }
        canvas.fillSoft(Rect(x: -feather, y: band.minY - feather, width: Double(canvas.width) + 2 * feather, height: band.height + 2 * feather),
                        color: tint.withAlpha(alpha), featherX: 0, featherY: feather)
    }

    /// The soft edge of the classic band: long enough that the cover darkens into it by no more
    /// than about two levels a row (a white cover under a dark band needs some 180 rows; a dark
    /// cover keeps the original's 30), and never more than ``classicFeatherLimit``.
    private func classicFeather(_ band: Rect, alpha: Double, on canvas: Canvas) -> Double {
        let u = background.geometry.unit
        func level(_ luminance: Double) -> Double { 255 * Color.encoded(luminance) }
        let tint = level(background.tint.relativeLuminance)
        // The brightest (or darkest) pixel just outside the band, above and below it.
        var drop = 0.0
        for edge in [Rect(x: 0, y: band.minY - 2, width: Double(canvas.width), height: 2),
                     Rect(x: 0, y: band.maxY, width: Double(canvas.width), height: 2)] {
            for quantile in [0.0, 1.0] {
                drop = max(drop, alpha * abs(level(canvas.luminance(in: edge, quantile: quantile)) - tint))
            }
        }
        // The smoothstep ramp is 1.5 times as steep as its mean at its middle: a row a level
        // on average keeps the steepest rows, where the frost also changes, within two.
        return min(Self.classicFeatherLimit * u, max(30 * u, drop))
    }

    /// The longest soft edge of the classic band, in pixels on a 1080-pixel side (see changedRows).
    static let classicFeatherLimit = 200.0

    /// The colour of a karaoke line's part not yet sung: the text colour, dimmed only as far as
    /// it still reaches 3:1 on the pixels behind it; and the contrast it reaches there.
    func unsungColor(_ block: TextBlock, on canvas: Canvas) -> (color: Color, contrast: Double) {
        let text = layoutEngine.palette.text
        let target = Renderer.neighbourContrastTarget + 0.1
        let drawn = Self.dimmedAlpha(text, from: 0.4, over: block.box, on: canvas, target: target)
        return (text.withAlpha(drawn.alpha), drawn.contrast)
    }

    /// The least opacity from `start` up, in steps of 0.05, at which `text` over the pixels in
    /// `rect` reaches `target`, and the contrast reached there (1 where none does).
    ///
    /// Text at an opacity is a blend of its colour and each pixel behind it, channel by channel:
    /// white at half opacity over saturated blue is far darker than over a grey of the blue's
    /// luminance, so the grey estimate (cheap, no pixels read) only finds where to start, and
    /// the pixels blended as Cairo blends them (``reachedContrast(_:over:on:alpha:)``) decide.
    static func dimmedAlpha(_ text: Color, from start: Double, over rect: Rect, on canvas: Canvas,
                            target: Double) -> (alpha: Double, contrast: Double) {
        let luminance = text.withAlpha(1).relativeLuminance
        let behind = worstBackground(canvas, rect, textLuminance: luminance)
        var alpha = start
        while alpha < 1, Background.blendedContrast(textLuminance: luminance, alpha: alpha, backgroundLuminance: behind) < target {
            alpha = min(1, alpha + 0.05)
        }
        var reached = reachedContrast(text, over: rect, on: canvas, alpha: alpha)
        while alpha < 1, reached < target {
            alpha = min(1, alpha + 0.05)
            reached = reachedContrast(text, over: rect, on: canvas, alpha: alpha)
        }
        return (alpha, reached)
    }

    /// The contrast of `text` at `alpha` against the pixels in `rect` it contrasts least with:
    /// the brightest of them (the darkest under dark text), blended with the text channel by
    /// channel as Cairo blends 8-bit sRGB, against the same pixel unblended; never more than the
    /// grey estimate.
    static func reachedContrast(_ text: Color, over rect: Rect, on canvas: Canvas, alpha: Double) -> Double {
        let luminance = text.withAlpha(1).relativeLuminance
        let quantile = luminance >= 0.18 ? 1.0 : 0.0
        let behind = canvas.luminance(in: rect, quantile: quantile)
        let glyph = canvas.luminance(in: rect, quantile: quantile, overlay: text.withAlpha(alpha))
        return min(Color.contrast(glyph, behind),
                   Background.blendedContrast(textLuminance: luminance, alpha: alpha, backgroundLuminance: behind))
    }

    /// Any dimmed line (or title) still under 3:1 is drawn more opaque, as far as needed; the
    /// lowest contrast each role reaches goes into `contrasts`.
    func raiseDimmedOpacity(on canvas: Canvas, layout: inout FrameLayout, contrasts: inout [String: Double]) {
        for i in layout.blocks.indices where Self.isDimmed(layout.blocks[i].role) || layout.blocks[i].role == .title {
            let block = layout.blocks[i]
            let drawn = Self.dimmedAlpha(block.color, from: block.color.alpha, over: block.box, on: canvas,
                                         target: Renderer.neighbourContrastTarget)
            layout.blocks[i].color = block.color.withAlpha(drawn.alpha)
            contrasts[block.role.rawValue] = min(contrasts[block.role.rawValue] ?? .infinity, drawn.contrast)
        }
    }

    /// The weakest opacity of `tint` under which `block`, at its own opacity, reaches 3:1.
    private static func scrimForDimmed(_ block: TextBlock, on canvas: Canvas, tint: Color) -> Double {
        let luminance = block.color.withAlpha(1).relativeLuminance
        return Background.scrimAlpha(canvas: canvas, rect: block.box, tint: tint, minimum: 0) { background in
            Background.blendedContrast(textLuminance: luminance, alpha: block.color.alpha,
                                       backgroundLuminance: background) >= Renderer.neighbourContrastTarget
        }
    }

    /// The sung part of a karaoke line as spans in canvas pixels: runs of sung clusters side by
    /// side on one wrapped line and in one direction, each from where its run starts to as far
    /// as its characters have been sung (from the right in right-to-left runs, so a right-to-left
    /// word inside left-to-right text fills from its own start). `frontier` marks a span whose
    /// end is still moving (it gets the soft edge).
    static func sungRegion(_ block: TextBlock, text: String, shares: [Double]) -> [Canvas.Reveal] {
        // Character index by UTF-8 offset of its first byte.
        var starts: [(offset: Int, share: Double)] = []
        var offset = 0
        for (character, share) in zip(text, shares) {
            starts.append((offset, share))
            offset += character.utf8.count
        }
        let clusters = block.layout.clusters.sorted { $0.byteIndex < $1.byteIndex }
        let lineRects = block.layout.lineRects
        struct Piece { var rect: Rect; var line: Int; var share: Double; var rtl: Bool }
        var pieces: [Piece] = []
        for (n, cluster) in clusters.enumerated() {
            let end = n + 1 < clusters.count ? clusters[n + 1].byteIndex : Int.max
            let inside = starts.filter { $0.offset >= cluster.byteIndex && $0.offset < end }.map(\.share)
            guard !inside.isEmpty else { continue }
            var r = cluster.rect
            r.x += block.origin.x
            r.y += block.origin.y
            // The wrapped line this cluster is on, by its vertical centre; spans take its full
            // height, so that tall ink (accents, emoji) fills too.
            let line = lineRects.firstIndex { r.midY - block.origin.y < $0.maxY } ?? max(0, lineRects.count - 1)
            if lineRects.indices.contains(line) {
                let l = lineRects[line]
                r = Rect(x: r.x, y: min(r.y, block.origin.y + l.minY), width: r.width,
                         height: max(r.maxY, block.origin.y + l.maxY) - min(r.y, block.origin.y + l.minY))
            }
            pieces.append(Piece(rect: r, line: line, share: inside.reduce(0, +) / Double(inside.count), rtl: cluster.rightToLeft))
        }
        var spans: [Canvas.Reveal] = []
        for line in Set(pieces.map(\.line)).sorted() {
            let row = pieces.filter { $0.line == line }.sorted { $0.rect.minX < $1.rect.minX }
            var current: (rect: Rect, frontier: Bool, rtl: Bool)?
            func close() {
                if let c = current { spans.append(Canvas.Reveal(rect: c.rect, frontier: c.frontier, rightToLeft: c.rtl)) }
                current = nil
            }
            for piece in row {
                guard piece.share > 0 else { close(); continue }
                var r = piece.rect
                if piece.share < 1 {
                    let width = r.width * piece.share
                    if piece.rtl { r.x = r.maxX - width }
                    r.width = width
                }
                if let c = current, c.rtl == piece.rtl, piece.rect.minX - c.rect.maxX < 1 {
                    current = (c.rect.union(r), c.frontier || piece.share < 1, c.rtl)
                } else {
                    close()
                    current = (r, piece.share < 1, piece.rtl)
                }
                // A partly sung cluster ends its span on the side the filling moves towards.
                if piece.share < 1, !piece.rtl { close() }
            }
            close()
        }
        return spans
    }

    static func isDimmed(_ role: Scene.Role) -> Bool {
        switch role {
        case .previous, .next, .translation, .romanisation, .background, .artist, .interlude, .elapsed, .total, .ruby, .ellipsis:
            return true
        case .current, .title, .quote: return false
        }
    }

    /// The progress bar: a thin track along the bottom of `rect`, filled up to `fraction` in the
    /// current line's colour (the elapsed and total times are text blocks of the layout).
    func drawProgress(on canvas: Canvas, in rect: Rect, fraction: Double) {
        let u = background.geometry.unit
        let track = Rect(x: rect.minX, y: rect.maxY - 6 * u, width: rect.width, height: 6 * u)
        canvas.fill(track, color: layoutEngine.palette.text.withAlpha(0.25), cornerRadius: 3 * u)
        let filled = Rect(x: track.minX, y: track.minY, width: track.width * min(1, max(0, fraction)), height: track.height)
        if filled.width > 0 { canvas.fill(filled, color: layoutEngine.currentColor, cornerRadius: 3 * u) }
    }
}
