import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// Geometry checked as numbers: line counts, wrapping, centring, no overlaps, nothing off-canvas.
final class LayoutTests: XCTestCase {
    static let fonts: FontLibrary = {
        do { return try FontSetup.library(FontOptions()) } catch { fatalError("fonts: \(error)") }
    }()

    static let song = """
    [ti:Test Song]
    [ar:The Testers]
    [al:Fixtures]
    [length:01:00]
    [00:02.00]Short line
    [00:05.00]A considerably longer line that has to wrap onto more than one line on every canvas we make
    [00:05.00]一行很长的翻译文字，用来检查翻译行在窄画布上是否也会正确换行而不会溢出
    [00:10.00]Third line here
    [00:14.00]
    [00:25.00]After the break
    [00:30.00]夜は長く、道は静かだ
    [00:35.00]밤은 길고 길은 조용해요
    [00:40.00]الليل طويل والطريق هادئ
    """

    func engine(_ preset: Preset, before: Int = 1, after: Int = 1, theme: Theme = .card) throws -> LayoutEngine {
        let geometry = PosterGeometry(preset: preset, before: before, after: after, theme: theme)
        return LayoutEngine(geometry: geometry, text: try TextEngine(fonts: Self.fonts), theme: theme)
    }

    func scenes(before: Int = 1, after: Int = 1) throws -> SceneBuilder {
        SceneBuilder(lyrics: try LRC.parse(Self.song), before: before, after: after)
    }

    static let presets: [Preset] = Preset.all + [.custom(width: 720, height: 720), .custom(width: 600, height: 1400),
                                                  .custom(width: 2560, height: 1080)]
    static let times = [0, 2_000, 5_500, 10_000, 15_000, 26_000, 31_000, 36_000, 41_000, 70_000]

    func testNoOverlapAndInsideSafeMargins() throws {
        for preset in Self.presets {
            let engine = try engine(preset, before: 2, after: 2)
            let builder = try scenes(before: 2, after: 2)
            let canvas = Rect(x: 0, y: 0, width: Double(preset.width), height: Double(preset.height))
            let margin = preset.arrangement == .classic ? 8.0 : 40 * engine.geometry.unit
            let safe = canvas.insetBy(dx: margin, dy: margin)
            for t in Self.times {
                let layout = engine.layout(builder.scene(at: Timestamp(milliseconds: t)))
                XCTAssertFalse(layout.blocks.isEmpty, "\(preset) @\(t)")
                for (i, a) in layout.blocks.enumerated() {
                    XCTAssertTrue(safe.contains(a.box), "\(preset) @\(t): \(a.role) \(a.box) leaves the safe area \(safe)")
                    for b in layout.blocks[(i + 1)...] {
                        XCTAssertFalse(a.box.intersects(b.box), "\(preset) @\(t): \(a.role) \(a.box) overlaps \(b.role) \(b.box)")
                    }
                }
            }
        }
    }

    func testCurrentLineIsCentredInItsRegion() throws {
        for preset in [Preset.lockscreen, .feed, .square] {
            let engine = try engine(preset)
            let layout = engine.layout(try scenes().scene(at: Timestamp(milliseconds: 10_500)))
            let current = try XCTUnwrap(layout.blocks.first { $0.role == .current })
            XCTAssertEqual(current.box.midX, engine.geometry.lyrics.midX, accuracy: 1.0, "\(preset)")
            XCTAssertEqual(current.text, "Third line here")
        }
    }

    func testLongLineWrapsBalancedWithinLimits() throws {
        for preset in Preset.all where preset.arrangement != .classic {
            let engine = try engine(preset)
            let layout = engine.layout(try scenes().scene(at: Timestamp(milliseconds: 5_000)))
            let current = try XCTUnwrap(layout.blocks.first { $0.role == .current })
            XCTAssertGreaterThan(current.layout.lineCount, 1, "\(preset): the long line should wrap")
            XCTAssertFalse(current.cut, "\(preset): fits without a cut")
            XCTAssertEqual(current.fontSize, engine.geometry.currentSize.rounded(), "\(preset): wrapped at full size, not shrunk")
            // Balanced: the wrap width is well under the region's width when two lines share it.
            XCTAssertLessThanOrEqual(current.box.width, engine.geometry.lyrics.width + 0.5)
            let translation = try XCTUnwrap(layout.blocks.first { $0.role == .translation })
            XCTAssertGreaterThan(translation.box.minY, current.box.maxY, "translation sits under its line")
        }
    }

