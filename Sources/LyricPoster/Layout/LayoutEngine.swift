import PosterGraphics

/// Places a scene's text on a canvas: wraps, balances and shrinks lines to fit their region,
/// stacks them around the anchor, and drops neighbours that do not fit rather than overlap.
///
/// Holds a `TextEngine`, so it is not thread-safe: one per thread.
public final class LayoutEngine {
    public let geometry: PosterGeometry
    public let text: TextEngine
    public let theme: Theme
    /// The current line's colour (the theme's accent, resolved against the cover).
    public let currentColor: Color
    private var captionCache: (key: [String?], blocks: [TextBlock])?
    /// Fitted layouts by everything that shapes them: a line shown as "next", then "previous",
    /// then again in a repeated chorus is shaped once. Cleared when full, so memory stays bounded.
    private var fitCache: [FitKey: (layout: TextLayout, size: Double)] = [:]
    private static let fitCacheLimit = 512

    private struct FitKey: Hashable {
        var text: String
        var size: Double
        var weight: Int
        var maxLines: Int
        var language: String?
        var width: Double
        var alignment: TextStyle.Alignment
        var minScale: Double
    }

    public init(geometry: PosterGeometry, text: TextEngine, theme: Theme = .card, currentColor: Color? = nil) {
        self.geometry = geometry
        self.text = text
        self.theme = theme
        self.currentColor = currentColor ?? theme.textColor
    }

    /// Text styling per role.
    struct Look {
        var size: Double
        var weight: Int
        var color: Color
        var maxLines: Int
    }

    func look(for role: Scene.Role) -> Look {
        let g = geometry, t = theme, text = theme.textColor
        switch role {
        case .current: return Look(size: g.currentSize, weight: t.currentWeight, color: currentColor, maxLines: t.currentMaxLines)
        case .previous, .next:
            return Look(size: g.neighbourSize, weight: t.neighbourWeight, color: text.withAlpha(t.neighbourOpacity), maxLines: 2)
        case .interlude: return Look(size: g.neighbourSize, weight: 700, color: text.withAlpha(0.85), maxLines: 1)
        case .translation:
            return Look(size: g.neighbourSize * t.translationScale, weight: 400, color: text.withAlpha(t.translationOpacity), maxLines: 2)
        case .title: return Look(size: g.titleSize, weight: 700, color: text, maxLines: 1)
        case .artist: return Look(size: g.artistSize, weight: 400, color: text.withAlpha(t.artistOpacity), maxLines: 1)
        case .elapsed, .total: return Look(size: g.artistSize * 0.8, weight: 400, color: text.withAlpha(0.7), maxLines: 1)
        }
    }

    /// Lays out `scene`.
    public func layout(_ scene: Scene) -> FrameLayout {
        var blocks = captions(scene)
        let lyric: (blocks: [TextBlock], focus: Rect?)
        if geometry.layout == .classic {
            lyric = classicRows(scene)
        } else {
            lyric = flow(scene)
        }
        blocks += lyric.blocks
        blocks += progressLabels(scene)
        return FrameLayout(blocks: blocks, focus: lyric.focus)
    }

    // MARK: Fitting

    /// Shapes `text` to at most `maxLines` lines of `width`: at full size if it fits, else shrunk
    /// step by step down to `minScale`, else cut with an ellipsis; then re-wrapped at the narrowest
    /// width that keeps the same number of lines, so wrapped lines come out balanced.
    func fit(_ text: String, look: Look, language: String?, width: Double, alignment: TextStyle.Alignment,
             minScale: Double = 0.72) -> (layout: TextLayout, size: Double) {
        let key = FitKey(text: text, size: look.size, weight: look.weight, maxLines: look.maxLines, language: language,
                         width: width, alignment: alignment, minScale: minScale)
        if let cached = fitCache[key] { return cached }
        let fitted = shape(text, look: look, language: language, width: width, alignment: alignment, minScale: minScale)
        if fitCache.count >= Self.fitCacheLimit { fitCache.removeAll(keepingCapacity: true) }
        fitCache[key] = fitted
        return fitted
    }

