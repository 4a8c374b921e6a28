import LyricPoster
import LyricsCore
import PosterGraphics
import Foundation
import XCTest

/// Vertical writing (縦書き) by numbers: glyphs upright or turned, vertical punctuation forms,
/// upright digit pairs, columns right to left inside the canvas, neighbours on their sides, long
/// lines wrapped into more columns (never cut), and `auto`.
final class VerticalLayoutTests: XCTestCase {
    static let song = """
    [ti:纸灯笼]
    [ar:灯笼街合唱团]
    [la:zh-Hans]
    [00:02.00]河边的纸灯笼一盏一盏亮起来
    [00:02.00]Paper lanterns by the river light up one by one
    [00:06.00]风把你的名字吹得很轻，「再见」。
    [00:10.00]那年夏天我们17岁，听着Radio到天亮
    [00:14.00]我在桥上数着水里的星星，数到天亮也数不完，数到河水都睡着了，数到灯笼一盏一盏熄灭
    [00:18.00]舊信紙上的字還有餘溫
    [00:22.00]遠い夏の日を思い出す
    [00:26.00]
    """

    var vertical: Theme {
        var theme = Theme.card
        theme.writing = .vertical
        return theme
    }

    func engine(_ preset: Preset, theme: Theme, before: Int = 2, after: Int = 2) throws -> LayoutEngine {
        let geometry = PosterGeometry(preset: preset, before: before, after: after, theme: theme)
        return LayoutEngine(geometry: geometry, text: try TextEngine(fonts: LayoutTests.fonts), theme: theme)
    }

    func layout(_ text: String, vertical: Bool, language: String = "ja", width: Double = 800) throws -> TextLayout {
        let style = TextStyle(families: FontSetup.families(for: language), size: 40, language: language, alignment: .left, vertical: vertical)
        return try TextEngine(fonts: LayoutTests.fonts).layout(text, style: style, width: width)
    }

    func testHanAndKanaStandUprightAndLatinTurns() throws {
        let runs = try layout("日本語のABC歌", vertical: true).glyphRuns
        let han = try XCTUnwrap(runs.first { $0.text.contains("日") })
        let latin = try XCTUnwrap(runs.first { $0.text.contains("ABC") })
        XCTAssertEqual(han.gravity, "east", "upright in a column: \(runs)")
        XCTAssertEqual(latin.gravity, "south", "Latin lies sideways: \(runs)")
        XCTAssertFalse(latin.text.contains("日"), "Latin is a run of its own")
        XCTAssertTrue(try layout("日本語のABC歌", vertical: false).glyphRuns.allSatisfy { $0.gravity == "south" })
    }

    func testPunctuationTakesItsVerticalForms() throws {
        for mark in ["、", "。", "，", "ー"] {
            let text = "春\(mark)夏"
            let across = try layout(text, vertical: false).glyphRuns.flatMap(\.glyphs)
            let down = try layout(text, vertical: true).glyphRuns.flatMap(\.glyphs)
            XCTAssertEqual(across.count, 3)
            XCTAssertEqual(down.count, 3)
            XCTAssertEqual(across[0], down[0], "春 is the same glyph both ways")
            // ー is a turned run (its horizontal glyph, rotated) under the natural hint; the rest
            // are upright and substituted by the font's vert feature.
            if mark != "ー" { XCTAssertNotEqual(across[1], down[1], "\(mark) takes its vertical form") }
        }
    }

    func testTwoDigitsStandUprightInOneCell() throws {
        let layout = try layout("我们17岁", vertical: true, language: "zh-Hans")
        let cells = layout.uprightCells
        XCTAssertEqual(cells.count, 1)
        let cell = try XCTUnwrap(cells.first)
        XCTAssertEqual(cell.height, 40, accuracy: 1, "one em down the column")
        XCTAssertEqual(cell.width, 40, accuracy: 1, "one em across")
        let box = layout.logicalRect
        XCTAssertTrue(box.insetBy(dx: -1, dy: -1).contains(cell), "\(cell) inside \(box)")
        // The column: four cells down, one across.
        XCTAssertEqual(box.height, 160, accuracy: 2)
        XCTAssertLessThan(box.width, 70)
        // One digit turns full-width (upright); three stay a sideways run.
        XCTAssertTrue(try self.layout("第1", vertical: true).uprightCells.isEmpty)
        XCTAssertEqual(try self.layout("第1", vertical: true).glyphRuns.first { $0.text.contains("１") }?.gravity, "east")
        XCTAssertTrue(try self.layout("2024年", vertical: true).uprightCells.isEmpty)
    }

