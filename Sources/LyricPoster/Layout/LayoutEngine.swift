import PosterGraphics

/// Places a scene's text on a canvas: wraps, balances and shrinks lines to fit their region,
/// stacks them around the anchor, and drops neighbours that do not fit rather than overlap.
///
/// Holds a `TextEngine`, so it is not thread-safe: one per thread.
public final class LayoutEngine {
    public let geometry: PosterGeometry
    public let text: TextEngine
    public let theme: Theme
    /// The text colours (scheme) chosen for the song's backdrop.
    public let palette: Palette
    /// The current line's colour (the theme's accent, resolved against the cover).
    public var currentColor: Color { palette.current }
    private var captionCache: (key: [String?], blocks: [TextBlock])?
    /// Fitted layouts by everything that shapes them: a line shown as "next", then "previous",
    /// then again in a repeated chorus is shaped once. Cleared when full, so memory stays bounded.
    private var fitCache: [FitKey: Fitted] = [:]
    private static let fitCacheLimit = 512
    /// Line pitch of every text block, as a multiple of its size, whatever the script.
    static let lineHeight = 1.3

    private struct FitKey: Hashable {
        var text: String
        var size: Double
        var weight: Int
        var maxLines: Int
        var maxHeight: Double
        var language: String?
        var width: Double
        var alignment: TextStyle.Alignment
        var minScale: Double
    }

    /// A shaped text at the size it fits: `cut` when even the smallest size allowed did not fit
    /// and the text was cut at the end of its last line that does.
    struct Fitted {
        var layout: TextLayout
        var size: Double
        var cut: Bool
    }

    public init(geometry: PosterGeometry, text: TextEngine, theme: Theme = .card, palette: Palette? = nil) {
        self.geometry = geometry
        self.text = text
        self.theme = theme
        self.palette = palette ?? Palette(text: theme.textColor, current: theme.accentColor)
    }

    /// Text styling per role.
    struct Look {
        var size: Double
        var weight: Int
        var color: Color
        var maxLines: Int
    }

    func look(for role: Scene.Role) -> Look {
        let g = geometry, t = theme, text = palette.text
        switch role {
        // The current line wraps as far as its room allows (the height limit is what binds).
        case .current: return Look(size: g.currentSize, weight: t.currentWeight, color: currentColor, maxLines: 64)
        case .previous, .next:
            return Look(size: g.neighbourSize, weight: t.neighbourWeight, color: text.withAlpha(t.neighbourOpacity), maxLines: 2)
        case .interlude: return Look(size: g.neighbourSize, weight: 700, color: text.withAlpha(0.85), maxLines: 1)
        case .translation:
            return Look(size: g.neighbourSize * t.translationScale, weight: 400, color: text.withAlpha(t.translationOpacity), maxLines: 2)
        case .title: return Look(size: g.titleSize, weight: 700, color: text, maxLines: 2)
        case .artist: return Look(size: g.artistSize, weight: 400, color: text.withAlpha(t.artistOpacity), maxLines: 1)
        case .elapsed, .total: return Look(size: g.artistSize * 0.8, weight: 400, color: text.withAlpha(0.7), maxLines: 1)
        }
    }

    /// True when the scene is a title card (intro or outro) and the theme has a title to show:
    /// the title and artist then take the lyrics' place, large, instead of the captions.
    func isTitleCard(_ scene: Scene) -> Bool {
        // Beside a header card the captions already are the title card.
        (scene.state == .intro || scene.state == .outro) && theme.showTitle && scene.title != nil && !geometry.captionCentred
    }

    /// Lays out `scene`.
    public func layout(_ scene: Scene) -> FrameLayout {
        let titleCard = isTitleCard(scene)
        var blocks = titleCard && geometry.layout != .classic ? [] : captions(scene)
        let lyric: (blocks: [TextBlock], focus: Rect?, band: Rect?)
        if geometry.layout == .classic {
            lyric = classicRows(scene)
        } else {
            let flowed = flow(scene, area: lyricsArea(below: titleCard ? [] : blocks))
            lyric = (flowed.blocks, flowed.focus, nil)
        }
        blocks += lyric.blocks
        blocks += progressLabels(scene)
        return FrameLayout(blocks: blocks, focus: lyric.focus, band: lyric.band)
    }

