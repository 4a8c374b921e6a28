import PosterGraphics

/// One shaped, positioned text block of a frame.
package struct TextBlock {
    package var role: Scene.Role
    package var text: String
    package let layout: TextLayout
    /// Where the layout's origin goes, in output pixels.
    package var origin: Point
    package var fontSize: Double
    package var color: Color
    package var shadow: Canvas.Shadow?
    /// Blur radius in pixels (depth of field for lines away from the current one); 0 = sharp.
    package var blur: Double = 0
    /// For a karaoke line (the current line, its backing vocals): how far each character of
    /// `text` has been sung, from 0 to 1. Empty: drawn plain.
    package var sung: [Double] = []
    /// True when the text did not fit and was cut at a line end; it then fades out over the
    /// end of its last line (`fade`) instead of ending in an ellipsis.
    package var cut = false
    /// The lyric line (index into the timeline's lines) this block belongs to: the line itself, its
    /// translation, romanisation, backing vocals and readings; nil for captions and markers. A
    /// transition moves a line's blocks from where one frame has them to where the next does.
    package var line: Int? = nil

    /// Wrapped lines drawn.
    package var lines: Int { layout.lineCount }

    /// Where a cut block fades out: the last 1.25 em of its last line, at the line's end edge
    /// (the left one in right-to-left text).
    package var fade: Canvas.Fade? {
        guard cut, let last = layout.lineRects.last else { return nil }
        let width = min(1.25 * fontSize, last.width)
        let rtl = layout.isRightToLeft
        let x = rtl ? origin.x + last.minX : origin.x + last.maxX - width
        // Reach past the line's box so that ink overhanging it fades too: sideways and downwards,
        // and upwards only where no line stands above (the line above keeps its descenders).
        let pad = 0.3 * fontSize
        let above = layout.lineRects.count > 1 ? 0 : pad
        return Canvas.Fade(zone: Rect(x: rtl ? x - pad : x, y: origin.y + last.minY - above, width: width + pad,
                                      height: last.height + above + pad), towardsLeft: rtl)
    }

    /// The block's box in output pixels (what reports call its box): the logical box, grown to
    /// include any ink outside it.
    package var box: Rect {
        let r = layout.extentRect
        return Rect(x: origin.x + r.x, y: origin.y + r.y, width: r.width, height: r.height)
    }
}

extension Array where Element == TextBlock {
    /// The same blocks moved down by `dy` pixels.
    func shifted(by dy: Double) -> [TextBlock] {
        map { var b = $0; b.origin.y += dy; return b }
    }
}

/// Every text block of a frame, placed; plus the boxes the legibility pass needs.
package struct FrameLayout {
    package var blocks: [TextBlock]
    /// The current line (with its translation), or the interlude marker.
    package var focus: Rect?
    /// For classic rows: the rows' full extent, which gets the dark band.
    package var band: Rect?
    /// For a share card: the chosen lines did not fit the canvas whole even at the smallest size
    /// allowed (nothing is cut; the card is refused).
    package var overflow = false
    /// For a share card with a QR code: the square it fills, clear of every text block.
    package var qr: Rect?
    package var missingGlyphs: Int { blocks.reduce(0) { $0 + $1.layout.missingGlyphs } }
}
