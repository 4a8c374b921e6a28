import Foundation
import TestSupport
import XCTest

/// `--writing`: columns from the command line and from a theme file, `auto`, and bad values.
final class WritingCLITests: CLITestCase {
    static let chinese = "[ti:纸灯笼]\n[00:01.00]河边的纸灯笼一盏一盏亮起来\n[00:04.00]风把你的名字吹得很轻\n[00:08.00]我在桥上数着水里的星星\n"

    func current(_ arguments: [String], lrc: String = chinese) throws -> (width: Double, height: Double) {
        let path = try write(lrc, to: "song-\(UUID().uuidString).lrc")
        let json = temp("\(UUID().uuidString).json")
        let result = try run(["frame", cover, path, "--at", "0:05"] + arguments + ["-o", temp("\(UUID().uuidString).png"), "--report", json])
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let box = try XCTUnwrap((report["boxes"] as? [[String: Any]])?.first { $0["role"] as? String == "current" })
        return (box["width"] as? Double ?? 0, box["height"] as? Double ?? 0)
    }

    func testColumnsByFlagThemeFileAndAuto() throws {
        let rows = try current([])
        XCTAssertGreaterThan(rows.width, rows.height, "rows by default")
        let columns = try current(["--writing", "vertical"])
        XCTAssertGreaterThan(columns.height, 3 * columns.width, "a column: \(columns)")
        let theme = try write(#"{"base": "minimal", "writing": "vertical"}"#, to: "vertical.json")
        let themed = try current(["--theme", theme])
        XCTAssertGreaterThan(themed.height, themed.width, "the theme file's columns: \(themed)")
        XCTAssertGreaterThan(try current(["--writing", "auto"]).height, 3 * 40, "auto: Chinese alone on a portrait canvas")
        let landscape = try current(["--writing", "auto", "--preset", "landscape"])
        XCTAssertGreaterThan(landscape.width, landscape.height, "auto: rows on a landscape canvas")
        let mixed = try current(["--writing", "auto"], lrc: Self.chinese + "[00:12.00]听着Radio到天亮\n")
        XCTAssertGreaterThan(mixed.width, mixed.height, "auto: rows for lyrics with a Latin word")
    }

    func testABadValueIsAFlagError() throws {
        let result = try run(["frame", cover, lyrics, "--at", "0:05", "--writing", "diagonal", "-o", temp("never.png")])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("--writing must be horizontal, vertical or auto"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp("never.png")))
    }
}
