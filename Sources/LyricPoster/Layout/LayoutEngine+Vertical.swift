import PosterGraphics

/// Vertical writing (縦書き): each lyric line a column (or several, when it is longer than the
/// region is tall) read top to bottom, lines right to left. The current line's column sits where
/// the eye expects the sung line, a little right of the region's middle; the lines before it stand
/// to its right and the lines after it to its left. A line's translation, romanisation and backing
/// vocals are smaller columns on its left (after it, in reading order); furigana run down the
/// right of the characters they read. Captions (title, artist) stay horizontal.
///
/// Lines are never cut: a line wraps into further columns, and a neighbour whose columns do not
/// fit is left out, as in horizontal text. Karaoke is not filled in columns: the sung line is
/// drawn whole in its colour.
extension LayoutEngine {
    /// Where the current line's column centre sits across the region (0 = left, 1 = right): the
    /// mirror of the horizontal anchor, since columns are read from the right.
    static let verticalAnchor = 0.55
    /// What a column with readings beside it adds to the column pitch, as a share of the size.
    static let rubyPitch = 0.6

    /// One lyric line as columns: blocks placed from x = 0 leftwards (every box's maxX ≤ 0) and
    /// from the region's top, and the width they take.
    struct ColumnGroup {
        var blocks: [TextBlock]
        var width: Double
        var isFocus: Bool
    }

    /// The columns of `line` in `area`, at `scale` of its size; `distance` from the current line
    /// fades it as in horizontal text.
    func columns(_ line: Scene.Line, area: Rect, distance: Int, scale: Double = 1) -> ColumnGroup {
        var look = look(for: line.role)
        let isCurrent = line.role == .current || line.role == .quote
        if line.voice == .duet, isCurrent || line.role == .previous || line.role == .next {
            look.color = palette.duet.withAlpha(look.color.alpha)
        }
        let fade = theme.opacityFalloff * Double(max(0, distance - 1))
        if distance > 0 { look.color = look.color.withAlpha(max(0.15, look.color.alpha - fade)) }
        look.size = (look.size * scale).rounded()
        look.maxLines = 64
        let length = area.height
        // Readings run down the right of the characters they read, in the space between columns:
        // a sung line with readings has its columns that much further apart.
        let readings = line.role == .current && !line.ruby.isEmpty
        let main = fit(line.text, look: look, language: line.language, width: length, alignment: .left, minScale: 1, vertical: true,
                       pitch: readings ? Self.lineHeight + Self.rubyPitch : Self.lineHeight)
        var blocks: [TextBlock] = []
        var mainBlock = column(main, role: line.role, text: line.text, look: look, right: 0, top: area.minY)
        mainBlock.line = line.lineIndex
        if readings {
            blocks += rubyColumns(line, beside: mainBlock, top: area.minY, bottom: area.maxY).map { var r = $0; r.line = line.lineIndex; return r }
        }
        blocks.insert(mainBlock, at: 0)
        var left = mainBlock.box.minX
        let subScale = (isCurrent ? 0.58 : 0.62) * theme.translationScale / 0.6
        for (text, role, share, opacity) in [(line.romanisation, Scene.Role.romanisation, 0.9, 0.9),
                                             (line.translation, .translation, 1.0, 1.0),
                                             (line.backing?.text, .background, 1.05, 0.85)] {
            guard let text, !text.isEmpty else { continue }
            var sub = self.look(for: role)
            sub.size = (look.size * subScale * share).rounded()
            sub.maxLines = 64
            sub.color = isCurrent ? currentColor.withAlpha(theme.translationOpacity * opacity)
                : palette.text.withAlpha(max(0.12, theme.neighbourOpacity * 0.76 * opacity - fade))
            let language = FontSetup.language(of: text, songLanguage: role == .background ? line.language : nil)
            let fitted = fit(text, look: sub, language: language, width: length, alignment: .left, minScale: 1, vertical: true)
            var block = column(fitted, role: role, text: text, look: sub, right: left - 0.25 * look.size, top: area.minY)
            block.line = line.lineIndex
            blocks.append(block)
            left = block.box.minX
        }
        return ColumnGroup(blocks: blocks, width: -left, isFocus: isCurrent || line.role == .interlude)
    }

    /// A vertical block whose box's right edge is at `right` and top at `top`.
    func column(_ fitted: Fitted, role: Scene.Role, text: String, look: Look, right: Double, top: Double) -> TextBlock {
        let extent = fitted.layout.extentRect
        return TextBlock(role: role, text: text, layout: fitted.layout, origin: Point(x: right - extent.maxX, y: top - extent.y),
                         fontSize: fitted.size, color: look.color, shadow: shadow(for: role))
    }

