import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// The poster people post, as geometry: the current line is never cut while room remains, the
/// classic table keeps its sizes, every script wraps alike, titles wrap before they shrink, and
/// lock screens keep their clock and side crop clear.
final class LookLayoutTests: XCTestCase {
    /// Long lines of 100–220 characters in Latin, Chinese, Korean and Arabic, with translations.
    static let longSong = """
    [ti:A Rather Long Title For A Song About Small Towns]
    [ar:The Review Ensemble]
    [al:Test Pressings]
    [la:zh-Hans]
    [length:01:20]
    [00:04.00]Short opening line
    [00:08.00]We kept the porch light burning through the winter and the spring, because it seemed a reasonable thing to do while the trains still ran on time and nobody asked us why
    [00:16.00]Your phone screen glows like a lantern in the rain while the last bus waits with its engine running
    [00:16.00]你的手机屏幕像雨中的灯笼一样发光，最后一班公交车发动着引擎在等待
    [00:22.00]我们在凌晨三点的车站等待一列不会来的火车，数着铁轨上的灯，一盏一盏地熄灭，直到天亮以后才明白那不是等待而是告别的方式，也是我们唯一会说的再见
    [00:30.00]종이 등불이 하늘로 올라가요 천천히 아주 천천히 멀리 멀리 우리가 잊어버린 이름들을 데리고 바람이 부는 쪽으로
    [00:36.00]الليل طويل والطريق هادئ في المدينة القديمة حيث تنام الأضواء ولا ينام القلب أبدا ونحن نمشي حتى الصباح
    [00:44.00]The last line of the song
    [00:50.00]
    """

    static let times = [1_000, 8_500, 16_500, 22_500, 30_500, 36_500, 44_500, 60_000]

    func engine(_ preset: Preset, theme: Theme, before: Int? = nil, after: Int? = nil) throws -> LayoutEngine {
        let geometry = PosterGeometry(preset: preset, before: before ?? theme.before, after: after ?? theme.after, theme: theme)
        return LayoutEngine(geometry: geometry, text: try TextEngine(fonts: LayoutTests.fonts), theme: theme)
    }

    func builder(_ lrc: String = longSong, theme: Theme, before: Int? = nil, after: Int? = nil) throws -> SceneBuilder {
        SceneBuilder(lyrics: try LRC.parse(lrc), before: before ?? theme.before, after: after ?? theme.after)
    }

    func testCurrentLineIsNeverCutWhileRoomRemains() throws {
        for theme in Theme.builtIn {
            for preset in Preset.all + [.custom(width: 720, height: 720), .custom(width: 2560, height: 1080)] {
                let engine = try engine(preset, theme: theme)
                let builder = try builder(theme: theme)
                let canvas = Rect(x: 0, y: 0, width: Double(preset.width), height: Double(preset.height))
                for t in Self.times {
                    let layout = engine.layout(builder.scene(at: Timestamp(milliseconds: t)))
                    let label = "\(theme.name) \(preset) @\(t)"
                    for block in layout.blocks {
                        XCTAssertTrue(canvas.contains(block.box), "\(label): \(block.role) leaves the canvas")
                        XCTAssertFalse(block.layout.isEllipsized, "\(label): \(block.role) ends in an ellipsis")
                        if block.role == .current {
                            XCTAssertFalse(block.cut, "\(label): the current line is cut")
                            XCTAssertEqual(block.lines, block.layout.lineCount)
                        }
                    }
                }
            }
        }
    }

    func testCardShowsSeveralLinesAndLongCurrentLinesKeepTheirSize() throws {
        let lines = (0..<12).map { String(format: "[00:%02d.00]short line number %d", $0 * 4, $0) }.joined(separator: "\n")
        let engine = try engine(.lockscreen, theme: .card)
        let layout = engine.layout(try builder(lines, theme: .card).scene(at: Timestamp(milliseconds: 24_500)))
        XCTAssertEqual(layout.blocks.filter { $0.role == .previous || $0.role == .next || $0.role == .current }.count, 6,
                       "two before, the current line and three after")
        // A long current line wraps at full size; it stays larger than its neighbours.
        let long = try engine.layout(try builder(theme: .card).scene(at: Timestamp(milliseconds: 8_500)))
        let current = try XCTUnwrap(long.blocks.first { $0.role == .current })
        XCTAssertFalse(current.cut)
        XCTAssertGreaterThanOrEqual(current.fontSize, (engine.geometry.currentSize * 0.75).rounded())
        for neighbour in long.blocks where neighbour.role == .previous || neighbour.role == .next {
            XCTAssertGreaterThan(current.fontSize, neighbour.fontSize * 1.2)
        }
    }

