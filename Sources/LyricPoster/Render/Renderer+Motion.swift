import Foundation
import PosterGraphics

/// Pictures between two lines: each text block goes from where the picture before the change has
/// it to where the instant's own picture has it (the layouts of both, as the stills draw them).
extension Renderer {
    /// How far along its way a block is at `progress` of a change's time: a critically damped
    /// spring (a quick start that settles softly, as players move their lines), scaled to reach
    /// exactly 1 at the end.
    static func eased(_ progress: Double) -> Double {
        let k = 7.0
        func spring(_ x: Double) -> Double { 1 - (1 + k * x) * exp(-k * x) }
        return min(1, max(0, spring(min(1, max(0, progress))) / spring(1)))
    }

    /// Everything of a move drawn over what `canvas` holds: the band, scrim and progress bar of
    /// the still of `scene`, then the blocks of `from` and `to` on their way. Returns `to` with
    /// its colours as drawn.
    func drawMotion(_ scene: Scene, motion: Motion, from laidOutFrom: FrameLayout, to laidOutTo: FrameLayout, on canvas: Canvas,
                            contrasts: inout [String: Double]) throws(GraphicsError) -> FrameLayout {
        var from = laidOutFrom, to = laidOutTo
        let geometry = background.geometry
        // What lies under the text, as the still of the instant has it; the colours of both
        // pictures' blocks as their stills draw them (dimmed lines raised to 3:1 where the pixels
        // behind them need it), measured before any text is drawn.
        if let band = to.band { drawClassicBand(band, on: canvas, layout: to) }
        let focusRole: Scene.Role = scene.state == .quote ? .quote : .current
        contrasts[focusRole.rawValue] = checkCurrentLine(on: canvas, layout: to, role: focusRole)
        var ignored: [String: Double] = [:]
        raiseDimmedOpacity(on: canvas, layout: &from, contrasts: &ignored)
        raiseDimmedOpacity(on: canvas, layout: &to, contrasts: &contrasts)
        let unsungFrom = from.blocks.map { $0.sung.isEmpty ? nil : unsungColor($0, on: canvas).color }
        let unsungTo = to.blocks.map { $0.sung.isEmpty ? nil : unsungColor($0, on: canvas).color }
        // Nothing measured from here on may be replayed: what follows moves with the frame.
        canvas.luminanceMemo?.stop()
        if let bar = geometry.progress, let duration = scene.duration, duration.milliseconds > 0 {
            drawProgress(on: canvas, in: bar, fraction: Double(scene.time.milliseconds) / Double(duration.milliseconds))
        }
        for step in Self.steps(motion, from: from, to: to, geometry: geometry, size: (Double(canvas.width), Double(canvas.height))) {
            var block = step.side == .from ? from.blocks[step.index] : to.blocks[step.index]
            if let mix = step.mix { block.color = Self.mix(from.blocks[mix.from].color, block.color, mix.t) }
            try draw(block, unsung: step.side == .from ? unsungFrom[step.index] : unsungTo[step.index], on: canvas,
                     opacity: step.opacity, scale: step.scale, anchor: step.anchor, offset: step.offset)
        }
        return to
    }

    /// One block of a move, drawn `scale` times its size about `anchor`, moved by `offset`, at
    /// `opacity`; `mix`: its colour that far from the colour of `from`'s block of that index.
    struct Step {
        enum Side { case from, to }
        var side: Side
        var index: Int
        var opacity: Double
        var scale: Double
        var anchor: Point
        var offset: Point
        var mix: (from: Int, t: Double)?
    }

