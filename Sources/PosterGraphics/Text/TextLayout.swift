import CCairoPango
import Foundation

/// How a block of text is set.
package struct TextStyle: Hashable, Sendable {
    package enum Alignment: Hashable, Sendable { case left, center, right }

    /// A fontconfig family list, most preferred first ("Noto Sans, Noto Sans CJK JP, …").
    package var families: String
    /// Font size in output pixels (the em size).
    package var size: Double
    /// CSS-style weight: 400 regular, 700 bold.
    package var weight: Int
    /// BCP 47 tag that picks regional glyph forms (e.g. "ja", "zh-Hant"); nil = none.
    package var language: String?
    package var alignment: Alignment
    /// Line pitch as a multiple of `size`, the same for every script (Arabic, CJK and emoji faces
    /// have much taller natural line heights than Latin ones; one rule keeps wrapped lines of any
    /// script equally tight). 0 = the fonts' natural line heights.
    package var lineHeight: Double
    /// Italic (slanted by fontconfig where the family has no italic face).
    package var italic: Bool
    /// Set in columns read top to bottom, right to left (縦書き): Chinese and Japanese upright
    /// with their vertical forms, Latin words sideways, runs of two digits upright side by side
    /// (縦中横). The width a layout is given is then each column's length, `left` alignment is
    /// the top of the columns, and every box it reports is on the page (see ``TextLayout``).
    package var vertical: Bool

    package init(families: String, size: Double, weight: Int = 400, language: String? = nil,
                alignment: Alignment = .center, lineHeight: Double = 0, italic: Bool = false, vertical: Bool = false) {
        self.families = families
        self.size = size
        self.weight = weight
        self.language = language
        self.alignment = alignment
        self.lineHeight = lineHeight
        self.italic = italic
        self.vertical = vertical
    }
}

/// Shapes text with Pango (HarfBuzz underneath): a font map and context of its own while it lives.
///
/// The corresponding C types are `PangoFontMap` and `PangoContext`. Not thread-safe: make one
/// per thread from a shared `FontLibrary`. Its font map goes back to the library when it ends,
/// for the next engine (see `FontLibrary.spareFontMaps`).
package final class TextEngine {
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    let context: OpaquePointer
    package let fonts: FontLibrary
    /// A context for vertical text, made when first asked for: gravity belongs to a context, not
    /// to a layout, so columns need one of their own (on the same font map).
    private var verticalContextHandle: OpaquePointer?

    package init(fonts: FontLibrary) throws(FontError) {
        (fontMap, context) = try FontLock.held { () throws(FontError) in try TextEngine.make(fonts) }
        self.fonts = fonts
    }

    private static func make(_ fonts: FontLibrary) throws(FontError) -> (UnsafeMutablePointer<PangoFontMap>, OpaquePointer) {
        // A font map an engine before this one gave back, with its fonts open, or a new one.
        let map: UnsafeMutablePointer<PangoFontMap>
        if let spare = fonts.spareFontMaps.withLock({ $0.popLast() }) {
            map = spare
        } else {
            guard let made = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT) else {
                throw .configuration("Pango has no FreeType font map")
            }
            pango_fc_font_map_set_config(lp_fc_font_map(made), fonts.config)
            map = made
        }
        guard let context = makeContext(map) else {
            giveBack(map, to: fonts)
            throw .configuration("could not create a Pango context")
        }
        return (map, context)
    }

    /// A context on `map` with the engine's settings.
    private static func makeContext(_ map: UnsafeMutablePointer<PangoFontMap>) -> OpaquePointer? {
        guard let context = pango_font_map_create_context(map) else { return nil }
        // Unhinted outlines and metrics: glyph positions scale linearly with size, so layouts do
        // not jitter between sizes, and the result does not depend on the machine's settings.
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_cairo_context_set_resolution(context, 72)
        return context
    }

    /// The vertical context, under `FontLock`: base gravity east (text runs down the page once
    /// the layout is turned a quarter clockwise), natural hint (upright Chinese and Japanese,
    /// which HarfBuzz shapes top to bottom with the font's `vert` forms; Latin sideways).
    func verticalContext() -> OpaquePointer {
        if let made = verticalContextHandle { return made }
        let made = TextEngine.makeContext(fontMap) ?? context
        if made != context {
            pango_context_set_base_gravity(made, PANGO_GRAVITY_EAST)
            pango_context_set_gravity_hint(made, PANGO_GRAVITY_HINT_NATURAL)
        }
        verticalContextHandle = made
        return made
    }

    deinit {
        FontLock.held {
            if let vertical = verticalContextHandle, vertical != context { lp_g_object_unref(UnsafeMutableRawPointer(vertical)) }
            lp_g_object_unref(UnsafeMutableRawPointer(context))
            TextEngine.giveBack(fontMap, to: fonts)
        }
    }

    /// Keeps `map` for the next engine over `fonts`, or releases it when enough are kept. Every
    /// use of a font map is under `FontLock`, so the next engine may be on another thread; a
    /// layout still holding this engine's context shares the map the way every context of one
    /// map does.
    private static func giveBack(_ map: UnsafeMutablePointer<PangoFontMap>, to fonts: FontLibrary) {
        let kept = fonts.spareFontMaps.withLock { spare -> Bool in
            guard spare.count < FontLibrary.spareLimit else { return false }
            spare.append(map)
            return true
        }
        if !kept { lp_g_object_unref(map) }
    }

    /// Lays out `text` with `style`, wrapping at `width` pixels (nil = one line per paragraph).
    /// `maxLines` cuts the text with an ellipsis after that many lines (nil = no limit).
    package func layout(_ text: String, style: TextStyle, width: Double?, maxLines: Int? = nil) -> TextLayout {
        TextLayout(engine: self, text: text, style: style, width: width, maxLines: maxLines)
    }
}