    func testClassicKeepsFixedSizesWithTheCurrentLineLargest() throws {
        let engine = try engine(.classic, theme: .classic)
        let builder = try builder(theme: .classic)
        var sizes: [Scene.Role: Set<Double>] = [:]
        for t in Self.times + [50_000, 70_000] {
            let layout = engine.layout(builder.scene(at: Timestamp(milliseconds: t)))
            for block in layout.blocks {
                sizes[block.role, default: []].insert(block.fontSize)
                XCTAssertGreaterThanOrEqual(block.box.minX, 0.05 * 480, "@\(t) \(block.role): side margin")
                XCTAssertLessThanOrEqual(block.box.maxX, 480 - 0.05 * 480, "@\(t) \(block.role): side margin")
                if block.role == .current { XCTAssertFalse(block.cut, "@\(t)") }
            }
        }
        let current = try XCTUnwrap(sizes[.current]), neighbours = (sizes[.previous] ?? []).union(sizes[.next] ?? [])
        XCTAssertEqual(current.count, 1, "the current line's size does not jump: \(current)")
        XCTAssertEqual(neighbours.count, 1, "neighbours keep one size: \(neighbours)")
        let c = try XCTUnwrap(current.first), n = try XCTUnwrap(neighbours.first), tr = try XCTUnwrap(sizes[.translation]?.min())
        XCTAssertGreaterThanOrEqual(c, 1.2 * n)
        XCTAssertGreaterThanOrEqual(c, 17)
        XCTAssertGreaterThanOrEqual(n, 14)
        XCTAssertGreaterThanOrEqual(tr, 12)
    }

    func testOtherThemesKeepTheirOwnLookAtTheClassicPreset() throws {
        for theme in [Theme.card, .immersive, .minimal] {
            let geometry = PosterGeometry(preset: .classic, before: 1, after: 1, theme: theme)
            XCTAssertEqual(geometry.layout, theme.layout, theme.name)
            XCTAssertTrue(geometry.rows.isEmpty, theme.name)
        }
    }

    func testKoreanWordsAreNeverSplitWhateverTheLanguageTag() throws {
        let text = try TextEngine(fonts: LayoutTests.fonts)
        let line = "종이 등불이 하늘로 올라가요 천천히 아주 천천히 멀리 멀리 우리가 잊어버린 이름들을 데리고"
        for language in ["zh-Hans", "ja", "ko", nil] as [String?] {
            for width in [180.0, 260.0, 340.0] {
                let layout = text.layout(line, style: TextStyle(families: FontSetup.families(for: language), size: 30,
                                                                language: language), width: width)
                XCTAssertGreaterThan(layout.lineCount, 1)
                let bytes = Array(line.utf8)
                for n in 0..<(layout.lineCount - 1) {
                    let end = layout.byteOffset(afterLine: n)
                    XCTAssertEqual(bytes[end - 1], UInt8(ascii: " "),
                                   "\(language ?? "none") \(width): line \(n) breaks inside a word")
                }
            }
        }
    }

    func testWrappedArabicIsAsTightAsLatin() throws {
        let engine = try engine(.lockscreen, theme: .card)
        let arabic = try builder(theme: .card).scene(at: Timestamp(milliseconds: 36_500))
        let latin = try builder(theme: .card).scene(at: Timestamp(milliseconds: 8_500))
        func pitch(_ scene: Scene) throws -> Double {
            let block = try XCTUnwrap(engine.layout(scene).blocks.first { $0.role == .current })
            let rects = block.layout.lineRects
            XCTAssertGreaterThan(rects.count, 1)
            return (rects[1].minY - rects[0].minY) / block.fontSize
        }
        let a = try pitch(arabic), l = try pitch(latin)
        XCTAssertEqual(a / l, 1, accuracy: 0.15, "Arabic \(a) em, Latin \(l) em")
    }

