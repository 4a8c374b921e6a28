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
/// The prepared parts are shared, read-only, by every thread; each render takes a `FrameRenderer`
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
    package let warnings: [String]
    /// SHA-256 of the cover and lyrics bytes as read.
    package let coverDigest: String
    package let lyricsDigest: String
    /// Renderers no render holds now, the one made with the session first. A renderer is not
    /// thread-safe, and need not be: it is taken out under the list's lock by one render, used on
    /// that render's thread alone, and put back under the lock when it is done, so no two threads
    /// ever hold it at once.
    private let idle: Guarded<[FrameRenderer]>
    /// The song's base pictures and their PNG segments, shared by every renderer (see
    /// `Renderer.renderChanges`).
    let bases = FrameBases()
    /// The thread that prepared the backdrop or loaded it from the cache.
    private let preparation: BackdropJob

    /// Where the cover and lyrics came from (files, sidecars, tags).
    package let song: ResolvedSong

    /// Prepares a song already found and read.
    ///
    /// - Parameter allowUntitled: for `follow`: lyrics without a sung line give a poster of the
    ///   title and artist alone, and a song without cover bytes gets ``PlaceholderCover``.
    /// - Parameter fonts: a font library to share (a catalogue sets fonts up once); by default
    ///   one is made from `options.fonts`.
    package convenience init(song: ResolvedSong, options: RenderOptions, timings: Timings = Timings(),
                            allowUntitled: Bool = false, fonts sharedFonts: FontLibrary? = nil) throws(PosterError) {
        try self.init(song: song, options: options, timings: timings, allowUntitled: allowUntitled, fonts: sharedFonts, backdrop: nil)
    }

    /// `backdrop`: the backdrop's preparation, already started on `song`'s cover bytes (nil: it is
    /// started here).
    package init(song: ResolvedSong, options: RenderOptions, timings: Timings, allowUntitled: Bool = false,
         fonts sharedFonts: FontLibrary? = nil, backdrop started: BackdropJob?, oneFrame: Bool = false,
         firstFrameAt: Timestamp? = nil) throws(PosterError) {
        self.options = options
        self.timings = timings
        self.song = song
        let lyrics = song.lyrics, lyricsPath = song.lyricsPath, lyricsData = song.lyricsData
        do throws(PosterError) {
            if lyrics.lines.count > options.maxLyricsLines {
                throw .tooManyLines(path: lyricsPath, count: lyrics.lines.count, limit: options.maxLyricsLines)
            }
            if !allowUntitled, !lyrics.lines.contains(where: \.isSung) {
                throw .nothingToSing(path: lyricsPath)
            }
        } catch {
            started?.finish()
            throw error
        }
        let preset = options.preset
        let geometry = options.geometry
        // Decoding the cover and preparing its backdrop (or loading it from the cache), most of a
        // first poster's time, run on a thread of their own while this one sets up the fonts and
        // shapes the first lines; the backdrop is stored in the cache from there too, while
        // frames render.
        let preparation = started ?? BackdropJob(coverData: song.coverData, coverPath: song.coverPath, options: options, timings: timings,
                                                 placeholder: allowUntitled ? lyrics.metadata.title ?? "" : nil, segmentsAhead: oneFrame,
                                                 coverDigest: song.madeCoverDigest)
        self.preparation = preparation
        let fontResult = Result<FontLibrary, PosterError> { () throws(PosterError) -> FontLibrary in
            try timings.measure("fonts") { () throws(PosterError) -> FontLibrary in
                if let sharedFonts { return sharedFonts }
                return try FontSetup.library(options.fonts)
            }
        }
        self.lyrics = lyrics
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
        self.scenes = scenes
        // While the backdrop is made: a text engine for this thread's renderer, its fonts loaded
        // by laying out the first frame's scene, or else the first sung one (colours do not matter
        // to shaping); the renderer starts from what it shaped.
        let engine = (try? fontResult.get()).flatMap { try? TextEngine(fonts: $0) }
        var warmed: LayoutEngine?
        var spare: Canvas?
        if let engine {
            timings.measure("warm-up") {
                let start = firstFrameAt ?? lyrics.lines.first(where: \.isSung)?.start ?? Timestamp(milliseconds: 0)
                let layoutEngine = LayoutEngine(geometry: geometry, text: engine, theme: options.theme)
                _ = layoutEngine.layout(scenes.scene(at: start))
                warmed = layoutEngine
                if oneFrame {
                    // The frame's canvas, its pages touched now rather than while it is drawn.
                    spare = try? Canvas(width: preset.width, height: preset.height)
                    spare?.prefault()
                }
            }
        }
        let background: Background
        let fonts: FontLibrary
        let coverDigest: String
        let ahead: PNG.SegmentsAhead?
        do throws(PosterError) {
            (background, coverDigest, ahead) = try preparation.value()
            fonts = try fontResult.get()
        } catch {
            preparation.finish()
            throw error
        }
        self.warnings = FontSetup.unusableFonts(options.fonts, library: fonts).map { "\($0): not a usable font, skipped" }
            + [FontSetup.missingThemeFont(options.theme.fontFamily, options: options.fonts, library: fonts)].compactMap { $0 }
            + lyrics.notes.map { "\(song.lyricsPath): \($0)" }
        self.background = background
        self.fonts = fonts
        self.coverDigest = coverDigest
        self.lyricsDigest = Digest.sha256(lyricsData)
        do throws(PosterError) {
            self.idle = Guarded([try FrameRenderer(background: background, fonts: fonts, options: options, timings: timings,
                                                   bases: bases, engine: engine, ahead: ahead, warmed: warmed, spare: spare)])
        } catch {
            preparation.finish()
            throw error
        }
    }

    deinit {
        // The backdrop may still be on its way into the cache.
        preparation.stopSegmentsAhead()
        preparation.finish()
    }

    /// Decodes the cover no larger than it is drawn (see Background.coverSize) and prepares its
    /// backdrop. `placeholder`: the title to seed a made-up cover with when there are no cover
    /// bytes (`follow`), or nil.
    fileprivate static func prepareBackdrop(coverData: Data, coverPath: String, placeholder: String?, geometry: PosterGeometry,
                                        theme: Theme, limits: DecodeLimits, timings: Timings) throws(PosterError) -> Background {
        // The backdrop's canvas (8 MB at 1080×1920, cleared) is made on a thread of its own while
        // the cover decodes: its page faults and clearing no longer come after the decode.
        let w = geometry.preset.width, h = geometry.preset.height
        let canvasAhead = Preparation { () throws(GraphicsError) -> Background.FreshCanvas in
            Background.FreshCanvas(canvas: try Canvas(width: w, height: h, ownPixels: true))
        }
        let cover: Bitmap
        do throws(PosterError) {
            cover = try decodeCover(coverData: coverData, coverPath: coverPath, placeholder: placeholder, geometry: geometry,
                                    theme: theme, limits: limits, timings: timings)
        } catch {
            canvasAhead.finish()
            throw error
        }
        let fresh = try? canvasAhead.value()
        return try timings.measure("background") { () throws(PosterError) -> Background in
            do { return try Background.prepare(cover: cover, geometry: geometry, theme: theme, fresh: fresh) } catch {
                throw PosterError(path: coverPath, reason: "\(error)")
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

    /// A renderer for another thread.
    package func makeRenderer() throws(PosterError) -> FrameRenderer {
        try FrameRenderer(background: background, fonts: fonts, options: options, timings: timings, bases: bases, keepsWholeFrames: true)
    }

    /// Runs `body` with a renderer that no other thread holds meanwhile.
    private func withRenderer<T>(_ body: (FrameRenderer) throws(PosterError) -> T) throws(PosterError) -> T {
        let renderer: FrameRenderer
        if let taken = idle.withLock({ $0.popLast() }) { renderer = taken } else { renderer = try makeRenderer() }
        defer { idle.withLock { $0.append(renderer) } }
        return try body(renderer)
    }

    /// Renders and encodes the frame at `time` on the calling thread.
    package func render(at time: Timestamp) throws(PosterError) -> RenderedFrame {
        try withRenderer { (renderer) throws(PosterError) in try renderer.render(scenes.scene(at: time)) }
    }

    /// Renders and encodes the share card of `choice` on the calling thread. A choice the lyrics
    /// cannot satisfy, or whose lines do not fit the canvas whole, is refused: a card never cuts.
    package func renderCard(_ choice: LineChoice) throws(PosterError) -> RenderedFrame {
        let indices = try choice.resolve(in: lyrics, scenes: scenes, lyricsPath: song.lyricsPath)
        let frame = try withRenderer { (renderer) throws(PosterError) in try renderer.render(scenes.quote(indices), whole: true) }
        if frame.report.overflow {
            throw .cardDoesNotFit(path: song.lyricsPath, lines: indices.count, width: options.preset.width, height: options.preset.height)
        }
        return frame
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
        let parts: [String] = ["lyricposter-render-\(FrameRenderer.version)", coverDigest, lyricsDigest] + o.fingerprint + fonts.fontFiles()
        return Digest.sha256(parts.joined(separator: "\n"))
    }
}

/// A song's backdrop and the digest of its cover bytes, made on a thread of its own: loaded from
/// the cache (see BackdropCache) when an earlier run prepared the same cover bytes for the same
/// canvas and theme, else decoded and prepared, then stored in the cache from that thread.
/// Placeholders are made, not cached.
///
/// The cache's slot is found from the cover's first bytes, so that the decoding starts at once;
/// meanwhile the calling thread takes the SHA-256 of the whole cover, which a cached entry must
/// match and a stored one records.
package final class BackdropJob: Sendable {
    /// The backdrop, the cache slot to store it in (nil: it came from there, or no cache), and
    /// its segments made ahead.
    private let work: Preparation<(Background, store: String?, PNG.SegmentsAhead?), PosterError>
    private let digest: Handoff<String>

    /// `segmentsAhead`: once the backdrop is handed over, compress its PNG segments on this
    /// thread until the first frame is encoded (see `PNG.SegmentsAhead`), before storing it.
    /// `coverDigest`: the SHA-256 of `coverData`, if already made (else it is made here).
    package init(coverData: Data, coverPath: String, options: RenderOptions, timings: Timings, placeholder: String? = nil,
         segmentsAhead: Bool = false, coverDigest: String? = nil) {
        let geometry = options.geometry
        let theme = options.theme, limits = options.limits
        let folder = coverData.isEmpty ? nil : options.backdropCache
        let digest = Handoff<String>()
        self.digest = digest
        work = Preparation({ () throws(PosterError) -> (Background, store: String?, PNG.SegmentsAhead?) in
            let key = folder.map { _ in BackdropCache.key(cover: coverData, options: options) }
            if let key, let folder, let cached = timings.measure("cache", { BackdropCache.load(key: key, geometry: geometry, in: folder) }),
               cached.coverDigest == digest.value() {
                return (cached.background, nil, segmentsAhead ? PNG.SegmentsAhead(cached.background.bitmap) : nil)
            }
            let made = try PosterSession.prepareBackdrop(coverData: coverData, coverPath: coverPath, placeholder: placeholder,
                                                         geometry: geometry, theme: theme, limits: limits, timings: timings)
            return (made, key, segmentsAhead ? PNG.SegmentsAhead(made.bitmap) : nil)
        }, afterwards: { made in
            made.2?.run()
            guard let key = made.store, let folder else { return }
            timings.measure("cache") { () -> Void in BackdropCache.store(made.0, key: key, coverDigest: digest.value(), in: folder) }
        })
        digest.set(coverDigest ?? Digest.sha256(coverData))
    }

    /// The backdrop and the cover's SHA-256, once made.
    func value() throws(PosterError) -> (Background, String, PNG.SegmentsAhead?) {
        let made = try work.value()
        return (made.0, digest.value(), made.2)
    }

    /// Ends the segments made ahead, if any (the session is done with them).
    func stopSegmentsAhead() {
        (try? work.value())?.2?.stop()
    }

    /// Waits until the backdrop is stored too.
    package func finish() { work.finish() }
}