    private func shape(_ text: String, look: Look, language: String?, width: Double, alignment: TextStyle.Alignment,
                       minScale: Double) -> (layout: TextLayout, size: Double) {
        // Several paragraphs (a translation gathered from several same-stamp lines) become line
        // breaks inside one paragraph, so that the line limit applies to the whole block.
        let text = text.replacingOccurrences(of: "\n", with: "\u{2028}")
        let families = FontSetup.families(for: language, preferring: theme.fontFamily)
        func style(_ size: Double) -> TextStyle {
            TextStyle(families: families, size: size, weight: look.weight, language: language,
                      alignment: alignment, lineSpacing: 1.0)
        }
        var scale = 1.0
        while true {
            let size = (look.size * scale).rounded()
            let candidate = self.text.layout(text, style: style(size), width: width)
            if candidate.lineCount <= look.maxLines {
                return (balance(candidate, text: text, style: style(size), width: width), size)
            }
            if scale - 0.04 < minScale { break }
            scale -= 0.04
        }
        let size = (look.size * minScale).rounded()
        let cut = self.text.layout(text, style: style(size), width: width, maxLines: look.maxLines)
        return (cut, size)
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
    private func place(_ fitted: (layout: TextLayout, size: Double), role: Scene.Role, text: String, look: Look,
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
        let shadow = (role == .current || role == .title) && theme.shadowOpacity > 0 && theme.shadowRadius > 0
            ? Canvas.Shadow(color: Color.black.withAlpha(theme.shadowOpacity), radius: Int((theme.shadowRadius * geometry.unit).rounded()),
                            offset: Point(x: 0, y: 3 * geometry.unit))
            : nil
        return TextBlock(role: role, text: text, layout: fitted.layout, origin: Point(x: x, y: top - extent.y),
                         fontSize: fitted.size, color: look.color, shadow: shadow)
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
        var fitted: [(Scene.Role, String, (layout: TextLayout, size: Double), Look)] = []
        if let title = scene.title, theme.showTitle {
            let look = look(for: .title)
            fitted.append((.title, title, fit(title, look: look, language: FontSetup.language(of: title, songLanguage: scene.language),
                                              width: area.width, alignment: geometry.captionAlignment, minScale: 0.7), look))
        }
        let byline = [theme.showArtist ? scene.artist : nil, theme.showAlbum ? scene.album : nil].compactMap { $0 }
            .joined(separator: " — ")
        if !byline.isEmpty {
            let look = look(for: .artist)
            fitted.append((.artist, byline, fit(byline, look: look, language: FontSetup.language(of: byline, songLanguage: scene.language),
                                                width: area.width, alignment: geometry.captionAlignment, minScale: 0.8), look))
        }
        let gap = 10 * geometry.unit
        let total = fitted.reduce(0) { $0 + $1.2.layout.extentRect.height } + gap * Double(max(0, fitted.count - 1))
        // Beside a card the captions are centred on it; elsewhere they hang from the top.
        var y = geometry.captionCentred ? area.midY - total / 2 : area.minY
        var blocks: [TextBlock] = []
        for (role, text, fit, look) in fitted {
            let block = place(fit, role: role, text: text, look: look, area: area, top: y, alignment: geometry.captionAlignment)
            blocks.append(block)
            y += fit.layout.extentRect.height + gap
        }
        captionCache = (key, blocks)
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
        let main = fit(line.text, look: mainLook, language: line.language, width: area.width, alignment: alignment)
        var blocks = [place(main, role: line.role, text: line.text, look: mainLook, area: area, top: 0, alignment: alignment)]
        var height = main.layout.extentRect.height
        if let translation = line.translation, !translation.isEmpty {
            var tLook = look(for: .translation)
            // Sub-lines: about 0.6 of their line's size (a touch smaller under the larger current line).
            tLook.size = mainLook.size * (line.role == .current ? 0.58 : 0.62) * theme.translationScale / 0.6
            if line.role != .current {
                tLook.color = theme.textColor.withAlpha(max(0.12, theme.neighbourOpacity * 0.76 - fade))
            } else {
                // Under the current line, its translation takes the line's own colour, a step quieter.
                tLook.color = currentColor.withAlpha(theme.translationOpacity)
            }
            let language = FontSetup.language(of: translation, songLanguage: nil)
            let t = fit(translation, look: tLook, language: language, width: area.width, alignment: alignment)
            let gap = 0.22 * mainLook.size
            blocks.append(place(t, role: .translation, text: translation, look: tLook, area: area,
                                top: height + gap, alignment: alignment))
            height += gap + t.layout.extentRect.height
        }
        if blur > 0 { for i in blocks.indices { blocks[i].blur = blur } }
        return Group(blocks: blocks, height: height, isFocus: line.role == .current || line.role == .interlude)
    }

    private func flow(_ scene: Scene) -> (blocks: [TextBlock], focus: Rect?) {
        let area = geometry.lyrics
        let gap = 0.55 * geometry.neighbourSize
        let focusLine = scene.lines.firstIndex { $0.role == .current || $0.role == .interlude } ?? 0
        let groups = scene.lines.enumerated().map { group($0.element, area: area, distance: abs($0.offset - focusLine)) }
        guard let focusIndex = groups.firstIndex(where: \.isFocus) else { return ([], nil) }
        let focus = groups[focusIndex]
        var top = area.minY + area.height * geometry.anchor - focus.height / 2
        // When every requested line fits in the region, slide the focus off its anchor as far as
        // needed to show them all; otherwise the farthest lines are left out below.
        let above = groups[..<focusIndex].reduce(0) { $0 + $1.height + gap }
        let below = groups[(focusIndex + 1)...].reduce(0) { $0 + $1.height + gap }
        if above + focus.height + below <= area.height {
            top = min(max(top, area.minY + above), area.maxY - focus.height - below)
        }
        top = min(max(top, area.minY), max(area.minY, area.maxY - focus.height))

        func shifted(_ g: Group, to y: Double) -> [TextBlock] {
            g.blocks.map { var b = $0; b.origin.y += y; return b }
        }
        var blocks = shifted(focus, to: top)
        let focusRect = Rect(x: area.minX, y: top, width: area.width, height: focus.height)
        // Neighbours outwards from the focus; the first that does not fit ends that side.
        var y = top
        for g in groups[..<focusIndex].reversed() {
            let next = y - gap - g.height
            guard next >= area.minY else { break }
            blocks += shifted(g, to: next)
            y = next
        }
        y = top + focus.height
        for g in groups[(focusIndex + 1)...] {
            let next = y + gap
            guard next + g.height <= area.maxY else { break }
            blocks += shifted(g, to: next)
            y = next + g.height
        }
        return (blocks, focusRect)
    }

    // MARK: Classic rows

    private func classicRows(_ scene: Scene) -> (blocks: [TextBlock], focus: Rect?) {
        let rows = geometry.rows
        guard let focusLine = scene.lines.firstIndex(where: { $0.role == .current || $0.role == .interlude }) else {
            return ([], nil)
        }
        var blocks: [TextBlock] = []
        var focus: Rect?
        for (offset, line) in scene.lines.enumerated() {
            let rowIndex = offset - focusLine + geometry.focusRow
            guard rows.indices.contains(rowIndex) else { continue }
            let row = rows[rowIndex]
            let area = row.insetBy(dx: 12 * geometry.unit, dy: 0)
            var line = line
            if line.role == .interlude, let title = scene.title {
                line.text = [title, scene.artist].compactMap { $0 }.joined(separator: " — ")
            }
            var mainLook = look(for: line.role)
            mainLook.maxLines = 1
            if line.role == .current { mainLook.size = geometry.currentSize }
            let hasTranslation = !(line.translation ?? "").isEmpty
            if hasTranslation { mainLook.size *= 0.85 }
            var main = fit(line.text, look: mainLook, language: line.language, width: area.width, alignment: .center,
                           minScale: line.role == .current ? 0.8 : 0.75)
            if line.role == .current, !hasTranslation, main.layout.isEllipsized {
                // A long current line gets the row's two lines rather than an early cut.
                var twoLines = mainLook
                twoLines.maxLines = 2
                twoLines.size = (row.height / 3.1).rounded()
                main = fit(line.text, look: twoLines, language: line.language, width: area.width, alignment: .center,
                           minScale: 0.85)
            }
            var group = [(main, line.role, line.text, mainLook)]
            if hasTranslation, let translation = line.translation {
                var tLook = look(for: .translation)
                tLook.size = mainLook.size * 0.7
                tLook.maxLines = 1
                if line.role != .current { tLook.color = Color.white.withAlpha(0.45) }
                let t = fit(translation, look: tLook, language: FontSetup.language(of: translation, songLanguage: nil),
                            width: area.width, alignment: .center, minScale: 0.8)
                group.append((t, .translation, translation, tLook))
            }
            let height = group.reduce(0) { $0 + $1.0.layout.extentRect.height }
            var y = row.midY - height / 2
            for (fitted, role, text, look) in group {
                blocks.append(place(fitted, role: role, text: text, look: look, area: area, top: y, alignment: .center))
                y += fitted.layout.extentRect.height
            }
            if line.role == .current || line.role == .interlude { focus = row }
        }
        return (blocks, focus)
    }
}