    func testTitlesWrapBeforeShrinkingAndAreNeverSmallerThanTheArtist() throws {
        for theme in Theme.builtIn where theme.layout != .classic {
            for preset in Preset.all {
                let engine = try engine(preset, theme: theme)
                let layout = engine.layout(try builder(theme: theme).scene(at: Timestamp(milliseconds: 8_500)))
                let title = try XCTUnwrap(layout.blocks.first { $0.role == .title }, "\(theme.name) \(preset)")
                let artist = try XCTUnwrap(layout.blocks.first { $0.role == .artist }, "\(theme.name) \(preset)")
                XCTAssertGreaterThanOrEqual(title.fontSize, artist.fontSize, "\(theme.name) \(preset)")
                if title.fontSize < engine.geometry.titleSize.rounded() {
                    XCTAssertEqual(title.lines, 2, "\(theme.name) \(preset): shrunk only once two lines are not enough")
                }
                if preset == .lockscreen, theme.layout != .minimal {
                    XCTAssertEqual(title.lines, 2, "\(theme.name): the long title wraps")
                    XCTAssertEqual(title.fontSize, engine.geometry.titleSize.rounded(), "\(theme.name): at full size")
                }
            }
        }
    }

    func testLockScreensKeepTheClockAndSideCropClear() throws {
        for preset in [Preset.lockscreen, .phone] {
            let w = Double(preset.width), h = Double(preset.height)
            let safe = Rect(x: w * 0.09 - 0.5, y: h * 0.22, width: w * 0.82 + 1, height: h * 0.78)
            for theme in Theme.builtIn {
                let engine = try engine(preset, theme: theme)
                if let card = engine.geometry.card { XCTAssertTrue(safe.contains(card), "\(theme.name) \(preset): card") }
                let builder = try builder(theme: theme)
                for t in Self.times {
                    for block in engine.layout(builder.scene(at: Timestamp(milliseconds: t))).blocks {
                        XCTAssertTrue(safe.contains(block.box), "\(theme.name) \(preset) @\(t): \(block.role) \(block.box)")
                    }
                }
            }
        }
        XCTAssertEqual(Preset.named("phone")?.width, 1179)
        XCTAssertEqual(Preset.named("phone")?.height, 2556)
    }

    func testOutroHasNoMoreToComeMarker() throws {
        for theme in Theme.builtIn {
            let engine = try engine(.lockscreen, theme: theme)
            let scene = try builder(theme: theme).scene(at: Timestamp(milliseconds: 70_000))
            XCTAssertEqual(scene.state, .outro)
            let layout = engine.layout(scene)
            XCTAssertFalse(layout.blocks.contains { $0.role == .interlude && $0.text.contains("•") }, theme.name)
            XCTAssertTrue(layout.blocks.contains { $0.role == .title || ($0.role == .interlude && $0.text.contains("Rather")) },
                          "\(theme.name): the closing card names the song")
        }
        // A gap in the middle of the song still shows the marker and the next line.
        let gap = try builder(theme: .card).scene(at: Timestamp(milliseconds: 2_000))
        XCTAssertEqual(gap.state, .intro)
    }

    func testSmallCoversAreNeverShownMoreThanTwiceTheirSize() {
        let slot = Rect(x: 100, y: 100, width: 600, height: 600)
        XCTAssertEqual(Background.cardRect(slot, cover: Bitmap(width: 64, height: 64)).width, 128)
        XCTAssertEqual(Background.cardRect(slot, cover: Bitmap(width: 64, height: 64)).midX, slot.midX)
        XCTAssertEqual(Background.cardRect(slot, cover: Bitmap(width: 64, height: 64)).maxY, slot.maxY, "next to the title")
        XCTAssertEqual(Background.cardRect(slot, cover: Bitmap(width: 2000, height: 2000)), slot)
    }
}

extension LookLayoutTests {
    /// A word is broken across lines only when even the smallest size allowed cannot hold it.
    func testWordsBreakOnlyAtTheSmallestSize() throws {
        let lrc = """
        [00:01.00]The Rindfleischetikettierungsueberwachungsaufgaben were incomprehensibilities
        [00:05.00]Supercalifragilisticexpialidocious supercalifragilisticexpialidocious
        [00:09.00]next
        """
        for preset in [Preset.custom(width: 540, height: 960), .custom(width: 360, height: 640), .square] {
            let engine = try engine(preset, theme: .card)
            let builder = try builder(lrc, theme: .card)
            for t in [1_000, 5_000] {
                let current = try XCTUnwrap(engine.layout(builder.scene(at: Timestamp(milliseconds: t))).blocks.first { $0.role == .current })
                if current.layout.breaksInsideWord {
                    XCTAssertEqual(current.fontSize, (engine.geometry.currentSize * 0.75).rounded(), "\(preset) @\(t): broke a word above the floor")
                }
            }
        }
    }
}
