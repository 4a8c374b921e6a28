import PosterGraphics

/// The look of a poster: background, cover card, type sizes, colours and what is shown.
///
/// Built-in themes are in `Theme.builtIn`; a theme file (JSON, see `ThemeFile`) starts from the
/// `card` theme (or the one named in its `"base"`) and overrides what it names. Sizes are pixels on
/// a 1080-pixel side and scale with the canvas.
public struct Theme: Hashable, Sendable {
    /// How the canvas is divided.
    package enum Layout: String, Hashable, Sendable, CaseIterable {
        /// Sharp cover card, title, and the lyrics in their own region (re-flowed per preset).
        case card
        /// The original lock-screen look: the full cover with rows of lyrics on dark bands.
        case classic
        /// The full-bleed cover under a scrim tinted with its own colour; lyrics over the lower part.
        case immersive
        /// A large current line alone on a quiet background.
        case minimal
        /// A header of a small cover and the title beside it, then bold left-aligned lyrics on a
        /// solid block of colour (the lyric-card look of the streaming apps).
        case block
    }

    package enum BackgroundStyle: String, Hashable, Sendable, CaseIterable {
        /// The cover, zoomed, heavily blurred and darkened.
        case blurredCover = "blurred-cover"
        /// The cover itself, filling the canvas.
        case cover
        /// A vertical gradient from the cover's vibrant to its muted colour (both darkened).
        case gradient
        /// One flat colour: the cover's dominant hue (its average where it has none).
        case solid
        /// Plain white, as paper (the e-ink look).
        case paper
    }

    package enum Alignment: String, Hashable, Sendable, CaseIterable { case auto, left, center, right }

    /// How lyric lines are written: in rows, in columns read top to bottom and right to left
    /// (縦書き), or in columns for Chinese and Japanese lyrics on a portrait canvas (`auto`).
    package enum Writing: String, Hashable, Sendable, CaseIterable { case horizontal, vertical, auto }

    /// Light text on a darkened backdrop, dark text on a light frosted one, or whichever the
    /// cover's measured backdrop suits (`auto`).
    package enum SchemeChoice: String, Hashable, Sendable, CaseIterable { case auto, dark, light }

    public var name: String
    public var description: String
    package var layout: Layout
    package var background: BackgroundStyle
    /// Blur radius of the backdrop at 1/8 scale (blurred-cover).
    package var backgroundBlur: Double
    /// Brightness multiplier of the backdrop (1 = unchanged).
    package var backgroundBrightness: Double
    /// Saturation multiplier of the backdrop (1 = unchanged): keeps the cover's colour alive
    /// under blur and darkening.
    package var backgroundSaturation: Double = 1.35
    package var scheme: SchemeChoice = .auto
    /// The current line's colour when `accentFromCover` finds no colourful hue (a grey cover).
    package var accentFallback: Color?
    /// Scrim opacities from top, middle and bottom (black, or the cover's tint for immersive).
    package var scrim: [Double]
    package var card: Bool
    package var cardRadius: Double
    /// Sizes in pixels on a 1080-pixel side.
    package var currentSize: Double
    package var neighbourSize: Double
    /// Translation size as a share of its line's size.
    package var translationScale: Double
    package var titleSize: Double
    package var artistSize: Double
    package var currentWeight: Int
    package var neighbourWeight: Int
    /// A family to put first in every family list (nil: Noto Sans).
    package var fontFamily: String?
    package var textColor: Color
    /// The current line's colour: nil = the text colour; `accentFromCover` = the cover's most
    /// vibrant colour, lightened until it reads on the backdrop.
    package var accentColor: Color?
    package var accentFromCover: Bool
    package var neighbourOpacity: Double
    /// Each further line from the current one is this much more transparent, and blurred by
    /// `depthBlur` pixels more.
    package var opacityFalloff: Double
    package var depthBlur: Double
    package var translationOpacity: Double
    package var artistOpacity: Double
    package var before: Int
    package var after: Int
    package var alignment: Alignment
    package var margin: Double
    package var shadowRadius: Double
    package var shadowOpacity: Double
    package var showTitle: Bool
    package var showArtist: Bool
    package var showAlbum: Bool
    package var showProgress: Bool
    /// Fill the current line left to right over its duration when it has no word timing.
    package var lineProgressFill: Bool
    /// Rows or columns (``Writing``); a session resolves `auto` for its song before laying out.
    package var writing: Writing = .horizontal

