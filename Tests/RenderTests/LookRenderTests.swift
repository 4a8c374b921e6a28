import Foundation
import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// The poster people post, on the pixels: contrast for every role on light, dark, saturated and
/// busy covers in every state; smooth scrims; light covers stay light; minimal follows the
/// cover; karaoke fills with a soft edge; the card's shadow follows the cover's shape.
final class LookRenderTests: XCTestCase {
    static let song = """
    [ti:Look Song]
    [ar:Reference Band]
    [al:Swatches]
    [length:00:40]
    [00:01.00]The first line of the song, long enough to wrap on a small canvas
    [00:04.00]<00:04.00>Every <00:05.00>word <00:06.00>in <00:07.00>turn<00:08.00>
    [00:04.00]每个字依次亮起
    [00:09.00]الليل طويل والطريق هادئ
    [00:13.00]Last line
    [00:16.00]
    """

    /// Covers for the look: the legibility set plus cream (a light, warm cover) and a pastel gradient.
    static let covers: [(String, Bitmap)] = {
        do {
            return try generatedCovers() + [
                ("cream", try makeCover(top: Color(red: 0.93, green: 0.89, blue: 0.82), bottom: Color(red: 0.93, green: 0.89, blue: 0.82))),
                ("pastel", try makeCover(top: Color(red: 0.78, green: 0.9, blue: 0.98), bottom: Color(red: 0.98, green: 0.82, blue: 0.9))),
            ]
        } catch { fatalError("covers: \(error)") }
    }()

    static let presets: [Preset] = [.custom(width: 270, height: 480), .custom(width: 480, height: 270),
                                    Preset(name: "classic-half", width: 240, height: 400, arrangement: .classic)]

    /// Intro, a line, a karaoke line, an RTL line and the outro.
    static let times = [500, 1_500, 6_500, 9_500, 20_000]

