import Foundation
import PosterGraphics

/// Legibility: where text goes, the smooth scrim fitted to it, and the contrast arithmetic that
/// both the prepared backdrop and each frame's checks use.
extension Background {
    /// Where text goes and what it needs: the lyrics (the current line's colour at 4.5:1, dimmed
    /// lines at 3:1 through a partly raised opacity) and the captions and progress times (3:1).
    struct Zone {
        var rect: Rect
        var isLyrics: Bool
    }

    static func textZones(_ geometry: PosterGeometry) -> [Zone] {
        var zones = [Zone(rect: geometry.lyrics, isLyrics: true)]
        if let caption = geometry.caption { zones.append(Zone(rect: caption, isLyrics: false)) }
        if let progress = geometry.progress { zones.append(Zone(rect: progress, isLyrics: false)) }
        return zones
    }

    /// The most chroma (max − min channel, 0…1) a light backdrop keeps right behind text.
    static let maxChromaBehindText = 0.2

    /// Per pixel row, the weakest opacity of `tint` under which every text zone's row reaches its
    /// target against the most extreme pixel of that row; then widened and smoothed so that the
    /// scrim has no visible step (it never falls below what a row needs).
    static func fogProfile(_ base: Bitmap, zones: [Zone], tint: Color, palette: Palette, theme: Theme,
                           smooth: Bool = true) -> [Double] {
        let h = base.height
        var need = [Double](repeating: 0, count: h)
        let dark = palette.isDark
        // How colourful the tint itself is (a frost mixes towards it).
        let tintChroma = max(tint.red, tint.green, tint.blue) - min(tint.red, tint.green, tint.blue)
        for zone in zones {
            let y0 = max(0, Int(zone.rect.minY.rounded(.down))), y1 = min(h, Int(zone.rect.maxY.rounded(.up)))
            guard y1 > y0 else { continue }
            let extremes = base.rowExtremes(x0: Int(zone.rect.minX.rounded(.down)), x1: Int(zone.rect.maxX.rounded(.up)), rows: y0..<y1,
                                            brightest: dark)
            if !dark, smooth, theme.background != .solid {
                // Dark text on a light backdrop: nothing saturated sits right behind it (a vivid
                // spot of the cover under the title reads as a stain). The frost is raised until
                // the row's most colourful pixel is no more than `maxChromaBehindText`. (A solid
                // block of the cover's colour is the ground by design, not a stain.)
                let chroma = base.rowChroma(x0: Int(zone.rect.minX.rounded(.down)), x1: Int(zone.rect.maxX.rounded(.up)), rows: y0..<y1)
                for y in y0..<y1 where chroma[y] > Self.maxChromaBehindText && chroma[y] > tintChroma {
                    let alpha = (chroma[y] - Self.maxChromaBehindText) / (chroma[y] - min(tintChroma, Self.maxChromaBehindText))
                    need[y] = max(need[y], min(1, alpha + 0.02))
                }
            }
            for y in y0..<y1 {
                let p = extremes[y]
                func luminance(_ a: Double) -> Double {
                    // Color.luminance of the blend rounded to 8 bits, each channel's linear light
                    // looked up rather than computed (the same numbers).
                    func linear(_ v: Double, _ t: Double) -> Double {
                        Color.linearOfByte[min(255, max(0, Int((v * (1 - a) + t * 255 * a).rounded())))]
                    }
                    return Color.luminance(linearRed: linear(p.r, tint.red), linearGreen: linear(p.g, tint.green),
                                           linearBlue: linear(p.b, tint.blue))
                }
                func passes(_ a: Double) -> Bool {
                    let l = luminance(a)
                    if zone.isLyrics {
                        return Color.contrast(palette.current.relativeLuminance, l) >= Renderer.contrastTarget
                            && Color.contrast(palette.text.relativeLuminance, l) >= Renderer.contrastTarget
                            && blendedContrast(textLuminance: palette.text.relativeLuminance, alpha: 0.8, backgroundLuminance: l)
                                >= Renderer.neighbourContrastTarget
                    }
                    return blendedContrast(textLuminance: palette.text.relativeLuminance, alpha: theme.artistOpacity, backgroundLuminance: l)
                        >= Renderer.neighbourContrastTarget
                }
                if passes(0) { continue }
                var low = 0.0, high = 1.0
                for _ in 0..<10 {
                    let mid = (low + high) / 2
                    if passes(mid) { high = mid } else { low = mid }
                }
                need[y] = max(need[y], min(1, high + 0.01))
            }
        }
        guard smooth, need.contains(where: { $0 > 0 }) else { return need }
        // Dilate by 2r, then two box passes of radius r: the result is never below the need,
        // and changes by at most about max/2r per row.
        let r = max(4, Int(0.085 * Double(max(base.width, h))))
        let dilated = Self.windowMaxima(need, radius: 2 * r)
        func boxPass(_ v: [Double]) -> [Double] {
            var prefix = [Double](repeating: 0, count: v.count + 1)
            for i in v.indices { prefix[i + 1] = prefix[i] + v[i] }
            return v.indices.map { i in
                let lo = i - r, hi = i + r
                // Outside the canvas the scrim continues at its edge value.
                var sum = prefix[min(v.count, hi + 1)] - prefix[max(0, lo)]
                if lo < 0 { sum += Double(-lo) * v[0] }
                if hi >= v.count { sum += Double(hi - v.count + 1) * v[v.count - 1] }
                return sum / Double(2 * r + 1)
            }
        }
        return boxPass(boxPass(dilated))
    }

