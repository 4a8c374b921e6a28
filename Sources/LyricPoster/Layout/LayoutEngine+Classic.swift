import PosterGraphics

/// The classic table: one row per line on a band, the current line in its fixed row.
extension LayoutEngine {
    // MARK: Classic rows

    /// The original table: one row per line, on dark bands, the current line in its fixed row.
    /// Sizes are fixed for the whole song (current ≥ 1.2× its neighbours); a long line wraps and
    /// its row grows rather than its text shrinking; rows grow outwards from the current row.
    func classicRows(_ scene: Scene) -> (blocks: [TextBlock], focus: Rect?, band: Rect?) {
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
            // Rows are centred: the duet's second singer is marked by the palette's second hue.
            if line.voice == .duet { mainLook.color = palette.duet.withAlpha(mainLook.color.alpha) }
            let area = Rect(x: inset, y: 0, width: width, height: 0)
            let main = fit(line.text, look: mainLook, language: line.language, width: width, alignment: .center,
                           maxHeight: (limitBottom - limitTop) / 2, minScale: 1)
            var blocks = [place(main, role: line.role, text: line.text, look: mainLook, area: area, top: 0, alignment: .center)]
            blocks[0].sung = line.sung
            var height = main.layout.extentRect.height
            // The current row spells its line in Latin letters under it, when the file does.
            if isCurrent, let romanisation = line.romanisation, !romanisation.isEmpty {
                var rLook = look(for: .romanisation)
                rLook.size = geometry.translationSize * 0.9
                rLook.maxLines = 1
                rLook.color = currentColor.withAlpha(0.7)
                let r = fit(romanisation, look: rLook, language: nil, width: width, alignment: .center, minScale: 1)
                blocks.append(place(r, role: .romanisation, text: romanisation, look: rLook, area: area,
                                    top: height + 2 * u, alignment: .center))
                height += 2 * u + r.layout.extentRect.height
            }
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
            for i in blocks.indices { blocks[i].line = line.lineIndex }
            return Row(blocks: blocks, height: height, isFocus: isCurrent)
        }
        let rows = scene.lines.map(row)
        let nominalHeight = nominal[geometry.focusRow].height
        func rowHeight(_ r: Row) -> Double { max(nominalHeight, r.height + 2 * pad) }
        let focus = rows[focusLine]
        // The anchor: the current row's first line keeps the nominal row's centre (a wrapped line
        // or a translation grows the row downwards), moved up only as far as a tall row needs.
        let firstLine = focus.blocks.first.map { $0.origin.y + ($0.layout.lineRects.first?.midY ?? 0) } ?? focus.height / 2
        var focusTop = nominal[geometry.focusRow].midY - firstLine - (rowHeight(focus) - focus.height) / 2
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
        var band = nominal.dropFirst().reduce(nominal[0]) { $0.union($1) }
        for (r, top) in placed {
            let rect = Rect(x: 0, y: top, width: Double(geometry.preset.width), height: rowHeight(r))
            band = band.union(rect)
            blocks += r.blocks.shifted(by: top + (rect.height - r.height) / 2)
            if r.isFocus { focusRect = rect }
        }
        return (blocks, focusRect, band)
    }
}