    /// The lyrics' region, moved down where the captions above it (a wrapped title) reach into it.
    func lyricsArea(below captions: [TextBlock]) -> Rect {
        var area = geometry.lyrics
        guard let caption = geometry.caption, caption.maxY <= area.minY + 1,
              let bottom = captions.map(\.box.maxY).max() else { return area }
        let top = bottom + 30 * geometry.unit
        if top > area.minY {
            area = Rect(x: area.x, y: top, width: area.width, height: max(0, area.maxY - top))
        }
        return area
    }

    // MARK: Fitting

    /// Shapes `text` in `width`: at full size if it fits in `maxLines` lines and `maxHeight`
    /// pixels, else shrunk step by step down to `minScale`, else cut after its last line that
    /// fits (at a line break, so at a word or grapheme boundary) and marked to fade out there;
    /// then re-wrapped at the narrowest width that keeps the same number of lines, so wrapped
    /// lines come out balanced (no lone last word).
    func fit(_ text: String, look: Look, language: String?, width: Double, alignment: TextStyle.Alignment,
             maxHeight: Double = .infinity, minScale: Double = 0.75) -> Fitted {
        let key = FitKey(text: text, size: look.size, weight: look.weight, maxLines: look.maxLines,
                         maxHeight: maxHeight.isFinite ? maxHeight.rounded() : -1, language: language,
                         width: width, alignment: alignment, minScale: minScale)
        if let cached = fitCache[key] { return cached }
        let fitted = shape(text, look: look, language: language, width: width, alignment: alignment,
                           maxHeight: maxHeight, minScale: minScale)
        if fitCache.count >= Self.fitCacheLimit { fitCache.removeAll(keepingCapacity: true) }
        fitCache[key] = fitted
        return fitted
    }

    private func shape(_ text: String, look: Look, language: String?, width: Double, alignment: TextStyle.Alignment,
                       maxHeight: Double, minScale: Double) -> Fitted {
        // Several paragraphs (a translation gathered from several same-stamp lines) become line
        // breaks inside one paragraph, so that the line limit applies to the whole block.
        let text = text.replacingOccurrences(of: "\n", with: "\u{2028}")
        let families = FontSetup.families(for: language, preferring: theme.fontFamily)
        func style(_ size: Double) -> TextStyle {
            TextStyle(families: families, size: size, weight: look.weight, language: language,
                      alignment: alignment, lineHeight: Self.lineHeight)
        }
        func fits(_ layout: TextLayout) -> Bool {
            layout.lineCount <= look.maxLines && layout.extentRect.height <= maxHeight + 0.5
        }
        var scale = 1.0
        while true {
            let size = (look.size * scale).rounded()
            let candidate = self.text.layout(text, style: style(size), width: width)
            // A word too long for the line is shrunk until it fits whole, as far as the floor
            // allows; only there does Pango break it (with a hyphen).
            if fits(candidate), !candidate.breaksInsideWord || scale - 0.04 < minScale {
                return Fitted(layout: balance(candidate, text: text, style: style(size), width: width), size: size, cut: false)
            }
            if scale - 0.04 < minScale { break }
            scale -= 0.04
        }
        // Cut: keep the lines that fit at the smallest size, ending at a line break.
        let size = (look.size * minScale).rounded()
        let whole = self.text.layout(text, style: style(size), width: width)
        let pitch = size * Self.lineHeight
        let byHeight = maxHeight.isFinite ? Int(max(0, (maxHeight + 0.5) / pitch)) : whole.lineCount
        let lines = max(1, min(look.maxLines, whole.lineCount, byHeight))
        let end = whole.byteOffset(afterLine: lines - 1)
        let bytes = Array(text.utf8.prefix(end))
        var kept = String(decoding: bytes, as: UTF8.self)
        while let last = kept.unicodeScalars.last, last.properties.isWhitespace || last == "\u{2028}" {
            kept.unicodeScalars.removeLast()
        }
        var cut = self.text.layout(kept, style: style(size), width: width)
        if cut.lineCount > lines {
            // Re-shaping the shorter text moved a break (rare): fall back to Pango's own cut.
            cut = self.text.layout(text, style: style(size), width: width, maxLines: lines)
        }
        return Fitted(layout: cut, size: size, cut: true)
    }

