import Foundation
import ArgumentParser
import LyricPoster
import LyricsCore
import PosterGraphics

extension Timestamp: ExpressibleByArgument {
    public init?(argument: String) {
        guard let t = Timestamp.parse(argument) else { return nil }
        self = t
    }

    /// An instant flag's value (`--at`), taken even when it starts with `-` (so `--at -5` is read
    /// as a time and refused as one); a value that is no time says which forms are.
    static func instant(_ text: String) throws -> Timestamp {
        if let time = Timestamp.parse(text) { return time }
        if text.hasPrefix("-") { throw ValidationError("a time is 0 or later (the song's start is 0)") }
        throw ValidationError("not a time: give 83.45, 1:23.45, 01:23.450, 1:02:03.5 or 83450ms (minutes and seconds below 60)")
    }
}

/// Canvas, layout, fonts and decoding options shared by every command that renders.
struct RenderOptionGroup: ParsableArguments {
    @Option(help: ArgumentHelp("Canvas preset: \(Preset.all.map(\.name).joined(separator: ", ")).", valueName: "name"),
            completion: .list(Completions.presets))
    var preset: String?

    @Option(help: ArgumentHelp("Custom canvas size, e.g. 1200x1600 (instead of --preset).", valueName: "WxH"))
    var size: String?

    @Option(help: ArgumentHelp("The look: a built-in theme (\(Theme.builtIn.map(\.name).joined(separator: ", "))) or a theme file (JSON). See `lyricposter themes`. (default: card; paper for an e-ink palette)", valueName: "name|file"),
            completion: .list(Completions.themes))
    var theme: String?

    @Option(help: ArgumentHelp("Lyrics in rows (horizontal), in columns read top to bottom and right to left (vertical), or in columns for Chinese and Japanese lyrics on a portrait canvas (auto). Default: the theme's, horizontal.", valueName: "mode"),
            completion: .list(Theme.Writing.allCases.map(\.rawValue)))
    var writing: String?

    @Option(help: ArgumentHelp("What the lyrics stand on: a picture of your own (a PNG, JPEG or WebP file, made into the backdrop as the theme makes the cover's), or the cover blurred (cover), the cover sharp (photo), its colour (solid) or its colours (gradient). Default: the theme's.", valueName: "file|style"),
            completion: .file(extensions: ["png", "jpg", "jpeg", "webp"]))
    var background: String?

    @Option(help: ArgumentHelp("Lyric lines shown before the current one (default: the theme's, 2 for card).", valueName: "n"))
    var before: Int?

    @Option(help: ArgumentHelp("Lyric lines shown after the current one (default: the theme's, 3 for card).", valueName: "n"))
    var after: Int?

    @Option(help: ArgumentHelp("Translation sub-lines: show, hide, or only (in place of their lines).", valueName: "mode"),
            completion: .list(["show", "hide", "only"]))
    var translations: String = "show"

    @Option(help: ArgumentHelp("Romanisation sub-lines (romaji, pinyin) between a line and its translation: show or hide.", valueName: "mode"),
            completion: .list(["show", "hide"]))
    var romanisation: String = "show"

    @Option(help: ArgumentHelp("Lyrics format: lrc, ttml, yrc, srt, vtt, qrc, krc, lys, lyl, lqe, eslrc, ass or lyricsfile (detected from the content when omitted).", valueName: "format"),
            completion: .list(LyricsFormat.fileFormats.map(\.rawValue)))
    var format: String?

    @Option(help: ArgumentHelp("Title to show instead of the [ti:] tag (\"\" for none).", valueName: "text"))
    var title: String?

    @Option(help: ArgumentHelp("Artist to show instead of the [ar:] tag.", valueName: "text"))
    var artist: String?

    @Option(help: ArgumentHelp("Album to show instead of the [al:] tag.", valueName: "text"))
    var album: String?

    @Option(help: ArgumentHelp("The song's length for the progress bar (default: [length:] or the last line's end).", valueName: "time"))
    var duration: Timestamp?

    @Option(help: ArgumentHelp("Language of the lyrics (BCP 47, e.g. ja, zh-Hant, ko), overriding [la:]; picks regional glyph forms.", valueName: "tag"))
    var lang: String?

    @Option(name: .customLong("fonts-dir"), help: ArgumentHelp("An extra folder of fonts to use (repeatable).", valueName: "dir"),
            completion: .directory)
    var fontsDirs: [String] = []

    @Flag(name: .customLong("system-fonts"), help: "Also use the machine's installed fonts (output then depends on the machine).")
    var systemFonts = false

    @Option(help: ArgumentHelp("Text encoding of the lyrics file (utf-8, utf-16le, gb18030, big5, shift_jis, euc-kr, ...); detected when omitted.", valueName: "name"),
            completion: .list(TextDecoding.knownEncodings))
    var encoding: String?

    @Option(name: .customLong("max-cover-pixels"), help: ArgumentHelp("Refuse covers with more pixels than this (checked before decoding).", valueName: "n"))
    var maxCoverPixels: Int = 100_000_000

