import Foundation
import LyricsCore
import PosterGraphics
import Locks

/// Options shared by every command that renders.
package struct RenderOptions: Sendable {
    package var preset: Preset = .lockscreen
    /// The look; its `before`/`after` apply unless set here.
    package var theme: Theme = .card
    /// Lines shown before and after the current one (nil: the theme's).
    package var before: Int?
    package var after: Int?
    /// Translation sub-lines: show, hide, or show instead of their lines.
    package var translations: SceneBuilder.TranslationMode = .show
    /// Romanisation sub-lines (romaji, pinyin) under their lines, or not.
    package var romanisation: SceneBuilder.RomanisationMode = .show
    /// The lyrics' format (nil: detected from the content).
    package var format: LyricsFormat?
    /// Override the title, artist and album from the tags.
    package var title: String?
    package var artist: String?
    package var album: String?
    /// The song's length for the progress bar (nil: [length:] or the end of the last line).
    package var duration: Timestamp?
    /// Fill the current line as it is sung (word timing, or the theme's line fill). On for
    /// `frame` and `sequence`; `lines` shows each line whole.
    package var karaoke = false
    /// Draw the text alone over transparency (an RGBA PNG), not over the cover's backdrop.
    package var textLayer = false

    var linesBefore: Int { before ?? theme.before }
    var linesAfter: Int { after ?? theme.after }
    /// Where things go on the poster for these options.
    var geometry: PosterGeometry { PosterGeometry(preset: preset, before: linesBefore, after: linesAfter, theme: theme) }
    /// Overrides the song's [la:] tag for glyph forms.
    package var language: String?
    package var fonts = FontOptions()
    /// Forces the lyrics' text encoding (nil = detect).
    package var encoding: String?
    /// How `[offset:]` applies (LRC.md §6: the sign is contested; subtract is the common reading).
    package var offsetSign: OffsetSign = .subtract
    /// The translation language asked for (`--translation-lang`), or `nil` for the user's locale
    /// then the file's first (see ``readOptions``).
    package var translationLanguage: String?
    package var limits = DecodeLimits()
    /// Lyrics files larger than this are refused before they are read.
    package var maxLyricsBytes = 16 * 1024 * 1024
    /// Lyrics with more timed lines than this are refused.
    package var maxLyricsLines = 100_000
    /// Longest text shown per lyric line, in characters; longer lines end in "…".
    package var maxLineCharacters = DisplayText.maxCharacters
    /// Most lines a card's choice may give (``LineChoice/maxLines`` by default).
    package var maxCardLines = LineChoice.maxLines
    /// A picture (PNG, JPEG, WebP) the backdrop is made from instead of the cover, as the theme
    /// makes it (blurred, or sharp under a scrim); the cover still shows where the theme shows it.
    package var backgroundPicture: String?
    /// A text (a URL) a share card carries as a QR code, in a corner where no text is.
    package var qr: String?
    package var compression: PNG.Compression = .fast
    /// The folder prepared backdrops are kept in between runs (see BackdropCache), or nil for none,
    /// the default: a library writes nowhere it was not asked to. The `lyricposter` command gives
    /// the user's cache folder for its one-song commands and `serve`; catalogues, where each cover
    /// is prepared once, give none.
    package var backdropCache: String?

    package init() {}

    /// How lyric files are read under these options. With no `--translation-lang`, a file with
    /// translations in several languages shows the one of the user's locale (`LC_ALL`,
    /// `LC_MESSAGES`, `LANG`), else its first.
    package var readOptions: ReadOptions {
        ReadOptions(offsetSign: offsetSign, translationLanguage: translationLanguage ?? ReadOptions.localeLanguage)
    }

    /// Everything among these options that changes pixels (for keys and digests).
    package var fingerprint: [String] {
        [preset.name, "\(preset.width)x\(preset.height)", preset.arrangement.rawValue,
         "\(linesBefore)", "\(linesAfter)", "\(theme)", "\(karaoke)", "\(translations)", "\(romanisation)", format?.rawValue ?? "-",
         language ?? "-", encoding ?? "-", "\(maxLineCharacters)", "\(offsetSign)", compression.rawValue]
            + (textLayer ? ["text-layer"] : []) + (translationLanguage.map { ["translation-lang=\($0)"] } ?? [])
            + (backgroundPicture.map { ["background=\($0)"] } ?? []) + (qr.map { ["qr=\($0)"] } ?? [])
    }
}

