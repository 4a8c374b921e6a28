import Foundation
@testable import LyricPoster
@testable import PosterGraphics
import TestSupport
import XCTest

/// Text set in more font files than Cairo keeps open at once (ten), shaped and drawn on two
/// threads together, each with its own text engine as batch workers have: no drawing fails, and
/// every picture is the one a single thread draws. Cairo shares its FreeType faces between
/// threads and closes one to open another; before `FontLock`, a song in many scripts failed on
/// two threads about one run in fifteen ("error occurred in libfreetype", or a crash).
final class FontThreadsTests: XCTestCase {
    /// Lines in many scripts, each with the language that picks its font, at both weights: the
    /// bundled Latin, Arabic, Devanagari, Hebrew and Thai fonts (two files each), the CJK fonts
    /// (a face per language and weight) and the emoji font.
    static let texts: [(text: String, language: String?)] = [
        ("Harbour lights at dawn", nil), ("ضوء الميناء عند الفجر", "ar"), ("भोर में बंदरगाह की रोशनी", "hi"),
        ("אורות הנמל עם שחר", "he"), ("แสงไฟท่าเรือยามรุ่งอรุณ", "th"), ("夜明けの港の灯り", "ja"),
        ("새벽 항구의 불빛", "ko"), ("黎明时港口的灯光", "zh-Hans"), ("黎明時港口的燈光", "zh-Hant"), ("🌊 🎶 ✨ 🌅", nil),
    ]

    /// How `line` is set: its language's font families, `size` and `weight`.
    static func style(_ line: (text: String, language: String?), size: Double, weight: Int) -> TextStyle {
        TextStyle(families: FontSetup.families(for: line.language, preferring: Theme.card.fontFamily), size: size, weight: weight,
                  language: line.language)
    }

    /// The pictures of `rounds` passes over the texts at sizes and weights that change every
    /// time (each size a new Cairo font), drawn plain and with a soft shadow (a layer at half
    /// scale, another Cairo font again), one picture per pass.
    static func draw(rounds: Range<Int>, fonts: FontLibrary) throws -> [[UInt8]] {
        let engine = try TextEngine(fonts: fonts)
        var pictures: [[UInt8]] = []
        for round in rounds {
            let canvas = try Canvas(width: 420, height: 40 * texts.count + 20)
            for (i, line) in texts.enumerated() {
                let size = Double(12 + (round * 7 + i * 5) % 41) + (round % 3 == 0 ? 0.5 : 0)
                let layout = engine.layout(line.text, style: style(line, size: size, weight: (round + i) % 2 == 0 ? 400 : 700), width: 400)
                let shadow = i % 2 == 0 ? Canvas.Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: 0.6), radius: 6,
                                                        offset: Point(x: 0, y: 2)) : nil
                try canvas.draw(layout, at: Point(x: 10, y: Double(10 + 40 * i)), color: .white, shadow: shadow)
            }
            try canvas.finish()
            pictures.append(canvas.snapshot().pixels)
        }
        return pictures
    }

    func testTextInManyFontsDrawsOnTwoThreadsAsOnOne() throws {
        let fonts = Shared.fonts
        let engine = try TextEngine(fonts: fonts)
        var used = Set<String>()
        for line in Self.texts {
            for weight in [400, 700] {
                used.formUnion(engine.layout(line.text, style: Self.style(line, size: 20, weight: weight), width: nil).usedFonts)
            }
        }
        guard used.count > 10 else {
            throw XCTSkip("SKIPPED LOUDLY: these lines use \(used.count) font faces here, not more than the ten Cairo keeps open; "
                          + "install fonts-noto-cjk and fonts-noto-color-emoji (make test does)")
        }
        let rounds = Sanitizers.active ? 12 : 60
        // Two threads first, while Cairo has made few of these fonts yet (only the faces counted
        // above, at one size: every other size a face to lock, and faces to close and open
        // again); then one thread, for the pictures expected.
        let lock = NSLock()
        nonisolated(unsafe) var results: [Int: Result<[[UInt8]], Error>] = [:]
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            let outcome = Result { try Self.draw(rounds: 0..<rounds, fonts: fonts) }
            lock.withLock { results[worker] = outcome }
        }
        let expected = try Self.draw(rounds: 0..<rounds, fonts: fonts)
        for worker in 0..<2 {
            let pictures = try XCTUnwrap(results[worker]).get()
            XCTAssertEqual(pictures.count, rounds)
            for (round, picture) in pictures.enumerated() where picture != expected[round] {
                XCTFail("thread \(worker), pass \(round): not the picture one thread draws")
            }
        }
    }

    /// An engine's font map goes back to its library when the engine ends, and the next engine
    /// takes it (a catalogue song or a server's next song opens no fonts again); at most
    /// `FontLibrary.spareLimit` are kept. Text set and drawn with a map another engine used is
    /// the same picture as with a new map, in every script and at sizes the first never used.
    func testAFontMapGivenBackIsTheNextEnginesAndDrawsAsANewOne() throws {
        let fonts = try FontSetup.library(FontOptions())  // a library of its own: no map kept yet
        let fresh = try Self.draw(rounds: 0..<4, fonts: fonts)
        XCTAssertEqual(fonts.spareFontMaps.withLock { $0.count }, 1, "the engine's map was given back")
        let first = fonts.spareFontMaps.withLock { $0.last }
        var engine: TextEngine? = try TextEngine(fonts: fonts)
        XCTAssertEqual(engine?.fontMap, first, "the next engine takes the map given back")
        XCTAssertEqual(fonts.spareFontMaps.withLock { $0.count }, 0)
        engine = nil
        // The same passes with the map that has opened these fonts, then with sizes it has not.
        XCTAssertEqual(try Self.draw(rounds: 0..<4, fonts: fonts), fresh, "a map used before draws as a new one")
        let newer = try Self.draw(rounds: 4..<8, fonts: try FontSetup.library(FontOptions()))
        XCTAssertEqual(try Self.draw(rounds: 4..<8, fonts: fonts), newer)
        // Engines alive together each have a map of their own; past the limit, maps are released.
        let many = try (0..<(FontLibrary.spareLimit + 3)).map { _ in try TextEngine(fonts: fonts) }
        XCTAssertEqual(Set(many.map { UnsafeMutableRawPointer($0.fontMap) }).count, many.count)
        XCTAssertEqual(fonts.spareFontMaps.withLock { $0.count }, 0)
        withExtendedLifetime(many) {}
        _ = consume many
        XCTAssertEqual(fonts.spareFontMaps.withLock { $0.count }, FontLibrary.spareLimit)
    }
}
