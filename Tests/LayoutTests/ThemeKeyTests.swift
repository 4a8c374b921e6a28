import Foundation
import PosterGraphics
@testable import LyricPoster
import XCTest

/// The theme's part of a backdrop's cache key is spelled out field by field (not described by
/// reflection): it must name every stored property, and tell apart themes that differ anywhere.
final class ThemeKeyTests: XCTestCase {
    func testKeyNamesEveryStoredPropertyInOrder() {
        for theme in Theme.builtIn {
            let labels = Mirror(reflecting: theme).children.compactMap(\.label)
            XCTAssertEqual(theme.keyFields.map(\.label), labels,
                           "Theme gained or lost a stored property: spell it out in Theme.keyFields")
        }
    }

    func testKeyValuesAgreeWithTheFields() {
        for theme in Theme.builtIn {
            let values = Dictionary(uniqueKeysWithValues: theme.keyFields.map { ($0.label, $0.value) })
            for child in Mirror(reflecting: theme).children {
                guard let label = child.label, let value = values[label] else { continue }
                switch child.value {
                case let d as Double: XCTAssertEqual(value, "\(d)", label)
                case let i as Int: XCTAssertEqual(value, "\(i)", label)
                case let b as Bool: XCTAssertEqual(value, "\(b)", label)
                case let s as String: XCTAssertEqual(value, "\(s.utf8.count):\(s)", label)
                case let a as [Double]: XCTAssertEqual(value, a.map { "\($0)" }.joined(separator: ","), label)
                default: XCTAssertFalse(value.isEmpty, label)
                }
            }
        }
    }

    func testThemesThatDifferAnywhereHaveDifferentKeys() {
        let base = Theme.card
        var changed: [Theme] = []
        func with(_ change: (inout Theme) -> Void) { var t = base; change(&t); changed.append(t) }
        with { $0.name = "card2" }
        with { $0.description += "." }
        with { $0.layout = .minimal }
        with { $0.background = .gradient }
        with { $0.backgroundBlur += 0.5 }
        with { $0.scheme = .light }
        with { $0.accentFallback = Color(red: 1, green: 0, blue: 0) }
        with { $0.scrim = [0.05, 0.12, 0.31] }
        with { $0.card.toggle() }
        with { $0.currentWeight = 600 }
        with { $0.fontFamily = "Noto Serif" }
        with { $0.textColor = Color(red: 0.9, green: 0.9, blue: 0.9) }
        with { $0.accentColor = Color(red: 1, green: 0.8, blue: 0.5) }
        with { $0.alignment = .left }
        with { $0.before += 1 }
        with { $0.shadowOpacity += 0.01 }
        with { $0.showProgress.toggle() }
        with { $0.lineProgressFill.toggle() }
        // A string holding what would be the next field's text still reads apart from it.
        var a = base, b = base
        a.name = "x;description=1:y"
        a.description = "z"
        b.name = "x"
        b.description = "y;description=1:z"
        changed += [a, b]
        let keys = [base.keyText] + changed.map(\.keyText)
        XCTAssertEqual(Set(keys).count, keys.count, "two different themes share a key")
        XCTAssertEqual(Set(Theme.builtIn.map(\.keyText)).count, Theme.builtIn.count)
    }
}
