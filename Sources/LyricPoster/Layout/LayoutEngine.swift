import PosterGraphics

/// Places a scene's text on a canvas: wraps, balances and shrinks lines to fit their region,
/// stacks them around the anchor, and drops neighbours that do not fit rather than overlap.
///
/// Holds a `TextEngine`, so it is not thread-safe: one per thread.
package final class LayoutEngine {
    package let geometry: PosterGeometry
    package let text: TextEngine
    package let theme: Theme
    /// The text colours (scheme) chosen for the song's backdrop.
    package let palette: Palette
    /// The current line's colour (the theme's accent, resolved against the cover).
    package var currentColor: Color { palette.current }
    /// Every line casts the soft shadow (not only the sung line and the title): for the text
    /// layer, which is laid over pictures nobody has measured.
    package var shadowsEverywhere = false
    /// The QR code a share card carries (``quoteLayout(_:)`` finds its corner).
    package var qr: QRCode?
    var captionCache: (key: [String?], blocks: [TextBlock])?
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
        var italic: Bool
        var minScale: Double
        var vertical: Bool
        var pitch: Double
    }

    /// A shaped text at the size it fits: `cut` when even the smallest size allowed did not fit
    /// and the text was cut at the end of its last line that does.
    struct Fitted {
        var layout: TextLayout
        var size: Double
        var cut: Bool
    }

    package init(geometry: PosterGeometry, text: TextEngine, theme: Theme = .card, palette: Palette? = nil) {
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
        /// Romanisation is set in italic, unlike translations.
        var italic = false
    }

    func look(for role: Scene.Role) -> Look {
        let g = geometry, t = theme, text = palette.text
        // Paper (e-ink) has no thin strokes: what other themes set regular is bold there.
        let regular = t.background == .paper ? 700 : 400
        switch role {
        // The current line wraps as far as its room allows (the height limit is what binds).
        case .current, .quote: return Look(size: g.currentSize, weight: t.currentWeight, color: currentColor, maxLines: 64)
        case .previous, .next:
            return Look(size: g.neighbourSize, weight: t.neighbourWeight, color: text.withAlpha(t.neighbourOpacity), maxLines: 2)
        case .interlude: return Look(size: g.neighbourSize, weight: 700, color: text.withAlpha(0.85), maxLines: 1)
        case .ellipsis: return Look(size: g.neighbourSize, weight: 700, color: text.withAlpha(t.neighbourOpacity), maxLines: 1)
        case .translation:
            return Look(size: g.neighbourSize * t.translationScale, weight: regular, color: text.withAlpha(t.translationOpacity), maxLines: 2)
        case .romanisation:
            return Look(size: g.neighbourSize * t.translationScale * 0.9, weight: regular,
                        color: text.withAlpha(t.translationOpacity * 0.9), maxLines: 2, italic: true)
        case .ruby:
            return Look(size: g.currentSize * 0.42, weight: regular, color: currentColor.withAlpha(t.translationOpacity), maxLines: 1)
        case .background:
            return Look(size: g.neighbourSize * t.translationScale, weight: regular, color: text.withAlpha(t.translationOpacity * 0.85), maxLines: 2)
        case .title: return Look(size: g.titleSize, weight: 700, color: text, maxLines: 2)
        case .artist: return Look(size: g.artistSize, weight: regular, color: text.withAlpha(t.artistOpacity), maxLines: 1)
        case .elapsed, .total: return Look(size: g.artistSize * 0.8, weight: regular, color: text.withAlpha(0.7), maxLines: 1)
        }
    }

    /// True when the scene is a title card (intro or outro) and the theme has a title to show:
    /// the title and artist then take the lyrics' place, large, instead of the captions.
    func isTitleCard(_ scene: Scene) -> Bool {
        // Beside a header card the captions already are the title card.
        (scene.state == .intro || scene.state == .outro) && theme.showTitle && scene.title != nil && !geometry.captionCentred
    }

    /// Lays out `scene`.
    package func layout(_ scene: Scene) -> FrameLayout {
        if scene.state == .quote { return quoteLayout(scene) }
        let titleCard = isTitleCard(scene)
        var blocks = titleCard && geometry.layout != .classic ? [] : captions(scene)
        let lyric: (blocks: [TextBlock], focus: Rect?, band: Rect?)
        if theme.writing == .vertical {
            let area = geometry.layout == .classic ? classicArea : lyricsArea(below: titleCard ? [] : blocks)
            let columns = verticalFlow(scene, area: area)
            lyric = (columns.blocks, columns.focus, geometry.layout == .classic ? classicBand(around: columns.blocks) : nil)
        } else if geometry.layout == .classic {
            lyric = classicRows(scene)
        } else {
            let flowed = flow(scene, area: lyricsArea(below: titleCard ? [] : blocks))
            lyric = (flowed.blocks, flowed.focus, nil)
        }
        blocks += lyric.blocks
        blocks += progressLabels(scene)
        return FrameLayout(blocks: blocks, focus: lyric.focus, band: lyric.band)
    }

    /// Classic's lyric region: the rows' span across the lyrics' width.
    var classicArea: Rect {
        Rect(x: geometry.lyrics.minX, y: geometry.classicTop, width: geometry.lyrics.width,
             height: geometry.classicBottom - geometry.classicTop)
    }

    /// Classic's band around `blocks`: the full width, their height and a little more.
    func classicBand(around blocks: [TextBlock]) -> Rect? {
        guard let extent = blocks.map(\.box).reduce(nil, { (r: Rect?, b) in r?.union(b) ?? b }) else { return nil }
        let pad = 7 * geometry.unit
        return Rect(x: 0, y: extent.minY - pad, width: Double(geometry.preset.width), height: extent.height + 2 * pad)
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

    /// Takes the texts `other` has already shaped (the same text engine: shaping does not depend
    /// on colours), so that laying out the same lines again shapes nothing.
    func adoptFits(from other: LayoutEngine) {
        guard other.text === text else { return }
        fitCache = other.fitCache
    }

    // MARK: Fitting

    /// Shapes `text` in `width`: at full size if it fits in `maxLines` lines and `maxHeight`
    /// pixels, else shrunk step by step down to `minScale`, else cut after its last line that
    /// fits (at a line break, so at a word or grapheme boundary) and marked to fade out there;
    /// then re-wrapped at the narrowest width that keeps the same number of lines, so wrapped
    /// lines come out balanced (no lone last word).
    ///
    /// With `vertical`, `width` is the columns' length and `maxLines` their number (see
    /// ``TextStyle/vertical``). `pitch`: the line (or column) pitch as a multiple of the size.
    func fit(_ text: String, look: Look, language: String?, width: Double, alignment: TextStyle.Alignment,
             maxHeight: Double = .infinity, minScale: Double = 0.75, vertical: Bool = false,
             pitch: Double = LayoutEngine.lineHeight) -> Fitted {
        let key = FitKey(text: text, size: look.size, weight: look.weight, maxLines: look.maxLines,
                         maxHeight: maxHeight.isFinite ? maxHeight.rounded() : -1, language: language,
                         width: width, alignment: alignment, italic: look.italic, minScale: minScale, vertical: vertical, pitch: pitch)
        if let cached = fitCache[key] { return cached }
        let fitted = shape(text, look: look, language: language, width: width, alignment: alignment,
                           maxHeight: maxHeight, minScale: minScale, vertical: vertical, pitch: pitch)
        if fitCache.count >= Self.fitCacheLimit { fitCache.removeAll(keepingCapacity: true) }
        fitCache[key] = fitted
        return fitted
    }

    private func shape(_ text: String, look: Look, language: String?, width: Double, alignment: TextStyle.Alignment,
                       maxHeight: Double, minScale: Double, vertical: Bool, pitch: Double) -> Fitted {
        // Several paragraphs (a translation gathered from several same-stamp lines) become line
        // breaks inside one paragraph, so that the line limit applies to the whole block.
        let text = text.replacingOccurrences(of: "\n", with: "\u{2028}")
        let families = FontSetup.families(for: language, preferring: theme.fontFamily)
        func style(_ size: Double) -> TextStyle {
            TextStyle(families: families, size: size, weight: look.weight, language: language,
                      alignment: alignment, lineHeight: pitch, italic: look.italic, vertical: vertical)
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
        let linePitch = size * pitch
        let byHeight = maxHeight.isFinite ? Int(max(0, (maxHeight + 0.5) / linePitch)) : whole.lineCount
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

    /// The shadow a block of `role` casts: soft dark shadows lift light text (the sung line and
    /// the title, or every line on the text layer); dark text on a light backdrop needs none.
    func shadow(for role: Scene.Role) -> Canvas.Shadow? {
        let casts = role == .current || role == .title || (shadowsEverywhere && role != .ruby)
        guard casts, palette.isDark, theme.shadowOpacity > 0, theme.shadowRadius > 0 else { return nil }
        return Canvas.Shadow(color: Color.black.withAlpha(theme.shadowOpacity), radius: Int((theme.shadowRadius * geometry.unit).rounded()),
                             offset: Point(x: 0, y: 3 * geometry.unit))
    }

    /// Places a fitted layout so that its box's top is at `top`, aligned inside `area`.
    func place(_ fitted: Fitted, role: Scene.Role, text: String, look: Look,
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
        var block = TextBlock(role: role, text: text, layout: fitted.layout, origin: Point(x: x, y: top - extent.y),
                              fontSize: fitted.size, color: look.color, shadow: shadow(for: role))
        block.cut = fitted.cut
        return block
    }
}
