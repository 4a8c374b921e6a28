import Foundation
import LyricPoster
import LyricsCore
import PosterGraphics
import TestSupport
import XCTest

enum Paths {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = package.appendingPathComponent("Tests/Fixtures/covers")
    static let goldens = package.appendingPathComponent("Tests/RenderTests/Goldens")
    static let failures = package.appendingPathComponent(".build/golden-failures")
    static func fixture(_ name: String) -> URL { fixtures.appendingPathComponent(name) }
}

extension Theme {
    /// The themes a table of renders runs through: all of them, or under the sanitizers (make
    /// test-sanitized, several times slower) a card and a full-bleed theme, which run the same code.
    static var tested: [Theme] { Sanitizers.active ? [.card, .immersive] : builtIn }
}

enum Shared {
    static let fonts: FontLibrary = {
        do { return try FontSetup.library(FontOptions()) } catch { fatalError("fonts: \(error)") }
    }()
}

/// A cover made in memory: a vertical gradient between two colours, plus optional stripes.
func makeCover(width: Int = 300, height: Int = 300, top: Color, bottom: Color, stripes: Bool = false) throws -> Bitmap {
    let canvas = try Canvas(width: width, height: height)
    canvas.fillVerticalGradient(Rect(x: 0, y: 0, width: Double(width), height: Double(height)),
                                stops: [(0, top), (1, bottom)])
    if stripes {
        var x = 0.0
        while x < Double(width) {
            canvas.fill(Rect(x: x, y: 0, width: 6, height: Double(height)), color: .white)
            canvas.fill(Rect(x: x + 6, y: 0, width: 6, height: Double(height)), color: .black)
            x += 24
        }
    }
    try canvas.finish()
    return canvas.snapshot()
}

/// Covers that stress legibility: white, black, saturated and busy.
func generatedCovers() throws -> [(String, Bitmap)] {
    [
        ("white", try makeCover(top: .white, bottom: .white)),
        ("black", try makeCover(top: .black, bottom: .black)),
        ("yellow", try makeCover(top: Color(red: 1, green: 0.95, blue: 0.1), bottom: Color(red: 1, green: 0.8, blue: 0))),
        ("cyan-magenta", try makeCover(top: Color(red: 0, green: 1, blue: 1), bottom: Color(red: 1, green: 0, blue: 1))),
        ("busy", try makeCover(top: .white, bottom: Color(red: 0.5, green: 0.5, blue: 0.5), stripes: true)),
    ]
}

/// Renders one frame of `lrc` over `cover` at `preset`.
func renderFrame(cover: Bitmap, lrc: String, at ms: Int, preset: Preset, before: Int? = nil, after: Int? = nil,
                 theme: Theme = .card, karaoke: Bool = false) throws -> Renderer.Frame {
    let before = before ?? theme.before, after = after ?? theme.after
    let geometry = PosterGeometry(preset: preset, before: before, after: after, theme: theme)
    let background = try Background.prepare(cover: cover, geometry: geometry, theme: theme)
    let engine = LayoutEngine(geometry: geometry, text: try TextEngine(fonts: Shared.fonts), theme: theme,
                              palette: background.palette)
    let renderer = Renderer(background: background, layoutEngine: engine)
    var builder = SceneBuilder(lyrics: try LyricsReader.parse(lrc), before: before, after: after)
    builder.karaoke = karaoke
    builder.timeSensitive = theme.showProgress
    let scene = builder.scene(at: Timestamp(milliseconds: ms))
    return try renderer.render(scene)
}

/// Compares `actual` with `Goldens/<name>.png`: un-premultiplied RGBA per channel within
/// `threshold`, at most `maxShare` of pixels differing. On failure writes expected | diff | actual
/// to `.build/golden-failures/<name>.png`. `LYRICPOSTER_RECORD=missing|failed|all` re-records.
func assertGolden(_ actual: Canvas, named name: String, threshold: Int = 24, maxShare: Double = 0.005,
                  file: StaticString = #filePath, line: UInt = #line) throws {
    let record = ProcessInfo.processInfo.environment["LYRICPOSTER_RECORD"] ?? ""
    let url = Paths.goldens.appendingPathComponent(name + ".png")
    let exists = FileManager.default.fileExists(atPath: url.path)
    func write() throws {
        try FileManager.default.createDirectory(at: Paths.goldens, withIntermediateDirectories: true)
        try Data(try actual.pngData(opaque: true, compression: .small)).write(to: url)
    }
    if record == "all" || (!exists && (record == "missing" || record == "failed")) {
        try write()
        return
    }
    guard exists else {
        XCTFail("no golden \(name).png (run with LYRICPOSTER_RECORD=missing)", file: file, line: line)
        return
    }
    let expected = try ImageDecoder.decode(try Data(contentsOf: url))
    let got = actual.snapshot()
    guard expected.width == got.width, expected.height == got.height else {
        if record == "failed" { try write(); return }
        XCTFail("\(name): size \(got.width)×\(got.height), golden \(expected.width)×\(expected.height)", file: file, line: line)
        return
    }
    var differing = 0
    let diff = try Canvas(width: got.width * 3, height: got.height)
    diff.draw(expected, in: Rect(x: 0, y: 0, width: Double(got.width), height: Double(got.height)))
    diff.draw(got, in: Rect(x: Double(2 * got.width), y: 0, width: Double(got.width), height: Double(got.height)))
    for y in 0..<got.height {
        for x in 0..<got.width {
            let a = expected.rgba(x: x, y: y), b = got.rgba(x: x, y: y)
            let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
            if d > threshold {
                differing += 1
                diff.fill(Rect(x: Double(got.width + x), y: Double(y), width: 1, height: 1), color: Color(red: 1, green: 0, blue: 0))
            }
        }
    }
    let share = Double(differing) / Double(got.width * got.height)
    if share > maxShare {
        if record == "failed" { try write(); return }
        try FileManager.default.createDirectory(at: Paths.failures, withIntermediateDirectories: true)
        try Data(try diff.pngData()).write(to: Paths.failures.appendingPathComponent(name + ".png"))
        XCTFail("\(name): \(differing) pixels (\(String(format: "%.2f", share * 100)) %) differ; see .build/golden-failures/\(name).png",
                file: file, line: line)
    }
}