    func testEveryRoleReachesItsContrastOnEveryCoverAndState() throws {
        var lowest: [String: Double] = [:]
        for theme in Theme.tested {
            for (name, cover) in Self.covers {
                for preset in Self.presets {
                    for t in Self.times {
                        let frame = try renderFrame(cover: cover, lrc: Self.song, at: t, preset: preset, theme: theme, karaoke: true)
                        let label = "\(theme.name) \(name) \(preset) @\(t)"
                        for (role, value) in frame.contrasts {
                            XCTAssertGreaterThanOrEqual(value, role == "current" ? 4.5 : 3.0, "\(label): \(role)")
                            lowest[role] = min(lowest[role] ?? .infinity, value)
                        }
                        if frame.layout.blocks.contains(where: { $0.role == .current }) {
                            XCTAssertNotNil(frame.contrasts["current"], label)
                        }
                    }
                }
            }
        }
        print("lowest contrast per role:", lowest.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format: "%.2f", $0.value))" }.joined(separator: ", "))
    }

    /// Scrims are fitted to the text but eased out over a long distance: the backdrop of a flat
    /// or gradient cover has no visible step between adjacent rows (measured beside the card).
    func testScrimsHaveNoVisibleStep() throws {
        let flat = Self.covers.filter { ["white", "black", "yellow", "cream", "pastel", "cyan-magenta"].contains($0.0) }
        var worst = 0.0, worstWindow = 0.0
        for theme in Theme.tested where theme.layout != .classic {
            for (name, cover) in flat {
                for preset in [Preset.custom(width: 540, height: 960), .custom(width: 960, height: 540), .custom(width: 600, height: 600)] {
                    let geometry = PosterGeometry(preset: preset, before: theme.before, after: theme.after, theme: theme)
                    let background = try Background.prepare(cover: cover, geometry: geometry, theme: theme)
                    let columns = 0..<max(2, preset.width / 25)
                    let step = maxRowStep(background.bitmap, columns: columns)
                    // Over a sixteenth of the height (120 px of a 1920-px poster), too.
                    let window = maxRowStep(background.bitmap, columns: columns, over: preset.height / 16)
                    worst = max(worst, step)
                    worstWindow = max(worstWindow, window)
                    XCTAssertLessThanOrEqual(step, 2.0, "\(theme.name) \(name) \(preset): a step of \(step) levels between rows")
                    XCTAssertLessThanOrEqual(window, 16, "\(theme.name) \(name) \(preset): \(window) levels within \(preset.height / 16) rows")
                }
            }
        }
        print("largest step between adjacent backdrop rows: \(worst) levels; within a sixteenth of the height: \(worstWindow)")
    }

    /// Classic's band has soft edges too: far gentler than a hard band's full step.
    func testClassicBandEdgesAreSoft() throws {
        let white = try XCTUnwrap(Self.covers.first { $0.0 == "white" }?.1)
        let frame = try renderFrame(cover: white, lrc: Self.song, at: 13_500, preset: .classic, theme: .classic)
        let step = maxRowStep(frame.canvas.snapshot(), columns: 0..<8)
        XCTAssertLessThanOrEqual(step, 12, "band edge: \(step) levels per row")
    }

    func testLightCoversGiveLightPosters() throws {
        for (name, cover) in Self.covers where ["white", "cream", "pastel"].contains(name) {
            for theme in [Theme.card, .immersive, .minimal] {
                let frame = try renderFrame(cover: cover, lrc: Self.song, at: 1_500, preset: .custom(width: 270, height: 480), theme: theme)
                let full = Rect(x: 0, y: 0, width: 270, height: 480)
                XCTAssertGreaterThan(frame.canvas.luminance(in: full, quantile: 0.5), 0.45, "\(theme.name) \(name): the poster stays light")
                let current = try XCTUnwrap(frame.layout.blocks.first { $0.role == .current })
                XCTAssertLessThan(current.color.relativeLuminance, 0.2, "\(theme.name) \(name): dark text")
            }
        }
    }

    func testMinimalPostersFollowTheirCovers() throws {
        var means: [(String, (Double, Double, Double))] = []
        for (name, cover) in Self.covers where name != "busy" {
            let frame = try renderFrame(cover: cover, lrc: Self.song, at: 1_500, preset: .custom(width: 270, height: 480), theme: .minimal)
            means.append((name, meanColour(frame.canvas.snapshot())))
        }
        for (i, a) in means.enumerated() {
            for b in means[(i + 1)...] {
                let d = sqrt(pow(a.1.0 - b.1.0, 2) + pow(a.1.1 - b.1.1, 2) + pow(a.1.2 - b.1.2, 2))
                XCTAssertGreaterThan(d, 0.08, "minimal on \(a.0) and \(b.0) look alike: \(a.1) vs \(b.1)")
            }
        }
        let cream = try XCTUnwrap(means.first { $0.0 == "cream" }?.1)
        XCTAssertGreaterThan(cream.0 + cream.1 + cream.2, 1.8, "a cream cover gives a light poster")
    }

    /// Between a frame where nothing is sung and one where the whole line is, the frame in the
    /// middle of a word moves from sung to unsung over several pixel columns, not at one.
    func testKaraokeFrontIsASoftEdge() throws {
        let black = try makeCover(top: .black, bottom: .black)
        let preset = Preset.custom(width: 540, height: 960)
        func frame(_ ms: Int) throws -> Renderer.Frame {
            try renderFrame(cover: black, lrc: Self.song, at: ms, preset: preset, theme: .card, karaoke: true)
        }
        let none = try frame(4_000), half = try frame(5_500), all = try frame(8_200)
        let box = try XCTUnwrap(half.layout.blocks.first { $0.role == .current }?.box)
        XCTAssertEqual(box, try XCTUnwrap(all.layout.blocks.first { $0.role == .current }?.box))
        var partial = 0
        for x in Int(box.minX)..<Int(box.maxX) {
            let column = Rect(x: Double(x), y: box.minY, width: 1, height: box.height)
            let lo = none.canvas.luminance(in: column, quantile: 1), hi = all.canvas.luminance(in: column, quantile: 1)
            guard hi - lo > 0.2 else { continue }
            let share = (half.canvas.luminance(in: column, quantile: 1) - lo) / (hi - lo)
            if share > 0.15, share < 0.85 { partial += 1 }
        }
        let fontSize = try XCTUnwrap(half.layout.blocks.first { $0.role == .current }?.fontSize)
        XCTAssertGreaterThanOrEqual(Double(partial), 0.2 * fontSize, "\(partial) columns in between: a hard cut")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(half.contrasts["unsung"]), 3.0)
    }

    func testCardShadowFollowsTheCoversShapeAndDarkCoversGetAnEdge() throws {
        let preset = Preset.custom(width: 540, height: 960)
        let geometry = PosterGeometry(preset: preset, before: 1, after: 1, theme: .card)
        let slot = try XCTUnwrap(geometry.card)
        // A round cover on a transparent square: its corners show the backdrop, not a shadow.
        let round = try Canvas(width: 300, height: 300)
        round.fill(Rect(x: 0, y: 0, width: 300, height: 300), color: Color(red: 0.9, green: 0.8, blue: 0.3), cornerRadius: 150)
        try round.finish()
        let frame = try renderFrame(cover: round.snapshot(), lrc: Self.song, at: 1_500, preset: preset, theme: .card)
        let card = Background.cardRect(slot, cover: round.snapshot())
        let corner = Rect(x: card.minX + 4, y: card.maxY - 16, width: 12, height: 12)
        let beside = Rect(x: card.minX - 60, y: card.maxY - 16, width: 12, height: 12)
        XCTAssertEqual(frame.canvas.luminance(in: corner, quantile: 0.5), frame.canvas.luminance(in: beside, quantile: 0.5),
                       accuracy: 0.03, "a square shadow shows in the round cover's corner")
        // A black cover's card keeps a visible edge on its dark backdrop.
        let dark = try renderFrame(cover: try makeCover(top: .black, bottom: .black), lrc: Self.song, at: 1_500, preset: preset, theme: .card)
        let black = Background.cardRect(slot, cover: try makeCover(top: .black, bottom: .black))
        let edge = Rect(x: black.midX - 20, y: black.minY, width: 40, height: 2)
        let inside = Rect(x: black.midX - 20, y: black.minY + 10, width: 40, height: 2)
        XCTAssertGreaterThan(dark.canvas.luminance(in: edge, quantile: 1), dark.canvas.luminance(in: inside, quantile: 1) + 0.01)
    }

    /// The largest change of a row's mean 8-bit luma (over `columns`) from one row to the next.
    /// The largest change of a row's mean 8-bit luma (over `columns`) between rows `over` apart.
    func maxRowStep(_ bitmap: Bitmap, columns: Range<Int>, over distance: Int = 1) -> Double {
        let means = (0..<bitmap.height).map { y in
            columns.reduce(0.0) { sum, x in
                let p = bitmap.rgba(x: x, y: y)
                return sum + 0.2126 * Double(p.r) + 0.7152 * Double(p.g) + 0.0722 * Double(p.b)
            } / Double(columns.count)
        }
        var worst = 0.0
        for y in distance..<means.count { worst = max(worst, abs(means[y] - means[y - distance])) }
        return worst
    }

    func meanColour(_ bitmap: Bitmap) -> (Double, Double, Double) {
        var r = 0.0, g = 0.0, b = 0.0, n = 0.0
        for y in stride(from: 0, to: bitmap.height, by: 4) {
            for x in stride(from: 0, to: bitmap.width, by: 4) {
                let p = bitmap.rgba(x: x, y: y)
                r += Double(p.r); g += Double(p.g); b += Double(p.b); n += 255
            }
        }
        return (r / n, g / n, b / n)
    }
}

