import Foundation
import PosterGraphics

// What the frames of one song reuse: base pictures (the backdrop with the captions drawn),
// frames drawn over a base where only their changing layers are, karaoke ticks that redraw their
// sung line alone, and the keys that say when such reuse gives the pixels of a frame drawn whole.
// The drawing itself is Renderer.draw's.
extension SequenceRenderer {

    /// The part of a song's frames that does not depend on the time: the background with the
    /// captions (title, artist line) drawn on it. Frames are drawn over a copy of it, touching
    /// only the rows their time-dependent layers reach (``renderChanges(_:layout:on:base:timings:keep:)``).
    package struct BaseLayer: Sendable {
        /// The picture, and the same as packed RGB rows.
        package let bitmap: Bitmap
        package let rgb: [UInt8]
        /// Each caption block as laid out (before its opacity was raised), in order.
        let signatures: [Renderer.BlockSignature]
        /// Their colours as drawn, and the contrasts they reached.
        let colors: [Color]
        let contrasts: [String: Double]
        /// The rows the captions' pixels (ink, shadows) can reach.
        let rows: [Range<Int>]
    }

    /// Which base picture a layout can be drawn over: its captions as placed (a song's frames
    /// share one or a few placements).
    struct BaseKey: Hashable, Sendable {
        var captions: [Renderer.BlockSignature]

        init(_ layout: FrameLayout) {
            captions = layout.blocks.filter { Renderer.isCaption($0.role) }.map(Renderer.BlockSignature.init)
        }
    }

    /// What decides the measurements a frame over `base` makes before anything that depends on
    /// how far a line is sung (see LuminanceMemo): the base, the band and focus, and the blocks as
    /// if unsung; for the frames of a move, also the blocks it starts from.
    struct MemoKey: Hashable, Sendable {
        var captions: [Renderer.BlockSignature]
        var band: Rect?
        var focus: Rect?
        var blocks: [Renderer.BlockSignature]
        var from: [Renderer.BlockSignature]?

        init(_ layout: FrameLayout, base: BaseLayer, from: FrameLayout? = nil) {
            captions = base.signatures
            band = layout.band
            focus = layout.focus
            blocks = layout.blocks.map { Renderer.BlockSignature($0).unsung }
            self.from = from.map { $0.blocks.map { Renderer.BlockSignature($0).unsung } }
        }
    }

    /// Which frames are ticks of one still: the same memo key and scene state.
    struct SungKey: Hashable, Sendable {
        var state: Scene.State
        var memo: MemoKey
    }

    /// Draws the base layer that frames laid out like `layout` share: their captions on the
    /// background.
    package func renderBase(_ layout: FrameLayout) throws(GraphicsError) -> (canvas: Canvas, layer: BaseLayer) {
        let canvas = try renderer.startCanvas(backdrop: true)
        var captions = layout
        captions.blocks = layout.blocks.filter { Renderer.isCaption($0.role) }
        captions.band = nil
        captions.focus = nil
        let signatures = BaseKey(layout).captions
        var contrasts: [String: Double] = [:]
        renderer.raiseDimmedOpacity(on: canvas, layout: &captions, contrasts: &contrasts)
        for block in captions.blocks {
            try canvas.fading(block.fade, within: renderer.reach(of: block)) { () throws(GraphicsError) in
                try canvas.draw(block.layout, at: block.origin, color: block.color, shadow: block.shadow,
                                blur: Int(block.blur.rounded()))
            }
        }
        try canvas.finish()
        let rows = Renderer.merge(captions.blocks.map { renderer.reach(of: $0) }, height: canvas.height)
        let layer = BaseLayer(bitmap: canvas.snapshot(), rgb: try canvas.pixels(opaque: true).bytes, signatures: signatures,
                              colors: captions.blocks.map(\.color), contrasts: contrasts, rows: rows)
        return (canvas, layer)
    }

    /// Draws `scene` over `canvas`, which must hold `base` (outside rows an earlier call changed
    /// and the caller restored): only the time-dependent layers, which give exactly the pixels
    /// `render(_:)` would. Returns the frame and the rows that may differ from the base, or nil
    /// (nothing drawn) when this frame cannot be drawn that way: its captions differ from the
    /// base's, or its changing layers reach rows the captions occupy. `keep`: when the frame's
    /// only karaoke line can be redrawn alone on the next tick (see ``SungLine``), also return
    /// what that takes.
    func renderChanges(_ scene: Scene, layout: FrameLayout, on canvas: Canvas, base: BaseLayer, timings: Timings?,
                       keep: Bool) throws(GraphicsError) -> (frame: Renderer.Frame, rows: [Range<Int>], sung: SungLine?)? {
        guard let changing = changingLayers(layout, base: base) else { return nil }
        let rows = changedRows(changing, scene: scene, height: canvas.height)
        for r in rows where base.rows.contains(where: { $0.overlaps(r) }) { return nil }
        // Everything drawn before the measurements depends on the base and the layout, not on how
        // far a line is sung (see LuminanceMemo).
        let memoKey = MemoKey(changing, base: base)
        let sungRows = keep ? redrawableRows(changing, scene: scene, height: canvas.height) : nil
        var saved: [UInt8]?
        let frame = try renderer.draw(scene, layout: layout, motion: nil, on: canvas, over: base, replaying: memoKey, timings: timings, beforeSung: sungRows.map { sungRows in
            { index in if index == sungRows.index { saved = canvas.savedRows(sungRows.rows) } }
        })
        var sung: SungLine?
        if let sungRows, let saved {
            // The blocks as drawn (dimmed ones raised), without the captions.
            sung = SungLine(key: SungKey(state: scene.state, memo: memoKey), index: sungRows.index, rows: sungRows.rows, saved: saved,
                            later: sungRows.later, drawn: Renderer.withoutCaptions(frame.layout), contrasts: frame.contrasts, changed: rows)
        }
        return (frame, rows, sung)
    }

