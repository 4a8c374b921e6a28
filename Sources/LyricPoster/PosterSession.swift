import Foundation
import LyricsCore
import PosterGraphics
import Synchronization

/// Options shared by every command that renders.
public struct RenderOptions: Sendable {
    public var preset: Preset = .lockscreen
    /// The look; its `before`/`after` apply unless set here.
    public var theme: Theme = .card
    /// Lines shown before and after the current one (nil: the theme's).
    public var before: Int?
    public var after: Int?
    /// Translation sub-lines: show, hide, or show instead of their lines.
    public var translations: SceneBuilder.TranslationMode = .show
    /// Romanisation sub-lines (romaji, pinyin) under their lines, or not.
    public var romanisation: SceneBuilder.RomanisationMode = .show
    /// The lyrics' format (nil: detected from the content).
    public var format: LyricsFormat?
    /// Override the title, artist and album from the tags.
    public var title: String?
    public var artist: String?
    public var album: String?
    /// The song's length for the progress bar (nil: [length:] or the end of the last line).
    public var duration: Timestamp?
    /// Fill the current line as it is sung (word timing, or the theme's line fill). On for
    /// `frame` and `sequence`; `lines` shows each line whole.
    public var karaoke = false

    var linesBefore: Int { before ?? theme.before }
    var linesAfter: Int { after ?? theme.after }
    /// Overrides the song's [la:] tag for glyph forms.
    public var language: String?
    public var fonts = FontOptions()
    /// Forces the lyrics' text encoding (nil = detect).
    public var encoding: String?
    /// How `[offset:]` applies (LRC.md §6: the sign is contested; subtract is the common reading).
    public var offsetSign: OffsetSign = .subtract
    public var limits = DecodeLimits()
    /// Lyrics files larger than this are refused before they are read.
    public var maxLyricsBytes = 16 * 1024 * 1024
    /// Lyrics with more timed lines than this are refused.
    public var maxLyricsLines = 100_000
    /// Longest text shown per lyric line, in characters; longer lines end in "…".
    public var maxLineCharacters = DisplayText.maxCharacters
    public var compression: PNG.Compression = .fast

    public init() {}
}

/// Reads input files into values, with errors that name the file.
public enum Inputs {
    /// Whether something exists at `path`.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Reads a whole file, refusing folders and files over `limit` bytes. Pipes and `-` (standard
    /// input) are read to their end, up to the same limit.
    public static func read(_ path: String, limit: Int) throws(PosterError) -> Data {
        if path == "-" { return try readStream(FileHandle.standardInput, path: path, limit: limit) }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw PosterError(path: path, reason: errno == ENOENT ? "no such file" : OutputFile.errnoReason(errno))
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            throw PosterError(path: path, reason: "is a folder, not a file")
        case S_IFREG:
            if info.st_size == 0 { return Data() }
            if Int(info.st_size) > limit {
                throw PosterError(path: path, reason: "file is \(info.st_size) bytes, more than the limit of \(limit) (see --max-lyrics-bytes or --max-cover-pixels)")
            }
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw PosterError.reading(path, error)
            }
        default:
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw PosterError(path: path, reason: "cannot read: " + OutputFile.errnoReason(errno))
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
                throw PosterError(path: path, reason: "cannot read: \(error.localizedDescription)")
            }
            if chunk.isEmpty { return data }
            data.append(chunk)
            if data.count > limit { throw PosterError(path: path, reason: "more than the limit of \(limit) bytes") }
        }
    }

    public static func lyrics(_ path: String, format: LyricsFormat? = nil, encoding: String?, offsetSign: OffsetSign = .subtract,
                              limit: Int = 16 * 1024 * 1024) throws(PosterError) -> Lyrics {
        try lyrics(read(path, limit: limit), path: path, format: format, encoding: encoding, offsetSign: offsetSign)
    }

    /// Decodes and parses lyrics already read from `path` (named in errors), in `format` or the
    /// format detected from the content.
    public static func lyrics(_ data: Data, path: String, format: LyricsFormat? = nil, encoding: String?,
                              offsetSign: OffsetSign) throws(PosterError) -> Lyrics {
        do {
            return try LyricsReader.load(data, format: format, encoding: encoding, options: ReadOptions(offsetSign: offsetSign))
        } catch {
            throw PosterError(path: path, reason: error.description)
        }
    }
}

