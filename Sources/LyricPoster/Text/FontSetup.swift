import BundledFonts
import Foundation
import PosterGraphics

/// Which fonts a render may use, and how families are chosen for a language.
public struct FontOptions: Hashable, Sendable {
    /// Extra font folders (`--fonts-dir`), searched in addition to the bundled `fonts/`.
    public var extraDirectories: [String]
    /// Use the machine's own fonts too (`--system-fonts`); off by default for reproducible output.
    public var systemFonts: Bool
    /// The bundled fonts folder; nil = found automatically (see `FontSetup.bundledDirectory()`).
    public var bundledDirectory: String?

    public init(extraDirectories: [String] = [], systemFonts: Bool = false, bundledDirectory: String? = nil) {
        self.extraDirectories = extraDirectories
        self.systemFonts = systemFonts
        self.bundledDirectory = bundledDirectory
    }
}

/// Finds the bundled fonts and builds the font library and per-language family lists.
package enum FontSetup {
    /// Fonts the set-up (`make demo` / `make test`) installs from Debian packages rather than
    /// bundling, because of their size: Noto Sans CJK (fonts-noto-cjk) and Noto Color Emoji
    /// (fonts-noto-color-emoji). Only these files of those folders are used.
    package static let installedFonts = [
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
        "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    ]

    /// The bundled `fonts/` folder: `$LYRICPOSTER_FONTS`, else the package resource built with
    /// the program (``BundledFonts``), else `share/lyricposter/fonts` or `fonts` next to or above
    /// the executable (an install, or a binary copied out of its build).
    package static func bundledDirectory() -> String? {
        let fm = FileManager.default
        func valid(_ dir: String) -> Bool { fm.fileExists(atPath: dir + "/NotoSans-Regular.ttf") }
        if let env = ProcessInfo.processInfo.environment["LYRICPOSTER_FONTS"], !env.isEmpty { return env }
        if let resource = BundledFonts.folder, valid(resource) { return resource }
        var candidates: [String] = []
        // The running executable itself (argv[0] is only a name when started through $PATH).
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? ""
        let exe = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(dir.appendingPathComponent("share/lyricposter/fonts").path)
            candidates.append(dir.appendingPathComponent("fonts").path)
            dir = dir.deletingLastPathComponent()
        }
        return candidates.first(where: valid)
    }

    /// Builds the font library for `options`.
    package static func library(_ options: FontOptions) throws(PosterError) -> FontLibrary {
        guard let bundled = options.bundledDirectory ?? bundledDirectory() else {
            throw PosterError(path: "fonts", reason: "bundled fonts folder not found (set LYRICPOSTER_FONTS)")
        }
        for dir in options.extraDirectories {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw PosterError(path: dir, reason: "no such fonts folder")
            }
        }
        let installed = installedFonts.filter { FileManager.default.fileExists(atPath: $0) }
        do {
            return try FontLibrary(directories: options.extraDirectories + [bundled], files: installed,
                                   systemFonts: options.systemFonts)
        } catch {
            throw PosterError(path: bundled, reason: error.description)
        }
    }

    /// The theme's font family when the library does not have it (it is then drawn with the
    /// bundled families), else nil.
    package static func missingThemeFont(_ family: String?, library: FontLibrary) -> String? {
        guard let family, !family.isEmpty else { return nil }
        let wanted = family.lowercased()
        if library.familyNames().contains(where: { $0.lowercased() == wanted }) { return nil }
        return family
    }

    /// Font files in the bundled and `--fonts-dir` folders that fontconfig could not use
    /// (corrupt, truncated, unreadable): skipped, and reported as warnings.
    package static func unusableFonts(_ options: FontOptions, library: FontLibrary) -> [String] {
        let used = Set(library.fontFiles().map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path })
        var unusable: [String] = []
        let folders = options.extraDirectories + [options.bundledDirectory ?? bundledDirectory()].compactMap { $0 }
        for folder in folders {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names.sorted() where ["ttf", "otf", "ttc", "otc"].contains((name as NSString).pathExtension.lowercased()) {
                let path = URL(fileURLWithPath: folder).appendingPathComponent(name).resolvingSymlinksInPath().path
                if !used.contains(path) { unusable.append(folder + "/" + name) }
            }
        }
        return unusable
    }

    /// The family list for text in `language`: the Latin/Greek/Cyrillic face first, then the CJK
    /// face whose regional glyph forms fit the language, then the other scripts and emoji.
    package static func families(for language: String?, preferring preferred: String? = nil) -> String {
        let cjk: String
        switch cjkRegion(language) {
        case .japanese: cjk = "Noto Sans CJK JP"
        case .korean: cjk = "Noto Sans CJK KR"
        case .traditional: cjk = "Noto Sans CJK TC"
        case .hongKong: cjk = "Noto Sans CJK HK"
        case .simplified: cjk = "Noto Sans CJK SC"
        }
        return ([preferred].compactMap { $0 } + ["Noto Sans", cjk, "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans Thai",
                "Noto Sans Devanagari", "Noto Color Emoji"]).joined(separator: ", ")
    }

    enum CJKRegion { case simplified, traditional, hongKong, japanese, korean }

    static func cjkRegion(_ language: String?) -> CJKRegion {
        let tag = (language ?? "").lowercased().replacingOccurrences(of: "_", with: "-")
        if tag.hasPrefix("ja") { return .japanese }
        if tag.hasPrefix("ko") { return .korean }
        if tag.hasPrefix("yue") || tag.contains("-hk") || tag.contains("-mo") { return .hongKong }
        if tag.contains("hant") || tag.contains("-tw") { return .traditional }
        return .simplified
    }

    /// The language a line of text is in, for glyph-form choice: lines with kana are Japanese and
    /// lines with Hangul Korean whatever the song's language; otherwise the song's language.
    package static func language(of text: String, songLanguage: String?) -> String? {
        var hasKana = false, hasHangul = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: hasKana = true
            case 0xAC00...0xD7AF, 0x1100...0x11FF, 0x3130...0x318F: hasHangul = true
            default: break
            }
        }
        if hasKana { return "ja" }
        if hasHangul { return "ko" }
        return songLanguage
    }
}