    /// The layout's blocks but its captions, when they are the base's (nil: it cannot be drawn
    /// over this base).
    private func changingLayers(_ layout: FrameLayout, base: BaseLayer) -> FrameLayout? {
        let captions = BaseKey(layout).captions
        guard captions == base.signatures, captions.isEmpty || layout.band == nil else { return nil }
        return Renderer.withoutCaptions(layout)
    }

    /// What the next tick of a still frame needs to redraw its karaoke line alone: the canvas's
    /// rows under that line as they were just before its sung part was drawn, and what the frame
    /// reported. Ticks of one line (the same layout but for how far it is sung, on the same base)
    /// draw the same pixels up to that point (see LuminanceMemo), and the sung part changes
    /// nothing outside those rows; so the next tick puts them back, draws its own sung part and,
    /// clipped to them, the blocks drawn after it there, and has exactly the frame drawn in full.
    final class SungLine {
        /// The layout but for how far it is sung, its base and its scene's state.
        let key: SungKey
        /// The karaoke block's index among the drawn (non-caption) blocks.
        let index: Int
        /// The rows its sung part can reach, and their pixels before it was drawn.
        let rows: Range<Int>
        let saved: [UInt8]
        /// The indices of the blocks drawn after it that reach those rows.
        let later: [Int]
        /// The non-caption blocks as drawn (dimmed ones raised), the contrasts measured, and the
        /// rows that differ from the base.
        let drawn: FrameLayout
        let contrasts: [String: Double]
        let changed: [Range<Int>]

        init(key: SungKey, index: Int, rows: Range<Int>, saved: [UInt8], later: [Int], drawn: FrameLayout, contrasts: [String: Double],
             changed: [Range<Int>]) {
            self.key = key; self.index = index; self.rows = rows; self.saved = saved; self.later = later
            self.drawn = drawn; self.contrasts = contrasts; self.changed = changed
        }
    }


    /// The karaoke block whose sung part the next tick can redraw alone, the rows it can reach
    /// and the blocks drawn after it that reach them too; nil when there is none: no block or
    /// several are being sung, it is cut (drawn through a fade), or a progress bar moves with
    /// the time.
    private func redrawableRows(_ changing: FrameLayout, scene: Scene, height: Int) -> (index: Int, rows: Range<Int>, later: [Int])? {
        if renderer.background.geometry.progress != nil, let duration = scene.duration, duration.milliseconds > 0 { return nil }
        let sung = changing.blocks.indices.filter { !changing.blocks[$0].sung.isEmpty }
        guard sung.count == 1, let index = sung.first, changing.blocks[index].fade == nil else { return nil }
        let block = changing.blocks[index]
        // The sung part is the block's text drawn again, clipped to its spans: it changes no pixel
        // outside its ink (and a pixel of antialiasing), whatever the spans.
        let ink = block.layout.inkRect
        let inked = Rect(x: block.origin.x + ink.x, y: block.origin.y + ink.y, width: ink.width, height: ink.height).insetBy(dx: 0, dy: -1)
        guard ink.height > 0, let rows = Renderer.merge([inked], height: height).first else { return nil }
        // Blocks drawn after it that reach its rows are drawn again there (clipped to them).
        let later = changing.blocks.indices.filter { i in
            i > index && Renderer.merge([renderer.reach(of: changing.blocks[i])], height: height).contains { $0.overlaps(rows) }
        }
        return (index, rows, later)
    }