/// One song prepared for rendering: lyrics parsed, cover decoded and its background prepared,
/// fonts set up. Frames at any time then cost only layout, drawing and encoding.
///
/// The prepared parts are shared, read-only, by every thread; each thread renders through its own
/// `FrameRenderer` (Pango contexts are not thread-safe).
public final class PosterSession: @unchecked Sendable {
    public let options: RenderOptions
    public let lyrics: Lyrics
    public let scenes: SceneBuilder
    public let background: Background
    public let fonts: FontLibrary
    public let timings: Timings
    /// Problems that did not stop the work (e.g. a font that could not be read), one line each.
    public let warnings: [String]
    /// SHA-256 of the cover and lyrics bytes as read.
    public let coverDigest: String
    public let lyricsDigest: String
    private let mainRenderer: FrameRenderer
    /// The song's base pictures and their PNG segments, shared by every renderer (see
    /// `Renderer.renderChanges`).
    let bases = FrameBases()

    /// Where the cover and lyrics came from (files, sidecars, tags).
    public let song: ResolvedSong

    public convenience init(cover coverPath: String, lyrics lyricsPath: String, options: RenderOptions,
                            timings: Timings = Timings()) throws(PosterError) {
        try self.init(source: .files(cover: coverPath, lyrics: lyricsPath), options: options, timings: timings)
    }

    public convenience init(source: SongSource, options: RenderOptions, timings: Timings = Timings()) throws(PosterError) {
        let song = try timings.measure("lyrics") { () throws(PosterError) in try SongResolver.resolve(source, options: options) }
        try self.init(song: song, options: options, timings: timings)
    }

    /// Prepares a song already found and read.
    ///
    /// - Parameter allowUntitled: for `follow`: lyrics without a sung line give a poster of the
    ///   title and artist alone, and a song without cover bytes gets ``PlaceholderCover``.
    public init(song: ResolvedSong, options: RenderOptions, timings: Timings = Timings(),
                allowUntitled: Bool = false) throws(PosterError) {
        self.options = options
        self.timings = timings
        self.song = song
        let lyrics = song.lyrics, lyricsPath = song.lyricsPath, lyricsData = song.lyricsData
        if lyrics.lines.count > options.maxLyricsLines {
            throw PosterError(path: lyricsPath, reason: "has \(lyrics.lines.count) timed lines, more than the limit of \(options.maxLyricsLines) (see --max-lyrics-lines)")
        }
        if !allowUntitled, !lyrics.lines.contains(where: \.isSung) {
            throw PosterError(path: lyricsPath, reason: "no timed lyric line has any text (only gaps or credits)")
        }
        let preset = options.preset
        let geometry = PosterGeometry(preset: preset, before: options.linesBefore, after: options.linesAfter, theme: options.theme)
        let coverData = song.coverData, coverPath = song.coverPath
        let coverDigest = Digest.sha256(coverData)
        // A backdrop prepared from the same cover bytes for the same canvas and theme by an
        // earlier run (see BackdropCache); placeholders are made, not cached.
        let cacheKey = coverData.isEmpty ? nil
            : BackdropCache.key(coverDigest: coverDigest, geometry: geometry, theme: options.theme, before: options.linesBefore,
                                after: options.linesAfter, limits: "\(options.limits)")
        let cached = timings.measure("cache") { cacheKey.flatMap { BackdropCache.load(key: $0, geometry: geometry) } }
        let background: Background
        if let cached {
            background = cached
        } else {
            // The largest area the cover is drawn at is the whole canvas.
            let cover = try timings.measure("decode") { () throws(PosterError) in
                if allowUntitled, coverData.isEmpty {
                    do { return try PlaceholderCover.make(seed: lyrics.metadata.title ?? "") } catch {
                        throw PosterError(path: "placeholder cover", reason: "\(error)")
                    }
                }
                do { return try ImageDecoder.decode(coverData, limits: options.limits, minimumSize: (preset.width, preset.height)) } catch {
                    throw PosterError(path: coverPath, reason: "\(error)")
                }
            }
            background = try timings.measure("background") { () throws(PosterError) in
                do { return try Background.prepare(cover: cover, geometry: geometry, theme: options.theme) } catch {
                    throw PosterError(path: coverPath, reason: "\(error)")
                }
            }
            if let cacheKey { timings.measure("cache") { BackdropCache.store(background, key: cacheKey) } }
        }
        let fonts = try timings.measure("fonts") { () throws(PosterError) in try FontSetup.library(options.fonts) }
        self.lyrics = lyrics
        var scenes = SceneBuilder(lyrics: lyrics, before: options.linesBefore, after: options.linesAfter,
                                  language: options.language, maxLineCharacters: options.maxLineCharacters)
        scenes.translations = options.translations
        scenes.romanisation = options.romanisation
        if let title = options.title { scenes.title = title.isEmpty ? nil : title }
        if let artist = options.artist { scenes.artist = artist.isEmpty ? nil : artist }
        if let album = options.album { scenes.album = album.isEmpty ? nil : album }
        if let duration = options.duration { scenes.duration = duration }
        scenes.timeSensitive = options.theme.showProgress
        scenes.karaoke = options.karaoke
        scenes.lineFill = options.theme.lineProgressFill
        self.scenes = scenes
        self.warnings = FontSetup.unusableFonts(options.fonts, library: fonts).map { "\($0): not a usable font, skipped" }
        self.background = background
        self.fonts = fonts
        self.coverDigest = coverDigest
        self.lyricsDigest = Digest.sha256(lyricsData)
        self.mainRenderer = try FrameRenderer(background: background, fonts: fonts, options: options, timings: timings, bases: bases)
    }

