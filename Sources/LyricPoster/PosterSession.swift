import Foundation
import LyricsCore
import PosterGraphics

/// Options shared by every command that renders.
public struct RenderOptions: Sendable {
    public var preset: Preset = .lockscreen
    /// Lines shown before and after the current one.
    public var before = 1
    public var after = 1
    /// Overrides the song's [la:] tag for glyph forms.
    public var language: String?
    public var fonts = FontOptions()
    /// Forces the lyrics' text encoding (nil = detect).
    public var encoding: String?
    public var limits = DecodeLimits()
    /// Lyrics files larger than this are refused before they are read.
    public var maxLyricsBytes = 16 * 1024 * 1024
    public var compression: PNG.Compression = .fast

    public init() {}
}

/// Reads input files into values, with errors that name the file.
public enum Inputs {
    /// Reads a whole file, refusing folders and files over `limit` bytes before reading them.
    public static func read(_ path: String, limit: Int) throws(PosterError) -> Data {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw PosterError(path: path, reason: errno == ENOENT ? "no such file" : OutputFile.errnoReason(errno))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw PosterError(path: path, reason: "is a folder, not a file") }
        if Int(info.st_size) > limit {
            throw PosterError(path: path, reason: "file is \(info.st_size) bytes, more than the limit of \(limit)")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw PosterError.reading(path, error)
        }
    }

    public static func lyrics(_ path: String, encoding: String?, limit: Int = 16 * 1024 * 1024) throws(PosterError) -> Lyrics {
        let data = try read(path, limit: limit)
        do {
            return try LRC.load(data, encoding: encoding)
        } catch {
            throw PosterError(path: path, reason: error.description)
        }
    }

    public static func cover(_ path: String, limits: DecodeLimits, minimumSize: (width: Int, height: Int)?) throws(PosterError) -> Bitmap {
        // A compressed cover can never legitimately be larger than its pixel limit uncompressed.
        let data = try read(path, limit: max(64 * 1024 * 1024, limits.maxPixels * 4))
        do {
            return try ImageDecoder.decode(data, limits: limits, minimumSize: minimumSize)
        } catch {
            throw PosterError(path: path, reason: error.description)
        }
    }
}

/// One song prepared for rendering: lyrics parsed, cover decoded and its background prepared,
/// fonts set up. Frames at any time then cost only layout, drawing and encoding.
public final class PosterSession {
    public let options: RenderOptions
    public let lyrics: Lyrics
    public let scenes: SceneBuilder
    public let background: Background
    public let fonts: FontLibrary
    public let timings: Timings
    private let renderer: Renderer

    public init(cover coverPath: String, lyrics lyricsPath: String, options: RenderOptions,
                timings: Timings = Timings()) throws(PosterError) {
        self.options = options
        self.timings = timings
        let lyrics = try timings.measure("lyrics") { () throws(PosterError) in
            try Inputs.lyrics(lyricsPath, encoding: options.encoding, limit: options.maxLyricsBytes)
        }
        let preset = options.preset
        let geometry = PosterGeometry(preset: preset, before: options.before, after: options.after)
        // The largest area the cover is drawn at: the whole canvas (classic, or as the backdrop's source).
        let cover = try timings.measure("decode") { () throws(PosterError) in
            try Inputs.cover(coverPath, limits: options.limits, minimumSize: (preset.width, preset.height))
        }
        let background = try timings.measure("background") { () throws(PosterError) in
            do { return try Background.prepare(cover: cover, geometry: geometry) } catch {
                throw PosterError(path: coverPath, reason: "\(error)")
            }
        }
        let fonts = try timings.measure("fonts") { () throws(PosterError) in try FontSetup.library(options.fonts) }
        let engine: TextEngine
        do { engine = try TextEngine(fonts: fonts) } catch { throw PosterError(path: "fonts", reason: "\(error)") }
        self.lyrics = lyrics
        self.scenes = SceneBuilder(lyrics: lyrics, before: options.before, after: options.after, language: options.language)
        self.background = background
        self.fonts = fonts
        self.renderer = Renderer(background: background, layoutEngine: LayoutEngine(geometry: geometry, text: engine))
    }

    /// A rendered, encoded frame.
    public struct Output {
        public let png: [UInt8]
        public let report: FrameReport
        public let scene: Scene
    }

    /// Renders and encodes the frame at `time`.
    public func render(at time: Timestamp) throws(PosterError) -> Output {
        let scene = scenes.scene(at: time)
        let frame = try timings.measure("render") { () throws(PosterError) in
            do { return try renderer.render(scene) } catch { throw PosterError(path: "frame", reason: "\(error)") }
        }
        let png = try timings.measure("encode") { () throws(PosterError) in
            do { return try frame.canvas.pngData(opaque: true, compression: options.compression) } catch {
                throw PosterError(path: "frame", reason: "\(error)")
            }
        }
        return Output(png: png, report: FrameReport(scene: scene, frame: frame), scene: scene)
    }
}
