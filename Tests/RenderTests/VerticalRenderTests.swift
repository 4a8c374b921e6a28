import Foundation
import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// Vertical posters and cards on the pixels: goldens, and the columns' ink where their boxes say.
final class VerticalRenderTests: XCTestCase {
    static let dusk = Result { try makeCover(top: Color(red: 0.9, green: 0.5, blue: 0.3), bottom: Color(red: 0.2, green: 0.1, blue: 0.4)) }

    static func theme(_ base: Theme) -> Theme {
        var theme = base
        theme.writing = .vertical
        return theme
    }

    func testGoldenVerticalPosters() throws {
        for (base, preset, name) in [(Theme.card, Preset.custom(width: 270, height: 480), "card-portrait"),
                                     (.immersive, .custom(width: 480, height: 270), "immersive-landscape"),
                                     (.classic, Preset(name: "classic-half", width: 240, height: 400, arrangement: .classic), "classic-classic")] {
            let frame = try renderFrame(cover: try Self.dusk.get(), lrc: VerticalLayoutSong.text, at: 10_500, preset: preset,
                                        theme: Self.theme(base))
            try assertGolden(frame.canvas, named: "vertical-\(name)-10500")
        }
    }

    /// Each column's ink lies inside its block's box, and the sung line's ink is where the
    /// current block is (the layout's boxes are the page's).
    func testInkIsWhereTheBoxesAre() throws {
        let black = try makeCover(top: .black, bottom: .black)
        let frame = try renderFrame(cover: black, lrc: VerticalLayoutSong.text, at: 10_500, preset: .custom(width: 540, height: 960),
                                    theme: Self.theme(.minimal))
        let bitmap = frame.canvas.snapshot()
        let current = try XCTUnwrap(frame.layout.blocks.first { $0.role == .current })
        XCTAssertTrue(current.layout.style.vertical)
        // Bright pixels (text) inside the current block's box, and none in a band beside it.
        func bright(_ r: Rect) -> Int {
            var n = 0
            for y in max(0, Int(r.minY))..<min(bitmap.height, Int(r.maxY)) {
                for x in max(0, Int(r.minX))..<min(bitmap.width, Int(r.maxX)) where bitmap.rgba(x: x, y: y).r > 200 { n += 1 }
            }
            return n
        }
        let box = current.box
        XCTAssertGreaterThan(bright(box), Int(box.width * box.height * 0.05), "the column's ink is in its box \(box)")
        let below = Rect(x: box.minX, y: box.maxY + 4, width: box.width, height: 40)
        XCTAssertEqual(bright(below), 0, "nothing under the column")
    }
}

/// The song vertical tests share.
enum VerticalLayoutSong {
    static let text = """
    [ti:纸灯笼]
    [ar:灯笼街合唱团]
    [la:zh-Hans]
    [00:02.00]河边的纸灯笼一盏一盏亮起来
    [00:02.00]Paper lanterns by the river light up one by one
    [00:06.00]风把你的名字吹得很轻，「再见」。
    [00:10.00]那年夏天我们17岁，听着Radio到天亮
    [00:14.00]舊信紙上的字還有餘溫
    [00:18.00]遠い夏の日を思い出す
    [00:22.00]
    """
}