    /// A renderer for another thread.
    public func makeRenderer() throws(PosterError) -> FrameRenderer {
        try FrameRenderer(background: background, fonts: fonts, options: options, timings: timings, bases: bases)
    }

    /// Renders and encodes the frame at `time` on the calling thread.
    public func render(at time: Timestamp) throws(PosterError) -> RenderedFrame {
        try mainRenderer.render(scenes.scene(at: time))
    }

    /// Renders and encodes `scene` (one of this song's) on the calling thread.
    public func render(_ scene: Scene) throws(PosterError) -> RenderedFrame {
        try mainRenderer.render(scene)
    }

    /// What every frame of this song depends on besides its scene: the inputs' bytes, the options
    /// that change pixels, the fonts and the renderer's version. Frames whose key and scene are
    /// unchanged need not be rendered again.
    public var renderKey: String {
        let o = options
        let parts: [String] = [
            "lyricposter-render-\(FrameRenderer.version)", coverDigest, lyricsDigest,
            o.preset.name, "\(o.preset.width)x\(o.preset.height)", o.preset.arrangement.rawValue,
            "\(o.linesBefore)", "\(o.linesAfter)", "\(o.theme)", "\(o.karaoke)", "\(o.translations)", "\(o.romanisation)", o.format?.rawValue ?? "-", o.language ?? "-", o.encoding ?? "-", "\(o.maxLineCharacters)", "\(o.offsetSign)", o.compression.rawValue,
        ] + fonts.fontFiles()
        return Digest.sha256(parts.joined(separator: "\n"))
    }
}

/// A rendered, encoded frame.
public struct RenderedFrame: Sendable {
    public let png: [UInt8]
    public let report: FrameReport
    public let scene: Scene
}

/// What frames of a song start from: the time-independent layer (background and captions) as
/// pixels, and the encoder that keeps its PNG segments.
public final class FrameBase: Sendable {
    public let key: String
    public let layer: Renderer.BaseLayer
    public let encoder: PNG.RowsEncoder

    init(key: String, layer: Renderer.BaseLayer) {
        self.key = key
        self.layer = layer
        encoder = PNG.RowsEncoder(base: layer.rgb, width: layer.bitmap.width, height: layer.bitmap.height)
    }
}

/// A song's base pictures, one per placement of its captions (most songs have one or two: the
/// intro may place them differently). A placement gets a base the second time a frame asks for
/// it, so a one-off costs nothing extra; the few most recent are kept.
final class FrameBases: Sendable {
    static let capacity = 3
    private let state = Mutex<(requests: [String: Int], bases: [FrameBase])>(([:], []))

