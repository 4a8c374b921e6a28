import Foundation
import LyricPoster
import SongSources
import LyricsCore
import PosterGraphics
import TestSupport
import XCTest
import Locks

/// Frames drawn from the song's base picture (only the rows the time-dependent layers reach,
/// encoded around the base's cached PNG segments) against the same frames drawn whole: the same
/// PNG bytes, across themes, presets, karaoke and the progress bar; and the PNGs decode, in an
/// independent decoder, to exactly the pixels drawn.
final class BandRenderTests: XCTestCase {
    static let song = """
    [ti:Band Song With A Title Long Enough To Wrap Somewhere]
    [ar:Reference Band]
    [al:Rows]
    [length:00:30]
    [00:01.00]The first line of the song, long enough to wrap on a small canvas and then some more words
    [00:04.00]<00:04.00>Every <00:05.00>word <00:06.00>in <00:07.00>turn<00:08.00>
    [00:04.00]每个字依次亮起
    [00:09.00]الليل طويل والطريق هادئ 🌙
    [00:13.00]Last line
    [00:16.00]
    [00:21.00]After the gap
    [00:25.00]
    """
    /// A translation whose stacked marks rise towards the sung line above it (the layout keeps
    /// their ink apart; SungLineTests puts a block over the line).
    static let stacked = """
    [ti:Stacked]
    [00:01.00]<00:01.00>Marks <00:02.00>rise <00:03.00>above <00:04.00>the <00:05.00>line<00:06.00>
    [00:01.00]\u{E3}\u{303}\u{303}\u{303}\u{303}\u{303}\u{303}\u{303}\u{303} q\u{303}\u{303}\u{303}\u{303}\u{303}\u{303}\u{303}\u{303}\u{303} \u{1EBD}\u{303}\u{303}\u{303}\u{303}\u{303}\u{303}\u{303}\u{303}
    [00:07.00]The next line
    """
    static let times = [0, 500, 1_500, 4_200, 5_500, 6_900, 9_500, 14_000, 18_000, 22_000, 29_000]
    static let presets: [Preset] = [.custom(width: 270, height: 480), .custom(width: 360, height: 360),
                                    .custom(width: 480, height: 270), Preset(name: "classic-half", width: 240, height: 400, arrangement: .classic)]

