import CCairoPango
import Foundation
import Locks

/// The set of fonts text may use: a fontconfig configuration built from explicit folders and
/// files, so that output does not depend on what else the machine has installed.
///
/// The corresponding C type is `FcConfig`. One library is shared, read-only, by every thread;
/// each thread makes its own `TextEngine` from it.
///
/// `@unchecked Sendable`: the `FcConfig` is built whole in `init` and never changed after; it is
/// then only read (font lists, matching, Pango font maps made over it), which fontconfig allows
/// from any number of threads at once, and every other property is a `let` of a Sendable type.
package final class FontLibrary: @unchecked Sendable {
    let config: OpaquePointer
    /// Folders scanned for fonts, in order.
    package let directories: [String]
    /// Font files taken from system folders (fonts the set-up installs).
    package let files: [String]
    /// True when the machine's own fontconfig set is included (`--system-fonts`).
    package let includesSystemFonts: Bool

    /// - Parameters:
    ///   - directories: folders whose every font is used (the bundled `fonts/`, `--fonts-dir`).
    ///   - files: single font files from system folders (e.g. the CJK and emoji fonts the set-up
    ///     installs); only these files of those folders are used.
    ///   - systemFonts: also use every font the machine's fontconfig knows.
    package init(directories: [String], files: [String] = [], systemFonts: Bool = false) throws(FontError) {
        let config: OpaquePointer
        if systemFonts {
            guard let loaded = FcInitLoadConfigAndFonts() else { throw .configuration("could not load the system font configuration") }
            config = loaded
        } else {
            guard let created = FcConfigCreate() else { throw .configuration("out of memory") }
            config = created
        }
        let fileDirs = Set(files.map { ($0 as NSString).deletingLastPathComponent }).sorted()
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"urn:fontconfig:fonts.dtd\">\n<fontconfig>\n"
        for dir in directories { xml += "<dir>\(FontLibrary.escape(dir))</dir>\n" }
        if !systemFonts {
            for dir in fileDirs { xml += "<dir>\(FontLibrary.escape(dir))</dir>\n" }
            // System folders come with fontconfig caches made at install time; reading them keeps
            // start-up fast. Only the named files of those folders are accepted.
            xml += "<cachedir>/var/cache/fontconfig</cachedir>\n<cachedir prefix=\"xdg\">fontconfig</cachedir>\n"
            if !fileDirs.isEmpty {
                xml += "<selectfont><acceptfont>\n"
                for file in files { xml += "<glob>\(FontLibrary.escape(file))</glob>\n" }
                xml += "</acceptfont><rejectfont>\n"
                for dir in fileDirs { xml += "<glob>\(FontLibrary.escape(dir))/*</glob>\n" }
                xml += "</rejectfont></selectfont>\n"
            }
        }
        xml += FontLibrary.scaleBitmapFonts + FontLibrary.syntheticItalic + FontLibrary.emojiAlias
        xml += "</fontconfig>\n"
        let parsed = xml.withCString { FcConfigParseAndLoadFromMemory(config, $0, 1) }
        guard parsed != 0 else {
            FcConfigDestroy(config)
            throw .configuration("fontconfig rejected the configuration")
        }
        guard FcConfigBuildFonts(config) != 0 else {
            FcConfigDestroy(config)
            throw .configuration("could not scan the font folders")
        }
        self.config = config
        self.directories = directories
        self.files = files
        self.includesSystemFonts = systemFonts
        if familyNames().isEmpty {
            throw .noFonts(directories.joined(separator: ", "))
        }
    }

    /// Font maps no `TextEngine` holds now, each with the fonts it has opened and the font
    /// matches it has made, for the next engine over this library (the last one given back is
    /// the first taken): a catalogue or a server then opens its fonts and sorts its fallbacks
    /// once, not once per song and thread. At most `spareLimit` are kept.
    let spareFontMaps = Guarded<[UnsafeMutablePointer<PangoFontMap>]>([])
    static let spareLimit = 8

    deinit {
        let spare = spareFontMaps.withLock { $0 }
        FontLock.held {
            for map in spare { lp_g_object_unref(map) }
        }
        FcConfigDestroy(config)
    }

    /// Every family name the library offers, sorted.
    package func familyNames() -> [String] {
        guard let pattern = FcPatternCreate() else { return [] }
        defer { FcPatternDestroy(pattern) }
        guard let objects = FcObjectSetCreate() else { return [] }
        defer { FcObjectSetDestroy(objects) }
        _ = FcObjectSetAdd(objects, FC_FAMILY)
        guard let set = FcFontList(config, pattern, objects) else { return [] }
        defer { FcFontSetDestroy(set) }
        var names = Set<String>()
        let count = Int(set.pointee.nfont)
        for i in 0..<count {
            guard let font = set.pointee.fonts[i] else { continue }
            var value: UnsafeMutablePointer<FcChar8>?
            var n: Int32 = 0
            while FcPatternGetString(font, FC_FAMILY, n, &value) == FcResultMatch, let value {
                names.insert(String(cString: value))
                n += 1
            }
        }
        return names.sorted()
    }

    /// The font files the library uses, sorted (for render keys and unusable-font warnings).
    package func fontFiles() -> [String] {
        var files = Set<String>()
        for which in [FcSetSystem, FcSetApplication] {
            guard let set = FcConfigGetFonts(config, which) else { continue }
            for i in 0..<Int(set.pointee.nfont) {
                guard let font = set.pointee.fonts[i] else { continue }
                var value: UnsafeMutablePointer<FcChar8>?
                if FcPatternGetString(font, FC_FILE, 0, &value) == FcResultMatch, let value {
                    files.insert(String(cString: value))
                }
            }
        }
        return files.sorted()
    }

    /// Colour emoji fonts are bitmaps at one size; without this rule (the same as fontconfig's
    /// own 10-scale-bitmap-fonts.conf, which an empty configuration lacks) they would draw at that
    /// size whatever size the text asks for.
    static let scaleBitmapFonts = """
    <match target="font">
      <test name="outline" compare="eq"><bool>false</bool></test>
      <edit name="pixelsizefixupfactor" mode="assign">
        <divide><name target="pattern">pixelsize</name><name target="font">pixelsize</name></divide>
      </edit>
    </match>
    <match target="font">
      <test name="outline" compare="eq"><bool>false</bool></test>
      <test name="pixelsizefixupfactor" compare="not_eq"><double>1.0</double></test>
      <edit name="matrix" mode="assign">
        <times><name>matrix</name>
          <matrix><name>pixelsizefixupfactor</name><double>0</double><double>0</double><name>pixelsizefixupfactor</name></matrix>
        </times>
      </edit>
      <edit name="size" mode="assign"><divide><name>size</name><name>pixelsizefixupfactor</name></divide></edit>
    </match>

    """

    /// Pango asks for the family "emoji" on runs that must be shown as emoji (emoji presentation
    /// sequences such as keycaps and characters followed by U+FE0F). fontconfig's stock
    /// configuration maps that name to the colour emoji fonts; this configuration must too, or a
    /// text font covering the base character (digits, ©, ☀) would be used instead.
    /// Italic asked of a family with no italic face (the bundled Noto Sans has none): the upright
    /// face slanted, as fontconfig's own 90-synthetic.conf does.
    static let syntheticItalic = """
    <match target="font">
      <test name="slant" compare="eq"><const>roman</const></test>
      <test target="pattern" name="slant" compare="not_eq"><const>roman</const></test>
      <edit name="matrix" mode="assign">
        <times><name>matrix</name>
          <matrix><double>1</double><double>0.2</double><double>0</double><double>1</double></matrix>
        </times>
      </edit>
      <edit name="slant" mode="assign"><const>oblique</const></edit>
    </match>

    """

    static let emojiAlias = """
    <alias binding="same">
      <family>emoji</family>
      <prefer><family>Noto Color Emoji</family></prefer>
    </alias>

    """

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
