import Foundation
import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// The new roles on the poster: romanisation and backing-vocal sub-lines, duet voices, lines
/// sung together, credits, and silences after a line's own end.
final class RolesLayoutTests: XCTestCase {
    static let sample: Lyrics = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("samples/river-lights/river-lights.ttml")
        return (try? LyricsReader.load((try? Data(contentsOf: url)) ?? Data())) ?? Lyrics()
    }()

    func engine(_ preset: Preset, theme: Theme) throws -> LayoutEngine {
        let geometry = PosterGeometry(preset: preset, before: theme.before, after: theme.after, theme: theme)
        return LayoutEngine(geometry: geometry, text: try TextEngine(fonts: LayoutTests.fonts), theme: theme)
    }

    func testDuetVoicesFollowTheAgents() throws {
        XCTAssertEqual(Self.sample.lines.count, 12)
        let builder = SceneBuilder(lyrics: Self.sample)
        func voice(at ms: Int) -> Scene.Voice? { builder.scene(at: Timestamp(milliseconds: ms)).lines.first { $0.role == .current }?.voice }
        XCTAssertEqual(voice(at: 13_000), .lead)   // v1
        XCTAssertEqual(voice(at: 24_000), .duet)   // v2
        XCTAssertEqual(voice(at: 35_000), .lead)   // v1000, a group, stays on the lead side
    }

    func testRomanisationAndBackingVocalsReachTheScene() throws {
        var builder = SceneBuilder(lyrics: Self.sample)
        builder.karaoke = true
        let scene = builder.scene(at: Timestamp(milliseconds: 21_600))
        let current = try XCTUnwrap(scene.lines.first { $0.role == .current })
        XCTAssertEqual(current.romanisation, "kimi no koe wo matte ita")
        XCTAssertEqual(current.translation, "I was waiting for your voice")
        XCTAssertEqual(current.backing?.text, "待ってた")
        // 21.6 s: the first backing syllable (21.2–21.7 s) is being sung.
        let shares = try XCTUnwrap(current.backing?.sung)
        XCTAssertEqual(shares.count, 4)
        XCTAssertGreaterThan(shares[0], 0.5)
        XCTAssertEqual(shares[3], 0)
        builder.romanisation = .hide
        XCTAssertNil(builder.scene(at: Timestamp(milliseconds: 21_600)).lines.first { $0.role == .current }?.romanisation)
    }

    func testSubLinesStackInOrderAndDuetsSitOnTheOtherSide() throws {
        let builder = SceneBuilder(lyrics: Self.sample, before: 1, after: 1)
        for theme in [Theme.immersive, Theme.card] {
            for preset in [Preset.lockscreen, .landscape, .square] {
                let engine = try engine(preset, theme: theme)
                let layout = engine.layout(builder.scene(at: Timestamp(milliseconds: 29_000)))  // v2 line with backing vocals
                let label = "\(theme.name) \(preset.name)"
                let current = try XCTUnwrap(layout.blocks.first { $0.role == .current }, label)
                let subs = layout.blocks.filter { [.romanisation, .translation, .background].contains($0.role) && $0.box.minY > current.box.minY }
                    .sorted { $0.box.minY < $1.box.minY }
                let order = subs.prefix(3).map(\.role)
                XCTAssertEqual(order, [.romanisation, .translation, .background], label)
                // Romanisation is drawn unlike a translation: in italic.
                XCTAssertEqual(subs.prefix(2).map(\.layout.style.italic), [true, false], label)
                for i in layout.blocks.indices {
                    for j in layout.blocks.indices where j > i {
                        let (x, y) = (layout.blocks[i].box, layout.blocks[j].box)
                        let overlap = x.minX < y.maxX - 1 && y.minX < x.maxX - 1 && x.minY < y.maxY - 1 && y.minY < x.maxY - 1
                        XCTAssertFalse(overlap,
                                       "\(label): \(layout.blocks[i].role) overlaps \(layout.blocks[j].role)")
                    }
                }
                let area = engine.geometry.lyrics
                if engine.geometry.lyricsAlignment == .left {
                    // The second singer's line ends at the region's right edge, its neighbours start at the left.
                    XCTAssertEqual(current.box.maxX, area.maxX, accuracy: 0.06 * area.width, label)
                    XCTAssertGreaterThan(current.box.minX, area.minX + 2, label)
                }
            }
        }
    }

    func testLinesSungTogetherAreBothCurrent() throws {
        let lyrics = try LRC.parse("""
            [00:01.00]Bread, bread, bread
            [00:05.00]Sugar on the table
            [00:05.00]Honey, it's a slice of bread
            [00:09.00]Salt in the kettle
            [00:13.00]Steam on the glass
            """)
        let builder = SceneBuilder(lyrics: lyrics, before: 1, after: 1)
        let scene = builder.scene(at: Timestamp(milliseconds: 6000))
        let current = scene.lines.filter { $0.role == .current }
        XCTAssertEqual(current.map(\.text), ["Sugar on the table", "Honey, it's a slice of bread"])
        XCTAssertEqual(current.map(\.voice), [.lead, .duet])
        XCTAssertEqual(scene.lines.filter { $0.role == .next }.map(\.text), ["Salt in the kettle"])
        XCTAssertEqual(scene.lineIndex, 1)
        let engine = try engine(.lockscreen, theme: .immersive)
        let layout = engine.layout(scene)
        let blocks = layout.blocks.filter { $0.role == .current }
        XCTAssertEqual(blocks.count, 2)
        XCTAssertLessThan(blocks[0].box.maxY, blocks[1].box.minY)
        XCTAssertTrue(layout.focus.map { $0.insetBy(dx: -1, dy: -1).contains(blocks[1].box) } ?? false, "both lines are the focus")
    }

    func testCreditsAreNeverCurrentAndSilencesFollowLineEnds() throws {
        let lyrics = try LRC.parse("""
            [00:00.00]作词 : 某人
            [00:01.00]作曲 : 另一人
            [00:06.00]First<00:07.00> line<00:08.00>
            [00:14.00]Second<00:15.00> line<00:16.00>
            [00:18.00]Third line
            """)
        let builder = SceneBuilder(lyrics: lyrics)
        XCTAssertEqual(builder.scene(at: Timestamp(milliseconds: 1500)).state, .intro)
        XCTAssertNil(builder.currentIndex(at: Timestamp(milliseconds: 1500)))
        XCTAssertEqual(builder.currentIndex(at: Timestamp(milliseconds: 7000)), 2)
        // First line ends at 8 s, the next starts at 14 s: a 6 s silence is an interlude.
        XCTAssertEqual(builder.scene(at: Timestamp(milliseconds: 9000)).state, .interlude)
        // Second ends at 16 s, third starts at 18 s: a 2 s breath keeps the line on screen.
        XCTAssertEqual(builder.currentIndex(at: Timestamp(milliseconds: 17_000)), 3)
        let frames = FramePlan.perLine(builder)
        XCTAssertTrue(frames.contains { $0.startMs == 8000 }, "the interlude after the first line has its own frame")
    }

    func testNegativeStartsAreCurrentFromZero() throws {
        let lyrics = try LRC.parse("[offset:500]\n[00:00.00]Early\n[00:05.00]Later")
        XCTAssertEqual(lyrics.lines[0].start.milliseconds, -500)
        let builder = SceneBuilder(lyrics: lyrics)
        XCTAssertEqual(builder.currentIndex(at: .zero), 0)
        XCTAssertEqual(FramePlan.perLine(builder).first?.startMs, 0)
    }
}