    /// The blocks of a move in the order they are drawn, each where it is on its way. Where each
    /// step puts its block depends only on the blocks' places, sizes, texts and line breaks:
    /// colours decide only whether an unmoved block is drawn as it is or with its colour mixed, at
    /// the same place (so the rows of a move can be found before the colours are measured).
    static func steps(_ motion: Motion, from: FrameLayout, to: FrameLayout, geometry: PosterGeometry,
                      size: (width: Double, height: Double)) -> [Step] {
        let width = size.width
        let pairs = pair(from.blocks, to.blocks)
        let t = motion.style == .scroll ? eased(motion.progress) : smooth(motion.progress)
        // Blocks that come or go with no counterpart move with the lines that have one (the
        // whole stack scrolls), or rise a little into place when nothing else moves.
        let shift = motion.style == .scroll ? stackShift(pairs, from: from.blocks, to: to.blocks) : 0
        let enter = motion.style == .scroll ? (shift == 0 ? 24 * geometry.unit : -shift) : 0
        let alignment = geometry.lyricsAlignment
        let none = Point(x: 0, y: 0)
        var steps: [Step] = []

        // Leaving blocks first, then the ones that stay or arrive (drawn over them).
        for (i, block) in from.blocks.enumerated() where pairs.fromMatch[i] == nil {
            let offset = Point(x: 0, y: motion.style == .scroll ? shift * t : 0)
            steps.append(Step(side: .from, index: i, opacity: 1 - t, scale: 1, anchor: anchor(block, alignment, width), offset: offset))
        }
        for (j, block) in to.blocks.enumerated() {
            guard let i = pairs.toMatch[j] else {
                steps.append(Step(side: .to, index: j, opacity: t, scale: 1, anchor: anchor(block, alignment, width),
                                  offset: Point(x: 0, y: enter * (1 - t))))
                continue
            }
            let old = from.blocks[i]
            if samePicture(old, block) {
                steps.append(Step(side: .to, index: j, opacity: 1, scale: 1, anchor: none, offset: none))
                continue
            }
            // Blocks above the sung line travel by their lower edge, the rest by their upper one:
            // a line that shrinks or grows does so away from its neighbour across the anchor.
            let above = block.box.midY < (to.focus?.minY ?? size.height / 2)
            let a = anchor(old, alignment, width, above: above), b = anchor(block, alignment, width, above: above)
            if motion.style == .fade {
                steps.append(Step(side: .from, index: i, opacity: 1 - t, scale: 1, anchor: a, offset: none))
                steps.append(Step(side: .to, index: j, opacity: t, scale: 1, anchor: b, offset: none))
                continue
            }
            // On its way: where it is and how large, between the two pictures.
            let at = Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
            let size = old.fontSize + (block.fontSize - old.fontSize) * t
            if old.text == block.text, old.fontSize == block.fontSize, old.layout.lineCount == block.layout.lineCount,
               old.sung == block.sung || (old.sung.isEmpty && block.sung.allSatisfy { $0 == 0 }) {
                // The same text at the same size: only its place and colour change.
                steps.append(Step(side: .to, index: j, opacity: 1, scale: 1, anchor: b, offset: Point(x: at.x - b.x, y: at.y - b.y),
                                  mix: (i, t)))
                continue
            }
            if rewraps(old, block) {
                // The same text broken into other lines (a line that wraps in two at the sung
                // line's size and fits one as a neighbour): one drawing at a time at the size
                // between, never both wrappings over each other. The old one for the first part
                // of the move, then the new one, its colour going on from the old one's.
                if t < rewrapPoint {
                    steps.append(Step(side: .from, index: i, opacity: 1, scale: size / old.fontSize, anchor: a,
                                      offset: Point(x: at.x - a.x, y: at.y - a.y)))
                } else {
                    steps.append(Step(side: .to, index: j, opacity: 1, scale: size / block.fontSize, anchor: b,
                                      offset: Point(x: at.x - b.x, y: at.y - b.y),
                                      mix: (i, (t - rewrapPoint) / (1 - rewrapPoint))))
                }
                continue
            }
            // Another size or weight in the same lines (the sung line becoming the last one, the
            // next becoming the sung one): both drawings at the size between, lying over each
            // other, the old one gone early in the move as the new one comes.
            let out = 1 - smooth(t / 0.35)
            let into = smooth((t - 0.15) / 0.3)
            steps.append(Step(side: .from, index: i, opacity: out, scale: size / old.fontSize, anchor: a,
                              offset: Point(x: at.x - a.x, y: at.y - a.y)))
            steps.append(Step(side: .to, index: j, opacity: into, scale: size / block.fontSize, anchor: b,
                              offset: Point(x: at.x - b.x, y: at.y - b.y)))
        }
        return steps
    }

    /// How far along its way (eased) a line set in other lines at its new size changes from its
    /// old drawing to its new one: where the two drawings' cross-fade of a size change crosses.
    static let rewrapPoint = 0.25

    /// True when two blocks set the same text broken into other lines (another number of lines,
    /// or breaks at other words, or cut elsewhere): at one size their drawings do not lie over
    /// each other, so a move draws one of them at a time. Asks only the shaped layouts.
    static func rewraps(_ a: TextBlock, _ b: TextBlock) -> Bool {
        guard a.text == b.text else { return false }
        let x = a.layout, y = b.layout
        let lines = x.lineCount
        guard lines == y.lineCount, x.text == y.text else { return true }
        return (0..<lines).contains(where: { x.byteOffset(afterLine: $0) != y.byteOffset(afterLine: $0) })
    }

    /// Where a step can put pixels: its block's reach, moved and scaled as the step draws it,
    /// grown by the block's own shadow or blur margin again (a blur drawn under a transform may
    /// spread by its unscaled radius) and two pixels; nil when the step draws nothing.
    func drawnReach(_ block: TextBlock, _ step: Step) -> Rect? {
        guard step.opacity > 0.002, step.scale > 0 else { return nil }
        let r = reach(of: block)
        guard !Self.isSettled(scale: step.scale, offset: step.offset) else { return r }
        let s = step.scale, a = step.anchor, o = step.offset
        let moved = Rect(x: a.x + o.x + (r.minX - a.x) * s, y: a.y + o.y + (r.minY - a.y) * s, width: r.width * s, height: r.height * s)
        let margin = reachMargin(of: block) + 2
        return moved.insetBy(dx: -margin, dy: -margin)
    }

