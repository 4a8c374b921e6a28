import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// Share cards as geometry: the chosen lines, whole, in order, inside the canvas (and a lock
/// screen's safe area), overlapping nothing, in every theme at every card preset; a choice that
/// cannot fit is refused, never cut.
final class CardLayoutTests: XCTestCase {
    static let song = """
    [ti:Cards On The Table]
    [ar:The Choosers]
    [al:Picks]
    [00:02.00]Short line
    [00:05.00]A considerably longer line that has to wrap onto more than one line on every card we make
    [00:05.00]一行很长的翻译文字，用来检查翻译行在卡片上是否也会完整换行而不会被截断
    [00:10.00]Third line here
    [00:14.00]
    [00:25.00]After the break 🎵
    [00:30.00]夜は長く、道は静かだ
    [00:35.00]밤은 길고 길은 조용해요
    [00:40.00]الليل طويل والطريق هادئ في المدينة القديمة
    [00:45.00]The ninth and last line of this little song
    """

    static let presets: [Preset] = [.lockscreen, .phone, .feed, .square, .landscape]

    func layout(_ lyrics: Lyrics, _ indices: [Int], theme: Theme, preset: Preset) throws -> FrameLayout {
        let geometry = PosterGeometry(preset: preset, before: theme.before, after: theme.after, theme: theme)
        let engine = LayoutEngine(geometry: geometry, text: try TextEngine(fonts: LayoutTests.fonts), theme: theme)
        let builder = SceneBuilder(lyrics: lyrics, before: theme.before, after: theme.after)
        return engine.layout(builder.quote(indices))
    }

    func testChosenLinesAreWholeInOrderAndInside() throws {
        let lyrics = try LRC.parse(Self.song)
        let numbered = lyrics.numberedLines
        let choices: [[Int]] = [[0], [1, 2, 3], Array(0..<4), Array(4..<8)].map { $0.map { numbered[$0] } }
        for theme in Theme.builtIn {
            for preset in Self.presets {
                let canvas = Rect(x: 0, y: 0, width: Double(preset.width), height: Double(preset.height))
                let w = Double(preset.width), h = Double(preset.height)
                let safe = preset.isLockScreen
                    ? Rect(x: w * Preset.lockScreenSideShare, y: h * Preset.lockScreenClockShare,
                           width: w * (1 - 2 * Preset.lockScreenSideShare), height: h * (1 - Preset.lockScreenClockShare))
                    : canvas
                for choice in choices {
                    let label = "\(theme.name) \(preset.name) lines \(choice)"
                    let layout = try layout(lyrics, choice, theme: theme, preset: preset)
                    XCTAssertFalse(layout.overflow, "\(label): refused")
                    let quotes = layout.blocks.filter { $0.role == .quote }
                    XCTAssertEqual(quotes.map(\.text), choice.map { lyrics.lines[$0].text }, label)
                    XCTAssertTrue(layout.blocks.contains { $0.role == .title }, "\(label): no attribution")
                    for block in layout.blocks {
                        XCTAssertFalse(block.cut, "\(label): \(block.role) '\(block.text)' is cut")
                        XCTAssertFalse(block.layout.isEllipsized, "\(label): \(block.role) ends in an ellipsis")
                        XCTAssertTrue(canvas.contains(block.box), "\(label): \(block.role) \(block.box) leaves the canvas")
                        if block.role != .elapsed, block.role != .total {
                            XCTAssertTrue(safe.insetBy(dx: -1, dy: -1).contains(block.box), "\(label): \(block.role) \(block.box) outside the safe area")
                        }
                    }
                    for (i, a) in layout.blocks.enumerated() {
                        for b in layout.blocks[(i + 1)...] {
                            XCTAssertFalse(a.box.intersects(b.box), "\(label): \(a.role) \(a.box) overlaps \(b.role) \(b.box)")
                        }
                    }
                    // Equal weight: every chosen line at one size and one colour.
                    XCTAssertEqual(Set(quotes.map(\.fontSize)).count, 1, label)
                    XCTAssertEqual(Set(quotes.map(\.color)).count, 1, label)
                    // In reading order, top to bottom.
                    XCTAssertEqual(quotes.map(\.box.minY), quotes.map(\.box.minY).sorted(), label)
                }
            }
        }
    }

