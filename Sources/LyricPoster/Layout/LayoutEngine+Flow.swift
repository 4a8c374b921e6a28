import PosterGraphics

/// Flowing lyrics: the current line and its neighbours stacked around the anchor, and the
/// intro's and outro's title card.
extension LayoutEngine {
    // MARK: Flowing lyrics

    struct Group {
        var blocks: [TextBlock]
        var height: Double
        var isFocus: Bool

        /// The line alone, without its sub-lines (nil for the focus).
        var bare: Group? {
            guard !isFocus, let main = blocks.first else { return nil }
            return Group(blocks: [main], height: main.box.maxY - min(0, main.box.minY), isFocus: false)
        }
    }

    /// One lyric line's blocks, stacked: the line, its romanisation, its translation, its backing
    /// vocals. `share` is the part of the region a current line may fill (less than all of it
    /// when another line is sung at the same time). A card's `quote` lines are drawn as current
    /// lines at `scale` of their size, wrapped as far as needed and never cut.
    func group(_ line: Scene.Line, area: Rect, distance: Int, share: Double = 1, scale: Double = 1) -> Group {
        var alignment = geometry.lyricsAlignment
        var mainLook = look(for: line.role)
        if line.voice == .duet {
            // The second singer sits on the other side; where lines are centred, it sings in the
            // palette's second hue instead.
            switch alignment {
            case .left: alignment = .right
            case .right: alignment = .left
            case .center: mainLook.color = palette.duet.withAlpha(mainLook.color.alpha)
            }
        }
        // Lines further from the current one fade (and, with depth blur, soften) step by step.
        let fade = theme.opacityFalloff * Double(max(0, distance - 1))
        if distance > 0 { mainLook.color = mainLook.color.withAlpha(max(0.15, mainLook.color.alpha - fade)) }
        let blur = theme.depthBlur * Double(distance) * geometry.unit
        let isQuote = line.role == .quote
        let isCurrent = line.role == .current || isQuote
        if isQuote || line.role == .ellipsis { mainLook.size = (mainLook.size * scale).rounded() }
        // The current line gets the whole region first (its share of it when lines are sung
        // together); a neighbour at most a third of it. Quotes shrink together, not one by one.
        let budget = isQuote ? .infinity : isCurrent ? area.height * share : area.height / 3
        let main = fit(line.text, look: mainLook, language: line.language, width: area.width, alignment: alignment,
                       maxHeight: budget, minScale: isCurrent && !isQuote ? 0.75 : 1)
        // Readings above the current line take a band of their own over it, when it has room.
        let rubyBand = line.role == .current && !line.ruby.isEmpty && main.layout.lineCount == 1
            && budget - main.layout.extentRect.height >= mainLook.size * 0.42 * Self.lineHeight * 1.5
            ? (mainLook.size * 0.42 * Self.lineHeight).rounded() : 0
        var mainBlock = place(main, role: line.role, text: line.text, look: mainLook, area: area, top: rubyBand, alignment: alignment)
        mainBlock.sung = line.sung
        var blocks = [mainBlock]
        var height = main.layout.extentRect.height + rubyBand
        if rubyBand > 0 { blocks += rubyBlocks(line, over: mainBlock, area: area) }

        /// A sub-line under the line at `scale` of its size; left out when there is no room for one line.
        func subLine(_ subText: String?, role: Scene.Role, scale: Double, opacity: Double, sung: [Double] = []) {
            guard let subText, !subText.isEmpty else { return }
            var subLook = look(for: role)
            subLook.size = mainLook.size * scale
            if !isCurrent {
                subLook.color = palette.text.withAlpha(max(0.12, theme.neighbourOpacity * 0.76 * opacity - fade))
            } else {
                // Under the current line, sub-lines take the line's own colour, a step quieter.
                subLook.color = currentColor.withAlpha(theme.translationOpacity * opacity)
                subLook.maxLines = isQuote ? 64 : 3
            }
            let language = FontSetup.language(of: subText, songLanguage: role == .background ? line.language : nil)
            let gap = 0.22 * mainLook.size
            let room = isCurrent ? budget - height - gap : budget
            guard room >= subLook.size * Self.lineHeight * 0.75 else { return }
            let fitted = fit(subText, look: subLook, language: language, width: area.width, alignment: alignment,
                             maxHeight: room, minScale: isCurrent && !isQuote ? 0.8 : 1)
            var block = place(fitted, role: role, text: subText, look: subLook, area: area, top: height + gap, alignment: alignment)
            block.sung = sung
            blocks.append(block)
            height += gap + fitted.layout.extentRect.height
        }
        // Sub-lines: about 0.6 of their line's size (a touch smaller under the larger current line).
        let subScale = (isCurrent ? 0.58 : 0.62) * theme.translationScale / 0.6
        subLine(line.romanisation, role: .romanisation, scale: subScale * 0.9, opacity: 0.9)
        subLine(line.translation, role: .translation, scale: subScale, opacity: 1)
        subLine(line.backing?.text, role: .background, scale: subScale * 1.05, opacity: 0.85, sung: line.backing?.sung ?? [])
        if blur > 0 { for i in blocks.indices { blocks[i].blur = blur } }
        for i in blocks.indices { blocks[i].line = line.lineIndex }
        return Group(blocks: blocks, height: height, isFocus: isCurrent || line.role == .interlude)
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
        var lines = scene.lines
        // After the last line there is nothing more to come: no interlude marker.
        if scene.state == .outro { lines.removeAll { $0.role == .interlude } }
        let focusLine = lines.firstIndex { $0.role == .current || $0.role == .interlude } ?? max(0, lines.count - 1)
        let gap = 0.55 * geometry.neighbourSize
        // Lines sung at the same time share the current line's room and are one focus.
        let sungTogether = lines.filter { $0.role == .current }.count
        let share = sungTogether > 1 ? 1 / Double(sungTogether) : 1
        let lastFocus = lines.lastIndex { $0.role == .current || $0.role == .interlude } ?? focusLine
        func distance(_ index: Int) -> Int { index < focusLine ? focusLine - index : max(0, index - lastFocus) }
        var groups = lines.enumerated().map { group($0.element, area: area, distance: distance($0.offset), share: share) }
        var merged: [Group] = []
        for (index, g) in groups.enumerated() {
            if index > 0, lines[index].role == .current, lines[index - 1].role == .current, var last = merged.popLast() {
                let top = last.height + gap * 0.6
                // A line sung together that does not fit under the others is left out.
                guard top + g.height <= area.height else {
                    merged.append(last)
                    continue
                }
                last.blocks += g.blocks.shifted(by: top)
                last.height = top + g.height
                merged.append(last)
            } else {
                merged.append(g)
            }
        }
        groups = merged
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
        // The anchor: the centre of the focus's first line (the current line, the interlude
        // marker, the title card) sits at the geometry's anchor height in every frame, so the eye
        // finds the sung line where it was. The line grows downwards from there; only a focus too
        // tall for the room under the anchor moves up, just enough.
        let firstLine = focus.blocks.first.map { $0.origin.y + ($0.layout.lineRects.first?.midY ?? 0) } ?? 0
        var top = area.minY + area.height * geometry.anchor - firstLine
        top = max(area.minY, min(top, area.maxY - focus.height))
        // Neighbours around it, nearest first, taking turns above and below, each side in the
        // room it has: a tall neighbour on one side does not empty it while the other side keeps
        // far lines, and no line moves to make room (an empty side stays empty).
        let roomAbove = top - area.minY, roomBelow = area.maxY - (top + focus.height)
        var first = focusIndex, last = focusIndex
        var usedAbove = 0.0, usedBelow = 0.0
        var canAbove = focusIndex > 0, canBelow = focusIndex + 1 < groups.count
        var turnAbove = true
        while canAbove || canBelow {
            let above = turnAbove ? canAbove : !canBelow
            let index = above ? first - 1 : last + 1
            let room = above ? roomAbove - usedAbove : roomBelow - usedBelow
            var fits = gap + groups[index].height <= room
            if !fits, groups[index].blocks.count > 1, let bare = groups[index].bare, gap + bare.height <= room {
                // The nearest line that does not fit with its sub-lines (a translation, a
                // romanisation) is shown without them, and closes its side.
                groups[index] = bare
                fits = true
                if above { canAbove = false } else { canBelow = false }
            }
            if fits {
                if above { usedAbove += gap + groups[index].height; first = index } else { usedBelow += gap + groups[index].height; last = index }
            } else if above { canAbove = false } else { canBelow = false }
            if first == 0 { canAbove = false }
            if last == groups.count - 1 { canBelow = false }
            turnAbove.toggle()
        }

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

    /// Each of `line`'s readings with the box, relative to `block`'s origin, of the characters it
    /// reads there (the union of their clusters'), in order; a reading of characters the block
    /// does not show is left out.
    func readingSpans(_ line: Scene.Line, in block: TextBlock) -> [(mark: Scene.Ruby, span: Rect)] {
        var byteOffsets: [Int] = []
        var offset = 0
        for character in line.text {
            byteOffsets.append(offset)
            offset += character.utf8.count
        }
        byteOffsets.append(offset)
        let clusters = block.layout.clusters
        return line.ruby.compactMap { mark in
            guard mark.range.upperBound < byteOffsets.count else { return nil }
            let bytes = byteOffsets[mark.range.lowerBound]..<byteOffsets[mark.range.upperBound]
            let rects = clusters.filter { bytes.contains($0.byteIndex) }.map(\.rect)
            guard let first = rects.first else { return nil }
            return (mark, rects.dropFirst().reduce(first) { $0.union($1) })
        }
    }

    /// The readings of `line`'s words, each centred over the characters it reads in `block` (a
    /// one-line current line), in the band above it. A reading that would overlap the one before
    /// it or leave the region is left out.
    func rubyBlocks(_ line: Scene.Line, over block: TextBlock, area: Rect) -> [TextBlock] {
        var rubyLook = look(for: .ruby)
        rubyLook.size = rubyLook.size.rounded()
        var blocks: [TextBlock] = []
        var rightmost = -Double.infinity
        for (mark, span) in readingSpans(line, in: block) {
            let fitted = fit(mark.text, look: rubyLook, language: line.language, width: area.width, alignment: .left, minScale: 1)
            let width = fitted.layout.logicalRect.width
            let centre = block.origin.x + span.midX
            let x = min(max(area.minX, centre - width / 2), area.maxX - width)
            guard x >= rightmost else { continue }
            var ruby = place(fitted, role: .ruby, text: mark.text, look: rubyLook,
                             area: Rect(x: x, y: area.minY, width: width, height: area.height), top: 0, alignment: .left)
            // The band sits just over the line's ink.
            ruby.origin.y = block.origin.y + span.minY - fitted.layout.logicalRect.maxY + 0.1 * rubyLook.size
            blocks.append(ruby)
            rightmost = x + width
        }
        return blocks
    }
}