    /// The base for `key`, made with `make` if it is due; nil when frames with this key are to be
    /// drawn whole for now.
    func base(for key: String, make: () throws(PosterError) -> FrameBase) throws(PosterError) -> FrameBase? {
        let found = state.withLock { state -> (FrameBase?, Bool) in
            RaceDetector.locked(self)
            defer { RaceDetector.unlocking(self) }
            if let i = state.bases.firstIndex(where: { $0.key == key }) {
                let base = state.bases.remove(at: i)
                state.bases.insert(base, at: 0)
                return (base, false)
            }
            if state.requests.count > 10_000 { state.requests = [:] }
            state.requests[key, default: 0] += 1
            return (nil, state.requests[key, default: 0] >= 2)
        }
        if let base = found.0 { return base }
        guard found.1 else { return nil }
        let made = try make()
        return state.withLock { state in
            RaceDetector.locked(self)
            defer { RaceDetector.unlocking(self) }
            // Another thread may have made it meanwhile: keep theirs.
            if let existing = state.bases.first(where: { $0.key == key }) { return existing }
            state.bases.insert(made, at: 0)
            if state.bases.count > Self.capacity { state.bases.removeLast() }
            return made
        }
    }
}

/// Renders scenes of one prepared song to PNG bytes. Not thread-safe: one per thread.
///
/// Keeps a canvas and an RGB frame that hold a base picture of the song; each frame draws,
/// converts and encodes only the rows its time-dependent layers reach, then puts those rows back.
/// Frames that cannot be drawn that way are drawn whole; both give the same bytes.
public final class FrameRenderer {
    /// Bumped whenever the same inputs would render different pixels or bytes, so resumed batches
    /// re-render.
    public static let version = 4

    private let renderer: Renderer
    private let options: RenderOptions
    private let timings: Timings
    private let bases: FrameBases
    /// The working canvas and RGB rows, holding `base`'s pixels outside the rows being drawn.
    private var work: (base: FrameBase, canvas: Canvas, rgb: UnsafeMutableBufferPointer<UInt8>)?
    /// The chunks this renderer compressed last (see PNG.RowsEncoder.Memory), kept with karaoke
    /// on (`frame`, `sequence`), where consecutive frames are mostly ticks of one sung line; in
    /// `lines` each frame is another line, and remembering would only cost time and memory.
    private let memory = PNG.RowsEncoder.Memory()

    init(background: Background, fonts: FontLibrary, options: RenderOptions, timings: Timings, bases: FrameBases) throws(PosterError) {
        let engine: TextEngine
        do { engine = try TextEngine(fonts: fonts) } catch { throw PosterError(path: "fonts", reason: error.description) }
        renderer = Renderer(background: background,
                            layoutEngine: LayoutEngine(geometry: background.geometry, text: engine, theme: options.theme,
                                                       palette: background.palette))
        self.options = options
        self.timings = timings
        self.bases = bases
    }

    deinit {
        work?.rgb.deallocate()
    }