extension LookRenderTests {
    /// A song's posters at several sizes belong together: the text scheme is decided on the cover.
    func testSchemeIsTheSameAtEveryPreset() throws {
        for theme in Theme.tested {
            for (name, cover) in Self.covers {
                let schemes = try Set([Preset.custom(width: 270, height: 480), .custom(width: 270, height: 338), .custom(width: 300, height: 300),
                                       .custom(width: 480, height: 270)].map { preset in
                    try Background.prepare(cover: cover, geometry: PosterGeometry(preset: preset, before: 1, after: 1, theme: theme),
                                           theme: theme).palette.scheme
                })
                XCTAssertEqual(schemes.count, 1, "\(theme.name) \(name): \(schemes)")
            }
        }
    }

    /// Under the lyrics of a full-bleed cover the cover is softened: its stripes no longer run
    /// sharp through the letters, while above the lyrics they stay crisp.
    func testFullBleedCoverIsSoftUnderTheLyrics() throws {
        let busy = try makeCover(width: 1000, height: 1000, top: .white, bottom: Color(red: 0.5, green: 0.5, blue: 0.5), stripes: true)
        let preset = Preset.custom(width: 540, height: 960)
        let geometry = PosterGeometry(preset: preset, before: 1, after: 1, theme: .immersive)
        let bitmap = try Background.prepare(cover: busy, geometry: geometry, theme: .immersive).bitmap
        func sharpness(atRow y: Int) -> Int {
            (1..<bitmap.width).map { x in abs(Int(bitmap.rgba(x: x, y: y).g) - Int(bitmap.rgba(x: x - 1, y: y).g)) }.max() ?? 0
        }
        let above = sharpness(atRow: Int(geometry.lyrics.minY * 0.5)), under = sharpness(atRow: Int(geometry.lyrics.midY))
        XCTAssertGreaterThan(above, 60, "the cover is itself above the lyrics")
        XCTAssertLessThan(under, above / 3, "the cover is softened under the lyrics")
    }