    /// Each reading of `line` as a small column to the right of the characters it reads in
    /// `block` (the current line, its columns set apart for them), centred on them; one that
    /// would overlap the one above it in its column or run past `bottom` is left out.
    func rubyColumns(_ line: Scene.Line, beside block: TextBlock, top: Double, bottom: Double) -> [TextBlock] {
        var rubyLook = look(for: .ruby)
        rubyLook.size = (rubyLook.size * block.fontSize / geometry.currentSize).rounded()
        rubyLook.maxLines = 1
        var blocks: [TextBlock] = []
        // How far down each column's readings reach, by the column's centre.
        var lowest: [Int: Double] = [:]
        for (mark, span) in readingSpans(line, in: block) {
            let fitted = fit(mark.text, look: rubyLook, language: line.language, width: bottom - top, alignment: .left,
                             minScale: 1, vertical: true)
            let height = fitted.layout.logicalRect.height
            let y = max(top, block.origin.y + span.midY - height / 2)
            let edge = Int(span.midX.rounded())
            guard y >= lowest[edge, default: -Double.infinity], y + height <= bottom else { continue }
            var ruby = column(fitted, role: .ruby, text: mark.text, look: rubyLook, right: 0, top: y)
            // Beside the characters' body (an em about their centre), not their logical box, which
            // is half as wide again.
            ruby.origin.x = block.origin.x + span.midX + 0.56 * block.fontSize - fitted.layout.extentRect.minX
            blocks.append(ruby)
            lowest[edge] = y + height
        }
        return blocks
    }

    /// The lyric lines of `scene` in columns in `area`.
    func verticalFlow(_ scene: Scene, area: Rect) -> (blocks: [TextBlock], focus: Rect?) {
        var lines = scene.lines
        if scene.state == .outro { lines.removeAll { $0.role == .interlude } }
        guard !lines.isEmpty else { return ([], nil) }
        let focusLine = lines.firstIndex { $0.role == .current || $0.role == .interlude } ?? lines.count - 1
        let lastFocus = lines.lastIndex { $0.role == .current || $0.role == .interlude } ?? focusLine
        func distance(_ index: Int) -> Int { index < focusLine ? focusLine - index : max(0, index - lastFocus) }
        let gap = 0.45 * geometry.neighbourSize
        // The current line (and lines sung with it) shrinks until its columns fit the region.
        var scale = 1.0
        var groups: [ColumnGroup] = []
        while true {
            groups = lines.enumerated().map { n, line in
                columns(line, area: area, distance: distance(n), scale: n >= focusLine && n <= lastFocus ? scale : 1)
            }
            let focusWidth = groups[focusLine...lastFocus].reduce(0) { $0 + $1.width } + gap * Double(lastFocus - focusLine)
            if focusWidth <= area.width || scale <= 0.5 { break }
            scale -= 0.05
        }
        // The focus, right to left, its centre at the anchor, kept inside the region.
        let focusWidth = groups[focusLine...lastFocus].reduce(0) { $0 + $1.width } + gap * Double(lastFocus - focusLine)
        var right = area.minX + area.width * Self.verticalAnchor + focusWidth / 2
        right = min(area.maxX, max(area.minX + focusWidth, right))
        var blocks: [TextBlock] = []
        var focusRect: Rect?
        var x = right
        for n in focusLine...lastFocus {
            blocks += groups[n].blocks.movedRight(by: x)
            let box = Rect(x: x - groups[n].width, y: area.minY, width: groups[n].width, height: area.height)
            focusRect = focusRect.map { $0.union(box) } ?? box
            x -= groups[n].width + gap
        }
        // Earlier lines to the right, nearest first; later lines to the left; each side stops at
        // the first line that does not fit.
        var edge = right
        for n in stride(from: focusLine - 1, through: 0, by: -1) {
            guard edge + gap + groups[n].width <= area.maxX + 0.5 else { break }
            edge += gap + groups[n].width
            blocks += groups[n].blocks.movedRight(by: edge)
        }
        edge = x + gap
        for n in (lastFocus + 1)..<lines.count {
            guard edge - gap - groups[n].width >= area.minX - 0.5 else { break }
            blocks += groups[n].blocks.movedRight(by: edge - gap)
            edge -= gap + groups[n].width
        }
        return (blocks, focusRect)
    }

    /// A share card's chosen lines in columns, right to left, centred across `area`; all shrink
    /// together until they fit, down to ``quoteFloor``. Returns the blocks, the stack's box and
    /// whether even the floor did not fit.
    func verticalQuote(_ scene: Scene, area: Rect) -> (blocks: [TextBlock], extent: Rect?, overflow: Bool) {
        let lines = scene.lines.filter { $0.role == .quote || $0.role == .ellipsis }
        guard !lines.isEmpty else { return ([], nil, false) }
        var scale = 1.0
        var groups: [ColumnGroup] = []
        var width = 0.0
        var overflow = false
        while true {
            groups = lines.map { columns($0, area: area, distance: 0, scale: scale) }
            let gap = 0.42 * geometry.currentSize * scale
            width = groups.reduce(0) { $0 + $1.width } + gap * Double(groups.count - 1)
            if width <= area.width + 0.5 { break }
            if scale - 0.05 < Self.quoteFloor - 1e-9 { overflow = true; break }
            scale -= 0.05
        }
        let gap = 0.42 * geometry.currentSize * scale
        var x = area.midX + width / 2
        var blocks: [TextBlock] = []
        for g in groups {
            blocks += g.blocks.movedRight(by: x)
            x -= g.width + gap
        }
        let extent = blocks.map(\.box).reduce(nil) { (r: Rect?, b) in r?.union(b) ?? b }
        return (blocks, extent, overflow)
    }
}

extension Array where Element == TextBlock {
    /// The same blocks moved right by `dx` pixels.
    func movedRight(by dx: Double) -> [TextBlock] {
        map { var b = $0; b.origin.x += dx; return b }
    }
}