    func testOnlyTextLargerThanTheWholeRegionIsCutAndFadesOut() throws {
        let words = Array(repeating: "endless", count: 200).joined(separator: " ")
        let lyrics = try LRC.parse("[00:01.00]\(words)\n[00:05.00]next")
        let engine = try engine(.square)
        let layout = engine.layout(SceneBuilder(lyrics: lyrics, maxLineCharacters: 4_000).scene(at: Timestamp(milliseconds: 1_000)))
        let current = try XCTUnwrap(layout.blocks.first { $0.role == .current })
        XCTAssertTrue(current.cut)
        XCTAssertFalse(current.layout.isEllipsized, "cut at a line end and faded, no ellipsis")
        XCTAssertFalse(current.layout.text.contains("…"))
        XCTAssertNotNil(current.fade)
        XCTAssertEqual(current.fontSize, (engine.geometry.currentSize * 0.75).rounded(), "shrunk to the floor before cutting")
        XCTAssertLessThanOrEqual(current.box.height, engine.geometry.lyrics.height + 1, "fills the region, no more")
        XCTAssertGreaterThan(current.box.height, engine.geometry.lyrics.height * 0.8, "and uses it")
        XCTAssertTrue(current.layout.text.hasSuffix("endless"), "cut at a word boundary")
    }