    func testColumnsRunRightToLeftInsideTheCanvas() throws {
        let builder = SceneBuilder(lyrics: try LRC.parse(Self.song), before: 2, after: 2)
        for preset in Preset.all + [.custom(width: 720, height: 720)] {
            let engine = try engine(preset, theme: vertical)
            let canvas = Rect(x: 0, y: 0, width: Double(preset.width), height: Double(preset.height))
            for t in [0, 3_000, 7_000, 11_000, 15_000, 19_000, 23_000, 30_000] {
                let scene = builder.scene(at: Timestamp(milliseconds: t))
                let layout = engine.layout(scene)
                let label = "\(preset) @\(t)"
                for (i, a) in layout.blocks.enumerated() {
                    XCTAssertTrue(canvas.insetBy(dx: -0.5, dy: -0.5).contains(a.box), "\(label): \(a.role) \(a.box) leaves the canvas")
                    XCTAssertFalse(a.cut, "\(label): \(a.role) cut")
                    for b in layout.blocks[(i + 1)...] {
                        XCTAssertFalse(a.box.insetBy(dx: 0.5, dy: 0.5).intersects(b.box), "\(label): \(a.role) \(a.box) overlaps \(b.role) \(b.box)")
                    }
                }
                let lyric = layout.blocks.filter { [.previous, .current, .next].contains($0.role) }
                for block in lyric {
                    XCTAssertTrue(block.layout.style.vertical, "\(label): \(block.role) in columns")
                    let columns = block.layout.lineRects.map { $0.minX }
                    XCTAssertEqual(columns, columns.sorted(by: >), "\(label): \(block.text)'s columns right to left")
                }
                guard let current = lyric.first(where: { $0.role == .current }) else { continue }
                for block in lyric where block.role == .previous {
                    XCTAssertGreaterThanOrEqual(block.box.minX, current.box.maxX, "\(label): '\(block.text)' before, to the right")
                }
                for block in lyric where block.role == .next {
                    XCTAssertLessThanOrEqual(block.box.maxX, current.box.minX, "\(label): '\(block.text)' after, to the left")
                }
                // Every column starts at the same top.
                let tops = lyric.map(\.box.minY)
                XCTAssertLessThanOrEqual((tops.max() ?? 0) - (tops.min() ?? 0), 2, "\(label): tops \(tops)")
                // A translation stands beside its line, on its left.
                for translation in layout.blocks where translation.role == .translation {
                    let line = try XCTUnwrap(lyric.first { $0.line == translation.line })
                    XCTAssertLessThanOrEqual(translation.box.maxX, line.box.minX, "\(label): translation on its line's left")
                }
            }
        }
    }

    func testALongLineWrapsIntoMoreColumnsWhole() throws {
        let builder = SceneBuilder(lyrics: try LRC.parse(Self.song), before: 0, after: 0)
        let engine = try engine(.square, theme: vertical, before: 0, after: 0)
        let layout = engine.layout(builder.scene(at: Timestamp(milliseconds: 15_000)))
        let current = try XCTUnwrap(layout.blocks.first { $0.role == .current })
        XCTAssertGreaterThan(current.lines, 1, "several columns")
        XCTAssertFalse(current.cut)
        XCTAssertFalse(current.layout.isEllipsized)
        XCTAssertEqual(current.text, "我在桥上数着水里的星星，数到天亮也数不完，数到河水都睡着了，数到灯笼一盏一盏熄灭")
    }

    func testCardsStandInColumnsToo() throws {
        let lyrics = try LRC.parse(Self.song)
        let builder = SceneBuilder(lyrics: lyrics)
        let chosen = try LineChoice.numbers([1...1, 3...4]).resolve(in: lyrics, scenes: builder, lyricsPath: "song.lrc")
        for preset in [Preset.lockscreen, .feed, .square, .landscape, .classic] {
            for theme in Theme.builtIn {
                var theme = theme
                theme.writing = .vertical
                let engine = try engine(preset, theme: theme)
                let layout = engine.layout(builder.quote(chosen, gaps: LineChoice.gaps(in: chosen, lyrics: lyrics)))
                let columns = layout.blocks.filter { $0.role == .quote || $0.role == .ellipsis }.sorted { $0.box.minX > $1.box.minX }
                XCTAssertEqual(columns.map(\.role), [.quote, .ellipsis, .quote, .quote], "\(theme.name) \(preset)")
                XCTAssertFalse(layout.overflow, "\(theme.name) \(preset)")
                let canvas = Rect(x: 0, y: 0, width: Double(preset.width), height: Double(preset.height))
                for block in layout.blocks {
                    XCTAssertTrue(canvas.insetBy(dx: -0.5, dy: -0.5).contains(block.box), "\(theme.name) \(preset): \(block.role) \(block.box)")
                }
            }
        }
    }