    @Option(name: .customLong("max-lyrics-bytes"), help: ArgumentHelp("Refuse lyrics files larger than this.", valueName: "n"))
    var maxLyricsBytes: Int = 16 * 1024 * 1024

    @Option(name: .customLong("max-lyrics-lines"), help: ArgumentHelp("Refuse lyrics with more timed lines than this.", valueName: "n"))
    var maxLyricsLines: Int = 100_000

    @Option(name: .customLong("max-line-length"), help: ArgumentHelp("Longest text shown per lyric line, in characters (longer lines end in an ellipsis).", valueName: "n"))
    var maxLineLength: Int = DisplayText.maxCharacters

    @Option(name: .customLong("offset-sign"), help: ArgumentHelp("How [offset:] applies: 'subtract' (display = stamp - offset, the common reading) or 'add'.", valueName: "sign"))
    var offsetSign: String = "subtract"

    @Option(name: .customLong("translation-lang"), help: ArgumentHelp("Which translation to show when the lyrics carry several languages (a language tag such as zh-Hans or en); default: your locale's, else the file's first.", valueName: "tag"))
    var translationLang: String?

    @Option(name: .customLong("png-compression"), help: ArgumentHelp("PNG compression: fast, balanced or small.", valueName: "level"),
            completion: .list(["fast", "balanced", "small"]))
    var pngCompression: String = "fast"

    /// Said once per run when lines asked for with --before/--after did not fit the canvas.
    func droppedLinesWarning(before dropped: Int, after droppedAfter: Int) -> String? {
        var parts: [String] = []
        if let before, dropped > 0 { parts.append("--before \(before): up to \(dropped) line(s) did not fit") }
        if let after, droppedAfter > 0 { parts.append("--after \(after): up to \(droppedAfter) line(s) did not fit") }
        guard !parts.isEmpty else { return nil }
        return parts.joined(separator: "; ") + " at this size and theme, and were left out"
    }

    func validate() throws {
        if preset != nil, size != nil { throw ValidationError("--preset and --size cannot be used together") }
        if let background, Self.backgroundStyle(background) == nil, !Inputs.exists(background) {
            throw ValidationError("--background \(background): no such file; a picture, or one of cover, photo, solid, gradient")
        }
        if let writing, Theme.Writing(rawValue: writing.lowercased()) == nil {
            throw ValidationError("--writing must be horizontal, vertical or auto")
        }
        if let preset, Preset.named(preset) == nil {
            throw ValidationError("unknown preset '\(preset)' (choose from \(Preset.all.map(\.name).joined(separator: ", ")))")
        }
        if let size, parseSize(size) == nil {
            throw ValidationError("--size must be WIDTHxHEIGHT with each side from 64 to 8192, e.g. 1200x1600")
        }
        guard (0...10).contains(before ?? 0), (0...10).contains(after ?? 0) else {
            throw ValidationError("--before and --after must be from 0 to 10")
        }
        guard SceneBuilder.TranslationMode(rawValue: translations) != nil else {
            throw ValidationError("--translations must be show, hide or only")
        }
        guard SceneBuilder.RomanisationMode(rawValue: romanisation) != nil else {
            throw ValidationError("--romanisation must be show or hide")
        }
        try validateFormat(format)
        if let theme, theme.isEmpty { throw ValidationError("--theme needs a name or a file") }
        // A name that is no built-in theme is a bad flag value, as a bad --preset is (64); a theme
        // file that cannot be used is a bad input (1, naming the file).
        if let theme, Theme.named(theme) == nil, !theme.contains("/"), !theme.hasSuffix(".json"), !FileManager.default.fileExists(atPath: theme) {
            throw ValidationError("unknown theme '\(theme)' (choose from \(Theme.builtIn.map(\.name).joined(separator: ", ")), or give a theme file)")
        }
        if let duration, duration.milliseconds <= 0 { throw ValidationError("--duration must be longer than 0") }
        guard (1...1_000_000_000).contains(maxCoverPixels) else {
            throw ValidationError("--max-cover-pixels must be from 1 to 1000000000")
        }
        guard ["subtract", "add"].contains(offsetSign) else { throw ValidationError("--offset-sign must be subtract or add") }
        guard (1...1_073_741_824).contains(maxLyricsBytes) else { throw ValidationError("--max-lyrics-bytes must be from 1 to 1073741824") }
        guard (1...10_000_000).contains(maxLyricsLines) else { throw ValidationError("--max-lyrics-lines must be from 1 to 10000000") }
        guard (2...100_000).contains(maxLineLength) else { throw ValidationError("--max-line-length must be from 2 to 100000") }
        if let encoding, TextDecoding.canonicalName(for: encoding) == nil {
            throw ValidationError("unknown encoding '\(encoding)' (known: \(TextDecoding.knownEncodings.joined(separator: ", ")))")
        }
        guard PNG.Compression(rawValue: pngCompression) != nil else {
            throw ValidationError("--png-compression must be fast, balanced or small")
        }
    }