    func testIntroIsATitleCardWithTheUpcomingLine() throws {
        let engine = try engine(.lockscreen)
        let scene = try scenes().scene(at: Timestamp(milliseconds: 500))
        XCTAssertEqual(scene.state, .intro)
        XCTAssertNil(scene.lineIndex)
        let layout = engine.layout(scene)
        XCTAssertEqual(layout.blocks.filter { $0.role == .interlude }.count, 0, "the title card replaces the marker")
        XCTAssertEqual(layout.blocks.first { $0.role == .next }?.text, "Short line")
        let titles = layout.blocks.filter { $0.role == .title }
        XCTAssertEqual(titles.map(\.text), ["Test Song"], "shown once, large, not also as a caption")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(titles.first).fontSize, engine.geometry.currentSize.rounded())
        XCTAssertEqual(layout.blocks.first { $0.role == .artist }?.text, "The Testers — Fixtures")
    }

    func testLongGapIsAnInterludeAndShortGapKeepsTheLine() throws {
        let builder = try scenes()
        // The blank stamp at 14 s opens an 11 s gap: an interlude.
        XCTAssertNil(builder.currentIndex(at: Timestamp(milliseconds: 15_000)))
        let gap = builder.scene(at: Timestamp(milliseconds: 15_000))
        XCTAssertEqual(gap.lines.map(\.role), [.previous, .interlude, .next])
        XCTAssertEqual(gap.lines.last?.text, "After the break")
        // A blank stamp shorter than the threshold keeps the previous line current.
        let short = try LRC.parse("[00:01.00]one\n[00:03.00]\n[00:04.00]two")
        XCTAssertEqual(SceneBuilder(lyrics: short).currentIndex(at: Timestamp(milliseconds: 3_500)), 0)
    }

    func testClassicRowsFollowTheOriginalTable() throws {
        let engine = try engine(.classic, theme: .classic)
        XCTAssertEqual(engine.geometry.rows.map(\.minY), [512, 556, 600])
        XCTAssertEqual(engine.geometry.rows.map(\.height), [44, 44, 44])
        let layout = engine.layout(try scenes().scene(at: Timestamp(milliseconds: 10_500)))
        let current = try XCTUnwrap(layout.blocks.first { $0.role == .current })
        XCTAssertEqual(current.box.midY, 556 + 22, accuracy: 1.5)
        // The previous line wraps and has a translation: its row grows upwards, above the current row.
        let previous = try XCTUnwrap(layout.blocks.first { $0.role == .previous })
        XCTAssertLessThanOrEqual(previous.box.maxY, 556)
        // More rows grow upwards from the same bottom.
        let five = PosterGeometry(preset: .classic, before: 2, after: 2, theme: .classic)
        XCTAssertEqual(five.rows.last?.maxY, 644)
        XCTAssertEqual(five.rows.count, 5)
    }

    func testPresetsReflowInsteadOfLetterboxing() {
        let stack = PosterGeometry(preset: .lockscreen, before: 1, after: 1)
        let split = PosterGeometry(preset: .landscape, before: 1, after: 1)
        XCTAssertEqual(Preset.lockscreen.arrangement, .stack)
        XCTAssertEqual(Preset.feed.arrangement, .header)
        XCTAssertEqual(Preset.square.arrangement, .header)
        XCTAssertEqual(Preset.landscape.arrangement, .split)
        // The lyrics take most of the width of a portrait canvas, and their own column on a wide one.
        XCTAssertGreaterThan(stack.lyrics.width, 0.8 * 1080)
        XCTAssertGreaterThan(split.lyrics.minX, split.card?.maxX ?? 0)
        XCTAssertGreaterThan(split.lyrics.height, 0.75 * 1080)
    }

    func testRegionalGlyphFormsFollowLanguage() throws {
        let text = try TextEngine(fonts: Self.fonts)
        func families(_ s: String, _ language: String?) -> [String] {
            text.layout(s, style: TextStyle(families: FontSetup.families(for: language), size: 40, language: language),
                        width: nil).usedFamilies
        }
        XCTAssertEqual(families("直骨", "ja"), ["Noto Sans CJK JP"])
        XCTAssertEqual(families("直骨", "zh-Hans"), ["Noto Sans CJK SC"])
        XCTAssertEqual(families("直骨", "zh-Hant"), ["Noto Sans CJK TC"])
        XCTAssertEqual(families("직선", "ko"), ["Noto Sans CJK KR"])
        XCTAssertEqual(FontSetup.language(of: "提灯の明かり", songLanguage: "zh-Hans"), "ja")
        XCTAssertEqual(FontSetup.language(of: "밤은 길고", songLanguage: nil), "ko")
        XCTAssertEqual(FontSetup.language(of: "夜很长", songLanguage: "zh-Hant"), "zh-Hant")
    }

    func testEveryScriptHasAFont() throws {
        let text = try TextEngine(fonts: Self.fonts)
        let samples = ["Ünïcödé façade", "Ночь длинная", "Η νύχτα είναι", "夜很长，路很安静", "夜很長，路很安靜",
                       "夜は長く、道は静か", "밤은 길고 길은", "الليل طويل", "הלילה ארוך", "คืนนี้ยาวนาน",
                       "रात लंबी है", "🎵🌙✨❤️‍🔥👍🏽"]
        for sample in samples {
            let layout = text.layout(sample, style: TextStyle(families: FontSetup.families(for: nil), size: 40), width: nil)
            XCTAssertEqual(layout.missingGlyphs, 0, "missing glyphs in \(sample): \(layout.usedFamilies)")
        }
        let privateUse = text.layout("a\u{E000}\u{E001}b", style: TextStyle(families: FontSetup.families(for: nil), size: 40), width: nil)
        XCTAssertEqual(privateUse.missingGlyphs, 2)
    }

    func testEmojiUsesTheColourFont() throws {
        let text = try TextEngine(fonts: Self.fonts)
        let layout = text.layout("🎵", style: TextStyle(families: FontSetup.families(for: nil), size: 40), width: nil)
        XCTAssertEqual(layout.usedFamilies, ["Noto Color Emoji"])
    }
}