    func testThemeFilesNameTheWriting() throws {
        XCTAssertEqual(try ThemeFile.parse(Data(#"{"writing": "vertical"}"#.utf8)).writing, .vertical)
        XCTAssertEqual(try ThemeFile.parse(Data(#"{"writing": "auto", "align": "right"}"#.utf8)).writing, .auto)
        XCTAssertEqual(try ThemeFile.parse(Data(#"{"align": "right"}"#.utf8)).alignment, .right)
        XCTAssertEqual(try ThemeFile.parse(Data("{}".utf8)).writing, .horizontal)
        XCTAssertThrowsError(try ThemeFile.parse(Data(#"{"writing": "diagonal"}"#.utf8)))
    }

    func testAutoChoosesColumnsForChineseAndJapaneseOnPortraitCanvases() throws {
        func writing(_ lrc: String, _ preset: Preset) throws -> Theme.Writing {
            return PosterSession.writing(.auto, lyrics: try LRC.parse(lrc), preset: preset)
        }
        let chinese = "[00:01.00]河边的纸灯笼\n[00:03.00]遠い夏の日を思い出す、１７歳\n"
        XCTAssertEqual(try writing(chinese, .lockscreen), .vertical)
        XCTAssertEqual(try writing(chinese, .landscape), .horizontal)
        XCTAssertEqual(try writing(chinese, .square), .horizontal)
        XCTAssertEqual(try writing(chinese + "[00:05.00]听着Radio\n", .lockscreen), .horizontal, "a Latin word")
        XCTAssertEqual(try writing("[00:01.00]밤은 길고\n", .lockscreen), .horizontal, "Korean is written in rows")
        XCTAssertEqual(try writing("[00:01.00]hello\n", .lockscreen), .horizontal)
        XCTAssertEqual(PosterSession.writing(.vertical, lyrics: try LRC.parse("[00:01.00]hello\n"), preset: .landscape), .vertical)
    }

    /// Furigana in columns: every reading of a sung line drawn, beside its characters, on every
    /// column the line wraps into, none on a character of the line.
    func testReadingsStandBesideEveryColumn() throws {
        let lrcx = """
        [la:ja]
        [00:01.00]あの日の Radio が 17 時を告げる
        [00:01.00][fu]<ひ,2,3><じ,16,17><つ,18,19>
        [00:05.00]
        """
        let lyrics = try LyricsReader.parse(lrcx)
        let builder = SceneBuilder(lyrics: lyrics, before: 0, after: 0)
        let scene = builder.scene(at: Timestamp(milliseconds: 2_000))
        XCTAssertEqual(scene.lines.first { $0.role == .current }?.ruby.count, 3)
        // A canvas short enough that the line takes two columns.
        let engine = try engine(.custom(width: 1080, height: 1080), theme: vertical, before: 0, after: 0)
        let layout = engine.layout(scene)
        let current = try XCTUnwrap(layout.blocks.first { $0.role == .current })
        XCTAssertGreaterThan(current.lines, 1, "the line wraps into columns")
        let readings = layout.blocks.filter { $0.role == .ruby }
        XCTAssertEqual(readings.map(\.text), ["ひ", "じ", "つ"])
        // Each character's body: an em about its cell's centre (the logical box is wider).
        let em = current.fontSize
        let glyphs = current.layout.clusters.map { Rect(x: current.origin.x + $0.rect.midX - em / 2, y: current.origin.y + $0.rect.y,
                                                          width: em, height: $0.rect.height) }
        for reading in readings {
            let box = reading.layout.inkRect
            let ink = Rect(x: reading.origin.x + box.x, y: reading.origin.y + box.y, width: box.width, height: box.height)
            XCTAssertFalse(glyphs.contains { $0.insetBy(dx: 1, dy: 1).intersects(ink) }, "\(reading.text) on a character")
        }
        // The readings of the second column's characters stand left of the first column's bodies.
        let first = try XCTUnwrap(current.layout.lineRects.first)
        XCTAssertLessThan(try XCTUnwrap(readings.last).box.maxX, current.origin.x + first.midX - em / 2)
    }
}