    private func balance(_ layout: TextLayout, text: String, style: TextStyle, width: Double) -> TextLayout {
        let lines = layout.lineCount
        guard lines > 1 else { return layout }
        var low = width / Double(lines) * 0.8, high = width
        var best = layout
        for _ in 0..<9 {
            let mid = ((low + high) / 2).rounded()
            let candidate = self.text.layout(text, style: style, width: mid)
            if candidate.lineCount <= lines {
                best = candidate
                high = mid
            } else {
                low = mid
            }
            if high - low < 4 { break }
        }
        return best
    }

    /// Places a fitted layout so that its box's top is at `top`, aligned inside `area`.
    private func place(_ fitted: Fitted, role: Scene.Role, text: String, look: Look,
                       area: Rect, top: Double, alignment: TextStyle.Alignment) -> TextBlock {
        let extent = fitted.layout.extentRect
        let layoutWidth = fitted.layout.width ?? fitted.layout.logicalRect.width
        let x: Double
        switch alignment {
        // Pango right-aligns right-to-left text in a "left" layout; keep it at the region's
        // starting edge, which for such text is the right one.
        case .left: x = fitted.layout.isRightToLeft ? area.maxX - layoutWidth : area.minX
        case .center: x = area.minX + (area.width - layoutWidth) / 2
        case .right: x = fitted.layout.isRightToLeft ? area.minX : area.maxX - layoutWidth
        }
        // Soft dark shadows lift light text; dark text on a light backdrop needs none.
        let shadow = (role == .current || role == .title) && palette.isDark && theme.shadowOpacity > 0 && theme.shadowRadius > 0
            ? Canvas.Shadow(color: Color.black.withAlpha(theme.shadowOpacity), radius: Int((theme.shadowRadius * geometry.unit).rounded()),
                            offset: Point(x: 0, y: 3 * geometry.unit))
            : nil
        var block = TextBlock(role: role, text: text, layout: fitted.layout, origin: Point(x: x, y: top - extent.y),
                              fontSize: fitted.size, color: look.color, shadow: shadow)
        block.cut = fitted.cut
        return block
    }

    // MARK: Progress

    /// Elapsed and total time above the progress bar's track, at its two ends.
    func progressLabels(_ scene: Scene) -> [TextBlock] {
        guard let bar = geometry.progress, let duration = scene.duration, duration.milliseconds > 0 else { return [] }
        func clock(_ ms: Int) -> String {
            let s = max(0, ms) / 1000
            return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
        }
        let top = bar.minY
        let area = Rect(x: bar.minX, y: top, width: bar.width, height: bar.height)
        return [(Scene.Role.elapsed, clock(min(scene.time.milliseconds, duration.milliseconds)), TextStyle.Alignment.left),
                (.total, clock(duration.milliseconds), .right)].map { role, text, alignment in
            let look = look(for: role)
            let fitted = fit(text, look: look, language: nil, width: bar.width / 2, alignment: alignment)
            var block = place(fitted, role: role, text: text, look: look, area: area, top: top, alignment: alignment)
            if alignment == .right { block.origin.x = bar.maxX - bar.width / 2 }
            return block
        }
    }

    // MARK: Captions

    func captions(_ scene: Scene) -> [TextBlock] {
        guard let area = geometry.caption else { return [] }
        let key = [scene.title, scene.artist, scene.album, scene.language]
        if let cache = captionCache, cache.key == key { return cache.blocks }
        let blocks = captionBlocks(title: scene.title, byline: byline(scene), language: scene.language, area: area,
                                   alignment: geometry.captionAlignment, centred: geometry.captionCentred,
                                   titleLook: look(for: .title), artistLook: look(for: .artist))
        captionCache = (key, blocks)
        return blocks
    }

