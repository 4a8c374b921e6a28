import Foundation
import PosterGraphics
@testable import LyricPoster
import XCTest

/// The theme's part of a backdrop's cache key is spelled out field by field (not described by
/// reflection): it must name every stored property with its own value, and tell apart themes that
/// differ anywhere.
final class ThemeKeyTests: XCTestCase {
    func testKeyNamesEveryStoredPropertyInOrder() {
        for theme in Theme.builtIn {
            let labels = Mirror(reflecting: theme).children.compactMap(\.label)
            XCTAssertEqual(theme.keyFields.map(\.label), labels,
                           "Theme gained or lost a stored property: spell it out in Theme.keyFields")
        }
    }

    /// Each field's text is its own value's (a value read from the wrong property shows here
    /// where the themes differ, and in the next test where they do not).
    func testKeyValuesAreTheFieldsOwn() {
        func colour(_ c: Color) -> String { "\(c.red),\(c.green),\(c.blue),\(c.alpha)" }
        for theme in Theme.builtIn {
            let values = Dictionary(uniqueKeysWithValues: theme.keyFields.map { ($0.label, $0.value) })
            for child in Mirror(reflecting: theme).children {
                guard let label = child.label, let value = values[label] else { continue }
                let expected: String
                switch child.value {
                case let d as Double: expected = "\(d)"
                case let i as Int: expected = "\(i)"
                case let b as Bool: expected = "\(b)"
                case let s as String: expected = "\(s.utf8.count):\(s)"
                case let s as String?: expected = s.map { "\($0.utf8.count):\($0)" } ?? "-"
                case let a as [Double]: expected = a.map { "\($0)" }.joined(separator: ",")
                case let c as Color: expected = colour(c)
                case let c as Color?: expected = c.map(colour) ?? "-"
                case let e as any RawRepresentable: expected = "\(e.rawValue)"
                default: XCTFail("\(label): a kind of value this test does not know"); continue
                }
                XCTAssertEqual(value, expected, "\(theme.name).\(label)")
            }
        }
    }

    /// A change to any one field changes the key.
    func testThemesThatDifferAnywhereHaveDifferentKeys() {
        let changes: [(String, (inout Theme) -> Void)] = [
            ("name", { $0.name += "2" }), ("description", { $0.description += "." }), ("layout", { $0.layout = $0.layout == .minimal ? .card : .minimal }),
            ("background", { $0.background = $0.background == .gradient ? .solid : .gradient }), ("backgroundBlur", { $0.backgroundBlur += 0.5 }),
            ("backgroundBrightness", { $0.backgroundBrightness += 0.01 }), ("backgroundSaturation", { $0.backgroundSaturation += 0.01 }),
            ("scheme", { $0.scheme = $0.scheme == .light ? .dark : .light }), ("accentFallback", { $0.accentFallback = Color(red: 1, green: 0, blue: 0) }),
            ("scrim", { $0.scrim[2] += 0.01 }), ("card", { $0.card.toggle() }), ("cardRadius", { $0.cardRadius += 1 }),
            ("currentSize", { $0.currentSize += 1 }), ("neighbourSize", { $0.neighbourSize += 1 }),
            ("translationScale", { $0.translationScale += 0.05 }), ("titleSize", { $0.titleSize += 1 }),
            ("artistSize", { $0.artistSize += 1 }), ("currentWeight", { $0.currentWeight = 600 }),
            ("neighbourWeight", { $0.neighbourWeight = 500 }), ("fontFamily", { $0.fontFamily = "Noto Serif" }),
            ("textColor", { $0.textColor = Color(red: 0.9, green: 0.9, blue: 0.9) }),
            ("accentColor", { $0.accentColor = Color(red: 1, green: 0.8, blue: 0.5) }), ("accentFromCover", { $0.accentFromCover.toggle() }),
            ("neighbourOpacity", { $0.neighbourOpacity += 0.01 }), ("opacityFalloff", { $0.opacityFalloff += 0.01 }),
            ("depthBlur", { $0.depthBlur += 1 }), ("translationOpacity", { $0.translationOpacity += 0.01 }),
            ("artistOpacity", { $0.artistOpacity += 0.01 }), ("before", { $0.before += 1 }), ("after", { $0.after += 1 }),
            ("alignment", { $0.alignment = $0.alignment == .left ? .center : .left }), ("margin", { $0.margin += 1 }), ("shadowRadius", { $0.shadowRadius += 1 }),
            ("shadowOpacity", { $0.shadowOpacity += 0.01 }), ("showTitle", { $0.showTitle.toggle() }),
            ("showArtist", { $0.showArtist.toggle() }), ("showAlbum", { $0.showAlbum.toggle() }),
            ("showProgress", { $0.showProgress.toggle() }), ("lineProgressFill", { $0.lineProgressFill.toggle() }),
            ("writing", { $0.writing = $0.writing == .vertical ? .horizontal : .vertical }),
        ]
        XCTAssertEqual(Set(changes.map(\.0)), Set(Mirror(reflecting: Theme.card).children.compactMap(\.label)),
                       "a field with no change here")
        let base = Theme.card
        for (label, change) in changes {
            var changed = base
            change(&changed)
            XCTAssertNotEqual(changed, base, "\(label): the change changed nothing")
            XCTAssertNotEqual(changed.keyText, base.keyText, "\(label) is not in the key")
        }
        // A string holding what would be the next field's text still reads apart from it.
        var a = base, b = base
        a.name = "x;description=1:y"
        a.description = "z"
        b.name = "x"
        b.description = "y;description=1:z"
        XCTAssertNotEqual(a.keyText, b.keyText)
        XCTAssertEqual(Set(Theme.builtIn.map(\.keyText)).count, Theme.builtIn.count)
    }
}
