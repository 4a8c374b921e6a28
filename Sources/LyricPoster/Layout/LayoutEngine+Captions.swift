import PosterGraphics

/// Captions (title and "artist — album") and the progress bar's times.
extension LayoutEngine {
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
    func captionBlocks(title: String?, byline: String?, language: String?, area: Rect,
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
}
