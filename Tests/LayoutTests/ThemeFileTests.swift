import Foundation
import LyricPoster
import XCTest

/// Theme files: what they override, and errors that name the key.
final class ThemeFileTests: XCTestCase {
    func parse(_ json: String) throws -> Theme { try ThemeFile.parse(Data(json.utf8)) }

    func testOverridesStartFromTheBase() throws {
        let theme = try parse("""
            {"base": "minimal", "name": "mine", "sizes": {"current": 90}, "colors": {"accent": "#FFD080"},
             "show": {"progress": true}, "lines": {"before": 1}}
            """)
        XCTAssertEqual(theme.name, "mine")
        XCTAssertEqual(theme.layout, .minimal)
        XCTAssertEqual(theme.currentSize, 90)
        XCTAssertEqual(theme.neighbourSize, Theme.minimal.neighbourSize)
        XCTAssertEqual(theme.accentColor?.hex, "#FFD080FF")
        XCTAssertTrue(theme.showProgress)
        XCTAssertEqual(theme.before, 1)
        XCTAssertEqual(try parse("{}"), Theme.card)
    }

    func testErrorsNameTheKey() {
        let cases: [(String, String)] = [
            ("not json", "not valid JSON"),
            ("[1, 2]", "must be a JSON object"),
            (#"{"base": "fancy"}"#, "base: must name a built-in theme"),
            (#"{"layout": "grid"}"#, "layout: must be one of card, classic, immersive, minimal"),
            (#"{"sizes": {"current": "big"}}"#, "sizes.current: must be a number from 8 to 400"),
            (#"{"sizes": {"curent": 60}}"#, "sizes.curent: unknown key"),
            (#"{"colour": {}}"#, "colour: unknown key"),
            (##"{"colors": {"text": "#101010"}}"##, "colors.text: must be a light colour"),
            (#"{"colors": {"text": "white"}}"#, "colors.text: must be a colour like #RRGGBB"),
            (#"{"background": {"scrim": [0.1, 0.2]}}"#, "background.scrim: must be 3 numbers from 0 to 1"),
            (#"{"show": {"title": "yes"}}"#, "show.title: must be true or false"),
            (#"{"weights": {"current": 650.5}}"#, "weights.current: must be a whole number"),
            (#"{"margin": true}"#, "margin: must be a number from 0 to 300"),
            (##"{"colors": {"text": "#FFFFFF00"}}"##, "colors.text: must be opaque"),
            (##"{"colors": {"accent": "#FFD08080"}}"##, "colors.accent: must be"),
            (##"{"colors": {"text": "#+FFFFF"}}"##, "colors.text: must be a colour like #RRGGBB"),
            (#"{"background": {"scrim": [true, 0.2, 0.3]}}"#, "background.scrim: must be 3 numbers"),
        ]
        for (json, message) in cases {
            XCTAssertThrowsError(try parse(json), json) { error in
                XCTAssertTrue("\(error)".hasPrefix(message), "\(json): '\(error)' should start with '\(message)'")
            }
        }
    }

    func testBuiltInsAreDistinct() {
        XCTAssertEqual(Theme.builtIn.map(\.name), ["card", "classic", "immersive", "minimal", "block", "paper"])
        XCTAssertEqual(Set(Theme.builtIn.map(\.layout)).count, 5)
        XCTAssertEqual(Theme.named("Immersive"), .immersive)
    }
}
