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

    package init(families: String, size: Double, weight: Int = 400, language: String? = nil,
                alignment: Alignment = .center, lineHeight: Double = 0, italic: Bool = false) {
        self.families = families
        self.size = size
        self.weight = weight
        self.language = language
        self.alignment = alignment
        self.lineHeight = lineHeight
        self.italic = italic
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
        guard let context = pango_font_map_create_context(map) else {
            giveBack(map, to: fonts)
            throw .configuration("could not create a Pango context")
        }
        // Unhinted outlines and metrics: glyph positions scale linearly with size, so layouts do
        // not jitter between sizes, and the result does not depend on the machine's settings.
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_cairo_context_set_resolution(context, 72)
        return (map, context)
    }

    deinit {
        FontLock.held {
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
package final class TextLayout {
    let handle: OpaquePointer
    package let text: String
    package let style: TextStyle
    package let width: Double?

    init(engine: TextEngine, text: String, style: TextStyle, width: Double?, maxLines: Int?) {
        self.text = text
        self.style = style
        self.width = width
        handle = FontLock.held { TextLayout.make(engine: engine, text: text, style: style, width: width, maxLines: maxLines) }
    }

    private static func make(engine: TextEngine, text: String, style: TextStyle, width: Double?, maxLines: Int?) -> OpaquePointer {
        let handle: OpaquePointer = pango_layout_new(engine.context)
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
        pango_layout_get_extents(handle, nil, nil)
        return handle
    }

    deinit { FontLock.held { lp_g_object_unref(UnsafeMutableRawPointer(handle)) } }

    /// The logical (advance-based) box relative to the layout's origin, in pixels. With a width
    /// and centred alignment its x is the offset of the widest line inside that width.
    package var logicalRect: Rect { extents.logical }

    /// The layout's ink and logical boxes, in pixels, and whether it has no ink.
    private var extents: (ink: Rect, logical: Rect, inkIsEmpty: Bool) {
        FontLock.held {
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_extents(handle, &ink, &logical)
            return (TextLayout.pixels(ink), TextLayout.pixels(logical), ink.width <= 0 || ink.height <= 0)
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
            result.append(TextLayout.pixels(logical))
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
            result.append(Cluster(byteIndex: Int(pango_layout_iter_get_index(iter)), rect: TextLayout.pixels(logical),
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