    /// Draws the next tick of the still frame `kept` was made from: puts back the rows under its
    /// karaoke line and draws the line's sung part as `scene` has it (the same pixels and report
    /// as `renderChanges`). Nil (nothing drawn) when `scene` is not a tick of that frame: the
    /// canvas must then be put back to the base first. Returns the rows redrawn too.
    func redrawSung(_ scene: Scene, layout: FrameLayout, on canvas: Canvas, base: BaseLayer, kept: SungLine,
                    timings: Timings?) throws(GraphicsError) -> (frame: Renderer.Frame, rows: [Range<Int>], redrawn: Range<Int>)? {
        let laidOut = DispatchTime.now().uptimeNanoseconds
        guard let changing = changingLayers(layout, base: base), changing.blocks.count == kept.drawn.blocks.count,
              SungKey(state: scene.state, memo: MemoKey(changing, base: base)) == kept.key else { return nil }
        var block = kept.drawn.blocks[kept.index]
        block.sung = changing.blocks[kept.index].sung
        defer { timings?.add("raster", seconds: Double(DispatchTime.now().uptimeNanoseconds - laidOut) / 1e9) }
        canvas.restoreRows(kept.rows, from: kept.saved)
        renderer.drawSung(block, on: canvas)
        try canvas.clipped(toRows: kept.rows) { () throws(GraphicsError) in
            for index in kept.later {
                let later = kept.drawn.blocks[index]
                try canvas.fading(later.fade, within: renderer.reach(of: later)) { () throws(GraphicsError) in try renderer.paint(later, unsung: nil, on: canvas) }
            }
        }
        try canvas.finish()
        var drawn = kept.drawn
        for i in drawn.blocks.indices { drawn.blocks[i].sung = changing.blocks[i].sung }
        return (Renderer.Frame(canvas: canvas, layout: renderer.withCaptions(drawn, of: layout, base: base), scheme: renderer.layoutEngine.palette.scheme,
                      contrasts: kept.contrasts), kept.changed, kept.rows)
    }


    /// The rows the time-dependent layers of `layout` can change.
    private func changedRows(_ layout: FrameLayout, scene: Scene, height: Int) -> [Range<Int>] {
        Renderer.merge(changedRects(layout, scene: scene), height: height)
    }

    /// What the time-dependent layers of `layout` can change: each block's reach, the band, the
    /// current line's fallback scrims and the progress bar.
    func changedRects(_ layout: FrameLayout, scene: Scene) -> [Rect] {
        let geometry = renderer.background.geometry
        var rects = layout.blocks.map { renderer.reach(of: $0) }
        if let band = layout.band {
            let feather = Renderer.classicFeatherLimit * geometry.unit
            rects.append(band.insetBy(dx: 0, dy: -feather - 1))
        }
        // The current line's fallback scrims (checkCurrentLine).
        if let current = layout.blocks.filter({ $0.role == .current || $0.role == .quote }).map(\.box)
            .reduce(nil, { $0?.union($1) ?? $1 }) {
            rects.append(current.insetBy(dx: 0, dy: -2 * geometry.neighbourSize - 1))
        }
        if let bar = geometry.progress, let duration = scene.duration, duration.milliseconds > 0 {
            rects.append(bar.insetBy(dx: 0, dy: -1))
        }
        return rects
    }

    /// Draws `scene` in the middle of `motion` over `canvas`, which must hold `base` (as
    /// ``renderChanges(_:layout:on:base:timings:keep:)`` does for a still): only the blocks that are not
    /// captions, and what lies under them, which gives exactly the pixels
    /// ``render(_:motion:layout:timings:backdrop:)`` would. `layout`: the scene's own. Returns the frame and the rows that may differ from the
    /// base, or nil (nothing drawn) when the captions of either picture differ from the base's, or
    /// when anything drawn or measured reaches the captions' rows.
    package func renderMotionChanges(_ scene: Scene, motion: Motion, layout to: FrameLayout, on canvas: Canvas, base: BaseLayer,
                                    timings: Timings? = nil) throws(GraphicsError) -> (frame: Renderer.Frame, rows: [Range<Int>])? {
        let from = renderer.layout(motion.from, timings: timings)
        guard let changingFrom = changingLayers(from, base: base), let changingTo = changingLayers(to, base: base) else { return nil }
        // Everything the move draws (each block where it is on its way, clipped to its reach) and
        // everything measured before it (both pictures' blocks where their stills have them).
        var rects = changingFrom.blocks.map { renderer.reach(of: $0) }
        for step in Renderer.steps(motion, from: changingFrom, to: changingTo, geometry: renderer.background.geometry,
                                    size: (Double(canvas.width), Double(canvas.height))) {
            let block = step.side == .from ? changingFrom.blocks[step.index] : changingTo.blocks[step.index]
            if let r = renderer.drawnReach(block, step) { rects.append(r) }
        }
        let rows = Renderer.merge(rects + changedRects(changingTo, scene: scene), height: canvas.height)
        for r in rows where base.rows.contains(where: { $0.overlaps(r) }) { return nil }
        // The measurements come before any block is drawn (see drawMotion): every frame of one
        // move asks them of the same pixels, the base with the still's band.
        return (try renderer.draw(scene, layout: to, motion: (motion, from), on: canvas, over: base,
                                  replaying: MemoKey(changingTo, base: base, from: changingFrom), timings: timings), rows)
    }
}
