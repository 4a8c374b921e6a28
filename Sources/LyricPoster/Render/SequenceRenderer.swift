import Foundation
import PosterGraphics
import Locks

/// A rendered, encoded frame.
package struct RenderedFrame: Sendable {
    package let png: [UInt8]
    package let report: FrameReport
    package let scene: Scene
    /// What differs from the frame the same renderer made before it.
    package let change: FrameChange
    /// `png`'s SHA-256, when the renderer was asked for it (`render(_:motion:whole:digest:)`).
    let digest: String?

    init(png: [UInt8], report: FrameReport, scene: Scene, change: FrameChange = .whole, digest: String? = nil) {
        self.png = png
        self.report = report
        self.scene = scene
        self.change = change
        self.digest = digest
    }

    /// The lowercase hex SHA-256 of `png`: the one made along with it when asked for, else hashed now.
    package var sha256: String { digest ?? Digest.sha256(png) }
}

/// What a frame changed against the frame the same ``SequenceRenderer`` made before it, as
/// libass's `detect_change` tells a player whether to upload a new picture: a sink that keeps the
/// frame before may skip an unchanged one, or update only some rows.
package enum FrameChange: Hashable, Sendable {
    /// The same pixels: the same scene (and move) as the frame before.
    case none
    /// Only these pixel rows (sorted, apart) may differ from the frame before.
    case rows([Range<Int>])
    /// Anything may differ: the first frame, or one drawn over another base or whole.
    case whole
}