    func testAChoiceTooLargeForTheCanvasIsRefusedNotCut() throws {
        let long = (0..<8).map { String(format: "[00:%02d.00]", $0 * 5) + String(repeating: "a long line of many words that wraps ", count: 6) }
        let lyrics = try LRC.parse(long.joined(separator: "\n"))
        let layout = try layout(lyrics, Array(0..<8), theme: .card, preset: .landscape)
        XCTAssertTrue(layout.overflow)
        XCTAssertFalse(layout.blocks.contains { $0.cut })
        // The same choice fits a story.
        XCTAssertFalse(try self.layout(lyrics, Array(0..<2), theme: .card, preset: .lockscreen).overflow)
    }

    func testNoProgressBarOnACard() throws {
        let lyrics = try LRC.parse(Self.song)
        let layout = try layout(lyrics, [lyrics.numberedLines[0]], theme: .immersive, preset: .lockscreen)
        XCTAssertFalse(layout.blocks.contains { $0.role == .elapsed || $0.role == .total })
    }

    // MARK: Choosing lines

    func testLineNumbersParse() {
        XCTAssertEqual(LineChoice.parseNumbers("7"), [7...7])
        XCTAssertEqual(LineChoice.parseNumbers("3-5"), [3...5])
        XCTAssertEqual(LineChoice.parseNumbers(" 3 - 5 "), [3...5])
        XCTAssertEqual(LineChoice.parseNumbers("3, 7-8"), [3...3, 7...8])
        XCTAssertEqual(LineChoice.parseNumbers("1,2,3"), [1...1, 2...2, 3...3])
        for bad in ["", "0", "5-2", "-3", "3-", "a-b", "1-2-3", "3.5", ",", "3,", ",3", "5,3", "3-5,4", "3,3", "2,,4"] {
            XCTAssertNil(LineChoice.parseNumbers(bad), bad)
        }
    }

    func testQuotesMatchIgnoringCaseWidthAndSpacing() throws {
        let lyrics = try LRC.parse(Self.song)
        let scenes = SceneBuilder(lyrics: lyrics)
        func pick(_ quote: String) throws -> [String] {
            try LineChoice.quote(quote).resolve(in: lyrics, scenes: scenes, lyricsPath: "song.lrc").map { lyrics.lines[$0].text }
        }
        XCTAssertEqual(try pick("THIRD line"), ["Third line here"])
        XCTAssertEqual(try pick("ｔｈｉｒｄ　ｌｉｎｅ"), ["Third line here"])          // full-width letters and space
        XCTAssertEqual(try pick("  third \t  line "), ["Third line here"])
        XCTAssertEqual(try pick("道は静か"), ["夜は長く、道は静かだ"])
        // Running from the end of one line into the next picks both.
        XCTAssertEqual(try pick("every card we make third line"), [lyrics.lines[1].text, "Third line here"])
        XCTAssertThrowsError(try pick("third lime hare")) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("song.lrc: no line contains \"third lime hare\""), message)
            XCTAssertTrue(message.contains("the closest is line 3: \"Third line here\""), message)
        }
    }

    func testNumbersAndTimesResolveToSungLines() throws {
        let lyrics = try LRC.parse(Self.song)
        let scenes = SceneBuilder(lyrics: lyrics)
        func texts(_ choice: LineChoice) throws -> [String] {
            try choice.resolve(in: lyrics, scenes: scenes, lyricsPath: "song.lrc").map { lyrics.lines[$0].text }
        }
        // The gap at 00:14 has no number: line 4 is the one after it.
        XCTAssertEqual(try texts(.numbers([3...4])), ["Third line here", "After the break 🎵"])
        XCTAssertEqual(try texts(.numbers([1...1, 3...3])), ["Short line", "Third line here"])
        let skipping = try LineChoice.numbers([1...1, 3...4]).resolve(in: lyrics, scenes: scenes, lyricsPath: "song.lrc")
        XCTAssertEqual(LineChoice.gaps(in: skipping, lyrics: lyrics), [0], "a gap after the first line only: 3 and 4 follow on")
        XCTAssertEqual(scenes.quote(skipping, gaps: [0]).lines.map(\.role), [.quote, .ellipsis, .quote, .quote])
        XCTAssertEqual(try texts(.at(Timestamp(milliseconds: 11_000), count: 2)), ["Third line here", "After the break 🎵"])
        // Between lines (the interlude): the next line.
        XCTAssertEqual(try texts(.at(Timestamp(milliseconds: 20_000), count: 1)), ["After the break 🎵"])
        XCTAssertEqual(try texts(.at(Timestamp(milliseconds: 0), count: 1)), ["Short line"])
        XCTAssertThrowsError(try texts(.numbers([9...10])))
        XCTAssertThrowsError(try texts(.numbers([1...1, 9...10])))
        XCTAssertThrowsError(try texts(.at(Timestamp(milliseconds: 3_600_000), count: 1)))
    }
}