    /// Within a hair of its place, a block is drawn as the still draws it.
    static func isSettled(scale: Double, offset: Point) -> Bool {
        abs(scale - 1) < 0.001 && abs(offset.x) < 0.25 && abs(offset.y) < 0.25
    }

    /// Smoothstep: the fade's curve.
    static func smooth(_ progress: Double) -> Double {
        let x = min(1, max(0, progress))
        return x * x * (3 - 2 * x)
    }

    /// One block drawn `scale` times its size about `anchor`, moved by `offset`, at `opacity`.
    private func draw(_ block: TextBlock, unsung: Color?, on canvas: Canvas, opacity: Double, scale: Double,
                      anchor: Point, offset: Point) throws(GraphicsError) {
        guard opacity > 0.002, scale > 0 else { return }
        // Within a hair of its place, a block is drawn as the still draws it (transformed text is
        // not hinted), so that a move settles on the still's exact pixels.
        let settled = Self.isSettled(scale: scale, offset: offset)
        try canvas.transformed(scale: settled ? 1 : scale, about: anchor, offset: settled ? Point(x: 0, y: 0) : offset) { () throws(GraphicsError) in
            try canvas.withOpacity(opacity, clip: reach(of: block)) { () throws(GraphicsError) in
                try canvas.fading(block.fade) { () throws(GraphicsError) in
                    try paint(block, unsung: unsung, on: canvas)
                }
            }
        }
    }

    /// The point of a block that travels: its lower or upper edge (`above`: true, false) or its
    /// middle height, at the edge its lines are aligned to (the middle, in centred lyrics).
    static func anchor(_ block: TextBlock, _ alignment: TextStyle.Alignment, _ width: Double, above: Bool? = nil) -> Point {
        let box = block.box
        let x: Double
        switch alignment {
        case .center: x = box.midX
        // A duet's second singer sits on the other side: the edge nearer the canvas's side.
        case .left, .right: x = box.midX < width / 2 ? box.minX : box.maxX
        }
        switch above {
        case true?: return Point(x: x, y: box.maxY)
        case false?: return Point(x: x, y: box.minY)
        case nil: return Point(x: x, y: box.midY)
        }
    }

    /// Which block of one picture is which of the other: a lyric line's blocks by the line and
    /// their part (the line, its translation, its romanisation, its backing vocals, each reading
    /// by its text); captions, markers and progress labels by their role; the n-th of a kind with
    /// the n-th.
    static func pair(_ from: [TextBlock], _ to: [TextBlock]) -> (fromMatch: [Int?], toMatch: [Int?]) {
        func keys(_ blocks: [TextBlock]) -> [String] {
            var seen: [String: Int] = [:]
            return blocks.map { block in
                let part: String
                switch block.role {
                case .current, .previous, .next, .quote: part = "line"
                case .ruby: part = "ruby|" + block.text
                case .translation, .romanisation, .background, .title, .artist, .interlude, .elapsed, .total, .ellipsis:
                    part = block.role.rawValue
                }
                let key = "\(block.line.map(String.init) ?? "-")|\(part)"
                seen[key, default: 0] += 1
                return key + "|\(seen[key]!)"
            }
        }
        let fromKeys = keys(from), toKeys = keys(to)
        var index: [String: Int] = [:]
        for (i, key) in fromKeys.enumerated() { index[key] = i }
        var fromMatch = [Int?](repeating: nil, count: from.count)
        var toMatch = [Int?](repeating: nil, count: to.count)
        for (j, key) in toKeys.enumerated() {
            if let i = index[key] {
                toMatch[j] = i
                fromMatch[i] = j
            }
        }
        return (fromMatch, toMatch)
    }

    /// How far the lyric lines present in both pictures move, up or down (the middle of their
    /// moves); 0 when none is in both.
    static func stackShift(_ pairs: (fromMatch: [Int?], toMatch: [Int?]), from: [TextBlock], to: [TextBlock]) -> Double {
        var moves: [Double] = []
        for (j, block) in to.enumerated() where block.line != nil {
            if let i = pairs.toMatch[j] { moves.append(block.box.midY - from[i].box.midY) }
        }
        guard !moves.isEmpty else { return 0 }
        moves.sort()
        return moves[moves.count / 2]
    }

    /// True when two blocks draw the same pixels.
    static func samePicture(_ a: TextBlock, _ b: TextBlock) -> Bool {
        a.text == b.text && a.origin == b.origin && a.fontSize == b.fontSize && a.color == b.color && a.shadow == b.shadow
            && a.blur == b.blur && a.sung == b.sung && a.cut == b.cut && a.layout.lineCount == b.layout.lineCount
            && a.box == b.box
    }

    static func mix(_ a: Color, _ b: Color, _ t: Double) -> Color {
        Color(red: a.red + (b.red - a.red) * t, green: a.green + (b.green - a.green) * t,
              blue: a.blue + (b.blue - a.blue) * t, alpha: a.alpha + (b.alpha - a.alpha) * t)
    }
}
