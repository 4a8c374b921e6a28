import PosterGraphics

/// Where things go on a canvas: the regions and type sizes of a theme's layout at a preset's
/// size. Everything scales with `unit` (1.0 on a 1080-pixel side).
package struct PosterGeometry: Hashable, Sendable {
    package var preset: Preset
    /// The layout in effect: the theme's, except that the `classic` preset always uses rows.
    package var layout: Theme.Layout
    package var unit: Double
    /// The sharp cover card, if the layout shows one.
    package var card: Rect?
    package var cardRadius: Double
    /// Title and artist captions, if the layout has room.
    package var caption: Rect?
    package var captionAlignment: TextStyle.Alignment
    /// Captions hang from the top of `caption`, or are centred in it.
    package var captionCentred: Bool
    /// Where lyric lines go.
    package var lyrics: Rect
    package var lyricsAlignment: TextStyle.Alignment
    /// Where the current line's vertical centre sits inside `lyrics` (0 = top, 1 = bottom).
    package var anchor: Double
    /// The progress bar with elapsed and total time, if the theme shows one.
    package var progress: Rect?
    package var currentSize: Double
    package var neighbourSize: Double
    package var titleSize: Double
    package var artistSize: Double
    /// For `classic`: the fixed rows of the three-row table.
    package var rows: [Rect]
    /// For `classic`: the row the current line always takes.
    package var focusRow: Int
    /// For `classic`: translation size, and how far up and down rows may grow.
    package var translationSize: Double
    package var classicTop: Double
    package var classicBottom: Double

    package init(preset: Preset, before: Int, after: Int, theme: Theme = .card) {
        if let safe = preset.safeArea {
            // Laid out as a canvas of the safe area's size and shape, then placed inside it; the
            // background still covers the whole canvas.
            let inside = safe.rect(width: Double(preset.width), height: Double(preset.height))
            var inner = PosterGeometry(preset: Preset(name: preset.name, width: Int(inside.width), height: Int(inside.height)),
                                       before: before, after: after, theme: theme)
            inner.move(by: Point(x: inside.x, y: inside.y))
            inner.preset = preset
            self = inner
            return
        }
        let w = Double(preset.width), h = Double(preset.height)
        self.preset = preset
        layout = theme.layout
        // The classic preset is the original's canvas: the classic theme keeps its table there,
        // and every other theme its own look, arranged as any tall canvas.
        var arrangement = preset.arrangement
        if arrangement == .classic, theme.layout != .classic { arrangement = .stack }
        rows = []
        focusRow = 0
        translationSize = 0
        classicTop = 0
        classicBottom = h
        card = nil
        caption = nil
        progress = nil
        cardRadius = 0
        captionAlignment = .center
        captionCentred = false
        lyricsAlignment = .center
        anchor = 0.45
        // Type sizes per arrangement, as shares of the theme's sizes (tuned on the card theme).
        let scale: (current: Double, neighbour: Double, title: Double, artist: Double)
        switch arrangement {
        case .stack, .classic: scale = (1, 1, 1, 1)
        case .header: scale = (58.0 / 64, 42.0 / 46, 48.0 / 50, 28.0 / 30)
        case .split: scale = (60.0 / 64, 44.0 / 46, 44.0 / 50, 28.0 / 30)
        }
        let u = arrangement == .split ? h / 1080 : arrangement == .stack || arrangement == .classic ? w / 1080 : min(w, h) / 1080
        unit = u
        currentSize = theme.currentSize * scale.current * u
        neighbourSize = theme.neighbourSize * scale.neighbour * u
        titleSize = theme.titleSize * scale.title * u
        artistSize = theme.artistSize * scale.artist * u
        // Lock screens: nothing under the clock, nothing in the side crop.
        let safeTop = preset.isLockScreen ? h * Preset.lockScreenClockShare : 0
        let margin = max(theme.margin * u, preset.isLockScreen ? w * Preset.lockScreenSideShare : 0)
        let progressHeight = theme.showProgress ? 70 * u : 0
        func progressBar(bottom: Double, left: Double, right: Double) -> Rect? {
            theme.showProgress ? Rect(x: left, y: bottom - 44 * u, width: right - left, height: 44 * u) : nil
        }

        switch layout {
        case .classic:
            // The original: rows 44 px high on a 480×800 canvas, the three-row table starting at
            // y = 800 − 44·7 + 20 = 512. More rows grow the table upwards from the same bottom.
            // The table scales with the canvas; on a wide canvas it keeps readable type rather
            // than shrinking to the height's share of the portrait original.
            let u = max(min(w / 480, h / 800), min(w, h) / 600)
            unit = u
            let rowHeight = 44 * u
            let bottom = (512 + 3 * 44) * (h / 800)
            // As many rows as asked for, up to what fits above the table's bottom; when fewer fit,
            // the side with more rows gives them up first.
            var shownBefore = max(0, before), shownAfter = max(0, after)
            classicTop = max(safeTop, 12 * u)
            let fitting = max(1, Int((bottom - classicTop) / rowHeight))
            while shownBefore + 1 + shownAfter > fitting {
                if shownBefore >= shownAfter { shownBefore -= 1 } else { shownAfter -= 1 }
            }
            let count = shownBefore + 1 + shownAfter
            let top = bottom - Double(count) * rowHeight
            focusRow = shownBefore
            rows = (0..<count).map { Rect(x: 0, y: top + Double($0) * rowHeight, width: w, height: rowHeight) }
            // Rows grow (wrapped lines, translations) down to the foot of the canvas at most.
            classicBottom = min(h - 12 * u, bottom + 2 * rowHeight)
            // A readable measure on wide canvases: the table is at most about 0.9× the height wide.
            let side = max(0.06 * w, preset.isLockScreen ? w * Preset.lockScreenSideShare : 0, (w - 0.9 * h) / 2)
            lyrics = Rect(x: side, y: top, width: w - 2 * side, height: bottom - top)
            // The original set its lyrics at about 17 px; the current line a clear step larger.
            currentSize = 21 * u
            neighbourSize = 17 * u
            translationSize = 13 * u
            titleSize = 16 * u
            artistSize = 13 * u
            progress = progressBar(bottom: min(h - 12 * u, bottom + 60 * u), left: 24 * u, right: w - 24 * u)

        case .card:
            switch arrangement {
            case .stack, .classic:
                let side = preset.isLockScreen ? min(w * 0.46, h * 0.25) : min(w * 0.58, h * 0.31)
                let cardRect = Rect(x: (w - side) / 2, y: max(h * 0.085, safeTop + 10 * u), width: side, height: side)
                card = cardRect
                cardRadius = theme.cardRadius * u
                let captionRect = Rect(x: margin, y: cardRect.maxY + 40 * u, width: w - 2 * margin, height: 120 * u)
                caption = captionRect
                let bottom = h - 110 * u
                lyrics = Rect(x: margin, y: captionRect.maxY + 40 * u, width: w - 2 * margin,
                              height: bottom - progressHeight - (captionRect.maxY + 40 * u))
                progress = progressBar(bottom: bottom + 20 * u, left: margin, right: w - margin)
            case .header:
                let m = theme.margin * 0.9 * u
                let side = 0.27 * min(w, h)
                let cardRect = Rect(x: m, y: m, width: side, height: side)
                card = cardRect
                cardRadius = theme.cardRadius * 0.72 * u
                let x = cardRect.maxX + 44 * u
                caption = Rect(x: x, y: m, width: w - x - m, height: side)
                captionAlignment = .left
                captionCentred = true
                let top = cardRect.maxY + 56 * u
                lyrics = Rect(x: m, y: top, width: w - 2 * m, height: h - 80 * u - progressHeight - top)
                progress = progressBar(bottom: h - 30 * u, left: m, right: w - m)
            case .split:
                let side = min(h * 0.56, w * 0.3)
                // The card's column is no wider than the card needs (on a banner the lyrics take
                // the rest, rather than leaving a wide gap beside the card).
                let column = min(w * 0.45, 1.5 * side)
                let cardRect = Rect(x: (column - side) / 2, y: (h - side - 150 * u) / 2, width: side, height: side)
                card = cardRect
                cardRadius = theme.cardRadius * 0.86 * u
                caption = Rect(x: cardRect.minX - 40 * u, y: cardRect.maxY + 36 * u, width: side + 80 * u, height: 120 * u)
                let left = column + w * 0.02
                lyrics = Rect(x: left, y: 100 * u, width: w - 110 * u - left, height: h - 200 * u - progressHeight)
                lyricsAlignment = .left
                progress = progressBar(bottom: h - 70 * u, left: left, right: w - 110 * u)
                sizeLyrics(fromColumn: lyrics, theme: theme, scale: scale, unit: u)
            }

        case .immersive:
            // Captions in the top corner, the lyrics over the lower part of the full-bleed cover.
            captionAlignment = .left
            lyricsAlignment = .left
            caption = Rect(x: margin, y: max(margin, safeTop), width: w - 2 * margin, height: 140 * u)
            anchor = 0.52
            let bottom = h - max(margin, 80 * u)
            switch arrangement {
            case .split:
                // The lyrics' column runs to the right margin, as the captions do; the progress
                // bar spans the same column.
                lyrics = Rect(x: margin, y: h * 0.3, width: w - 2 * margin, height: bottom - progressHeight - h * 0.3)
                progress = progressBar(bottom: bottom, left: margin, right: w - margin)
                sizeLyrics(fromColumn: lyrics, theme: theme, scale: scale, unit: u)
            default:
                let top = arrangement == .stack ? max(h * 0.42, safeTop + 200 * u) : h * 0.3
                lyrics = Rect(x: margin, y: top, width: w - 2 * margin, height: bottom - progressHeight - top)
                progress = progressBar(bottom: bottom, left: margin, right: w - margin)
            }

        case .minimal:
            // The current line alone in the middle; a small caption at the foot.
            let captionHeight = 100 * u
            caption = Rect(x: margin, y: h - margin - captionHeight, width: w - 2 * margin, height: captionHeight)
            let top = max(margin, safeTop)
            lyrics = Rect(x: margin, y: top, width: w - 2 * margin, height: h - margin - top - captionHeight - 40 * u - progressHeight)
            anchor = 0.5
            progress = progressBar(bottom: h - margin - captionHeight - 20 * u, left: margin, right: w - margin)
            if arrangement == .split { sizeLyrics(fromColumn: lyrics, theme: theme, scale: scale, unit: u) }
        case .block:
            // A header (the cover small, the title and artist beside it) under the lock screen's
            // clock, then the lyrics, left-aligned, in generous margins (8 % of the width; of the
            // height on wide canvases, where 8 % of the width would eat a banner's lyrics).
            let m = arrangement == .split ? max(0.08 * h, theme.margin * u)
                : max(0.08 * w, theme.margin * u, preset.isLockScreen ? w * Preset.lockScreenSideShare : 0)
            let top = max(m, safeTop + 20 * u)
            let side = 150 * u
            let cardRect = Rect(x: m, y: top, width: side, height: side)
            card = cardRect
            cardRadius = theme.cardRadius * u
            caption = Rect(x: cardRect.maxX + 32 * u, y: top, width: w - cardRect.maxX - 32 * u - m, height: side)
            captionAlignment = .left
            captionCentred = true
            lyricsAlignment = .left
            let lyricsTop = cardRect.maxY + 70 * u
            let bottom = h - max(m, 80 * u)
            lyrics = Rect(x: m, y: lyricsTop, width: w - 2 * m, height: bottom - progressHeight - lyricsTop)
            anchor = 0.38
            progress = progressBar(bottom: bottom, left: m, right: w - m)
            if arrangement == .split { sizeLyrics(fromColumn: lyrics, theme: theme, scale: scale, unit: u) }
        }
        switch theme.alignment {
        case .auto: break
        case .left: lyricsAlignment = .left
        case .center: lyricsAlignment = .center
        case .right: lyricsAlignment = .right
        }
    }

    /// Every region moved by `offset`.
    mutating func move(by offset: Point) {
        func moved(_ r: Rect) -> Rect { Rect(x: r.x + offset.x, y: r.y + offset.y, width: r.width, height: r.height) }
        card = card.map(moved)
        caption = caption.map(moved)
        lyrics = moved(lyrics)
        progress = progress.map(moved)
        rows = rows.map(moved)
        classicTop += offset.y
        classicBottom += offset.y
    }

    /// The lyric column of a 16:9 landscape canvas (the card layout's), in pixels on a 1080-pixel
    /// side: lyric type is sized for it.
    static let referenceColumn = (width: 908.4, height: 880.0)

    /// Lyric type on wide canvases sized from the lyric column rather than the short side: by the
    /// square root of the column's area against the landscape preset's column (so 1920×1080 keeps
    /// its sizes, and a 1600×400 banner gets type for its 1190-pixel column, not its 400-pixel
    /// height). Never smaller than the short side gives.
    mutating func sizeLyrics(fromColumn column: Rect, theme: Theme, scale: (current: Double, neighbour: Double, title: Double, artist: Double),
                             unit u: Double) {
        let area = max(0, column.width) * max(0, column.height)
        let byColumn = (area / (Self.referenceColumn.width * Self.referenceColumn.height)).squareRoot()
        let textUnit = max(u, byColumn)
        currentSize = theme.currentSize * scale.current * textUnit
        neighbourSize = theme.neighbourSize * scale.neighbour * textUnit
    }
}