    /// The default: the current look of LyricPoster.
    public static let card = Theme(
        name: "card", description: "Blurred cover backdrop, sharp cover card and title, lyrics below (the default)",
        layout: .card, background: .blurredCover, backgroundBlur: 6, backgroundBrightness: 0.72, scrim: [0.05, 0.12, 0.3],
        card: true, cardRadius: 28, currentSize: 64, neighbourSize: 46, translationScale: 0.6, titleSize: 50, artistSize: 30,
        currentWeight: 700, neighbourWeight: 400, fontFamily: nil, textColor: .white, accentColor: nil, accentFromCover: false,
        neighbourOpacity: 0.5, opacityFalloff: 0.12, depthBlur: 0, translationOpacity: 0.75, artistOpacity: 0.72,
        before: 2, after: 3, alignment: .auto, margin: 80, shadowRadius: 10, shadowOpacity: 0.5,
        showTitle: true, showArtist: true, showAlbum: true, showProgress: false, lineProgressFill: false)

    public static let classic: Theme = {
        var t = Theme.card
        t.name = "classic"
        t.description = "The original lock-screen look: the full cover, three rows on dark bands"
        t.layout = .classic
        t.background = .cover
        t.card = false
        // The original drew the sung line in green; here the cover's own vibrant colour, with the
        // original's green for grey covers.
        t.accentFromCover = true
        t.accentFallback = Color(red: 0.5, green: 0.86, blue: 0.56)
        t.scheme = .dark
        t.before = 1
        t.after = 1
        return t
    }()

    public static let immersive: Theme = {
        var t = Theme.card
        t.name = "immersive"
        t.description = "Full-bleed cover under a scrim tinted with its own colour, large left-aligned lyrics, progress bar"
        t.layout = .immersive
        t.background = .cover
        t.card = false
        t.scrim = [0.15, 0.1, 0.3]
        t.backgroundBrightness = 0.85
        t.currentSize = 72
        t.neighbourSize = 44
        t.alignment = .left
        t.accentFromCover = true
        t.before = 2
        t.after = 1
        t.depthBlur = 1.5
        t.opacityFalloff = 0.15
        t.showProgress = true
        return t
    }()

    public static let minimal: Theme = {
        var t = Theme.card
        t.name = "minimal"
        t.description = "A large current line alone on a gradient of the cover's colours"
        t.layout = .minimal
        t.background = .gradient
        t.card = false
        t.currentSize = 84
        t.neighbourSize = 40
        t.before = 0
        t.after = 0
        t.titleSize = 30
        t.artistSize = 24
        t.showAlbum = false
        t.backgroundBrightness = 1
        t.scrim = [0, 0, 0]
        return t
    }()

    /// Made for share cards, and usable for posters: a solid block of the cover's dominant colour,
    /// bold text in the ink that contrasts with it, the cover small beside the title.
    public static let block: Theme = {
        var t = Theme.card
        t.name = "block"
        t.description = "A solid block of the cover's colour, bold text in contrasting ink, the cover small beside the title"
        t.layout = .block
        t.background = .solid
        t.backgroundBrightness = 1
        t.backgroundSaturation = 1
        t.scrim = [0, 0, 0]
        t.cardRadius = 14
        t.currentSize = 66
        t.neighbourSize = 46
        t.currentWeight = 800
        t.neighbourWeight = 700
        t.neighbourOpacity = 0.55
        t.opacityFalloff = 0.1
        t.titleSize = 40
        t.artistSize = 30
        t.alignment = .left
        t.margin = 86
        t.shadowOpacity = 0
        t.before = 1
        t.after = 2
        return t
    }()

