import Foundation
import LyricPoster
import LyricsCore
import PosterGraphics
import XCTest

/// Small reference images, one concern each, and legibility measured from rendered pixels.
final class RenderTests: XCTestCase {
    static let song = """
    [ti:Golden Hour]
    [ar:Reference Band]
    [la:ja]
    [00:01.00]The first line of the song
    [00:04.00]提灯の明かりが揺れている
    [00:04.00]The lanterns sway
    [00:08.00]الليل طويل والطريق هادئ
    [00:12.00]Last line 🎵
    """

    /// A TTML duet: romanised Japanese with translations, backing vocals, a second singer.
    static let duet = """
    <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttm="http://www.w3.org/ns/ttml#metadata" xml:lang="ja">\
    <head><metadata><ttm:title>Two Lanterns</ttm:title><ttm:agent type="person" xml:id="v1"/><ttm:agent type="person" xml:id="v2"/></metadata></head>\
    <body><p begin="1" end="3.5" ttm:agent="v1"><span begin="1" end="1.5">灯</span><span begin="1.5" end="2">が</span><span begin="2" end="3">揺れる</span>\
    <span ttm:role="x-roman">hi ga yureru</span><span ttm:role="x-translation">The light sways</span>\
    <span ttm:role="x-bg"><span begin="2.5" end="3">(揺れる)</span></span></p>\
    <p begin="4" end="6" ttm:agent="v2"><span begin="4" end="5">ここ</span><span begin="5" end="6">にいる</span>\
    <span ttm:role="x-roman">koko ni iru</span><span ttm:role="x-translation">I am here</span></p>\
    <p begin="7" end="9" ttm:agent="v1"><span begin="7" end="9">また明日</span></p></body></tt>
    """

    func testGoldenRolesCentred() throws {
        let frame = try renderFrame(cover: try Self.dusk.get(), lrc: Self.duet, at: 2_750, preset: .custom(width: 270, height: 480), karaoke: true)
        try assertGolden(frame.canvas, named: "roles-centred-2750")
    }

    func testGoldenDuetSideInSplit() throws {
        let frame = try renderFrame(cover: try Self.dusk.get(), lrc: Self.duet, at: 4_500, preset: .custom(width: 480, height: 270),
                                    theme: .immersive, karaoke: true)
        try assertGolden(frame.canvas, named: "duet-split-4500")
    }

    static let dusk = Result { try makeCover(top: Color(red: 0.9, green: 0.5, blue: 0.3), bottom: Color(red: 0.2, green: 0.1, blue: 0.4)) }

    func testGoldenStackBilingual() throws {
        let frame = try renderFrame(cover: try Self.dusk.get(), lrc: Self.song, at: 4_000, preset: .custom(width: 270, height: 480))
        try assertGolden(frame.canvas, named: "stack-bilingual-4000")
    }

    func testGoldenHeaderRightToLeft() throws {
        let frame = try renderFrame(cover: try Self.dusk.get(), lrc: Self.song, at: 8_000, preset: .custom(width: 320, height: 320))
        try assertGolden(frame.canvas, named: "header-rtl-8000")
    }

    func testGoldenSplitInterlude() throws {
        let frame = try renderFrame(cover: try Self.dusk.get(), lrc: Self.song, at: 0, preset: .custom(width: 480, height: 270))
        try assertGolden(frame.canvas, named: "split-interlude-0")
    }

    func testGoldenClassicEmoji() throws {
        let frame = try renderFrame(cover: try Self.dusk.get(), lrc: Self.song, at: 12_000, preset: .classic)
        try assertGolden(frame.canvas, named: "classic-emoji-12000")
    }

    /// White, black, saturated and busy covers: the current line reaches 4.5:1 against the
    /// brightest pixel behind it at every preset.
    func testCurrentLineContrastOnAnyCover() throws {
        let covers = try generatedCovers()
        for (name, cover) in covers {
            for preset in [Preset.custom(width: 270, height: 480), .custom(width: 320, height: 400), .custom(width: 480, height: 270), .classic] {
                for t in [1_000, 4_000, 8_000] {
                    let frame = try renderFrame(cover: cover, lrc: Self.song, at: t, preset: preset)
                    let contrast = try XCTUnwrap(frame.contrast, "\(name) \(preset) @\(t)")
                    XCTAssertGreaterThanOrEqual(contrast, 4.5, "\(name) \(preset) @\(t)")
                }
            }
        }
    }

    /// A white cover gives a light poster (dark text on a light frost), a black one a dark poster;
    /// both pass their contrast targets on the pixels as drawn.
    func testWhiteCoverStaysLightAndBlackCoverDark() throws {
        let white = try renderFrame(cover: try makeCover(top: .white, bottom: .white), lrc: Self.song, at: 1_000,
                                    preset: .custom(width: 270, height: 480))
        let black = try renderFrame(cover: try makeCover(top: .black, bottom: .black), lrc: Self.song, at: 1_000,
                                    preset: .custom(width: 270, height: 480))
        let full = Rect(x: 0, y: 0, width: 270, height: 480)
        XCTAssertGreaterThan(white.canvas.luminance(in: full, quantile: 0.5), 0.6, "a white cover's poster stays light")
        XCTAssertLessThan(try XCTUnwrap(white.layout.blocks.first { $0.role == .current }).color.relativeLuminance, 0.05,
                          "with dark text")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(white.contrast), 4.5)
        XCTAssertLessThan(black.canvas.luminance(in: full, quantile: 0.5), 0.05)
        XCTAssertGreaterThan(try XCTUnwrap(black.contrast), 15)
    }

    func testRenderingIsDeterministic() throws {
        let a = try renderFrame(cover: try Self.dusk.get(), lrc: Self.song, at: 4_000, preset: .custom(width: 270, height: 480))
        let b = try renderFrame(cover: try Self.dusk.get(), lrc: Self.song, at: 4_000, preset: .custom(width: 270, height: 480))
        XCTAssertEqual(try a.canvas.pngData(), try b.canvas.pngData())
    }
}