/// Reads input files into values, with errors that name the file.
package enum Inputs {
    /// The largest cover file read for a pixel limit: a compressed picture is never larger than
    /// its pixels uncompressed (64 MiB at the least).
    package static func coverByteLimit(maxPixels: Int) -> Int {
        let (bytes, overflow) = maxPixels.multipliedReportingOverflow(by: 4)
        return max(64 << 20, overflow ? Int.max : bytes)
    }

    /// Whether something exists at `path`.
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Reads a whole file, refusing folders and files over `limit` bytes. Pipes and `-` (standard
    /// input) are read to their end, up to the same limit.
    package static func read(_ path: String, limit: Int) throws(PosterError) -> Data {
        if path == "-" { return try readStream(FileHandle.standardInput, path: path, limit: limit) }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw errno == ENOENT ? .input(path: path, .noSuchFile) : .input(path: path, .unreadable(OutputFile.errnoReason(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            throw .input(path: path, .isFolder)
        case S_IFREG:
            if info.st_size == 0 { return Data() }
            if Int(info.st_size) > limit {
                throw .input(path: path, .tooLarge(bytes: Int(info.st_size), limit: limit))
            }
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw PosterError.reading(path, error)
            }
        default:
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw .input(path: path, .unreadable("cannot read: " + OutputFile.errnoReason(errno)))
            }
            defer { try? handle.close() }
            return try readStream(handle, path: path, limit: limit)
        }
    }

    private static func readStream(_ handle: FileHandle, path: String, limit: Int) throws(PosterError) -> Data {
        var data = Data()
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw .input(path: path, .unreadable("cannot read: \(error.localizedDescription)"))
            }
            if chunk.isEmpty { return data }
            data.append(chunk)
            if data.count > limit { throw .input(path: path, .unreadable("more than the limit of \(limit) bytes")) }
        }
    }

    package static func lyrics(_ path: String, format: LyricsFormat? = nil, encoding: String?, offsetSign: OffsetSign = .subtract,
                              translationLanguage: String? = nil, limit: Int = 16 * 1024 * 1024) throws(PosterError) -> Lyrics {
        try lyrics(read(path, limit: limit), path: path, format: format, encoding: encoding, offsetSign: offsetSign,
                   translationLanguage: translationLanguage)
    }

    /// Decodes and parses lyrics already read from `path` (named in errors), in `format` or the
    /// format detected from the content.
    package static func lyrics(_ data: Data, path: String, format: LyricsFormat? = nil, encoding: String?,
                              offsetSign: OffsetSign, translationLanguage: String? = nil) throws(PosterError) -> Lyrics {
        do {
            return try LyricsReader.load(data, format: format, encoding: encoding,
                                         options: ReadOptions(offsetSign: offsetSign, translationLanguage: translationLanguage))
        } catch {
            throw .lyrics(path: path, error)
        }
    }
}