    static let folder: URL = {
        // Sessions made here keep their backdrops in the scratch folder, not the user's cache.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lyricposter-band-\(getpid())")
        setenv("XDG_CACHE_HOME", folder.appendingPathComponent("cache").path, 1)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(song.utf8).write(to: folder.appendingPathComponent("song.lrc"))
            try Data(stacked.utf8).write(to: folder.appendingPathComponent("stacked.lrc"))
            for (name, cover) in try generatedCovers() where ["busy", "white", "black"].contains(name) {
                let canvas = try Canvas(width: cover.width, height: cover.height)
                canvas.draw(cover, in: Rect(x: 0, y: 0, width: Double(cover.width), height: Double(cover.height)))
                try Data(try canvas.pngData(opaque: true, compression: .small)).write(to: folder.appendingPathComponent(name + ".png"))
            }
        } catch { fatalError("fixtures: \(error)") }
        return folder
    }()

    func session(cover: String, theme: Theme, preset: Preset, karaoke: Bool, compression: PNG.Compression = .fast,
                 lyrics: String = "song.lrc") throws -> PosterSession {
        var options = RenderOptions()
        options.theme = theme
        options.preset = preset
        options.karaoke = karaoke
        options.compression = compression
        return try PosterSession(cover: Self.folder.appendingPathComponent(cover + ".png").path,
                                 lyrics: Self.folder.appendingPathComponent(lyrics).path, options: options)
    }

    func testFramesDrawnFromTheBaseEqualWholeFrames() throws {
        var compared = 0, partial = 0
        for theme in Theme.tested {
            for preset in Self.presets {
                for karaoke in [false, true] {
                    for cover in ["busy", "white"] {
                        let session = try session(cover: cover, theme: theme, preset: preset, karaoke: karaoke)
                        let fast = try session.makeRenderer(), whole = try session.makeRenderer()
                        for t in Self.times {
                            let scene = session.scenes.scene(at: Timestamp(milliseconds: t))
                            let a = try fast.render(scene), b = try whole.render(scene, whole: true)
                            XCTAssertEqual(a.png, b.png, "\(theme.name) \(preset) karaoke \(karaoke) \(cover) @\(t)")
                            XCTAssertEqual(a.report.json(), b.report.json(), "\(theme.name) \(preset) \(cover) @\(t): report")
                            compared += 1
                        }
                        // Side by side (split), captions share rows with the lyrics: those frames may
                        // all be drawn whole.
                        if preset.arrangement != .split {
                            XCTAssertGreaterThan(fast.partialFrames, Self.times.count / 2,
                                                 "\(theme.name) \(preset) \(cover): most frames should be drawn from the base")
                        }
                        partial += fast.partialFrames
                    }
                }
            }
        }
        print("band rendering: \(partial) of \(compared) frames drawn from the base, all byte-identical to whole frames")
    }

    /// Pictures in the middle of a change (scroll and fade, early, midway and late in the move)
    /// drawn from the base: the same bytes and report as drawn whole, and most of them are drawn
    /// from the base (the captions stay where they are while the lines move).
    func testMovesDrawnFromTheBaseEqualWholeFrames() throws {
        var compared = 0, partial = 0
        let sanitized = Sanitizers.active
        let themes = Theme.tested
        for (t, theme) in themes.enumerated() {
            for (p, preset) in Self.presets.enumerated() {
                // Light and dark covers in turn (the whole matrix takes minutes in a debug build).
                do {
                    let cover = (t + p) % 2 == 0 ? "busy" : "white"
                    let session = try session(cover: cover, theme: theme, preset: preset, karaoke: true)
                    let fast = try session.makeRenderer(), whole = try session.makeRenderer()
                    var moves = 0
                    for style in [Transition.Style.scroll, .fade] {
                        let plan = MotionPlan(session.scenes, transition: Transition(style: style, durationMs: 600))
                        for (n, change) in plan.changes.enumerated() {
                            // Early in the move (lines nearly where they were) or past its middle, in turn.
                            for offset in [n % 2 == 0 ? 40 : 330] {
                                let ms = change.at + offset
                                guard let motion = plan.motion(at: ms) else { continue }
                                let scene = session.scenes.scene(at: Timestamp(milliseconds: ms))
                                let a = try fast.render(scene, motion: motion), b = try whole.render(scene, motion: motion, whole: true)
                                XCTAssertEqual(a.png, b.png, "\(theme.name) \(preset) \(cover) \(style) @\(ms)")
                                XCTAssertEqual(a.report.json(), b.report.json(), "\(theme.name) \(preset) \(cover) \(style) @\(ms): report")
                                compared += 1
                                moves += 1
                            }
                        }
                    }
                    XCTAssertEqual(whole.partialFrames, 0, "whole: true draws whole")
                    if preset.arrangement != .split {
                        XCTAssertGreaterThan(fast.partialFrames, moves / 2,
                                             "\(theme.name) \(preset) \(cover): most moves should be drawn from the base")
                    }
                    partial += fast.partialFrames
                }
            }
        }
        XCTAssertGreaterThan(compared, sanitized ? 60 : 150)
        print("band rendering: \(partial) of \(compared) moving frames drawn from the base, all byte-identical to whole frames")
    }

    /// A batch's frames in order, as `lines` and `catalog` render them: the intro and the first
    /// frame with the song's captions are encoded whole (their bases are not due yet), and the base
    /// made at the next frame takes the segments of the rows it shares with the last of them
    /// instead of compressing them again. The same bytes as every frame drawn whole.
    func testABaseTakesTheSegmentsOfTheFrameEncodedWholeBeforeIt() throws {
        var seeded = 0
        for theme in Theme.tested {
            let session = try session(cover: "busy", theme: theme, preset: .custom(width: 270, height: 480), karaoke: false)
            let fast = try session.makeRenderer(), whole = try session.makeRenderer()
            for t in Self.times {
                let scene = session.scenes.scene(at: Timestamp(milliseconds: t))
                let a = try fast.render(scene), b = try whole.render(scene, whole: true)
                XCTAssertTrue(a.png == b.png, "\(theme.name) @\(t): other bytes than drawn whole")
            }
            XCTAssertGreaterThan(fast.segmentsSeeded, 0, "\(theme.name): the base compressed every chunk again")
            seeded += fast.segmentsSeeded
        }
        print("bases: \(seeded) segments taken from frames encoded whole")
    }

    /// A base takes a whole frame's segment only where the frame's rows and the row above them
    /// (which the Up filter reads) are the base's: a one-row difference at the end of a chunk
    /// keeps both that chunk and the next from being taken.
    func testSeedingTakesOnlyChunksWhoseRowsAndTheRowAboveMatch() throws {
        let w = 48, h = PNG.RowsEncoder.chunkRows * 4
        func picture(_ canvas: Canvas) {
            canvas.fillVerticalGradient(Rect(x: 0, y: 0, width: Double(w), height: Double(h)),
                                        stops: [(0, Color(red: 0.1, green: 0.5, blue: 0.9)), (1, Color(red: 0.9, green: 0.3, blue: 0.1))])
            canvas.fill(Rect(x: 5, y: 3, width: 20, height: Double(h - 6)), color: Color(red: 0.2, green: 0.8, blue: 0.3, alpha: 0.5))
        }
        let frame = try Canvas(width: w, height: h), base = try Canvas(width: w, height: h)
        picture(frame)
        picture(base)
        // The base differs in the last row of the first chunk only.
        base.fill(Rect(x: 0, y: Double(PNG.RowsEncoder.chunkRows - 1), width: Double(w), height: 1), color: Color(red: 1, green: 1, blue: 1))
        try base.finish()
        let (_, whole) = try frame.opaquePNGKeepingSegments()
        let encoder = PNG.RowsEncoder(base: try base.pixels(opaque: true).bytes, width: w, height: h)
        encoder.seed(from: whole, argb: base.snapshot())
        XCTAssertEqual(encoder.seeded, 2, "the third and fourth chunks only")
        let encoded = try encoder.encodeBase(), own = try base.opaquePNG()
        XCTAssertTrue(encoded == own, "other bytes than the base's own")
        // A frame encoded whole after another takes that one's segments the same way.
        let again = try Canvas(width: w, height: h)
        picture(again)
        again.fill(Rect(x: 0, y: Double(PNG.RowsEncoder.chunkRows * 3 - 1), width: Double(w), height: 1), color: Color(red: 0, green: 0, blue: 0))
        try again.finish()
        let (png, next) = try again.opaquePNGKeepingSegments(previous: whole)
        XCTAssertEqual(next.fromPrevious, 2, "the first and second chunks only")
        let alone = try again.opaquePNG()
        XCTAssertTrue(png == alone, "other bytes than the frame's own")
    }

    /// Every frame of a move rendered one after another, as `sequence` and `video` do: the frames
    /// after a move's first answer its contrast measurements from the record of the one before
    /// (the same pixels: the base and the still's band, before any block is drawn). The same
    /// bytes and report as frames drawn whole, karaoke on and off, scroll and fade.
    func testFramesOfAMoveEqualWholeFrames() throws {
        var compared = 0, replayed = 0
        for theme in Theme.tested {
            for (p, preset) in [Preset.custom(width: 270, height: 480), Preset(name: "classic-half", width: 240, height: 400, arrangement: .classic)].enumerated() {
                for karaoke in [true, false] {
                    let cover = (theme.name.count + p) % 2 == 0 ? "busy" : "white"
                    let session = try session(cover: cover, theme: theme, preset: preset, karaoke: karaoke)
                    let fast = try session.makeRenderer(), whole = try session.makeRenderer()
                    for style in [Transition.Style.scroll, .fade] {
                        let plan = MotionPlan(session.scenes, transition: Transition(style: style, durationMs: 300))
                        for change in plan.changes.prefix(3) {
                            for ms in stride(from: change.at, to: change.at + 300, by: 75) {
                                guard let motion = plan.motion(at: ms) else { continue }
                                let scene = session.scenes.scene(at: Timestamp(milliseconds: ms))
                                let a = try fast.render(scene, motion: motion), b = try whole.render(scene, motion: motion, whole: true)
                                XCTAssertTrue(a.png == b.png, "\(theme.name) \(preset) karaoke \(karaoke) \(style) @\(ms): other bytes than drawn whole")
                                XCTAssertEqual(a.report.json(), b.report.json(), "\(theme.name) \(preset) \(style) @\(ms): report")
                                compared += 1
                            }
                        }
                    }
                    XCTAssertGreaterThan(fast.measurementsReplayed, 0, "\(theme.name) \(preset) karaoke \(karaoke): frames of a move measure again")
                    replayed += fast.measurementsReplayed
                }
            }
        }
        // Fewer themes under a sanitizer (Theme.tested).
        XCTAssertGreaterThan(compared, Sanitizers.active ? 80 : 200)
        print("moves: \(compared) moving frames byte-identical to whole frames, \(replayed) measurements replayed")
    }

    /// Ticks of karaoke lines rendered one after another, as `sequence` and `video` do: after a
    /// line's first tick the renderer redraws only its sung part over the tick before
    /// (Renderer.SungLine). The same bytes and report as frames drawn whole, through word-timed
    /// and line-filled lines, right-to-left text, moves, jumps away and back, and a repeated tick.
    func testTicksOfASungLineEqualWholeFrames() throws {
        var compared = 0, redrawn = 0
        let ticks = Array(stride(from: 4_000, through: 5_300, by: 100)) + [5_300, 1_500, 6_950, 7_400, 4_200]
            + Array(stride(from: 7_500, through: 10_400, by: 150)) + [13_050, 13_400, 29_000]
        // Wide, dark shadows and blurred neighbours, whose reach meets the sung line's rows from
        // the blocks drawn after it; lines without word timing fill across the line.
        var heavy = Theme.card
        heavy.name = "card-heavy"
        heavy.shadowRadius = 40
        heavy.shadowOpacity = 0.95
        heavy.depthBlur = 16
        heavy.lineProgressFill = true
        for theme in Theme.tested + [heavy] {
            for preset in [Preset.custom(width: 270, height: 480), .custom(width: 480, height: 270),
                           Preset(name: "classic-half", width: 240, height: 400, arrangement: .classic)] {
                let cover = theme.name == "card-heavy" ? "black" : theme.name.count % 2 == 0 ? "busy" : "white"
                let session = try session(cover: cover, theme: theme, preset: preset, karaoke: true)
                let fast = try session.makeRenderer(), whole = try session.makeRenderer()
                let plan = MotionPlan(session.scenes, transition: Transition(style: .scroll, durationMs: 400))
                for t in ticks {
                    let scene = session.scenes.scene(at: Timestamp(milliseconds: t))
                    let motion = plan.motion(at: t)
                    let a = try fast.render(scene, motion: motion), b = try whole.render(scene, motion: motion, whole: true)
                    XCTAssertTrue(a.png == b.png, "\(theme.name) \(preset) @\(t): other bytes than drawn whole")
                    XCTAssertEqual(a.report.json(), b.report.json(), "\(theme.name) \(preset) @\(t): report")
                    compared += 1
                }
                XCTAssertEqual(whole.sungRedraws, 0)
                // Side by side (split), frames are drawn whole (see above).
                if theme.name.hasPrefix("card"), preset.arrangement != .split {
                    XCTAssertGreaterThan(fast.sungRedraws, ticks.count / 3, "\(preset): most ticks of a sung line should redraw it alone")
                }
                redrawn += fast.sungRedraws
            }
        }
        // Tall ink (stacked marks) in the translation drawn after the sung line.
        for theme in [Theme.card, .minimal] {
            let session = try session(cover: "busy", theme: theme, preset: .custom(width: 270, height: 480), karaoke: true, lyrics: "stacked.lrc")
            let fast = try session.makeRenderer(), whole = try session.makeRenderer()
            for t in stride(from: 1_500, through: 5_900, by: 200) {
                let scene = session.scenes.scene(at: Timestamp(milliseconds: t))
                let a = try fast.render(scene), b = try whole.render(scene, whole: true)
                XCTAssertTrue(a.png == b.png, "\(theme.name) stacked marks @\(t): other bytes than drawn whole")
                XCTAssertEqual(a.report.json(), b.report.json(), "\(theme.name) stacked marks @\(t): report")
                compared += 1
            }
            XCTAssertGreaterThan(fast.sungRedraws, 15, theme.name)
            redrawn += fast.sungRedraws
        }
        print("sung lines: \(redrawn) of \(compared) ticks redrew their line alone, all byte-identical to whole frames")
    }

    /// Each frame says what changed against the frame before from the same renderer: no row
    /// that differs lies outside the rows it names, the same scene again changes nothing, and
    /// ticks of a line name only some rows.
    func testEachFrameSaysWhichRowsChanged() throws {
        let ticks = Array(stride(from: 4_000, through: 5_300, by: 100)) + [5_300, 1_500, 6_950, 7_400, 4_200]
            + Array(stride(from: 7_500, through: 10_400, by: 150)) + [13_050, 13_400, 29_000]
        var counts: [String: Int] = [:]
        for (theme, cover) in [(Theme.card, "busy"), (.immersive, "white"), (.classic, "black")] {
            let session = try session(cover: cover, theme: theme, preset: .custom(width: 270, height: 480), karaoke: true)
            let renderer = try session.makeRenderer()
            let plan = MotionPlan(session.scenes, transition: Transition(style: .scroll, durationMs: 400))
            var before: Bitmap?
            for t in ticks {
                let frame = try renderer.render(session.scenes.scene(at: Timestamp(milliseconds: t)), motion: plan.motion(at: t))
                let pixels = try ImageDecoder.decode(Data(frame.png))
                if let before {
                    let differing = (0..<pixels.height).filter { y in
                        pixels.pixels.withUnsafeBufferPointer { a in
                            before.pixels.withUnsafeBufferPointer { b in
                                memcmp(a.baseAddress! + y * pixels.stride, b.baseAddress! + y * before.stride, pixels.width * 4) != 0
                            }
                        }
                    }
                    switch frame.change {
                    case .none:
                        XCTAssertEqual(differing, [], "\(theme.name) @\(t): said unchanged")
                        counts["none", default: 0] += 1
                    case .rows(let rows):
                        let outside = differing.filter { y in !rows.contains { $0.contains(y) } }
                        XCTAssertEqual(outside, [], "\(theme.name) @\(t): rows changed outside \(rows)")
                        XCTAssertLessThan(rows.reduce(0) { $0 + $1.count }, pixels.height, "\(theme.name) @\(t)")
                        counts["rows", default: 0] += 1
                    case .whole:
                        counts["whole", default: 0] += 1
                    }
                } else {
                    XCTAssertEqual(frame.change, .whole, "the first frame")
                }
                before = pixels
            }
        }
        XCTAssertEqual(counts["none"], 3, "5.3 s twice in a row, per theme")
        XCTAssertGreaterThan(counts["rows", default: 0], 2 * (counts["whole", default: 0]), "\(counts)")
        print("frame changes: \(counts)")
    }

    func testBaseSegmentPNGsDecodeToThePixelsDrawn() throws {
        for theme in [Theme.card, .immersive] {
            let session = try session(cover: "busy", theme: theme, preset: .custom(width: 270, height: 480), karaoke: true)
            let renderer = try session.makeRenderer()
            for t in [1_500, 6_900, 14_000] {
                let scene = session.scenes.scene(at: Timestamp(milliseconds: t))
                let png = try renderer.render(scene).png
                let drawn = try renderer.draw(scene) { canvas, _ throws(PosterError) in
                    do { return try canvas.pixels(opaque: true) } catch { throw PosterError(path: "test", reason: "\(error)") }
                }
                let decoded = try ImageDecoder.decode(Data(png))
                XCTAssertEqual(decoded.width, drawn.width)
                var rgb: [UInt8] = []
                rgb.reserveCapacity(drawn.bytes.count)
                for y in 0..<decoded.height {
                    for x in 0..<decoded.width {
                        let p = decoded.rgba(x: x, y: y)
                        XCTAssertEqual(p.a, 255)
                        rgb += [p.r, p.g, p.b]
                    }
                }
                XCTAssertTrue(rgb == drawn.bytes, "\(theme.name) @\(t): decoded pixels differ from the drawn ones")
            }
        }
    }

    func testOtherCompressionSettingsAlsoDrawFromTheBase() throws {
        for compression in [PNG.Compression.balanced, .small] {
            let session = try session(cover: "black", theme: .immersive, preset: .custom(width: 270, height: 480), karaoke: true,
                                      compression: compression)
            let fast = try session.makeRenderer(), whole = try session.makeRenderer()
            for t in [1_500, 6_900, 9_500] {
                let scene = session.scenes.scene(at: Timestamp(milliseconds: t))
                XCTAssertEqual(try fast.render(scene).png, try whole.render(scene, whole: true).png, "\(compression) @\(t)")
            }
            // A placement of the captions gets its base the second time it is asked for.
            XCTAssertEqual(fast.partialFrames, 2)
        }
    }

    /// The same pixels give the same bytes however often, on whichever thread, after whatever
    /// else was compressed (ISA-L's stream state once came partly from the stack, and its levels 1-3 hash the stream's address).
    func testEncodingIsRepeatableAcrossCallsAndThreads() throws {
        let width = 540, height = 300
        var seed: UInt64 = 7
        let noisy = (0..<(width * height * 3)).map { i -> UInt8 in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: (i / 3) % 200 + Int(seed >> 61))
        }
        let pixels = PixelBuffer(width: width, height: height, channels: 3, bytes: noisy)
        let first = try PNG.encode(pixels, method: PNG.Compression.fast.method)
        let other = PixelBuffer(width: 97, height: 61, channels: 3, bytes: [UInt8](repeating: 200, count: 97 * 61 * 3))
        for _ in 0..<5 {
            _ = try PNG.encode(other, method: PNG.Compression.fast.method)
            XCTAssertEqual(try PNG.encode(pixels, method: PNG.Compression.fast.method), first)
        }
        let results = Collected()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if let bytes = try? PNG.encode(pixels, method: PNG.Compression.fast.method) { results.append(bytes) }
        }
        XCTAssertEqual(results.values.count, 4)
        for bytes in results.values { XCTAssertEqual(bytes, first) }
    }

    /// The encoder's bytes depend on the pixels alone: the rows a caller names as changed only
    /// narrow the comparison, and a cold cache gives the same bytes as a warm one.
    func testRowsEncoderOutputDependsOnlyOnThePixels() throws {
        let width = 64, height = 200
        var base = [UInt8](repeating: 0, count: width * height * 3)
        for i in base.indices { base[i] = UInt8(truncatingIfNeeded: i * 7 + (i / 192) * 13) }
        var frame = base
        for y in 70..<90 { for x in 0..<(width * 3) { frame[y * width * 3 + x] ^= 0x5A } }
        let warm = PNG.RowsEncoder(base: base, width: width, height: height)
        _ = try warm.encodeBase()
        let cold = PNG.RowsEncoder(base: base, width: width, height: height)
        let narrow = try frame.withUnsafeBufferPointer { try warm.encode($0, changed: [70..<90]) }
        let wide = try frame.withUnsafeBufferPointer { try warm.encode($0, changed: nil) }
        let fresh = try frame.withUnsafeBufferPointer { try cold.encode($0, changed: [0..<200]) }
        XCTAssertEqual(narrow, wide)
        XCTAssertEqual(narrow, fresh)
        let decoded = try ImageDecoder.decode(Data(narrow))
        for y in [0, 69, 70, 89, 90, 199] {
            let p = decoded.rgba(x: 5, y: y)
            let i = (y * width + 5) * 3
            XCTAssertEqual([p.r, p.g, p.b], Array(frame[i..<i + 3]), "row \(y)")
        }
        // The base itself, and an RGBA whole-frame encode, round-trip too.
        XCTAssertEqual(try ImageDecoder.decode(Data(warm.encodeBase())).rgba(x: 3, y: 150).r, base[(150 * width + 3) * 3])
        let rgba = PixelBuffer(width: 2, height: 2, channels: 4, bytes: [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 9, 9, 9, 255])
        let back = try ImageDecoder.decode(Data(PNG.encode(rgba, method: PNG.Compression.fast.method)))
        XCTAssertEqual(back.rgba(x: 1, y: 0).a, 128)
        XCTAssertEqual(back.rgba(x: 0, y: 1).a, 0)
    }

    /// The SHA-256 made with a frame (its bytes up to the first changed chunk hashed once per
    /// base, then kept) is the digest of the frame's bytes, wherever the change begins (the first
    /// row, the middle, the last chunk, nowhere), in any order, cold or warm, on several threads
    /// at once; and asking for it changes no byte. Each segment is an IDAT of its own.
    func testDigestMadeWithAFrameIsTheSHA256OfItsBytes() throws {
        let width = 64, height = 300  // 10 chunks, the last one short
        let base = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 * 5 + ($0 / 192) * 11) }
        @Sendable func changed(_ rows: Range<Int>) -> [UInt8] {
            var frame = base
            for y in rows { for x in 0..<(width * 3) { frame[y * width * 3 + x] ^= 0xA5 } }
            return frame
        }
        let cases: [Range<Int>] = [150..<170, 0..<3, 0..<0, 290..<300, 40..<41, 150..<170, 31..<32, 299..<300, 0..<0, 100..<260]
        let plain = PNG.RowsEncoder(base: base, width: width, height: height)
        let expected = try cases.map { rows in try changed(rows).withUnsafeBufferPointer { try plain.encode($0, changed: nil) } }
        for order in [Array(cases.indices), cases.indices.reversed()] {
            let encoder = PNG.RowsEncoder(base: base, width: width, height: height)
            for i in order {
                let (png, digest) = try changed(cases[i]).withUnsafeBufferPointer {
                    try encoder.encode($0, changed: [cases[i]], digest: true)
                }
                XCTAssertEqual(png, expected[i], "rows \(cases[i])")
                XCTAssertEqual(digest, Digest.sha256(png), "rows \(cases[i])")
            }
        }
        let shared = PNG.RowsEncoder(base: base, width: width, height: height)
        let results = Collected()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in cases.indices where i % 2 == worker % 2 {
                guard let (png, digest) = try? changed(cases[i]).withUnsafeBufferPointer({
                    try shared.encode($0, changed: nil, digest: true)
                }), png == expected[i], digest == Digest.sha256(png) else { continue }
                results.append(png)
            }
        }
        XCTAssertEqual(results.values.count, 2 * cases.count, "every digest made on the threads is the bytes'")
        // Signature, IHDR, the zlib header's IDAT, one IDAT per chunk, the final IDAT, IEND.
        var types: [String] = []
        var at = 8
        let png = expected[0]
        while at + 8 <= png.count {
            let length = png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: png[at + 4..<at + 8], as: UTF8.self))
            at += 12 + length
        }
        XCTAssertEqual(at, png.count)
        XCTAssertEqual(types, ["IHDR"] + Array(repeating: "IDAT", count: 12) + ["IEND"])
        let decoded = try ImageDecoder.decode(Data(png))
        let p = decoded.rgba(x: 7, y: 160), i = (160 * width + 7) * 3
        XCTAssertEqual([p.r, p.g, p.b], Array(changed(cases[0])[i..<i + 3]))
    }

    /// A canvas encoded chunk by chunk from its own pixels gives the bytes of converting it whole
    /// and encoding that.
    func testCanvasEncodedByChunksGivesTheWholeFramesBytes() throws {
        let width = 150, height = 300  // 10 chunks, the last one short
        let picture = try Canvas(width: width, height: height)
        picture.fillVerticalGradient(Rect(x: 0, y: 0, width: Double(width), height: Double(height)),
                                     stops: [(0, Color(red: 0.9, green: 0.2, blue: 0.1)), (1, Color(red: 0.1, green: 0.3, blue: 0.8))])
        try picture.finish()
        let backdrop = picture.snapshot()
        func drawn() throws -> Canvas {
            let canvas = try Canvas(width: width, height: height)
            canvas.copyRows(0..<height, from: backdrop)
            // Rows 100-139 change; rows 0-99 and 140-299 stay the backdrop's.
            canvas.fill(Rect(x: 10, y: 100, width: 50, height: 40), color: Color(red: 0, green: 1, blue: 0))
            try canvas.finish()
            return canvas
        }
        let whole = try PNG.encode(try drawn().pixels(opaque: true), method: PNG.Compression.fast.method)
        XCTAssertTrue(try drawn().opaquePNG() == whole, "chunk by chunk")
        let decoded = try ImageDecoder.decode(Data(whole))
        XCTAssertEqual(decoded.rgba(x: 20, y: 120).g, 255)
        XCTAssertEqual(decoded.rgba(x: 20, y: 50).r, backdrop.rgba(x: 20, y: 50).r)
    }
}

/// A list the threads of a test append to.
private final class Collected: Sendable {
    private let list = Guarded<[[UInt8]]>([])
    func append(_ value: [UInt8]) {
        list.withLock { list in
            list.append(value)
        }
    }

    var values: [[UInt8]] {
        list.withLock { list in
            return list
        }
    }
}
