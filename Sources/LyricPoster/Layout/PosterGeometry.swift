import PosterGraphics

/// Where things go on a canvas of a given preset: the regions and type sizes of its arrangement.
/// Everything scales with `unit` (1.0 on a 1080-pixel side).
public struct PosterGeometry: Hashable, Sendable {
    public var preset: Preset
    public var unit: Double
    /// The sharp cover card, if the arrangement shows one.
    public var card: Rect?
    public var cardRadius: Double
    /// Title and artist captions, if the arrangement has room.
    public var caption: Rect?
    public var captionAlignment: TextStyle.Alignment
    /// Where lyric lines go.
    public var lyrics: Rect
    public var lyricsAlignment: TextStyle.Alignment
    /// Where the current line's vertical centre sits inside `lyrics` (0 = top, 1 = bottom).
    public var anchor: Double
    public var currentSize: Double
    public var neighbourSize: Double
    public var titleSize: Double
    public var artistSize: Double
    /// For `classic`: the fixed rows of the three-row table.
    public var rows: [Rect]
    /// For `classic`: the row the current line always takes.
    public var focusRow: Int

    public init(preset: Preset, before: Int, after: Int) {
        let w = Double(preset.width), h = Double(preset.height)
        self.preset = preset
        rows = []
        focusRow = 0
        cardRadius = 0
        captionAlignment = .center
        lyricsAlignment = .center
        anchor = 0.45
        switch preset.arrangement {
        case .stack:
            let u = w / 1080
            unit = u
            let margin = 80 * u
            let side = min(w * 0.58, h * 0.31)
            let cardRect = Rect(x: (w - side) / 2, y: h * 0.085, width: side, height: side)
            card = cardRect
            cardRadius = 28 * u
            let captionRect = Rect(x: margin, y: cardRect.maxY + 44 * u, width: w - 2 * margin, height: 130 * u)
            caption = captionRect
            lyrics = Rect(x: margin, y: captionRect.maxY + 40 * u, width: w - 2 * margin,
                          height: h - 110 * u - (captionRect.maxY + 40 * u))
            currentSize = 64 * u
            neighbourSize = 46 * u
            titleSize = 50 * u
            artistSize = 30 * u
        case .header:
            let u = min(w, h) / 1080
            unit = u
            let margin = 72 * u
            let side = 0.27 * min(w, h)
            let cardRect = Rect(x: margin, y: margin, width: side, height: side)
            card = cardRect
            cardRadius = 20 * u
            let x = cardRect.maxX + 44 * u
            caption = Rect(x: x, y: margin, width: w - x - margin, height: side)
            captionAlignment = .left
            let top = cardRect.maxY + 56 * u
            lyrics = Rect(x: margin, y: top, width: w - 2 * margin, height: h - 80 * u - top)
            currentSize = 58 * u
            neighbourSize = 42 * u
            titleSize = 48 * u
            artistSize = 28 * u
        case .split:
            let u = h / 1080
            unit = u
            let column = w * 0.45
            let side = min(h * 0.56, w * 0.3)
            let cardRect = Rect(x: (column - side) / 2, y: (h - side - 150 * u) / 2, width: side, height: side)
            card = cardRect
            cardRadius = 24 * u
            caption = Rect(x: cardRect.minX - 40 * u, y: cardRect.maxY + 36 * u, width: side + 80 * u, height: 120 * u)
            let left = w * 0.47
            lyrics = Rect(x: left, y: 100 * u, width: w - 110 * u - left, height: h - 200 * u)
            lyricsAlignment = .left
            currentSize = 60 * u
            neighbourSize = 44 * u
            titleSize = 44 * u
            artistSize = 28 * u
        case .classic:
            // The original: rows 44 px high on a 480×800 canvas, the three-row table starting at
            // y = 800 − 44·7 + 20 = 512. More rows grow the table upwards from the same bottom.
            let u = w / 480
            unit = u
            card = nil
            caption = nil
            let rowHeight = 44 * u
            let bottom = (512 + 3 * 44) * (h / 800)
            // As many rows as asked for, up to what fits above the table's bottom; when fewer fit,
            // the side with more rows gives them up first.
            var shownBefore = max(0, before), shownAfter = max(0, after)
            let fitting = max(1, Int(bottom / rowHeight))
            while shownBefore + 1 + shownAfter > fitting {
                if shownBefore >= shownAfter { shownBefore -= 1 } else { shownAfter -= 1 }
            }
            let count = shownBefore + 1 + shownAfter
            let top = bottom - Double(count) * rowHeight
            focusRow = shownBefore
            rows = (0..<count).map { Rect(x: 0, y: top + Double($0) * rowHeight, width: w, height: rowHeight) }
            lyrics = Rect(x: 12 * u, y: top, width: w - 24 * u, height: bottom - top)
            currentSize = 19 * u
            neighbourSize = 16 * u
            titleSize = 16 * u
            artistSize = 13 * u
        }
    }
}