    /// The working state over `base`, reset to its pixels when it was over another one.
    private func workState(_ base: FrameBase) throws(PosterError) -> (canvas: Canvas, rgb: UnsafeMutableBufferPointer<UInt8>) {
        if let work, work.base === base { return (work.canvas, work.rgb) }
        let bitmap = base.layer.bitmap
        let canvas: Canvas
        if let work, work.canvas.width == bitmap.width, work.canvas.height == bitmap.height {
            canvas = work.canvas
        } else {
            do { canvas = try Canvas(width: bitmap.width, height: bitmap.height) } catch { throw PosterError(path: "frame", reason: "\(error)") }
            if options.karaoke {
                // Consecutive frames are mostly ticks of one sung line: keep what they share.
                canvas.blurCache = BlurCache()
                canvas.luminanceMemo = LuminanceMemo()
            }
        }
        canvas.copyRows(0..<bitmap.height, from: bitmap)
        let rgb: UnsafeMutableBufferPointer<UInt8>
        if let work, work.rgb.count == base.layer.rgb.count {
            rgb = work.rgb
            _ = rgb.update(fromContentsOf: base.layer.rgb)
        } else {
            work?.rgb.deallocate()
            rgb = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: base.layer.rgb.count)
            _ = rgb.initialize(fromContentsOf: base.layer.rgb)
        }
        work = (base, canvas, rgb)
        return (canvas, rgb)
    }

    /// Frames drawn from a base so far (the rest were drawn whole).
    public private(set) var partialFrames = 0

    public func render(_ scene: Scene, whole: Bool = false) throws(PosterError) -> RenderedFrame {
        let layout = renderer.layout(scene, timings: timings)
        let renderer = self.renderer
        let key = Renderer.baseKey(layout)
        if !whole, let base = try bases.base(for: key, make: { () throws(PosterError) in
            try timings.measure("base") { () throws(PosterError) in
                do { return FrameBase(key: key, layer: try renderer.renderBase(layout).layer) } catch {
                    throw PosterError(path: "frame", reason: "\(error)")
                }
            }
        }) {
            let work = try workState(base)
            let drawn: (frame: Renderer.Frame, rows: [Range<Int>])?
            do { drawn = try renderer.renderChanges(scene, layout: layout, on: work.canvas, base: base.layer, timings: timings) } catch {
                // The canvas may be half drawn: start the next frame from a fresh copy.
                self.work?.rgb.deallocate()
                self.work = nil
                throw PosterError(path: "frame", reason: "\(error)")
            }
            if let drawn {
                partialFrames += 1
                defer {
                    // Back to the base for the next frame.
                    let rowBytes = base.encoder.width * 3
                    base.layer.rgb.withUnsafeBufferPointer { source in
                        for rows in drawn.rows {
                            work.canvas.copyRows(rows, from: base.layer.bitmap)
                            let span = rows.lowerBound * rowBytes ..< rows.upperBound * rowBytes
                            _ = UnsafeMutableBufferPointer(rebasing: work.rgb[span]).update(fromContentsOf: source[span])
                        }
                    }
                }
                try timings.measure("convert") { () throws(PosterError) in
                    do { for rows in drawn.rows { try work.canvas.convertRows(rows, into: work.rgb) } } catch {
                        throw PosterError(path: "frame", reason: "\(error)")
                    }
                }
                let png = try encode(UnsafeBufferPointer(work.rgb), changed: drawn.rows, base: base)
                return RenderedFrame(png: png, report: FrameReport(scene: scene, frame: drawn.frame), scene: scene)
            }
        }
        let frame: Renderer.Frame
        do { frame = try renderer.render(scene, layout: layout, timings: timings) } catch {
            throw PosterError(path: "frame", reason: "\(error)")
        }
        let pixels = try timings.measure("convert") { () throws(PosterError) in
            do { return try frame.canvas.pixels(opaque: true) } catch { throw PosterError(path: "frame", reason: "\(error)") }
        }
        let png = try pixels.bytes.withUnsafeBufferPointer { (rgb) throws(PosterError) -> [UInt8] in
            try encode(rgb, changed: nil, base: work?.base)
        }
        return RenderedFrame(png: png, report: FrameReport(scene: scene, frame: frame), scene: scene)
    }

    private func encode(_ rgb: UnsafeBufferPointer<UInt8>, changed: [Range<Int>]?, base: FrameBase?) throws(PosterError) -> [UInt8] {
        try timings.measure("encode") { () throws(PosterError) in
            do {
                if options.compression == .fast, let base, base.encoder.width * base.encoder.height * 3 == rgb.count {
                    return try base.encoder.encode(rgb, changed: changed, memory: options.karaoke ? memory : nil)
                }
                let width = options.preset.width, height = rgb.count / (3 * width)
                return try PNG.encode(PixelBuffer(width: width, height: height, channels: 3, bytes: Array(rgb)),
                                      method: options.compression.method)
            } catch {
                throw PosterError(path: "frame", reason: "\(error)")
            }
        }
    }

    /// Renders `scene` whole and hands the canvas to `body` (for thumbnails), without encoding.
    public func draw<T>(_ scene: Scene, _ body: (Canvas, FrameReport) throws(PosterError) -> T) throws(PosterError) -> T {
        let frame: Renderer.Frame
        do { frame = try renderer.render(scene) } catch { throw PosterError(path: "frame", reason: "\(error)") }
        return try body(frame.canvas, FrameReport(scene: scene, frame: frame))
    }
}
