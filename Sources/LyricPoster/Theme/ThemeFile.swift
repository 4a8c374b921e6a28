import Foundation
import PosterGraphics

/// Reads theme files: JSON objects that start from a built-in theme (`"base"`, default `card`) and
/// override what they name. Every key is checked; an error names the key and what it must be.
///
/// ```json
/// {"base": "card", "name": "night", "description": "…",
///  "layout": "card | classic | immersive | minimal | block",
///  "background": {"style": "blurred-cover | cover | gradient | solid", "blur": 6, "brightness": 0.72,
///                 "saturation": 1.35, "scrim": [0.05, 0.12, 0.3]},
///  "scheme": "auto | dark | light",
///  "card": {"show": true, "radius": 28},
///  "sizes": {"current": 64, "neighbour": 46, "translation": 0.6, "title": 50, "artist": 30},
///  "weights": {"current": 700, "neighbour": 400},
///  "font": "Noto Sans",
///  "colors": {"text": "#FFFFFF", "accent": "text | cover | #RRGGBB"},
///  "opacity": {"neighbour": 0.5, "falloff": 0.12, "translation": 0.75, "artist": 0.72},
///  "depth_blur": 0, "lines": {"before": 1, "after": 1}, "align": "auto | left | center",
///  "margin": 80, "shadow": {"radius": 10, "opacity": 0.5},
///  "show": {"title": true, "artist": true, "album": true, "progress": false, "line_progress": false}}
/// ```
public enum ThemeFile {
    /// A built-in theme's name, or the path of a theme file.
    public static func load(_ nameOrPath: String) throws(PosterError) -> Theme {
        if let theme = Theme.named(nameOrPath) { return theme }
        guard nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") || FileManager.default.fileExists(atPath: nameOrPath) else {
            throw PosterError(path: nameOrPath, reason: "no such theme (built in: \(Theme.builtIn.map(\.name).joined(separator: ", ")))")
        }
        let data = try Inputs.read(nameOrPath, limit: 1 << 20)
        do {
            return try parse(data)
        } catch {
            throw PosterError(path: nameOrPath, reason: error.description)
        }
    }

    /// Why a theme file was refused: the key (dotted path) and what it must be.
    package struct Problem: Error, CustomStringConvertible, Equatable {
        package var key: String
        package var reason: String
        package var description: String { key.isEmpty ? reason : "\(key): \(reason)" }
    }

    package static func parse(_ data: Data) throws(Problem) -> Theme {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw Problem(key: "", reason: "not valid JSON")
        }
        guard let root = object as? [String: Any] else { throw Problem(key: "", reason: "must be a JSON object") }
        var reader = Reader(object: root, path: "")
        var theme = Theme.card
        if let base = try reader.string("base") {
            guard let named = Theme.named(base) else {
                throw Problem(key: "base", reason: "must name a built-in theme (\(Theme.builtIn.map(\.name).joined(separator: ", ")))")
            }
            theme = named
        }
        theme.name = try reader.string("name") ?? theme.name
        theme.description = try reader.string("description") ?? theme.description
        if let layout = try reader.choice("layout", Theme.Layout.self) { theme.layout = layout }
        if let scheme = try reader.choice("scheme", Theme.SchemeChoice.self) { theme.scheme = scheme }
        if var background = try reader.object("background") {
            if let style = try background.choice("style", Theme.BackgroundStyle.self) { theme.background = style }
            theme.backgroundBlur = try background.number("blur", 0...40) ?? theme.backgroundBlur
            theme.backgroundBrightness = try background.number("brightness", 0...2) ?? theme.backgroundBrightness
            theme.backgroundSaturation = try background.number("saturation", 0...3) ?? theme.backgroundSaturation
            if let scrim = try background.numbers("scrim", count: 3, 0...1) { theme.scrim = scrim }
            try background.finish()
        }
        if var card = try reader.object("card") {
            theme.card = try card.bool("show") ?? theme.card
            theme.cardRadius = try card.number("radius", 0...200) ?? theme.cardRadius
            try card.finish()
        }
        if var sizes = try reader.object("sizes") {
            theme.currentSize = try sizes.number("current", 8...400) ?? theme.currentSize
            theme.neighbourSize = try sizes.number("neighbour", 8...400) ?? theme.neighbourSize
            theme.translationScale = try sizes.number("translation", 0.2...1.5) ?? theme.translationScale
            theme.titleSize = try sizes.number("title", 8...400) ?? theme.titleSize
            theme.artistSize = try sizes.number("artist", 8...400) ?? theme.artistSize
            try sizes.finish()
        }
        if var weights = try reader.object("weights") {
            theme.currentWeight = try weights.integer("current", 100...1000) ?? theme.currentWeight
            theme.neighbourWeight = try weights.integer("neighbour", 100...1000) ?? theme.neighbourWeight
            try weights.finish()
        }
        if let font = try reader.string("font") { theme.fontFamily = font.isEmpty ? nil : font }
        if var colors = try reader.object("colors") {
            if let text = try colors.color("text") {
                guard text.alpha == 1 else { throw Problem(key: "colors.text", reason: "must be opaque (#RRGGBB)") }
                guard text.relativeLuminance >= 0.5 else {
                    throw Problem(key: "colors.text", reason: "must be a light colour (the dark scheme's text; the light scheme derives its ink from the cover)")
                }
                theme.textColor = text
            }
            if let accent = try colors.string("accent") {
                switch accent {
                case "text": theme.accentColor = nil; theme.accentFromCover = false
                case "cover": theme.accentColor = nil; theme.accentFromCover = true
                default:
                    guard let color = Color(hex: accent), color.alpha == 1, color.relativeLuminance >= 0.3 else {
                        throw Problem(key: "colors.accent", reason: "must be \"text\", \"cover\" or a light, opaque #RRGGBB colour")
                    }
                    theme.accentColor = color
                    theme.accentFromCover = false
                }
            }
            try colors.finish()
        }
        if var opacity = try reader.object("opacity") {
            theme.neighbourOpacity = try opacity.number("neighbour", 0.2...1) ?? theme.neighbourOpacity
            theme.opacityFalloff = try opacity.number("falloff", 0...0.3) ?? theme.opacityFalloff
            theme.translationOpacity = try opacity.number("translation", 0.2...1) ?? theme.translationOpacity
            theme.artistOpacity = try opacity.number("artist", 0.2...1) ?? theme.artistOpacity
            try opacity.finish()
        }
        theme.depthBlur = try reader.number("depth_blur", 0...10) ?? theme.depthBlur
        if var lines = try reader.object("lines") {
            theme.before = try lines.integer("before", 0...10) ?? theme.before
            theme.after = try lines.integer("after", 0...10) ?? theme.after
            try lines.finish()
        }
        if let align = try reader.choice("align", Theme.Alignment.self) { theme.alignment = align }
        if let writing = try reader.choice("writing", Theme.Writing.self) { theme.writing = writing }
        theme.margin = try reader.number("margin", 0...300) ?? theme.margin
        if var shadow = try reader.object("shadow") {
            theme.shadowRadius = try shadow.number("radius", 0...60) ?? theme.shadowRadius
            theme.shadowOpacity = try shadow.number("opacity", 0...1) ?? theme.shadowOpacity
            try shadow.finish()
        }
        if var show = try reader.object("show") {
            theme.showTitle = try show.bool("title") ?? theme.showTitle
            theme.showArtist = try show.bool("artist") ?? theme.showArtist
            theme.showAlbum = try show.bool("album") ?? theme.showAlbum
            theme.showProgress = try show.bool("progress") ?? theme.showProgress
            theme.lineProgressFill = try show.bool("line_progress") ?? theme.lineProgressFill
            try show.finish()
        }
        try reader.finish()
        return theme
    }

    /// Reads typed values from one JSON object, remembering which keys were used so that unknown
    /// (mistyped) keys are reported by `finish()`.
    struct Reader {
        let object: [String: Any]
        let path: String
        var used: Set<String> = []

        init(object: [String: Any], path: String) {
            self.object = object
            self.path = path
        }

        func key(_ name: String) -> String { path.isEmpty ? name : path + "." + name }

        mutating func value(_ name: String) -> Any? {
            used.insert(name)
            guard let v = object[name], !(v is NSNull) else { return nil }
            return v
        }

        mutating func string(_ name: String) throws(Problem) -> String? {
            guard let v = value(name) else { return nil }
            guard let s = v as? String else { throw Problem(key: key(name), reason: "must be a string") }
            return s
        }

        mutating func number(_ name: String, _ range: ClosedRange<Double>) throws(Problem) -> Double? {
            guard let v = value(name) else { return nil }
            guard let n = v as? NSNumber, !Self.isBoolean(n), range.contains(n.doubleValue) else {
                throw Problem(key: key(name), reason: "must be a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))")
            }
            return n.doubleValue
        }

        mutating func integer(_ name: String, _ range: ClosedRange<Int>) throws(Problem) -> Int? {
            guard let n = try number(name, Double(range.lowerBound)...Double(range.upperBound)) else { return nil }
            guard n == n.rounded() else { throw Problem(key: key(name), reason: "must be a whole number") }
            return Int(n)
        }

        mutating func numbers(_ name: String, count: Int, _ range: ClosedRange<Double>) throws(Problem) -> [Double]? {
            guard let v = value(name) else { return nil }
            guard let list = v as? [Any], list.count == count,
                  let values = Optional(list.compactMap { ($0 as? NSNumber).flatMap { Self.isBoolean($0) ? nil : $0.doubleValue } }),
                  values.count == count,
                  values.allSatisfy(range.contains) else {
                throw Problem(key: key(name), reason: "must be \(count) numbers from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))")
            }
            return values
        }

        mutating func bool(_ name: String) throws(Problem) -> Bool? {
            guard let v = value(name) else { return nil }
            guard let n = v as? NSNumber, Self.isBoolean(n) else {
                throw Problem(key: key(name), reason: "must be true or false")
            }
            return n.boolValue
        }

        mutating func color(_ name: String) throws(Problem) -> Color? {
            guard let s = try string(name) else { return nil }
            guard let c = Color(hex: s) else { throw Problem(key: key(name), reason: "must be a colour like #RRGGBB") }
            return c
        }

        mutating func choice<T: RawRepresentable & CaseIterable>(_ name: String, _ type: T.Type) throws(Problem) -> T?
            where T.RawValue == String {
            guard let s = try string(name) else { return nil }
            guard let v = T(rawValue: s) else {
                throw Problem(key: key(name), reason: "must be one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return v
        }

        mutating func object(_ name: String) throws(Problem) -> Reader? {
            guard let v = value(name) else { return nil }
            guard let o = v as? [String: Any] else { throw Problem(key: key(name), reason: "must be an object") }
            return Reader(object: o, path: key(name))
        }

        func finish() throws(Problem) {
            if let unknown = object.keys.filter({ !used.contains($0) }).sorted().first {
                throw Problem(key: key(unknown), reason: "unknown key")
            }
        }

        /// JSON true/false arrive as NSNumbers too; Foundation marks them with the `c` (char) type.
        static func isBoolean(_ n: NSNumber) -> Bool { String(cString: n.objCType) == "c" }

        static func format(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
    }
}

extension Color {
    /// `#RRGGBB` or `#RRGGBBAA`.
    package init?(hex: String) {
        var s = hex
        guard s.hasPrefix("#") else { return nil }
        s.removeFirst()
        guard s.count == 6 || s.count == 8, s.allSatisfy(\.isHexDigit), let v = UInt64(s, radix: 16) else { return nil }
        let hasAlpha = s.count == 8
        let r = Double((v >> (hasAlpha ? 24 : 16)) & 0xff) / 255, g = Double((v >> (hasAlpha ? 16 : 8)) & 0xff) / 255
        let b = Double((v >> (hasAlpha ? 8 : 0)) & 0xff) / 255, a = hasAlpha ? Double(v & 0xff) / 255 : 1
        self.init(red: r, green: g, blue: b, alpha: a)
    }
}