extension LayoutTests {
    func testEmojiPresentationSequencesUseTheColourFont() throws {
        let text = try TextEngine(fonts: Self.fonts)
        for sample in ["1\u{FE0F}\u{20E3}", "#\u{FE0F}\u{20E3}", "\u{2600}\u{FE0F}", "\u{2122}\u{FE0F}", "\u{26A0}\u{FE0F}"] {
            let layout = text.layout(sample, style: TextStyle(families: FontSetup.families(for: nil), size: 40), width: nil)
            XCTAssertEqual(layout.usedFamilies, ["Noto Color Emoji"], sample.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
        }
        // Without the variation selector, text presentation stays with the text font.
        let plain = text.layout("\u{00A9} 2", style: TextStyle(families: FontSetup.families(for: nil), size: 40), width: nil)
        XCTAssertEqual(plain.usedFamilies, ["Noto Sans"])
    }
}

extension LayoutTests {
    func testDisplayTextIsCleaned() {
        XCTAssertEqual(DisplayText.clean("a\u{1B}[31mb\u{7}c\td"), "a[31mbc d")
        let zalgo = "a" + String(repeating: "\u{0301}", count: 100_000)
        XCTAssertEqual(DisplayText.clean(zalgo).unicodeScalars.count, DisplayText.maxScalarsPerCharacter)
        let family = "👨‍👩‍👧‍👦"
        XCTAssertEqual(DisplayText.clean(family), family, "emoji ZWJ sequences survive")
        let long = String(repeating: "x", count: 5_000)
        XCTAssertEqual(DisplayText.clean(long).count, DisplayText.maxCharacters)
        XCTAssertEqual(DisplayText.clean("1\n2\n3\n4\n5"), "1\n2\n3")
    }

    func testPathologicalTextStaysFastAndInside() throws {
        let zalgo = "a" + String(repeating: "\u{0301}", count: 100_000) + " " + String(repeating: "e\u{0300}\u{0316}\u{0317}", count: 3_000)
        let credits = (1...9).map { "[00:00.00]credit line \($0)" }.joined(separator: "\n")
        let lyrics = try LRC.parse("[ti:\(String(repeating: "T", count: 100_000))]\n\(credits)\n[00:02.00]\(zalgo)\n[00:05.00]next")
        for preset in [Preset.lockscreen, .classic] {
            let engine = try engine(preset)
            let canvas = Rect(x: 0, y: 0, width: Double(preset.width), height: Double(preset.height))
            for t in [0, 2_000] {
                let start = Date()
                let layout = engine.layout(SceneBuilder(lyrics: lyrics).scene(at: Timestamp(milliseconds: t)))
                XCTAssertLessThan(Date().timeIntervalSince(start), 2.0, "\(preset) @\(t)")
                for (i, a) in layout.blocks.enumerated() {
                    XCTAssertTrue(canvas.contains(a.box), "\(preset) @\(t): \(a.role) \(a.box)")
                    for b in layout.blocks[(i + 1)...] {
                        XCTAssertFalse(a.box.intersects(b.box), "\(preset) @\(t): \(a.role) overlaps \(b.role)")
                    }
                }
            }
        }
    }

    func testClassicWithManyNeighboursStaysOnTheCanvas() throws {
        let engine = try engine(.classic, before: 10, after: 10, theme: .classic)
        XCTAssertGreaterThanOrEqual(engine.geometry.rows.first?.minY ?? -1, 0)
        XCTAssertEqual(engine.geometry.rows.last?.maxY, 644)
        let lines = (0..<30).map { String(format: "[00:%02d.00]line %d", $0 * 2, $0) }.joined(separator: "\n")
        let layout = engine.layout(SceneBuilder(lyrics: try LRC.parse(lines), before: 10, after: 10).scene(at: Timestamp(milliseconds: 30_000)))
        for block in layout.blocks { XCTAssertLessThanOrEqual(block.box.maxY, 800) }
    }
}

extension LayoutTests {
    func testRequestedNeighboursAreShownWhenTheyFit() throws {
        let lines = (0..<12).map { String(format: "[00:%02d.00]short line %d", $0 * 4, $0) }.joined(separator: "\n")
        let lyrics = try LRC.parse(lines)
        for theme in [Theme.card, .immersive] {
            let geometry = PosterGeometry(preset: .lockscreen, before: 3, after: 3, theme: theme)
            let engine = LayoutEngine(geometry: geometry, text: try TextEngine(fonts: Self.fonts), theme: theme)
            let layout = engine.layout(SceneBuilder(lyrics: lyrics, before: 3, after: 3).scene(at: Timestamp(milliseconds: 24_000)))
            XCTAssertEqual(layout.blocks.filter { $0.role == .previous }.count, 3, theme.name)
            XCTAssertEqual(layout.blocks.filter { $0.role == .next }.count, 3, theme.name)
        }
    }
}

