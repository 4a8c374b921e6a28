import PosterGraphics

/// Flowing lyrics: the current line and its neighbours stacked around the anchor, and the
/// intro's and outro's title card.
extension LayoutEngine {
    // MARK: Flowing lyrics

    struct Group {
        var blocks: [TextBlock]
        var height: Double
        var isFocus: Bool
    }

    func group(_ line: Scene.Line, area: Rect, distance: Int) -> Group {
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
    func titleCardGroup(_ scene: Scene, area: Rect) -> Group? {
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
        let height = (blocks.map(\.box.maxY).max() ?? top) - top
        return Group(blocks: blocks.shifted(by: -top), height: height, isFocus: true)
    }

    func flow(_ scene: Scene, area: Rect) -> (blocks: [TextBlock], focus: Rect?) {
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
        // The focus at its anchor, slid as far as needed for the chosen lines to fit. With nothing
        // on one side (the first line, the last, the outro) the block moves towards that side
        // rather than leaving a hole there.
        var top = area.minY + area.height * geometry.anchor - focus.height / 2
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

        var blocks = focus.blocks.shifted(by: top)
        let focusRect = Rect(x: area.minX, y: top, width: area.width, height: focus.height)
        var y = top
        for g in groups[first..<focusIndex].reversed() {
            y -= gap + g.height
            blocks += g.blocks.shifted(by: y)
        }
        y = top + focus.height
        for g in groups[(focusIndex + 1)..<(last + 1)] {
            blocks += g.blocks.shifted(by: y + gap)
            y += gap + g.height
        }
        return (blocks, focusRect)
    }
}