/// One song prepared for rendering: lyrics parsed, cover decoded and its background prepared,
/// fonts set up. Frames at any time then cost only layout, drawing and encoding.
///
/// The prepared parts are shared, read-only, by every thread; each render takes a `SequenceRenderer`
/// that no other render holds (Pango contexts are not thread-safe): the first one made, else one
/// made for it, each given back afterwards. So any number of threads may render at once; as many
/// renderers are kept as renders ran at once.
package final class PosterSession: Sendable {
    package let options: RenderOptions
    package let lyrics: Lyrics
    package let scenes: SceneBuilder
    package let background: Background
    package let fonts: FontLibrary
    package let timings: Timings
    /// Problems that did not stop the work (e.g. a font that could not be read), one line each.
    /// Problems that did not stop the work, as the library words them (``warnings``); the CLI adds
    /// its flag hints to them.
    package let notes: [Note]
    package var warnings: [String] { notes.map(\.description) }

    package enum Note: Sendable, Hashable, CustomStringConvertible {
        /// A font file in a fonts folder that fontconfig could not use: skipped.
        case unusableFont(path: String)
        /// The theme names a family the fonts do not have: the bundled families draw instead.
        case themeFontMissing(family: String, systemFontsSearched: Bool)
        /// A note from reading the lyrics (a guessed encoding, a line skipped, …).
        case lyrics(path: String, String)

        package var description: String {
            switch self {
            case .unusableFont(let path): return "\(path): not a usable font, skipped"
            case .themeFontMissing(let family, let searched):
                return Self.themeFontHeadline(family)
                    + (searched ? " (it is not installed on this machine either)" : " (the machine's own fonts were not searched)")
            case .lyrics(let path, let note): return "\(path): \(note)"
            }
        }

        /// What a missing theme font note says before its aside (the CLI gives its own aside).
        package static func themeFontHeadline(_ family: String) -> String {
            "the theme's font \"\(family)\" is not among the fonts, so the bundled Noto fonts are used"
        }
    }
    /// SHA-256 of the cover and lyrics bytes as read.
    package let coverDigest: String
    package let lyricsDigest: String
    /// Renderers no render holds now, the one made with the session first. A renderer is not
    /// thread-safe, and need not be: it is taken out under the list's lock by one render, used on
    /// that render's thread alone, and put back under the lock when it is done, so no two threads
    /// ever hold it at once.
    private let idle: Guarded<[SequenceRenderer]>
    /// Where the backdrop goes in the cache folder, until it is stored there (``storeBackdrop()``).
    private let pendingStore: Guarded<BackdropStore?>
    /// Whether the first render stores the backdrop; a one-frame session's caller does it instead,
    /// while it writes the frame.
    private let storesOnFirstRender: Bool
    /// The song's base pictures and their PNG segments, shared by every renderer (see
    /// `SequenceRenderer.renderChanges`).
    let bases = FrameBases()

    /// Where the cover and lyrics came from (files, sidecars, tags).
    package let song: ResolvedSong

    /// Prepares a song already found and read.
    ///
    /// - Parameter allowUntitled: for `follow`: lyrics without a sung line give a poster of the
    ///   title and artist alone, and a song without cover bytes gets ``PlaceholderCover``.
    /// - Parameter fonts: a font library to share (a catalogue sets fonts up once); by default
    ///   one is made from `options.fonts`.
    /// - Parameter oneFrame: the caller renders one picture (`frame`, `card`): the frame's canvas
    ///   is made while the backdrop is, and the caller stores the backdrop (``storeBackdrop()``).
    /// - Parameter firstFrameAt: the instant of the first frame the caller will ask for, if known:
    ///   its lines are the ones shaped while the backdrop is made.
    package convenience init(song: ResolvedSong, options: RenderOptions, timings: Timings = Timings(), allowUntitled: Bool = false,
                            fonts sharedFonts: FontLibrary? = nil, oneFrame: Bool = false, firstFrameAt: Timestamp? = nil) throws(PosterError) {
        let cover = Result<CoverBytes, PosterError>.success(CoverBytes(data: song.coverData, path: song.coverPath, digest: song.madeCoverDigest))
        try self.init(cover: cover, song: { () throws(PosterError) in song }, options: options, timings: timings, allowUntitled: allowUntitled,
                      fonts: sharedFonts, oneFrame: oneFrame, firstFrameAt: firstFrameAt)
    }

    /// A cover's bytes as read, where they came from (for errors), and their SHA-256 if made.
    package struct CoverBytes: Sendable {
        package var data: Data
        package var path: String
        package var digest: String?

        package init(data: Data, path: String, digest: String? = nil) {
            self.data = data
            self.path = path
            self.digest = digest
        }
    }

    /// Prepares a song in two halves at once (``Fork/both(_:_:)``): on one thread the cover's
    /// backdrop (decoded and prepared, or loaded from the cache), most of a first poster's time;
    /// on the other the song (`song()`: its lyrics read and parsed), the fonts, and the first
    /// frame's lines shaped. Errors are reported lyrics first, then the cover, then the fonts.
    package init(cover: Result<CoverBytes, PosterError>, song readSong: () throws(PosterError) -> ResolvedSong, options: RenderOptions,
                 timings: Timings, allowUntitled: Bool = false, fonts sharedFonts: FontLibrary? = nil, oneFrame: Bool = false,
                 firstFrameAt: Timestamp? = nil) throws(PosterError) {
        self.timings = timings
        // A song without cover bytes gets its placeholder (seeded with the title) once the
        // lyrics are read.
        let (picture, text) = Fork.both({ () -> Result<Backdrop?, PosterError> in
            cover.flatMap { cover in
                cover.data.isEmpty ? .success(nil) : Result { () throws(PosterError) in
                    try Self.backdrop(cover: cover, options: options, timings: timings)
                }
            }
        }, { () -> Result<TextSide, PosterError> in
            Result { () throws(PosterError) -> TextSide in
                var side = try Self.textSide(song: readSong(), options: options, timings: timings, allowUntitled: allowUntitled,
                                             fonts: sharedFonts, oneFrame: oneFrame, firstFrameAt: firstFrameAt)
                // The cover's SHA-256 (a photograph's takes milliseconds), which a cached backdrop
                // must have been made from and a stored one records.
                side.coverDigest = (try? cover.get()).map { $0.digest ?? Digest.sha256($0.data) }
                return side
            }
        })
        let side = try text.get()
        // The options with the writing resolved for the song (`auto`: columns or rows).
        self.options = side.options
        let song = side.song, lyrics = Self.displayed(song.lyrics)
        let geometry = options.geometry
        let background: Background
        let coverDigest = side.coverDigest ?? Digest.sha256(song.coverData)
        var store: BackdropStore?
        switch try picture.get() {
        case .cached(let cached, let recorded, _) where recorded == coverDigest:
            background = cached
        case .cached(_, _, let slot):
            // Another cover with the same size and first bytes: made afresh, and kept instead.
            background = try Self.prepareBackdrop(coverData: song.coverData, coverPath: song.coverPath, placeholder: nil, geometry: geometry,
                                                  theme: options.theme, limits: options.limits, timings: timings)
            store = slot
        case .made(let made, let slot):
            background = made
            store = slot
        case nil:
            let placeholder = allowUntitled ? lyrics.metadata.title ?? "" : nil
            background = try Self.prepareBackdrop(coverData: song.coverData, coverPath: song.coverPath, placeholder: placeholder,
                                                  geometry: geometry, theme: options.theme, limits: options.limits, timings: timings,
                                                  picture: options.backgroundPicture)
        }
        self.pendingStore = Guarded(store)
        self.storesOnFirstRender = !oneFrame
        let fonts = try side.fonts.get()
        self.song = song
        self.lyrics = lyrics
        self.scenes = side.scenes
        self.notes = FontSetup.unusableFonts(options.fonts, library: fonts).map { Note.unusableFont(path: $0) }
            + [FontSetup.missingThemeFont(options.theme.fontFamily, library: fonts)].compactMap { $0 }
                .map { Note.themeFontMissing(family: $0, systemFontsSearched: options.fonts.systemFonts) }
            + lyrics.notes.map { Note.lyrics(path: song.lyricsPath, $0) }
        self.background = background
        self.fonts = fonts
        self.coverDigest = coverDigest
        self.lyricsDigest = Digest.sha256(song.lyricsData)
        self.idle = Guarded([try SequenceRenderer(background: background, fonts: fonts, options: side.options, timings: timings, bases: bases,
                                               engine: side.engine, warmed: side.warmed, spare: side.spare)])
    }

    /// What the poster shows of `lyrics`: the lyrics themselves, or for an instrumental song (no
    /// words: ``Lyrics/isInstrumental``) one line, "Instrumental", for the whole song, so that every
    /// request (an instant, a card, a sequence) draws the cover, the title and that word.
    static func displayed(_ lyrics: Lyrics) -> Lyrics {
        guard lyrics.isInstrumental, !lyrics.lines.contains(where: \.isSung) else { return lyrics }
        var shown = lyrics
        let end = max(lyrics.length?.milliseconds ?? 0, 1) + 24 * 3_600_000
        shown.lines = [LyricLine(start: Timestamp(milliseconds: 0), end: Timestamp(milliseconds: end), text: instrumentalText)]
        return shown
    }

    /// How `lyrics` are written on `preset` for the theme's `writing`: `auto` is columns for
    /// lyrics in Chinese or Japanese alone (every sung line's letters Han or kana, no Latin or
    /// Hangul word) on a portrait canvas, rows otherwise.
    package static func writing(_ writing: Theme.Writing, lyrics: Lyrics, preset: Preset) -> Theme.Writing {
        guard writing == .auto else { return writing }
        guard preset.height > preset.width else { return .horizontal }
        var letters = 0
        for line in lyrics.lines where line.isSung {
            for scalar in line.text.unicodeScalars where scalar.properties.isAlphabetic {
                switch scalar.value {
                case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF, 0x3005, 0x3007:
                    letters += 1
                default:
                    return .horizontal
                }
            }
        }
        return letters > 0 ? .vertical : .horizontal
    }

    /// The line an instrumental song's poster shows.
    public static let instrumentalText = "Instrumental"

    /// The song's half of a session's preparation: its scenes, its fonts, and a text engine that
    /// has shaped the first frame's lines, with the frame's canvas when one frame is wanted.
    private struct TextSide {
        var song: ResolvedSong
        var options: RenderOptions
        var scenes: SceneBuilder
        var fonts: Result<FontLibrary, PosterError>
        var engine: TextEngine?
        var warmed: LayoutEngine?
        var spare: Canvas?
        var coverDigest: String?
    }

    private static func textSide(song: ResolvedSong, options: RenderOptions, timings: Timings, allowUntitled: Bool,
                                 fonts sharedFonts: FontLibrary?, oneFrame: Bool, firstFrameAt: Timestamp?) throws(PosterError) -> TextSide {
        let lyrics = Self.displayed(song.lyrics)
        var options = options
        options.theme.writing = Self.writing(options.theme.writing, lyrics: lyrics, preset: options.preset)
        if lyrics.lines.count > options.maxLyricsLines {
            throw .tooManyLines(path: song.lyricsPath, count: lyrics.lines.count, limit: options.maxLyricsLines)
        }
        if !allowUntitled, !lyrics.lines.contains(where: \.isSung) {
            throw .nothingToSing(path: song.lyricsPath)
        }
        let fonts = Result<FontLibrary, PosterError> { () throws(PosterError) -> FontLibrary in
            try timings.measure("fonts") { () throws(PosterError) -> FontLibrary in
                if let sharedFonts { return sharedFonts }
                return try FontSetup.library(options.fonts)
            }
        }
        var scenes = SceneBuilder(lyrics: lyrics, before: options.linesBefore, after: options.linesAfter,
                                  language: options.language, maxLineCharacters: options.maxLineCharacters)
        scenes.translations = options.translations
        scenes.romanisation = options.romanisation
        if let title = options.title {
            scenes.title = title.isEmpty ? nil : title
        } else if scenes.title == nil, !allowUntitled, let name = Self.displayName(song.lyricsPath) {
            // No [ti:] and no tags: the file's name, so that the caption is never left empty.
            scenes.title = name
        }
        if let artist = options.artist { scenes.artist = artist.isEmpty ? nil : artist }
        if let album = options.album { scenes.album = album.isEmpty ? nil : album }
        if let duration = options.duration { scenes.duration = duration }
        scenes.timeSensitive = options.theme.showProgress
        scenes.karaoke = options.karaoke
        scenes.lineFill = options.theme.lineProgressFill
        var side = TextSide(song: song, options: options, scenes: scenes, fonts: fonts)
        // A text engine for the first renderer, its fonts loaded by laying out the first frame's
        // scene, or else the first sung one (colours do not matter to shaping); the renderer
        // starts from what it shaped.
        guard let engine = (try? fonts.get()).flatMap({ try? TextEngine(fonts: $0) }) else { return side }
        side.engine = engine
        timings.measure("warm-up") {
            let start = firstFrameAt ?? lyrics.lines.first(where: \.isSung)?.start ?? Timestamp(milliseconds: 0)
            let layoutEngine = LayoutEngine(geometry: options.geometry, text: engine, theme: options.theme)
            _ = layoutEngine.layout(scenes.scene(at: start))
            side.warmed = layoutEngine
            if oneFrame {
                // The frame's canvas, its pages touched now rather than while it is drawn.
                side.spare = try? Canvas(width: options.preset.width, height: options.preset.height)
                side.spare?.prefault()
            }
        }
        return side
    }

    /// Where a backdrop made afresh goes in the cache folder.
    struct BackdropStore {
        var key: String
        var folder: String
    }

    /// A cover's backdrop: from the cache folder (with the SHA-256 of the cover it was made
    /// from, which the caller compares with its own cover's), or made.
    enum Backdrop {
        case cached(Background, coverDigest: String, slot: BackdropStore)
        case made(Background, store: BackdropStore?)
    }

    /// The backdrop of `cover` for `options`: loaded from the cache folder (see BackdropCache)
    /// when an earlier run prepared a cover of the same size and first bytes for the same canvas
    /// and theme, else decoded and prepared, with where to store it.
    static func backdrop(cover: CoverBytes, options: RenderOptions, timings: Timings) throws(PosterError) -> Backdrop {
        let geometry = options.geometry
        // A backdrop of the user's own picture is made each time: the cache is keyed by the cover.
        if options.backgroundPicture != nil {
            return .made(try prepareBackdrop(coverData: cover.data, coverPath: cover.path, placeholder: nil, geometry: geometry,
                                             theme: options.theme, limits: options.limits, timings: timings,
                                             picture: options.backgroundPicture), store: nil)
        }
        let slot = options.backdropCache.map { BackdropStore(key: BackdropCache.key(cover: cover.data, options: options), folder: $0) }
        if let slot, let cached = timings.measure("cache", { BackdropCache.load(key: slot.key, geometry: geometry, in: slot.folder) }) {
            return .cached(cached.background, coverDigest: cached.coverDigest, slot: slot)
        }
        let made = try prepareBackdrop(coverData: cover.data, coverPath: cover.path, placeholder: nil, geometry: geometry,
                                       theme: options.theme, limits: options.limits, timings: timings)
        return .made(made, store: slot)
    }

    /// Stores the backdrop made afresh in the cache folder, once: the first render or renderer
    /// made does it (see ``withRenderer(_:)``), or a one-frame session's caller.
    package func storeBackdrop() {
        guard let store = pendingStore.withLock({ $0.take() }) else { return }
        timings.measure("cache") { BackdropCache.store(background, key: store.key, coverDigest: coverDigest, in: store.folder) }
    }

    /// Decodes the cover no larger than it is drawn (see Background.coverSize) and prepares its
    /// backdrop. `placeholder`: the title to seed a made-up cover with when there are no cover
    /// bytes (`follow`), or nil.
    static func prepareBackdrop(coverData: Data, coverPath: String, placeholder: String?, geometry: PosterGeometry,
                                theme: Theme, limits: DecodeLimits, timings: Timings, picture: String? = nil) throws(PosterError) -> Background {
        // The backdrop's canvas (8 MB at 1080×1920, cleared) is made while the cover decodes:
        // its page faults and clearing do not come after the decode.
        let w = geometry.preset.width, h = geometry.preset.height
        let (cover, fresh) = Fork.both({ () -> Result<Bitmap, PosterError> in
            Result { () throws(PosterError) in
                try decodeCover(coverData: coverData, coverPath: coverPath, placeholder: placeholder, geometry: geometry, theme: theme,
                                limits: limits, timings: timings)
            }
        }, { try? Canvas(width: w, height: h, ownPixels: true) })
        let decoded = try cover.get()
        let photo = try picture.map { (path) throws(PosterError) -> Bitmap in
            try timings.measure("decode") { () throws(PosterError) -> Bitmap in
                let data = try Inputs.read(path, limit: Inputs.coverByteLimit(maxPixels: limits.maxPixels))
                do throws(ImageError) { return try ImageDecoder.decode(data, limits: limits, minimumSize: (w, h)) } catch {
                    throw .cover(path: path, CoverProblem(error))
                }
            }
        }
        return try timings.measure("background") { () throws(PosterError) -> Background in
            do { return try Background.prepare(cover: decoded, geometry: geometry, theme: theme, canvas: fresh, picture: photo) } catch {
                throw PosterError(path: picture ?? coverPath, reason: "\(error)")
            }
        }
    }

    private static func decodeCover(coverData: Data, coverPath: String, placeholder: String?, geometry: PosterGeometry,
                                    theme: Theme, limits: DecodeLimits, timings: Timings) throws(PosterError) -> Bitmap {
        try timings.measure("decode") { () throws(PosterError) -> Bitmap in
            if let placeholder, coverData.isEmpty {
                do { return try PlaceholderCover.make(seed: placeholder) } catch {
                    throw PosterError(path: "placeholder cover", reason: "\(error)")
                }
            }
            let minimumSize = Background.coverSize(geometry: geometry, theme: theme)
            do throws(ImageError) { return try ImageDecoder.decode(coverData, limits: limits, minimumSize: minimumSize) } catch {
                throw .cover(path: coverPath, CoverProblem(error))
            }
        }
    }

    /// The smallest size a cover is decoded at for `options` (see ``Background/coverSize(geometry:theme:)``).
    static func coverSize(_ options: RenderOptions) -> (width: Int, height: Int) {
        Background.coverSize(geometry: options.geometry, theme: options.theme)
    }

    /// A file's name without its folder and extension, as a title of last resort (nil for
    /// standard input and names that say nothing).
    package static func displayName(_ path: String) -> String? {
        guard path != "-" else { return nil }
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty || name.hasPrefix(".") ? nil : DisplayText.clean(name)
    }

    /// A renderer for another thread. The first one made stores the backdrop in the cache folder
    /// first, if it is waiting to be.
    package func makeRenderer() throws(PosterError) -> SequenceRenderer {
        storeBackdrop()
        return try SequenceRenderer(background: background, fonts: fonts, options: options, timings: timings, bases: bases, keepsWholeFrames: true)
    }

    /// Runs `body` with a renderer that no other thread holds meanwhile. The first render stores
    /// the backdrop in the cache folder at the same time, if it is waiting to be.
    private func withRenderer<T>(_ body: (SequenceRenderer) throws(PosterError) -> T) throws(PosterError) -> T {
        let renderer: SequenceRenderer
        if let taken = idle.withLock({ $0.popLast() }) { renderer = taken } else { renderer = try makeRenderer() }
        defer { idle.withLock { $0.append(renderer) } }
        guard storesOnFirstRender, pendingStore.withLock({ $0 != nil }) else { return try body(renderer) }
        let (made, _) = Fork.both({ Result { () throws(PosterError) in try body(renderer) } }, { self.storeBackdrop() })
        return try made.get()
    }

    /// Renders and encodes the frame at `time` on the calling thread.
    package func render(at time: Timestamp) throws(PosterError) -> RenderedFrame {
        try withRenderer { (renderer) throws(PosterError) in try renderer.render(scenes.scene(at: time)) }
    }

    /// The frame at `time` drawn on the calling thread, its pixels copied out, not encoded:
    /// opaque RGB, or straight RGBA for the text layer (``PictureFormat/encode(pixels:quality:)``
    /// writes them in any format, PNG as ``render(at:)`` would).
    package func renderPixels(at time: Timestamp) throws(PosterError) -> (PixelBuffer, FrameReport) {
        try withRenderer { (renderer) throws(PosterError) in try renderer.renderPixelBuffer(scenes.scene(at: time)) }
    }

    /// Renders and encodes the share card of `choice` on the calling thread. A choice the lyrics
    /// cannot satisfy, or whose lines do not fit the canvas whole, is refused: a card never cuts.
    package func renderCard(_ choice: LineChoice) throws(PosterError) -> RenderedFrame {
        let (scene, lines) = try cardScene(choice)
        let frame = try withRenderer { (renderer) throws(PosterError) in try renderer.render(scene, whole: true) }
        try checkCard(frame.report, lines: lines)
        return frame
    }

    /// The share card of `choice` as pixels, as ``renderPixels(at:)`` makes a frame's.
    package func renderCardPixels(_ choice: LineChoice) throws(PosterError) -> (PixelBuffer, FrameReport) {
        let (scene, lines) = try cardScene(choice)
        let made = try withRenderer { (renderer) throws(PosterError) in try renderer.renderPixelBuffer(scene, whole: true) }
        try checkCard(made.1, lines: lines)
        return made
    }

    /// The frame at `time` for an e-ink panel of `palette` (an indexed PNG; see
    /// ``SequenceRenderer/renderEInk(_:palette:)``), on the calling thread.
    package func renderEInk(at time: Timestamp, palette: EInkPalette) throws(PosterError) -> RenderedFrame {
        try renderEInk(scenes.scene(at: time), palette: palette)
    }

    /// `scene` (one of this song's) for an e-ink panel of `palette`, on the calling thread.
    package func renderEInk(_ scene: Scene, palette: EInkPalette) throws(PosterError) -> RenderedFrame {
        try withRenderer { (renderer) throws(PosterError) in try renderer.renderEInk(scene, palette: palette) }
    }

    /// The share card of `choice` for an e-ink panel of `palette`, refused as ``renderCard(_:)``
    /// refuses one.
    package func renderEInkCard(_ choice: LineChoice, palette: EInkPalette) throws(PosterError) -> RenderedFrame {
        let (scene, lines) = try cardScene(choice)
        let frame = try withRenderer { (renderer) throws(PosterError) in try renderer.renderEInk(scene, palette: palette) }
        try checkCard(frame.report, lines: lines)
        return frame
    }

    /// A card of the cover, the title and the artist alone, no lyric line (for a song without
    /// lyrics): the song's closing title card.
    package var coverCardScene: Scene {
        var scene = scenes.quote([])
        scene.state = .outro
        return scene
    }

    /// ``coverCardScene`` rendered and encoded on the calling thread.
    package func renderCoverCard() throws(PosterError) -> RenderedFrame {
        try withRenderer { (renderer) throws(PosterError) in try renderer.render(coverCardScene, whole: true) }
    }

    /// ``coverCardScene`` as pixels, as ``renderPixels(at:)`` makes a frame's.
    package func renderCoverCardPixels() throws(PosterError) -> (PixelBuffer, FrameReport) {
        try withRenderer { (renderer) throws(PosterError) in try renderer.renderPixelBuffer(coverCardScene, whole: true) }
    }

    /// The card's scene and how many lyric lines it shows.
    private func cardScene(_ choice: LineChoice) throws(PosterError) -> (Scene, lines: Int) {
        let indices = try choice.resolve(in: lyrics, scenes: scenes, lyricsPath: song.lyricsPath, limit: options.maxCardLines)
        return (scenes.quote(indices, gaps: LineChoice.gaps(in: indices, lyrics: lyrics)), indices.count)
    }

    /// A card whose lines did not fit whole is refused, as is one whose QR code found no corner
    /// free of text.
    private func checkCard(_ report: FrameReport, lines: Int) throws(PosterError) {
        if options.qr != nil, report.qr == nil {
            throw .qrHasNoRoom(path: song.lyricsPath, width: options.preset.width, height: options.preset.height)
        }
        guard report.overflow else { return }
        throw .cardDoesNotFit(path: song.lyricsPath, lines: lines, width: options.preset.width, height: options.preset.height)
    }

    /// Renders and encodes `scene` (one of this song's) on the calling thread.
    package func render(_ scene: Scene) throws(PosterError) -> RenderedFrame {
        try withRenderer { (renderer) throws(PosterError) in try renderer.render(scene) }
    }

    /// What every frame of this song depends on besides its scene: the inputs' bytes, the options
    /// that change pixels, the fonts and the renderer's version. Frames whose key and scene are
    /// unchanged need not be rendered again.
    package var renderKey: String {
        let o = options
        let parts: [String] = ["lyricposter-render-\(SequenceRenderer.version)", coverDigest, lyricsDigest] + o.fingerprint + fonts.fontFiles()
        return Digest.sha256(parts.joined(separator: "\n"))
    }
}
