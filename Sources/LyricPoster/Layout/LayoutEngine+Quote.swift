import PosterGraphics

/// Share cards: the lines a person chose, all of equal weight, whole.
extension LayoutEngine {
    /// The smallest size a card's lines may shrink to, as a share of the current line's size.
    static let quoteFloor = 0.5

    /// Lays out a card (`scene.state == .quote`): the theme's captions (title, artist) where it
    /// has them, and every chosen line as a current line, with its sub-lines, stacked and centred
    /// in the lyrics region. All lines shrink together, step by step, until the stack fits; none is
    /// ever cut. When even the floor does not fit, the layout says `overflow` (and the card is
    /// refused by its caller). Themes without captions (classic) get the title and artist under
    /// the lines, on the band with them.
    func quoteLayout(_ scene: Scene) -> FrameLayout {
        guard let qr else { return quoteLayout(scene, reserving: nil) }
        // The QR code takes a corner: bottom right, bottom left, top right, top left, the first
        // where no text and no cover card is; the lyrics' region gives up the band it stands in.
        let w = Double(geometry.preset.width), h = Double(geometry.preset.height)
        let side = Canvas.qrSide(qr, within: (0.17 * min(w, h)).rounded())
        let margin = (0.045 * min(w, h)).rounded()
        let corners = [Point(x: w - margin - side, y: h - margin - side), Point(x: margin, y: h - margin - side),
                       Point(x: w - margin - side, y: margin), Point(x: margin, y: margin)]
        let clearance = 0.02 * min(w, h)
        for corner in corners {
            let rect = Rect(x: corner.x, y: corner.y, width: side, height: side)
            var layout = quoteLayout(scene, reserving: rect)
            let guarded = rect.insetBy(dx: -clearance, dy: -clearance)
            let blocked = layout.blocks.contains { $0.box.intersects(guarded) } || (theme.card && geometry.card?.intersects(guarded) == true)
            if !blocked, !layout.overflow {
                layout.qr = rect
                return layout
            }
        }
        return quoteLayout(scene, reserving: nil)
    }

    /// The card's layout with `reserved` (a QR code's square) kept out of the lyrics' region.
    private func quoteLayout(_ scene: Scene, reserving reserved: Rect?) -> FrameLayout {
        let classic = geometry.layout == .classic
        var blocks = classic ? [] : captions(scene)
        var area: Rect
        if classic {
            area = Rect(x: geometry.lyrics.minX, y: geometry.classicTop, width: geometry.lyrics.width,
                        height: geometry.classicBottom - geometry.classicTop)
        } else {
            area = lyricsArea(below: blocks)
        }
        if let reserved {
            let gap = 0.02 * Double(min(geometry.preset.width, geometry.preset.height))
            if reserved.midY > area.midY {
                area = Rect(x: area.x, y: area.y, width: area.width, height: max(0, min(area.maxY, reserved.minY - gap) - area.minY))
            } else {
                let top = max(area.minY, reserved.maxY + gap)
                area = Rect(x: area.x, y: top, width: area.width, height: max(0, area.maxY - top))
            }
        }
        if theme.writing == .vertical {
            let columns = verticalQuote(scene, area: area)
            var captions: [TextBlock] = []
            if classic, let extent = columns.extent {
                // Classic's attribution goes under the columns, on the band with them.
                captions = attributionBlocks(scene, in: Rect(x: area.minX, y: extent.maxY + 0.5 * geometry.neighbourSize, width: area.width,
                                                       height: max(0, Double(geometry.preset.height) - extent.maxY)))
            }
            blocks += columns.blocks + captions
            var layout = FrameLayout(blocks: blocks, focus: columns.extent)
            if classic { layout.band = classicBand(around: columns.blocks + captions) }
            layout.overflow = columns.overflow
            return layout
        }
        var stack: [TextBlock] = []
        var height = 0.0
        var scale = 1.0
        var overflow = false
        while true {
            (stack, height) = quoteStack(scene, area: area, scale: scale, attribution: classic)
            if height <= area.height + 0.5 { break }
            if scale - 0.05 < Self.quoteFloor - 1e-9 { overflow = true; break }
            scale -= 0.05
        }
        let top: Double
        if classic {
            // The original's table ends at a fixed height; the card's band ends there too and
            // grows upwards, then downwards to the table's lower limit.
            let tableBottom = geometry.rows.last?.maxY ?? area.maxY
            top = max(area.minY, min(tableBottom, area.maxY) - height)
        } else {
            top = max(area.minY, area.midY - height / 2)
        }
        let placed = stack.shifted(by: top)
        blocks += placed
        let extent = placed.map(\.box).reduce(nil) { (r: Rect?, b) in r?.union(b) ?? b }
        var layout = FrameLayout(blocks: blocks, focus: extent.map { Rect(x: area.minX, y: $0.minY, width: area.width, height: $0.height) })
        if classic, let extent {
            let pad = 7 * geometry.unit
            layout.band = Rect(x: 0, y: extent.minY - pad, width: Double(geometry.preset.width), height: extent.height + 2 * pad)
        }
        layout.overflow = overflow
        return layout
    }

    /// The chosen lines at `scale`, stacked from y = 0, and the stack's height; with
    /// `attribution`, the title and artist under them.
    private func quoteStack(_ scene: Scene, area: Rect, scale: Double, attribution: Bool) -> ([TextBlock], Double) {
        let gap = 0.42 * geometry.currentSize * scale
        var blocks: [TextBlock] = []
        var y = 0.0
        for line in scene.lines where line.role == .quote || line.role == .ellipsis {
            let g = group(line, area: area, distance: 0, scale: scale)
            if !blocks.isEmpty { y += gap }
            blocks += g.blocks.shifted(by: y)
            y += g.height
        }
        if attribution {
            let captions = attributionBlocks(scene, in: area)
            if let first = captions.first {
                let top = y + 1.2 * gap
                let shifted = captions.shifted(by: top - first.box.minY)
                blocks += shifted
                y = shifted.map(\.box.maxY).max() ?? y
            }
        }
        return (blocks, y)
    }

    /// A card's title and "artist — album" set small and centred in `area`, for themes without
    /// captions of their own (classic), which put them under the chosen lines.
    private func attributionBlocks(_ scene: Scene, in area: Rect) -> [TextBlock] {
        var titleLook = look(for: .title)
        titleLook.size = geometry.neighbourSize
        var artistLook = look(for: .artist)
        artistLook.size = geometry.translationSize
        return captionBlocks(title: scene.title, byline: byline(scene), language: scene.language, area: area,
                             alignment: .center, centred: false, titleLook: titleLook, artistLook: artistLook)
    }
}