    /// Files read besides the song's (a `--background` picture), which no output may overwrite.
    var inputPaths: [String] {
        guard let background, Self.backgroundStyle(background) == nil else { return [] }
        return [background]
    }

    /// The backdrop style a `--background` word names (a file of that name is `./cover`).
    static func backgroundStyle(_ text: String) -> Theme.BackgroundStyle? {
        switch text.lowercased() {
        case "cover": return .blurredCover
        case "photo": return .cover
        case "solid": return .solid
        case "gradient": return .gradient
        default: return nil
        }
    }

    func parseSize(_ text: String) -> (Int, Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (64...8192).contains(w), (64...8192).contains(h) else { return nil }
        return (w, h)
    }

    /// The options, with the theme read (a theme file's problems are input errors, exit 1).
    /// `karaoke`: the command renders instants (frame, sequence, video, serve) and fills the sung
    /// line (its own `--karaoke` flag, which only those commands list).
    /// `defaultTheme`: the theme without `--theme` (paper for e-ink pictures).
    func renderOptions(karaoke: Bool = false, defaultTheme: String = Theme.card.name) throws(PosterError) -> RenderOptions {
        var options = RenderOptions()
        options.backdropCache = BackdropCache.defaultFolder
        options.karaoke = karaoke
        options.theme = try ThemeFile.load(theme ?? defaultTheme)
        if let writing, let mode = Theme.Writing(rawValue: writing.lowercased()) { options.theme.writing = mode }
        if let background {
            if let style = Self.backgroundStyle(background) { options.theme.background = style } else { options.backgroundPicture = background }
        }
        options.translations = SceneBuilder.TranslationMode(rawValue: translations) ?? .show
        options.romanisation = SceneBuilder.RomanisationMode(rawValue: romanisation) ?? .show
        options.format = format.flatMap(LyricsFormat.init(rawValue:))
        options.title = title
        options.artist = artist
        options.album = album
        options.duration = duration
        if let size, let (w, h) = parseSize(size) {
            options.preset = .custom(width: w, height: h)
        } else if let preset, let named = Preset.named(preset) {
            options.preset = named
        }
        options.before = before
        options.after = after
        options.language = lang
        options.fonts = FontOptions(extraDirectories: fontsDirs, systemFonts: systemFonts)
        options.encoding = encoding
        options.offsetSign = offsetSign == "add" ? .add : .subtract
        options.translationLanguage = translationLang
        options.maxLyricsBytes = maxLyricsBytes
        options.maxLyricsLines = maxLyricsLines
        options.maxLineCharacters = maxLineLength
        options.limits = DecodeLimits(maxPixels: maxCoverPixels)
        options.compression = PNG.Compression(rawValue: pngCompression) ?? .fast
        return options
    }
}

/// Checks a `--format` value.
func validateFormat(_ format: String?) throws {
    if let format, !LyricsFormat.fileFormats.contains(where: { $0.rawValue == format }) {
        throw ValidationError("--format must be one of \(LyricsFormat.fileFormats.map(\.rawValue).joined(separator: ", "))")
    }
}

/// How `video` and `sequence` go from one line to the next.
/// `--karaoke`/`--no-karaoke`, for the commands that draw instants of a song as it is sung.
struct KaraokeOptionGroup: ParsableArguments {
    @Flag(inversion: .prefixedNo,
          help: "--karaoke fills the current line as it is sung (word timing, else across the line); --no-karaoke draws it unfilled.")
    var karaoke = true
}

struct MotionOptionGroup: ParsableArguments {
    @Option(help: ArgumentHelp("How lines change: scroll (they move to their new places, the sung line growing into place), fade, or none (a cut).",
                               valueName: "style"), completion: .list(Transition.Style.allCases.map(\.rawValue)))
    var transition: String = "scroll"

    @Option(name: .customLong("transition-ms"), help: ArgumentHelp("How long a change takes, in milliseconds (shorter when the next line comes sooner).",
                                                                 valueName: "ms"))
    var transitionMs: Int = Transition.defaultDurationMs

    func validate() throws {
        guard Transition.Style(rawValue: transition) != nil else {
            throw ValidationError("--transition must be \(Transition.Style.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard (Transition.shortestMs...3000).contains(transitionMs) else {
            throw ValidationError("--transition-ms must be from \(Transition.shortestMs) to 3000")
        }
    }

    var value: Transition { Transition(style: Transition.Style(rawValue: transition) ?? .scroll, durationMs: transitionMs) }
}

/// The text alone over a transparent canvas (`frame`, `lines`, `sequence`, `video`).
struct AlphaOptionGroup: ParsableArguments {
    @Flag(help: "The text alone on a transparent canvas (no cover, no backdrop): PNG with alpha, or a .webm/.mov video with alpha, to lay over other footage.")
    var alpha = false
}