    /// A right-to-left word inside left-to-right text fills from its own start (its right edge).
    func testKaraokeFillsARightToLeftWordFromItsRightEdge() throws {
        let lrc = "[00:10.00]<00:10.00>Hello <00:11.00>سلام <00:13.00>world<00:14.00>\n[00:20.00]next"
        let black = try makeCover(top: .black, bottom: .black)
        let frame = try renderFrame(cover: black, lrc: lrc, at: 11_500, preset: .custom(width: 540, height: 960), theme: .card,
                                    karaoke: true)
        let block = try XCTUnwrap(frame.layout.blocks.first { $0.role == .current })
        let arabic = block.layout.clusters.filter(\.rightToLeft).map(\.rect)
        let word = try XCTUnwrap(arabic.dropFirst().reduce(arabic.first) { $0?.union($1) })
        let box = Rect(x: block.origin.x + word.x, y: block.origin.y + word.y, width: word.width, height: word.height)
        let right = Rect(x: box.maxX - box.width * 0.2, y: box.minY, width: box.width * 0.2, height: box.height)
        let left = Rect(x: box.minX, y: box.minY, width: box.width * 0.3, height: box.height)
        XCTAssertGreaterThan(frame.canvas.luminance(in: right, quantile: 1), 0.8, "the word's start (right) is sung")
        XCTAssertLessThan(frame.canvas.luminance(in: left, quantile: 1), 0.6, "its end (left) is not yet")
    }
}

extension LookRenderTests {
    /// Accents come from the cover but are never neon: calm saturation, a little below full value.
    func testAccentsAreNeverNeon() throws {
        for colour in [Color(red: 0, green: 1, blue: 0), Color(red: 1, green: 0, blue: 0), Color(red: 1, green: 0.95, blue: 0),
                       Color(red: 0, green: 0.3, blue: 1)] {
            let cover = try makeCover(top: colour, bottom: colour)
            for theme in [Theme.immersive, .classic] {
                let geometry = PosterGeometry(preset: .custom(width: 270, height: 480), before: 1, after: 1, theme: theme)
                let current = try Background.prepare(cover: cover, geometry: geometry, theme: theme).palette.current
                let maxC = max(current.red, current.green, current.blue), minC = min(current.red, current.green, current.blue)
                // Neon is bright and saturated at once; a deep accent on a light frost is not.
                if current.relativeLuminance > 0.3 {
                    XCTAssertLessThanOrEqual((maxC - minC) / max(maxC, 0.001), 0.61, "\(theme.name) on \(colour): \(current.hex)")
                }
            }
        }
    }

    /// minimal keeps the cover's own order: a cover dark blue at the top and orange at the bottom
    /// gives a poster bluer at the top and warmer at the bottom.
    func testMinimalGradientFollowsTheCoversOrder() throws {
        let cover = try makeCover(top: Color(red: 0.08, green: 0.12, blue: 0.4), bottom: Color(red: 0.95, green: 0.55, blue: 0.2))
        let geometry = PosterGeometry(preset: .custom(width: 270, height: 480), before: 0, after: 0, theme: .minimal)
        let bitmap = try Background.prepare(cover: cover, geometry: geometry, theme: .minimal).bitmap
        let top = bitmap.rgba(x: 5, y: 5), bottom = bitmap.rgba(x: 5, y: 474)
        XCTAssertGreaterThan(Int(top.b), Int(top.r), "blue at the top")
        XCTAssertGreaterThan(Int(bottom.r), Int(bottom.b), "warm at the bottom")
    }
}