    /// For each index, the largest of `values` within `radius` of it (and at least 0): a sliding
    /// window's maximum, kept as the indices of values no later one beats (each enters and leaves
    /// once, where scanning every window took 4·radius steps an index).
    static func windowMaxima(_ values: [Double], radius: Int) -> [Double] {
        let n = values.count
        var out = [Double](repeating: 0, count: n)
        var candidates = [Int]()
        candidates.reserveCapacity(n)
        var head = 0, next = 0
        for y in 0..<n {
            while next <= min(n - 1, y + radius) {
                while candidates.count > head, values[candidates[candidates.count - 1]] <= values[next] { candidates.removeLast() }
                candidates.append(next)
                next += 1
            }
            while candidates[head] < y - radius { head += 1 }
            out[y] = max(0, values[candidates[head]])
        }
        return out
    }

    /// The weakest overlay of `tint` (at least `minimum`) under which text of `textLuminance`
    /// (white by default) over `rect` reaches `target` (the current line's) against every pixel there.
    static func scrimAlpha(canvas: Canvas, rect: Rect, tint: Color, minimum: Double, textLuminance: Double = 1,
                           target: Double = Renderer.contrastTarget) -> Double {
        scrimAlpha(canvas: canvas, rect: rect, tint: tint, minimum: minimum) { background in
            Color.contrast(textLuminance, background) >= target
        }
    }

    /// The weakest overlay of `tint` (at least `minimum`) under which `accepts` holds for the
    /// brightest pixel's luminance in `rect`; 1 when none does.
    static func scrimAlpha(canvas: Canvas, rect: Rect, tint: Color, minimum: Double, accepts: (Double) -> Bool) -> Double {
        // A light tint lifts dark text off the darkest pixels; a dark one, light text off the brightest.
        let quantile = tint.relativeLuminance > 0.18 ? 0.0 : 1.0
        func passes(_ alpha: Double) -> Bool {
            accepts(canvas.luminance(in: rect, quantile: quantile, overlay: tint.withAlpha(alpha)))
        }
        if passes(minimum) { return minimum }
        var low = minimum, high = 1.0
        for _ in 0..<10 {
            let mid = (low + high) / 2
            if passes(mid) { high = mid } else { low = mid }
        }
        return high
    }

    /// The WCAG contrast between text of `textLuminance` drawn at `alpha` over a grey background
    /// of `backgroundLuminance` (blended in sRGB, as Cairo does) and that background.
    static func blendedContrast(textLuminance: Double, alpha: Double, backgroundLuminance: Double) -> Double {
        let glyph = alpha * Color.encoded(textLuminance) + (1 - alpha) * Color.encoded(backgroundLuminance)
        return Color.contrast(Color.linear(glyph), backgroundLuminance)
    }
}
