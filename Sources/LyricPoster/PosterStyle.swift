import Foundation
import PosterGraphics

/// How a poster looks: its canvas, its theme, which lines it shows and how.
public struct PosterStyle: Sendable, Hashable {
    /// What becomes of translation lines.
    public enum Translations: String, Sendable, CaseIterable {
        /// Under their lines.
        case show
        /// Not at all.
        case hide
        /// Instead of the lines they translate (lines without one keep their text).
        case only
    }

    /// What becomes of romanisation lines (romaji, pinyin).
    public enum Romanisation: String, Sendable, CaseIterable {
        /// Between the line and its translation.
        case show
        /// Not at all.
        case hide
    }

    /// The longest text shown of a line by default, in characters.
    public static let defaultMaxLineCharacters = DisplayText.maxCharacters

    /// The canvas: its size and arrangement (``Preset/lockscreen``, ``Preset/square``, …).
    public var preset: Preset
    /// The look (``Theme/card``, ``Theme/named(_:)``, or a theme file's).
    public var theme: Theme
    /// Lines shown before and after the current one; nil: the theme's.
    public var linesBefore: Int?
    public var linesAfter: Int?
    /// Fill the current line as it is sung (word timing where the lyrics have it), as
    /// `lyricposter frame` does by default. Cards show their lines whole whatever it says.
    public var karaoke: Bool
    public var translations: Translations
    public var romanisation: Romanisation
    /// The language for glyph forms (a BCP 47 tag such as `ja` or `zh-Hant`); nil: the lyrics' `[la:]`.
    public var language: String?
    /// Draw the text alone over transparency, not over the cover's backdrop.
    public var textLayer: Bool
    /// Longest text shown of a line, in characters; longer lines end in "…".
    public var maxLineCharacters: Int

    public init(preset: Preset = .lockscreen, theme: Theme = .card, linesBefore: Int? = nil, linesAfter: Int? = nil,
                karaoke: Bool = true, translations: Translations = .show, romanisation: Romanisation = .show,
                language: String? = nil, textLayer: Bool = false, maxLineCharacters: Int = PosterStyle.defaultMaxLineCharacters) {
        self.preset = preset
        self.theme = theme
        self.linesBefore = linesBefore
        self.linesAfter = linesAfter
        self.karaoke = karaoke
        self.translations = translations
        self.romanisation = romanisation
        self.language = language
        self.textLayer = textLayer
        self.maxLineCharacters = maxLineCharacters
    }

    /// The engine's options for `song` in this style, with `fonts` and the backdrop cache in
    /// `backdropCache` (nil: none).
    func options(for song: Song, fonts: FontOptions, backdropCache: String?) -> RenderOptions {
        var options = RenderOptions()
        options.preset = preset
        options.theme = theme
        options.before = linesBefore
        options.after = linesAfter
        options.karaoke = karaoke
        options.translations = translations
        options.romanisation = romanisation
        options.language = language
        options.textLayer = textLayer
        options.maxLineCharacters = maxLineCharacters
        options.fonts = fonts
        options.backdropCache = backdropCache
        let reading = song.reading
        options.format = reading.format
        options.encoding = reading.encoding
        options.offsetSign = reading.offsetSign
        options.translationLanguage = reading.translationLanguage
        options.maxLyricsBytes = reading.maxLyricsBytes
        options.maxLyricsLines = reading.maxLyricsLines
        options.limits = DecodeLimits(maxPixels: reading.maxCoverPixels)
        // A title given, else the lyrics' own; never one made from a name ("" draws none).
        options.title = song.title ?? (song.lyrics.metadata.title == nil ? "" : nil)
        options.artist = song.artist
        options.album = song.album
        options.duration = song.duration
        return options
    }
}