/// What frames of a song start from: the time-independent layer (background and captions) as
/// pixels, and the encoder that keeps its PNG segments.
package final class FrameBase: Sendable {
    let key: SequenceRenderer.BaseKey
    package let layer: SequenceRenderer.BaseLayer
    package let encoder: PNG.RowsEncoder

    init(key: SequenceRenderer.BaseKey, layer: SequenceRenderer.BaseLayer) {
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
    private let state = Guarded<(requests: [SequenceRenderer.BaseKey: Int], bases: [FrameBase])>(([:], []))
    /// The last frame encoded whole because its base was not due yet: the next base made takes
    /// the segments of the rows it shares with it (``PNG/RowsEncoder/seed(from:argb:)``). Behind
    /// a pthread mutex, which ThreadSanitizer sees: the frame is made on one renderer's thread
    /// and read on another's.
    private let donor = Guarded<PNG.WholeFrame?>(nil)

    /// Segments the bases made so far took from frames encoded whole.
    var seeded: Int {
        state.withLock { state in
            return state.bases.reduce(0) { $0 + $1.encoder.seeded }
        }
    }

    /// Keeps `frame` for the next base made (in place of the one kept before).
    func keep(_ frame: PNG.WholeFrame) {
        donor.withLock { $0 = frame }
    }

    /// The frame kept for the next base, if any.
    var kept: PNG.WholeFrame? { donor.withLock { $0 } }

    /// The base for `key`, made with `make` if it is due; nil when frames with this key are to be
    /// drawn whole for now.
    func base(for key: SequenceRenderer.BaseKey, make: () throws(PosterError) -> FrameBase) throws(PosterError) -> FrameBase? {
        let found = state.withLock { state -> (FrameBase?, Bool) in
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
        if let frame = donor.withLock({ kept -> PNG.WholeFrame? in defer { kept = nil }; return kept }) {
            made.encoder.seed(from: frame, argb: made.layer.bitmap)
        }
        return state.withLock { state in
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
package final class SequenceRenderer {
    /// Bumped whenever the same inputs would render different pixels or bytes, so resumed batches
    /// re-render.
    package static let version = 16

    let renderer: Renderer
    private let options: RenderOptions
    private let timings: Timings
    private let bases: FrameBases
    /// The working canvas and RGB rows, holding `base`'s pixels outside the rows being drawn.
    private var work: (base: FrameBase, canvas: Canvas, rgb: UnsafeMutableBufferPointer<UInt8>)?
    /// The chunks this renderer compressed last (see PNG.RowsEncoder.Memory), kept with karaoke
    /// on (`frame`, `sequence`), where consecutive frames are mostly ticks of one sung line; in
    /// `lines` each frame is another line, and remembering would only cost time and memory.
    private let memory = PNG.RowsEncoder.Memory()
    private let keepsWholeFrames: Bool

    /// With karaoke on: the last still frame drawn from `work`'s base, left on the canvas and in
    /// the RGB rows (in its rows that differ from the base) so that the next tick of its line
    /// redraws the line alone (see SequenceRenderer.SungLine); nil when `work` holds the base.
    private var sung: SungLine?
    /// Ticks drawn that way so far.
    package private(set) var sungRedraws = 0
    /// The frame made before: its scene and move, and the base it was drawn over with the rows
    /// that differ from that base (nil: drawn whole), for ``FrameChange``.
    private var last: (scene: Scene, motion: Motion?, base: FrameBase?, rows: [Range<Int>]?)?
    /// Segments of the song's bases taken from frames encoded whole before them, instead of
    /// compressed again.
    package var segmentsSeeded: Int { bases.seeded }
    /// Luminance measurements answered from the ones of the frame before (ticks of one line,
    /// frames of one move) instead of read from the pixels again.
    package var measurementsReplayed: Int { work?.canvas.luminanceMemo?.replayed ?? 0 }

    /// `engine`: a text engine over `fonts` made (and warmed) already. `warmed`: a layout
    /// engine over `engine` whose shaped texts to start from. `spare`: a canvas of the frame's
    /// size for the first frame drawn whole.
    /// `keepsWholeFrames`: a batch's renderer (more frames of the song follow), which keeps the
    /// first frame with a placement of the captions for the base made at the next one.
    init(background: Background, fonts: FontLibrary, options: RenderOptions, timings: Timings, bases: FrameBases,
         engine given: TextEngine? = nil, warmed: LayoutEngine? = nil,
         spare: Canvas? = nil, keepsWholeFrames: Bool = false) throws(PosterError) {
        self.keepsWholeFrames = keepsWholeFrames
        let engine: TextEngine
        if let given { engine = given } else {
            do { engine = try TextEngine(fonts: fonts) } catch { throw PosterError(path: "fonts", reason: error.description) }
        }
        let layoutEngine = LayoutEngine(geometry: background.geometry, text: engine, theme: options.theme, palette: background.palette)
        layoutEngine.shadowsEverywhere = options.textLayer
        if let text = options.qr {
            do throws(QRCodeError) { layoutEngine.qr = try QRCode(text) } catch { throw PosterError(path: "QR code", reason: error.description) }
        }
        if let warmed { layoutEngine.adoptFits(from: warmed) }
        renderer = Renderer(background: background, layoutEngine: layoutEngine)
        renderer.spareCanvas = spare
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
        sung = nil
        let bitmap = base.layer.bitmap
        let canvas: Canvas
        if let work, work.canvas.width == bitmap.width, work.canvas.height == bitmap.height {
            canvas = work.canvas
        } else {
            do { canvas = try Canvas(width: bitmap.width, height: bitmap.height) } catch { throw PosterError(path: "frame", reason: "\(error)") }
            if options.karaoke {
                // Consecutive frames are mostly ticks of one sung line: keep what they share.
                canvas.blurCache = BlurCache()
            }
            // The ticks of one sung line, and the frames of one move, measure the same pixels.
            canvas.luminanceMemo = LuminanceMemo()
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
    package private(set) var partialFrames = 0

    /// `motion`: the picture in the middle of a change of lines (see ``Motion``), drawn from the
    /// base like a still where it can be. `whole`: drawn whole all the same (the same bytes).
    /// `digest`: the frame's SHA-256 is wanted (``RenderedFrame/sha256``); a frame encoded from a
    /// base hashes only its bytes after those it shares with the base.
    package func render(_ scene: Scene, motion: Motion? = nil, whole: Bool = false, digest: Bool = false) throws(PosterError) -> RenderedFrame {
        if options.textLayer {
            let (png, report) = try drawnWhole(scene, motion: motion) { (pixels) throws(PosterError) in
                try timings.measure("encode") { () throws(PosterError) in
                    do { return try PNG.encode(pixels, method: options.compression.method) } catch {
                        throw PosterError(path: "frame", reason: "\(error)")
                    }
                }
            }
            return RenderedFrame(png: png, report: report, scene: scene, change: noted(scene, motion: motion, base: nil, rows: nil))
        }
        let ((png, sha256), report, change) = try produce(scene, motion: motion, whole: whole,
                                                  encodeWhole: options.compression == .fast ? { (canvas, first) throws(PosterError) in
                                                      (try self.encodeWhole(canvas, keep: first), nil) } : nil) {
            (rgb, changed, base) throws(PosterError) in try encode(rgb, changed: changed, base: base, digest: digest)
        }
        return RenderedFrame(png: png, report: report, scene: scene, change: change, digest: sha256)
    }

    /// `scene` drawn whole and made an e-ink panel's picture: quantised to `palette` (an indexed
    /// PNG of its colours), the pictures dithered by error diffusion and the text in the nearest
    /// colours, crisp (see ``EInkQuantizer``).
    package func renderEInk(_ scene: Scene, palette: EInkPalette) throws(PosterError) -> RenderedFrame {
        do {
            let frame = try renderer.render(scene, timings: timings)
            let pixels = try timings.measure("convert") { () throws(GraphicsError) in try frame.canvas.pixels(opaque: true) }
            let indices = try timings.measure("quantise") { () throws(GraphicsError) -> [UInt8] in
                let (crisp, mask) = try Self.crispText(pixels, layout: frame.layout)
                return EInkQuantizer.quantize(crisp, palette: palette, textMask: mask)
            }
            let png = try timings.measure("encode") { () throws(GraphicsError) in
                try IndexedPNG.encode(indices: indices, width: pixels.width, height: pixels.height, palette: palette)
            }
            return RenderedFrame(png: png, report: FrameReport(scene: scene, frame: frame), scene: scene)
        } catch {
            throw PosterError(path: "frame", reason: "\(error)")
        }
    }

    /// `pixels` (a frame of `layout`, opaque RGB) made ready for a panel's few colours, and the
    /// mask of what must not be dithered: every pixel the text touches becomes wholly its ink
    /// (half covered or more) or wholly what is behind it (the ground, worked out from the pixel,
    /// the ink and the coverage), so an edge takes no third colour (a grey edge's nearest colour
    /// on a seven-colour panel is green); the QR code's square is kept as drawn.
    package static func crispText(_ pixels: PixelBuffer, layout: FrameLayout) throws(GraphicsError) -> (PixelBuffer, [UInt8]) {
        precondition(pixels.channels == 3, "opaque RGB")
        let width = pixels.width, height = pixels.height
        // The text alone, each block in its ink, over transparency: straight RGBA.
        let canvas = try Canvas(width: width, height: height)
        for block in layout.blocks { try canvas.draw(block.layout, at: block.origin, color: block.color.withAlpha(1)) }
        let ink = try canvas.pixels(opaque: false).bytes
        var out = pixels.bytes
        var mask = [UInt8](repeating: 0, count: width * height)
        for i in 0..<(width * height) {
            let coverage = Int(ink[4 * i + 3])
            guard coverage > 0 else { continue }
            mask[i] = 255
            if coverage >= 128 {
                for c in 0..<3 { out[3 * i + c] = ink[4 * i + c] }
            } else {
                let k = Double(coverage) / 255
                for c in 0..<3 {
                    let ground = (Double(pixels.bytes[3 * i + c]) - k * Double(ink[4 * i + c])) / (1 - k)
                    out[3 * i + c] = UInt8(max(0, min(255, ground.rounded())))
                }
            }
        }
        if let qr = layout.qr {
            let x0 = max(0, Int(qr.minX)), x1 = min(width, Int(qr.maxX.rounded(.up)))
            let y0 = max(0, Int(qr.minY)), y1 = min(height, Int(qr.maxY.rounded(.up)))
            for y in y0..<max(y0, y1) { for x in x0..<max(x0, x1) { mask[y * width + x] = 255 } }
        }
        return (PixelBuffer(width: width, height: height, channels: 3, bytes: out), mask)
    }

    /// What this frame (`scene` in the middle of `motion`, drawn over `base` where `rows` differ
    /// from it, or whole) changed against the one before, which it then becomes. `redrawn`: the
    /// rows a sung-line redraw touched over the frame before.
    private func noted(_ scene: Scene, motion: Motion?, base: FrameBase?, rows: [Range<Int>]?, redrawn: Range<Int>? = nil) -> FrameChange {
        defer { last = (scene, motion, base, rows) }
        guard let last else { return .whole }
        if last.scene == scene, last.motion == motion { return .none }
        guard let base, let rows, let lastBase = last.base, lastBase === base, let lastRows = last.rows else { return .whole }
        // A tick redrawn over the frame before (its tick too) touched only its line's rows.
        if let redrawn { return .rows([redrawn]) }
        return .rows(Renderer.merge(lastRows + rows))
    }

    /// A frame drawn whole, over no base, converted and compressed chunk by chunk on the cores
    /// (the bytes of converting it whole, then `encode`).
    /// `keep`: the frame is the first whose captions are placed this way (its base is made at the
    /// next one); a batch's renderer keeps it, and the next base takes its segments where it can.
    private func encodeWhole(_ canvas: Canvas, keep: Bool) throws(PosterError) -> [UInt8] {
        try timings.measure("encode") { () throws(PosterError) in
            do {
                guard keep, keepsWholeFrames else { return try canvas.opaquePNG() }
                // The frame kept before (the intro) shares its untouched rows with this one.
                let (png, whole) = try canvas.opaquePNGKeepingSegments(previous: bases.kept)
                bases.keep(whole)
                return png
            } catch {
                throw PosterError(path: "frame", reason: "\(error)")
            }
        }
    }

    /// Draws `scene` whole (in the middle of `motion`, if any) and hands `body` its pixels: with
    /// the text layer option, the text alone over a transparent canvas as straight RGBA (for
    /// overlays that bring their own background; scrims and the classic band are drawn as usual,
    /// the cover and its backdrop are not), else opaque RGB.
    private func drawnWhole<T>(_ scene: Scene, motion: Motion?,
                               _ body: (PixelBuffer) throws(PosterError) -> T) throws(PosterError) -> (T, FrameReport) {
        let backdrop = !options.textLayer
        let frame: Renderer.Frame
        let pixels: PixelBuffer
        do {
            frame = try renderer.render(scene, motion: motion, timings: timings, backdrop: backdrop)
            pixels = try timings.measure("convert") { () throws(GraphicsError) in try frame.canvas.pixels(opaque: backdrop) }
        } catch {
            throw PosterError(path: "frame", reason: "\(error)")
        }
        return (try body(pixels), FrameReport(scene: scene, frame: frame))
    }

    /// Renders `scene` (in the middle of `motion`, if any) and hands its pixels, rows top to
    /// bottom, to `body` instead of encoding them: for sinks that take raw frames (`video`).
    /// Opaque RGB, 3 bytes a pixel; with the text layer option, straight RGBA, 4 bytes a pixel.
    /// The pixels are the same `render` encodes, and valid only during the call.
    /// `whole`: drawn whole all the same (the same pixels).
    package func renderPixels<T>(_ scene: Scene, motion: Motion? = nil, whole: Bool = false,
                                _ body: (UnsafeBufferPointer<UInt8>) throws(PosterError) -> T) throws(PosterError) -> (T, FrameReport) {
        let (value, report, _) = try renderPixelsAndChange(scene, motion: motion, whole: whole, body)
        return (value, report)
    }

    /// ``renderPixels(_:motion:whole:_:)``, and what differs from the frame this renderer made
    /// before (a text layer, drawn whole every time, says `.whole`).
    private func renderPixelsAndChange<T>(_ scene: Scene, motion: Motion?, whole: Bool,
                                          _ body: (UnsafeBufferPointer<UInt8>) throws(PosterError) -> T) throws(PosterError) -> (T, FrameReport, FrameChange) {
        if options.textLayer {
            let (value, report) = try drawnWhole(scene, motion: motion) { (pixels) throws(PosterError) in
                try pixels.bytes.withUnsafeBufferPointer { (bytes) throws(PosterError) -> T in try body(bytes) }
            }
            return (value, report, .whole)
        }
        return try produce(scene, motion: motion, whole: whole) { (rgb, _, _) throws(PosterError) in try body(rgb) }
    }

    /// `scene` drawn as a copy of its pixels (see ``renderPixels(_:motion:whole:_:)``), to encode
    /// in any format afterwards.
    package func renderPixelBuffer(_ scene: Scene, whole: Bool = false) throws(PosterError) -> (PixelBuffer, FrameReport) {
        let (pixels, report, _) = try renderPixelBufferAndChange(scene, whole: whole)
        return (pixels, report)
    }

    /// ``renderPixelBuffer(_:whole:)``, and what differs from the frame this renderer made before.
    package func renderPixelBufferAndChange(_ scene: Scene, whole: Bool = false) throws(PosterError) -> (PixelBuffer, FrameReport, FrameChange) {
        let width = options.preset.width, channels = options.textLayer ? 4 : 3
        let (bytes, report, change) = try renderPixelsAndChange(scene, motion: nil, whole: whole) { (pixels) throws(PosterError) in [UInt8](pixels) }
        return (PixelBuffer(width: width, height: bytes.count / (width * channels), channels: channels, bytes: bytes), report, change)
    }

    /// Draws `scene`, in the middle of `motion` if any (from a base where it can), and gives
    /// `consume` the RGB pixels, the rows that differ from the base (nil when drawn whole) and the
    /// base they were drawn over. `encodeWhole`: what to make of a frame drawn whole over no base,
    /// from its canvas, instead of converting it and calling `consume`.
    private func produce<T>(_ scene: Scene, motion: Motion? = nil, whole: Bool, encodeWhole: ((Canvas, Bool) throws(PosterError) -> T)? = nil,
                            _ consume: (UnsafeBufferPointer<UInt8>, [Range<Int>]?, FrameBase?) throws(PosterError) -> T)
        throws(PosterError) -> (T, FrameReport, FrameChange) {
        let layout = renderer.layout(scene, timings: timings)
        let renderer = self.renderer
        let key = BaseKey(layout)
        // Set when this frame's base is not due yet (the first frame with these captions).
        var first = !whole
        if !whole, let base = try bases.base(for: key, make: { () throws(PosterError) in
            try timings.measure("base") { () throws(PosterError) in
                do { return FrameBase(key: key, layer: try self.renderBase(layout).layer) } catch {
                    throw PosterError(path: "frame", reason: "\(error)")
                }
            }
        }) {
            first = false
            let work = try workState(base)
            /// Puts `rows` of the canvas and the RGB rows back to the base's.
            func restore(_ rows: [Range<Int>]) {
                let rowBytes = base.encoder.width * 3
                base.layer.rgb.withUnsafeBufferPointer { source in
                    for rows in rows {
                        work.canvas.copyRows(rows, from: base.layer.bitmap)
                        let span = rows.lowerBound * rowBytes ..< rows.upperBound * rowBytes
                        _ = UnsafeMutableBufferPointer(rebasing: work.rgb[span]).update(fromContentsOf: source[span])
                    }
                }
            }
            let drawn: (frame: Renderer.Frame, rows: [Range<Int>])?
            // The rows to convert (nil: all of `drawn.rows`), and what the next tick can keep.
            var redrawn: Range<Int>?
            var keep: SungLine?
            do {
                if motion == nil, let kept = sung,
                   let again = try self.redrawSung(scene, layout: layout, on: work.canvas, base: base.layer, kept: kept, timings: timings) {
                    drawn = (again.frame, again.rows)
                    redrawn = again.redrawn
                    keep = kept
                    sungRedraws += 1
                } else {
                    if let kept = sung {
                        sung = nil
                        restore(kept.changed)
                    }
                    if let motion {
                        drawn = try self.renderMotionChanges(scene, motion: motion, layout: layout, on: work.canvas, base: base.layer,
                                                                 timings: timings)
                    } else {
                        let full = try self.renderChanges(scene, layout: layout, on: work.canvas, base: base.layer, timings: timings,
                                                              keep: options.karaoke)
                        drawn = full.map { ($0.frame, $0.rows) }
                        keep = full?.sung
                    }
                }
            } catch {
                // The canvas may be half drawn: start the next frame from a fresh copy.
                self.work?.rgb.deallocate()
                self.work = nil
                sung = nil
                throw PosterError(path: "frame", reason: "\(error)")
            }
            if let drawn {
                partialFrames += 1
                sung = keep
                defer {
                    // Back to the base for the next frame, unless its line can be redrawn alone.
                    if keep == nil { restore(drawn.rows) }
                }
                do {
                    try timings.measure("convert") { () throws(GraphicsError) in
                        for rows in redrawn.map({ [$0] }) ?? drawn.rows { try work.canvas.convertRows(rows, into: work.rgb) }
                    }
                } catch {
                    keep = nil
                    sung = nil
                    throw PosterError(path: "frame", reason: "\(error)")
                }
                let value = try consume(UnsafeBufferPointer(work.rgb), drawn.rows, base)
                return (value, FrameReport(scene: scene, frame: drawn.frame),
                        noted(scene, motion: motion, base: base, rows: drawn.rows, redrawn: redrawn))
            }
        }
        let frame: Renderer.Frame
        do {
            frame = try renderer.render(scene, motion: motion, layout: layout, timings: timings)
        } catch {
            throw PosterError(path: "frame", reason: "\(error)")
        }
        if let encodeWhole, work?.base == nil {
            return (try encodeWhole(frame.canvas, first), FrameReport(scene: scene, frame: frame),
                    noted(scene, motion: motion, base: nil, rows: nil))
        }
        let pixels = try timings.measure("convert") { () throws(PosterError) in
            do { return try frame.canvas.pixels(opaque: true) } catch { throw PosterError(path: "frame", reason: "\(error)") }
        }
        let base = work?.base
        let value = try pixels.bytes.withUnsafeBufferPointer { (rgb) throws(PosterError) -> T in
            try consume(rgb, nil, base)
        }
        return (value, FrameReport(scene: scene, frame: frame), noted(scene, motion: motion, base: nil, rows: nil))
    }

    /// The PNG of `rgb`, and with `digest` its SHA-256 when the base's encoder makes it (else nil).
    private func encode(_ rgb: UnsafeBufferPointer<UInt8>, changed: [Range<Int>]?, base: FrameBase?,
                        digest: Bool = false) throws(PosterError) -> (png: [UInt8], sha256: String?) {
        try timings.measure("encode") { () throws(PosterError) in
            do {
                if options.compression == .fast, let base, base.encoder.width * base.encoder.height * 3 == rgb.count {
                    return try base.encoder.encode(rgb, changed: changed, memory: options.karaoke ? memory : nil, digest: digest)
                }
                let width = options.preset.width, height = rgb.count / (3 * width)
                return (try PNG.encode(rows: rgb, width: width, height: height, channels: 3, method: options.compression.method), nil)
            } catch {
                throw PosterError(path: "frame", reason: "\(error)")
            }
        }
    }

    /// Renders `scene` whole and hands the canvas to `body` (for thumbnails), without encoding.
    package func draw<T>(_ scene: Scene, _ body: (Canvas, FrameReport) throws(PosterError) -> T) throws(PosterError) -> T {
        let frame: Renderer.Frame
        do { frame = try renderer.render(scene) } catch { throw PosterError(path: "frame", reason: "\(error)") }
        return try body(frame.canvas, FrameReport(scene: scene, frame: frame))
    }
}