    /// "artist — album", as the theme shows them.
    func byline(_ scene: Scene) -> String? {
        let parts = [theme.showArtist ? scene.artist : nil, theme.showAlbum ? scene.album : nil].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " — ")
    }

    /// The title (wrapped to two lines before it shrinks, never smaller than the artist line) and
    /// the byline under it, hanging from the top of `area` or centred in it.
    private func captionBlocks(title: String?, byline: String?, language: String?, area: Rect,
                               alignment: TextStyle.Alignment, centred: Bool, titleLook: Look, artistLook: Look) -> [TextBlock] {
        var fitted: [(Scene.Role, String, Fitted, Look)] = []
        if let title, theme.showTitle {
            let floor = min(1, max(0.7, artistLook.size / titleLook.size))
            let language = FontSetup.language(of: title, songLanguage: language)
            var fitted1 = fit(title, look: titleLook, language: language, width: area.width, alignment: alignment, minScale: floor)
            if fitted1.cut {
                // Two lines at the smallest size were not enough: a third line before any cut.
                var three = titleLook
                three.maxLines = titleLook.maxLines + 1
                fitted1 = fit(title, look: three, language: language, width: area.width, alignment: alignment, minScale: floor)
            }
            fitted.append((.title, title, fitted1, titleLook))
        }
        if let byline {
            fitted.append((.artist, byline, fit(byline, look: artistLook, language: FontSetup.language(of: byline, songLanguage: language),
                                                width: area.width, alignment: alignment, minScale: 0.8), artistLook))
        }
        let gap = 0.3 * artistLook.size
        let total = fitted.reduce(0) { $0 + $1.2.layout.extentRect.height } + gap * Double(max(0, fitted.count - 1))
        // Beside a card the captions are centred on it; elsewhere they hang from the top.
        var y = centred ? area.midY - total / 2 : area.minY
        var blocks: [TextBlock] = []
        for (role, text, fit, look) in fitted {
            blocks.append(place(fit, role: role, text: text, look: look, area: area, top: y, alignment: alignment))
            y += fit.layout.extentRect.height + gap
        }
        return blocks
    }

    // MARK: Flowing lyrics

    private struct Group {
        var blocks: [TextBlock]
        var height: Double
        var isFocus: Bool
    }

    private func group(_ line: Scene.Line, area: Rect, distance: Int) -> Group {
        let alignment = geometry.lyricsAlignment
        var mainLook = look(for: line.role)
        // Lines further from the current one fade (and, with depth blur, soften) step by step.
        let fade = theme.opacityFalloff * Double(max(0, distance - 1))
        if distance > 0 { mainLook.color = mainLook.color.withAlpha(max(0.15, mainLook.color.alpha - fade)) }
        let blur = theme.depthBlur * Double(distance) * geometry.unit
        let isCurrent = line.role == .current
        // The current line gets the whole region first; a neighbour at most a third of it.
        let main = fit(line.text, look: mainLook, language: line.language, width: area.width, alignment: alignment,
                       maxHeight: isCurrent ? area.height : area.height / 3, minScale: isCurrent ? 0.75 : 1)
        var blocks = [place(main, role: line.role, text: line.text, look: mainLook, area: area, top: 0, alignment: alignment)]
        var height = main.layout.extentRect.height
        if let translation = line.translation, !translation.isEmpty {
            var tLook = look(for: .translation)
            // Sub-lines: about 0.6 of their line's size (a touch smaller under the larger current line).
            tLook.size = mainLook.size * (isCurrent ? 0.58 : 0.62) * theme.translationScale / 0.6
            if !isCurrent {
                tLook.color = palette.text.withAlpha(max(0.12, theme.neighbourOpacity * 0.76 - fade))
            } else {
                // Under the current line, its translation takes the line's own colour, a step quieter.
                tLook.color = currentColor.withAlpha(theme.translationOpacity)
                tLook.maxLines = 3
            }
            let language = FontSetup.language(of: translation, songLanguage: nil)
            let gap = 0.22 * mainLook.size
            // What the line leaves of the region; a translation with no room for a line is left out.
            let room = isCurrent ? area.height - height - gap : area.height / 3
            if room >= tLook.size * Self.lineHeight * 0.75 {
                let t = fit(translation, look: tLook, language: language, width: area.width, alignment: alignment,
                            maxHeight: room, minScale: isCurrent ? 0.8 : 1)
                blocks.append(place(t, role: .translation, text: translation, look: tLook, area: area,
                                    top: height + gap, alignment: alignment))
                height += gap + t.layout.extentRect.height
            }
        }
        if blur > 0 { for i in blocks.indices { blocks[i].blur = blur } }
        return Group(blocks: blocks, height: height, isFocus: line.role == .current || line.role == .interlude)
    }

    /// The intro's and outro's centre piece: the title large, the artist line under it.
    private func titleCardGroup(_ scene: Scene, area: Rect) -> Group? {
        guard let title = scene.title else { return nil }
        var titleLook = look(for: .title)
        titleLook.size = max(geometry.currentSize * 1.1, geometry.titleSize)
        titleLook.maxLines = 5
        var artistLook = look(for: .artist)
        artistLook.size = max(geometry.neighbourSize * 0.8, geometry.artistSize)
        let blocks = captionBlocks(title: title, byline: byline(scene), language: scene.language, area: area,
                                   alignment: geometry.lyricsAlignment, centred: false, titleLook: titleLook, artistLook: artistLook)
        guard let first = blocks.first else { return nil }
        let top = first.box.minY
        let shifted = blocks.map { var b = $0; b.origin.y -= top; return b }
        let height = (blocks.map(\.box.maxY).max() ?? top) - top
        return Group(blocks: shifted, height: height, isFocus: true)
    }

    private func flow(_ scene: Scene, area: Rect) -> (blocks: [TextBlock], focus: Rect?) {
        let gap = 0.55 * geometry.neighbourSize
        var lines = scene.lines
        // After the last line there is nothing more to come: no interlude marker.
        if scene.state == .outro { lines.removeAll { $0.role == .interlude } }
        let focusLine = lines.firstIndex { $0.role == .current || $0.role == .interlude } ?? max(0, lines.count - 1)
        var groups = lines.enumerated().map { group($0.element, area: area, distance: abs($0.offset - focusLine)) }
        if isTitleCard(scene), let card = titleCardGroup(scene, area: area) {
            // The title card takes the marker's place (the intro) or closes the song (the outro).
            if scene.state == .intro, let marker = groups.firstIndex(where: \.isFocus) {
                groups[marker] = card
            } else {
                groups.append(card)
            }
        } else if !groups.contains(where: \.isFocus), !groups.isEmpty {
            groups[groups.count - 1].isFocus = true
        }
        guard let focusIndex = groups.lastIndex(where: \.isFocus) else { return ([], nil) }
        let focus = groups[focusIndex]
        // Which neighbours fit: nearest first, taking turns above and below, so that a tall
        // neighbour on one side does not empty it while the other side keeps far lines.
        var first = focusIndex, last = focusIndex
        var used = focus.height
        var canAbove = focusIndex > 0, canBelow = focusIndex + 1 < groups.count
        var turnAbove = true
        while canAbove || canBelow {
            let above = turnAbove ? canAbove : !canBelow
            let index = above ? first - 1 : last + 1
            if used + gap + groups[index].height <= area.height {
                used += gap + groups[index].height
                if above { first = index } else { last = index }
            } else if above { canAbove = false } else { canBelow = false }
            if first == 0 { canAbove = false }
            if last == groups.count - 1 { canBelow = false }
            turnAbove.toggle()
        }
        let above = groups[first..<focusIndex].reduce(0) { $0 + $1.height + gap }
        let below = groups[(focusIndex + 1)..<(last + 1)].reduce(0) { $0 + $1.height + gap }
        // The focus at its anchor, slid as far as needed for the chosen lines to fit; with nothing
        // on one side (the first line, the outro) the block is centred instead of leaving a hole.
        var top = area.minY + area.height * geometry.anchor - focus.height / 2
        // With nothing on one side (the first line, the last, the outro) the block moves towards
        // that side rather than leaving a hole there.
        let inset = 0.06 * area.height
        if first == focusIndex, last == focusIndex {
            top = min(top, area.midY - focus.height / 2)
        } else if first == focusIndex {
            top = min(top, area.minY + inset)
        } else if last == focusIndex {
            top = max(top, area.maxY - inset - focus.height)
        }
        top = min(max(top, area.minY + above), area.maxY - focus.height - below)
        top = min(max(top, area.minY), max(area.minY, area.maxY - focus.height))

        func shifted(_ g: Group, to y: Double) -> [TextBlock] {
            g.blocks.map { var b = $0; b.origin.y += y; return b }
        }
        var blocks = shifted(focus, to: top)
        let focusRect = Rect(x: area.minX, y: top, width: area.width, height: focus.height)
        var y = top
        for g in groups[first..<focusIndex].reversed() {
            y -= gap + g.height
            blocks += shifted(g, to: y)
        }
        y = top + focus.height
        for g in groups[(focusIndex + 1)..<(last + 1)] {
            blocks += shifted(g, to: y + gap)
            y += gap + g.height
        }
        return (blocks, focusRect)
    }

    // MARK: Classic rows

    /// The original table: one row per line, on dark bands, the current line in its fixed row.
    /// Sizes are fixed for the whole song (current ≥ 1.2× its neighbours); a long line wraps and
    /// its row grows rather than its text shrinking; rows grow outwards from the current row.
    private func classicRows(_ scene: Scene) -> (blocks: [TextBlock], focus: Rect?, band: Rect?) {
        let nominal = geometry.rows
        guard let focusLine = scene.lines.firstIndex(where: { $0.role == .current || $0.role == .interlude }),
              nominal.indices.contains(geometry.focusRow) else { return ([], nil, nil) }
        let u = geometry.unit
        let inset = geometry.lyrics.minX
        let width = geometry.lyrics.width
        let pad = 7 * u
        // Rows may spread from the canvas's top safe edge to the bottom limit of the table.
        let limitTop = geometry.classicTop, limitBottom = geometry.classicBottom
        struct Row { var blocks: [TextBlock]; var height: Double; var isFocus: Bool }
        func row(_ line: Scene.Line) -> Row {
            var line = line
            if line.role == .interlude, scene.state != .interlude, let title = scene.title {
                // The intro's and outro's row: the title, with the artist line under it.
                line.text = title
                line.translation = byline(scene)
            }
            var mainLook = look(for: line.role)
            let isCurrent = line.role == .current || line.role == .interlude
            mainLook.size = isCurrent ? geometry.currentSize : geometry.neighbourSize
            mainLook.maxLines = isCurrent ? 8 : 2
            if line.role == .interlude { mainLook.color = currentColor }
            let area = Rect(x: inset, y: 0, width: width, height: 0)
            let main = fit(line.text, look: mainLook, language: line.language, width: width, alignment: .center,
                           maxHeight: (limitBottom - limitTop) / 2, minScale: 1)
            var blocks = [place(main, role: line.role, text: line.text, look: mainLook, area: area, top: 0, alignment: .center)]
            var height = main.layout.extentRect.height
            if let translation = line.translation, !translation.isEmpty {
                var tLook = look(for: .translation)
                tLook.size = geometry.translationSize
                tLook.maxLines = isCurrent ? 2 : 1
                tLook.color = isCurrent ? currentColor.withAlpha(0.8) : palette.text.withAlpha(0.6)
                let t = fit(translation, look: tLook, language: FontSetup.language(of: translation, songLanguage: nil),
                            width: width, alignment: .center, minScale: 1)
                blocks.append(place(t, role: .translation, text: translation, look: tLook, area: area,
                                    top: height + 2 * u, alignment: .center))
                height += 2 * u + t.layout.extentRect.height
            }
            return Row(blocks: blocks, height: height, isFocus: isCurrent)
        }
        let rows = scene.lines.map(row)
        let nominalHeight = nominal[geometry.focusRow].height
        func rowHeight(_ r: Row) -> Double { max(nominalHeight, r.height + 2 * pad) }
        let focus = rows[focusLine]
        // The current row keeps its nominal centre, moved up only as far as a tall row needs.
        var focusTop = nominal[geometry.focusRow].midY - rowHeight(focus) / 2
        focusTop = min(focusTop, limitBottom - rowHeight(focus))
        var placed: [(Row, Double)] = [(focus, focusTop)]
        var y = focusTop
        for r in rows[..<focusLine].reversed() {
            let top = y - rowHeight(r)
            guard top >= limitTop else { break }
            placed.append((r, top))
            y = top
        }
        y = focusTop + rowHeight(focus)
        for r in rows[(focusLine + 1)...] {
            guard y + rowHeight(r) <= limitBottom else { break }
            placed.append((r, y))
            y += rowHeight(r)
        }
        var blocks: [TextBlock] = []
        var focusRect: Rect?
        // The band covers at least the original table, so that it does not jump with every line.
        var band: Rect? = nominal.dropFirst().reduce(nominal[0]) { $0.union($1) }
        for (r, top) in placed {
            let rect = Rect(x: 0, y: top, width: Double(geometry.preset.width), height: rowHeight(r))
            band = band?.union(rect) ?? rect
            let offset = top + (rect.height - r.height) / 2
            blocks += r.blocks.map { var b = $0; b.origin.y += offset; return b }
            if r.isFocus { focusRect = rect }
        }
        return (blocks, focusRect, band)
    }
}