/// One shaped block of text. The corresponding C type is `PangoLayout`.
///
/// A vertical layout (``TextStyle/vertical``) is shaped as Pango shapes vertical text, along x,
/// and turned a quarter clockwise when drawn: its columns' stack then runs right to left. Every
/// box it reports (``logicalRect``, ``inkRect``, ``lineRects`` — one per column, right to left —
/// and ``clusters``) is already turned, relative to the top-left corner of the page area its
/// columns cover, so callers place it like any other block.
package final class TextLayout {
    let handle: OpaquePointer
    package let text: String
    package let style: TextStyle
    package let width: Double?
    /// For vertical text: the depth of the columns' stack (the layout's logical height before it
    /// is turned), which becomes the page width they cover.
    private let stackDepth: Double
    /// Runs of two digits set upright side by side in one cell of a column (縦中横): a small
    /// horizontal layout each, drawn unturned over the cell its placeholder holds.
    private let inserts: [Insert]

    struct Insert {
        let handle: OpaquePointer
        /// The cell in the vertical layout's own (unturned) space, in pixels.
        let cell: Rect
        /// The digits' logical size, in pixels.
        let size: (width: Double, height: Double)
    }

    init(engine: TextEngine, text: String, style: TextStyle, width: Double?, maxLines: Int?) {
        self.text = text
        self.style = style
        self.width = width
        (handle, stackDepth, inserts) = FontLock.held { TextLayout.make(engine: engine, text: text, style: style, width: width, maxLines: maxLines) }
    }

    private static func make(engine: TextEngine, text original: String, style: TextStyle, width: Double?,
                             maxLines: Int?) -> (OpaquePointer, Double, [Insert]) {
        let (text, upright) = style.vertical ? TextLayout.verticalText(original) : (original, [])
        let handle: OpaquePointer = pango_layout_new(style.vertical ? engine.verticalContext() : engine.context)
        let scale = Double(lp_pango_scale())

        let description = pango_font_description_new()
        pango_font_description_set_family(description, style.families)
        pango_font_description_set_absolute_size(description, style.size * scale)
        pango_font_description_set_weight(description, PangoWeight(UInt32(style.weight)))
        if style.italic { pango_font_description_set_style(description, PANGO_STYLE_ITALIC) }
        pango_layout_set_font_description(handle, description)
        pango_font_description_free(description)

        let attributes = pango_attr_list_new()
        if let language = style.language {
            pango_attr_list_insert(attributes, pango_attr_language_new(pango_language_from_string(language)))
        }
        if style.lineHeight > 0 {
            pango_attr_list_insert(attributes, pango_attr_line_height_new_absolute(Int32((style.size * style.lineHeight * scale).rounded())))
        }
        // 縦中横: each run of two digits becomes one placeholder character that keeps a square
        // cell of the column, which the digits, set horizontally, fill when drawn.
        let em = Int32((style.size * scale).rounded())
        for run in upright {
            var cell = PangoRectangle(x: 0, y: -em / 2, width: em, height: em)
            guard let attribute = pango_attr_shape_new(&cell, &cell) else { continue }
            attribute.pointee.start_index = UInt32(run.offset)
            attribute.pointee.end_index = UInt32(run.offset + TextLayout.placeholder.utf8.count)
            pango_attr_list_insert(attributes, attribute)
        }
        // Korean separates words with spaces; a line may break only there, never between the
        // syllables of a word (Pango's default allows it, as for Chinese), whatever the language tag.
        for range in TextLayout.hangulWords(text) {
            guard let attribute = pango_attr_allow_breaks_new(0) else { continue }
            attribute.pointee.start_index = UInt32(range.lowerBound)
            attribute.pointee.end_index = UInt32(range.upperBound)
            pango_attr_list_insert(attributes, attribute)
        }
        pango_layout_set_attributes(handle, attributes)
        pango_attr_list_unref(attributes)
        switch style.alignment {
        case .left: pango_layout_set_alignment(handle, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(handle, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(handle, PANGO_ALIGN_RIGHT)
        }
        if let width {
            pango_layout_set_width(handle, Int32((width * scale).rounded(.down)))
            pango_layout_set_wrap(handle, PANGO_WRAP_WORD_CHAR)
        }
        if let maxLines {
            pango_layout_set_height(handle, Int32(-maxLines))
            pango_layout_set_ellipsize(handle, PANGO_ELLIPSIZE_END)
        }
        pango_layout_set_text(handle, text, -1)
        // Shaped now, under the lock (the queries below take it again).
        var logical = PangoRectangle()
        pango_layout_get_extents(handle, nil, &logical)
        guard style.vertical else { return (handle, 0, []) }
        let depth = Double(logical.y + logical.height) / scale
        var inserts: [Insert] = []
        for run in upright {
            var cell = PangoRectangle()
            pango_layout_index_to_pos(handle, Int32(run.offset), &cell)
            let digits: OpaquePointer = pango_layout_new(engine.context)
            let font = pango_font_description_new()
            pango_font_description_set_family(font, style.families)
            pango_font_description_set_absolute_size(font, style.size * scale)
            pango_font_description_set_weight(font, PangoWeight(UInt32(style.weight)))
            pango_layout_set_font_description(digits, font)
            pango_font_description_free(font)
            // Half-width digits, where the font has them, so that two fill one em.
            let features = pango_attr_list_new()
            pango_attr_list_insert(features, pango_attr_font_features_new("hwid"))
            if let language = style.language {
                pango_attr_list_insert(features, pango_attr_language_new(pango_language_from_string(language)))
            }
            pango_layout_set_attributes(digits, features)
            pango_attr_list_unref(features)
            pango_layout_set_text(digits, run.digits, -1)
            var size = PangoRectangle()
            pango_layout_get_extents(digits, nil, &size)
            inserts.append(Insert(handle: digits, cell: TextLayout.pixels(cell),
                                  size: (Double(size.width) / scale, Double(size.height) / scale)))
        }
        return (handle, depth, inserts)
    }

    deinit {
        FontLock.held {
            lp_g_object_unref(UnsafeMutableRawPointer(handle))
            for insert in inserts { lp_g_object_unref(UnsafeMutableRawPointer(insert.handle)) }
        }
    }

    /// The character that holds a run of upright digits' cell.
    static let placeholder = "\u{FFFC}"

    /// `text` as a vertical layout shapes it, and the runs of two digits it sets upright (their
    /// placeholders' byte offsets and the digits): a digit alone becomes its full-width form,
    /// which stands upright; two together (not inside a longer run of letters or digits) become
    /// one placeholder; longer runs stay as they are, sideways, like Latin words.
    static func verticalText(_ text: String) -> (String, [(offset: Int, digits: String)]) {
        let scalars = Array(text.unicodeScalars)
        func isAlnum(_ i: Int) -> Bool {
            guard scalars.indices.contains(i) else { return false }
            let v = scalars[i].value
            return (0x30...0x39).contains(v) || (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v)
        }
        func isDigit(_ i: Int) -> Bool { scalars.indices.contains(i) && (0x30...0x39).contains(scalars[i].value) }
        var out = String.UnicodeScalarView()
        var runs: [(offset: Int, digits: String)] = []
        var bytes = 0
        var i = 0
        while i < scalars.count {
            if isDigit(i), !isAlnum(i - 1) {
                var end = i
                while isDigit(end) { end += 1 }
                if !isAlnum(end), end - i <= 2 {
                    if end - i == 1, let wide = Unicode.Scalar(0xFF10 + scalars[i].value - 0x30) {
                        out.append(wide)
                        bytes += String(wide).utf8.count
                    } else {
                        runs.append((bytes, String(String.UnicodeScalarView(scalars[i..<end]))))
                        out.append(contentsOf: placeholder.unicodeScalars)
                        bytes += placeholder.utf8.count
                    }
                    i = end
                    continue
                }
                for k in i..<end { out.append(scalars[k]); bytes += scalars[k].utf8.count }
                i = end
                continue
            }
            out.append(scalars[i])
            bytes += scalars[i].utf8.count
            i += 1
        }
        return (String(out), runs)
    }

    /// `r`, in the layout's own space, as it lies on the page: turned a quarter clockwise about
    /// the origin and moved right by the stack's depth (for horizontal text, `r` itself).
    func onPage(_ r: Rect) -> Rect {
        guard style.vertical else { return r }
        return Rect(x: stackDepth - r.y - r.height, y: r.x, width: r.height, height: r.width)
    }

    /// Draws the layout at `cr`'s current point (its page origin), under `FontLock`: turned, for
    /// vertical text, with its upright digits drawn over their cells.
    func show(on cr: OpaquePointer) {
        guard style.vertical else {
            pango_cairo_show_layout(cr, handle)
            return
        }
        var x = 0.0, y = 0.0
        cairo_get_current_point(cr, &x, &y)
        cairo_save(cr)
        cairo_translate(cr, x + stackDepth, y)
        cairo_rotate(cr, Double.pi / 2)
        cairo_move_to(cr, 0, 0)
        pango_cairo_show_layout(cr, handle)
        cairo_restore(cr)
        for insert in inserts where insert.size.width > 0 {
            let cell = onPage(insert.cell)
            cairo_save(cr)
            cairo_translate(cr, x + cell.midX, y + cell.midY)
            // Wider than the cell (a font without half-width digits): narrowed to fit.
            cairo_scale(cr, min(1, cell.width / insert.size.width), 1)
            cairo_move_to(cr, -insert.size.width / 2, -insert.size.height / 2)
            pango_cairo_show_layout(cr, insert.handle)
            cairo_restore(cr)
        }
        cairo_move_to(cr, x, y)
    }

    /// The logical (advance-based) box relative to the layout's origin, in pixels. With a width
    /// and centred alignment its x is the offset of the widest line inside that width.
    package var logicalRect: Rect { extents.logical }

    /// The layout's ink and logical boxes, in pixels, and whether it has no ink.
    private var extents: (ink: Rect, logical: Rect, inkIsEmpty: Bool) {
        FontLock.held {
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_extents(handle, &ink, &logical)
            return (onPage(TextLayout.pixels(ink)), onPage(TextLayout.pixels(logical)), ink.width <= 0 || ink.height <= 0)
        }
    }

    /// The box the glyphs' ink covers, relative to the layout's origin, in pixels.
    package var inkRect: Rect { extents.ink }

    /// The logical box grown to include the ink, relative to the layout's origin: everything the
    /// layout can paint (stacked marks, tall emoji) lies inside it.
    package var extentRect: Rect {
        let e = extents
        return e.inkIsEmpty ? e.logical : e.logical.union(e.ink)
    }

    /// True when the text's first paragraph runs right to left (Arabic, Hebrew): Pango then aligns
    /// "left" text to the right, so callers place it from the right edge of its region.
    package var isRightToLeft: Bool { FontLock.held { pango_layout_get_direction(handle, 0) == PANGO_DIRECTION_RTL } }

    /// UTF-8 byte ranges of runs of Hangul (a Korean word and any marks inside it).
    static func hangulWords(_ text: String) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        var offset = 0
        for scalar in text.unicodeScalars {
            let hangul: Bool
            switch scalar.value {
            case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xD7B0...0xD7FF: hangul = true
            default: hangul = start != nil && scalar.properties.generalCategory == .nonspacingMark
            }
            if hangul, start == nil { start = offset }
            if !hangul, let s = start { ranges.append(s..<offset); start = nil }
            offset += scalar.utf8.count
        }
        if let s = start { ranges.append(s..<offset) }
        return ranges.filter { $0.count > 3 }  // a single syllable has nothing to keep together
    }

    /// The UTF-8 byte offset just past the end of line `index` (0-based) of the wrapped text.
    package func byteOffset(afterLine index: Int) -> Int {
        FontLock.held {
            guard let line = pango_layout_get_line_readonly(handle, Int32(index)) else { return text.utf8.count }
            return Int(line.pointee.start_index + line.pointee.length)
        }
    }

    /// True when some line ends inside a word of a script that separates words with spaces (a
    /// letter or digit on both sides of the break, neither of them Chinese or Japanese, where a
    /// break between characters is ordinary).
    package var breaksInsideWord: Bool {
        let bytes = Array(text.utf8)
        func scalar(before offset: Int) -> Unicode.Scalar? {
            guard offset > 0, offset <= bytes.count else { return nil }
            var start = offset - 1
            while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
            return String(decoding: bytes[start..<offset], as: UTF8.self).unicodeScalars.first
        }
        func scalar(at offset: Int) -> Unicode.Scalar? {
            guard offset < bytes.count else { return nil }
            var end = offset + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            return String(decoding: bytes[offset..<end], as: UTF8.self).unicodeScalars.first
        }
        func isWordLetter(_ s: Unicode.Scalar?) -> Bool {
            guard let s else { return false }
            switch s.value {
            case 0x2E80...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0x20000...0x3FFFF: return false  // CJK, kana, fullwidth
            default: return s.properties.isAlphabetic || s.properties.numericType != nil
            }
        }
        for n in 0..<max(0, lineCount - 1) {
            let end = byteOffset(afterLine: n)
            if isWordLetter(scalar(before: end)), isWordLetter(scalar(at: end)) { return true }
        }
        return false
    }

    /// Each wrapped line's logical box relative to the layout's origin, in pixels, top to bottom.
    package var lineRects: [Rect] { FontLock.held { lineRectsLocked } }

    private var lineRectsLocked: [Rect] {
        var result: [Rect] = []
        let iter = pango_layout_get_iter(handle)
        defer { pango_layout_iter_free(iter) }
        repeat {
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, &ink, &logical)
            result.append(onPage(TextLayout.pixels(logical)))
        } while pango_layout_iter_next_line(iter) != 0
        return result
    }

    /// Lines after wrapping (and ellipsizing).
    package var lineCount: Int { FontLock.held { Int(pango_layout_get_line_count(handle)) } }

    /// True when `maxLines` cut the text.
    package var isEllipsized: Bool { FontLock.held { pango_layout_is_ellipsized(handle) != 0 } }

    /// One cluster of glyphs (one or more characters shaped together).
    package struct Cluster: Hashable, Sendable {
        /// UTF-8 byte offset of the cluster's first character in the text.
        package var byteIndex: Int
        /// Its logical box relative to the layout's origin, in pixels.
        package var rect: Rect
        /// True inside a right-to-left run (its fill runs from the right).
        package var rightToLeft: Bool
    }

    /// Every cluster in visual order, line by line (for filling sung text).
    package var clusters: [Cluster] { FontLock.held { clustersLocked } }

    private var clustersLocked: [Cluster] {
        var result: [Cluster] = []
        let iter = pango_layout_get_iter(handle)
        defer { pango_layout_iter_free(iter) }
        repeat {
            guard let run = pango_layout_iter_get_run_readonly(iter) else { continue }
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_iter_get_cluster_extents(iter, &ink, &logical)
            result.append(Cluster(byteIndex: Int(pango_layout_iter_get_index(iter)), rect: onPage(TextLayout.pixels(logical)),
                                  rightToLeft: run.pointee.item.pointee.analysis.level % 2 == 1))
        } while pango_layout_iter_next_cluster(iter) != 0
        return result
    }

    /// Glyphs no font covers (drawn by Pango as hex boxes): counted so callers can report them.
    package var missingGlyphs: Int { FontLock.held { missingGlyphsLocked } }

    private var missingGlyphsLocked: Int {
        var missing = 0
        let iter = pango_layout_get_iter(handle)
        defer { pango_layout_iter_free(iter) }
        let unknown = lp_glyph_unknown_flag()
        repeat {
            if let run = pango_layout_iter_get_run_readonly(iter), let glyphs = run.pointee.glyphs {
                for i in 0..<Int(glyphs.pointee.num_glyphs) {
                    let glyph = lp_glyph_at(glyphs, Int32(i)).pointee.glyph
                    if glyph & unknown != 0 { missing += 1 }
                }
            }
        } while pango_layout_iter_next_run(iter) != 0
        return missing
    }

    /// One shaped run: its text, its gravity (`south` for text set the normal way, `east` for
    /// upright text in a vertical layout; a vertical layout's Latin runs are `south`, sideways)
    /// and its glyph ids.
    package struct GlyphRun: Hashable, Sendable {
        package var text: String
        package var gravity: String
        package var glyphs: [UInt32]
    }

    /// Every run in order (for tests of vertical forms and rotation).
    package var glyphRuns: [GlyphRun] {
        FontLock.held {
            var runs: [GlyphRun] = []
            let shaped = Array((pango_layout_get_text(handle).map { String(cString: $0) } ?? "").utf8)
            let iter = pango_layout_get_iter(handle)
            defer { pango_layout_iter_free(iter) }
            repeat {
                guard let run = pango_layout_iter_get_run_readonly(iter), let glyphs = run.pointee.glyphs else { continue }
                let item = run.pointee.item.pointee
                let start = Int(item.offset), end = min(shaped.count, start + Int(item.length))
                let gravity: String
                switch PangoGravity(UInt32(item.analysis.gravity)) {
                case PANGO_GRAVITY_EAST: gravity = "east"
                case PANGO_GRAVITY_NORTH: gravity = "north"
                case PANGO_GRAVITY_WEST: gravity = "west"
                default: gravity = "south"
                }
                runs.append(GlyphRun(text: String(decoding: shaped[min(start, end)..<end], as: UTF8.self), gravity: gravity,
                                     glyphs: (0..<Int(glyphs.pointee.num_glyphs)).map { lp_glyph_at(glyphs, Int32($0)).pointee.glyph }))
            } while pango_layout_iter_next_run(iter) != 0
            return runs
        }
    }

    /// The page boxes of the upright digit cells (縦中横), for tests.
    package var uprightCells: [Rect] { inserts.map { onPage($0.cell) } }

    /// True when some run is set in the colour emoji font (its glyphs carry their own colours).
    package var hasColourGlyphs: Bool { usedFamilies.contains("Noto Color Emoji") }

    /// Distinct font family names the shaped runs use (for reports and tests).
    package var usedFamilies: [String] { FontLock.held { usedFamiliesLocked } }

    private var usedFamiliesLocked: [String] {
        var names = Set<String>()
        let iter = pango_layout_get_iter(handle)
        defer { pango_layout_iter_free(iter) }
        repeat {
            if let run = pango_layout_iter_get_run_readonly(iter), let font = run.pointee.item.pointee.analysis.font {
                let description = pango_font_describe(font)
                if let family = pango_font_description_get_family(description) { names.insert(String(cString: family)) }
                pango_font_description_free(description)
            }
        } while pango_layout_iter_next_run(iter) != 0
        return names.sorted()
    }

    /// The font faces the shaped runs use, each as "file#index" (for tests).
    package var usedFonts: Set<String> {
        FontLock.held {
            var faces = Set<String>()
            let iter = pango_layout_get_iter(handle)
            defer { pango_layout_iter_free(iter) }
            repeat {
                if let run = pango_layout_iter_get_run_readonly(iter), let font = run.pointee.item.pointee.analysis.font,
                   let pattern = lp_font_pattern(font) {
                    var file: UnsafeMutablePointer<FcChar8>?
                    var index: Int32 = 0
                    if FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file {
                        _ = FcPatternGetInteger(pattern, FC_INDEX, 0, &index)
                        faces.insert(String(cString: file) + "#\(index)")
                    }
                }
            } while pango_layout_iter_next_run(iter) != 0
            return faces
        }
    }

    static func pixels(_ r: PangoRectangle) -> Rect {
        let s = Double(lp_pango_scale())
        return Rect(x: Double(r.x) / s, y: Double(r.y) / s, width: Double(r.width) / s, height: Double(r.height) / s)
    }
}