    /// Made for e-ink panels (`lyricposter frame --palette`) and print: black type, bold throughout (no thin strokes,
    /// no dimmed lines, no shadows), on white around the sharp cover card; the sung line stands
    /// out by size alone, so it survives a palette of two colours.
    public static let paper: Theme = {
        var t = Theme.card
        t.name = "paper"
        t.description = "Bold black type on white around the sharp cover: for e-ink panels and print"
        t.background = .paper
        t.scheme = .light
        t.backgroundBrightness = 1
        t.backgroundSaturation = 1
        t.scrim = [0, 0, 0]
        t.currentSize = 70
        t.neighbourSize = 44
        t.currentWeight = 800
        t.neighbourWeight = 700
        t.neighbourOpacity = 1
        t.opacityFalloff = 0
        t.translationOpacity = 1
        t.artistOpacity = 1
        t.shadowOpacity = 0
        t.before = 1
        t.after = 2
        return t
    }()

    public static let builtIn: [Theme] = [.card, .classic, .immersive, .minimal, .block, .paper]

    public static func named(_ name: String) -> Theme? { builtIn.first { $0.name == name.lowercased() } }
}

extension Theme {
    /// Every field as `label=value`, spelled out (strings with their length first, so that no two
    /// themes read alike): the theme's part of a backdrop's cache key. Describing the theme by
    /// reflection searched the runtime's conformance records for each kind of field, on the cover's
    /// thread before a cold decode. `ThemeKeyTests` holds it to every stored property.
    var keyText: String { keyFields.map { "\($0.label)=\($0.value)" }.joined(separator: ";") }

    /// The stored properties in declaration order, each with its value as `keyText` spells it.
    var keyFields: [(label: String, value: String)] {
        func text(_ s: String?) -> String { s.map { "\($0.utf8.count):\($0)" } ?? "-" }
        func colour(_ c: Color?) -> String { c?.keyText ?? "-" }
        return [
            ("name", text(name)), ("description", text(description)), ("layout", layout.rawValue),
            ("background", background.rawValue), ("backgroundBlur", "\(backgroundBlur)"),
            ("backgroundBrightness", "\(backgroundBrightness)"), ("backgroundSaturation", "\(backgroundSaturation)"),
            ("scheme", scheme.rawValue), ("accentFallback", colour(accentFallback)),
            ("scrim", scrim.map { "\($0)" }.joined(separator: ",")), ("card", "\(card)"), ("cardRadius", "\(cardRadius)"),
            ("currentSize", "\(currentSize)"), ("neighbourSize", "\(neighbourSize)"), ("translationScale", "\(translationScale)"),
            ("titleSize", "\(titleSize)"), ("artistSize", "\(artistSize)"), ("currentWeight", "\(currentWeight)"),
            ("neighbourWeight", "\(neighbourWeight)"), ("fontFamily", text(fontFamily)), ("textColor", colour(textColor)),
            ("accentColor", colour(accentColor)), ("accentFromCover", "\(accentFromCover)"),
            ("neighbourOpacity", "\(neighbourOpacity)"), ("opacityFalloff", "\(opacityFalloff)"), ("depthBlur", "\(depthBlur)"),
            ("translationOpacity", "\(translationOpacity)"), ("artistOpacity", "\(artistOpacity)"), ("before", "\(before)"),
            ("after", "\(after)"), ("alignment", alignment.rawValue), ("margin", "\(margin)"), ("shadowRadius", "\(shadowRadius)"),
            ("shadowOpacity", "\(shadowOpacity)"), ("showTitle", "\(showTitle)"), ("showArtist", "\(showArtist)"),
            ("showAlbum", "\(showAlbum)"), ("showProgress", "\(showProgress)"), ("lineProgressFill", "\(lineProgressFill)"),
            ("writing", writing.rawValue),
        ]
    }
}

extension Color {
    /// The four components spelled out, for keys (`Theme.keyFields`).
    var keyText: String { "\(red),\(green),\(blue),\(alpha)" }
}
