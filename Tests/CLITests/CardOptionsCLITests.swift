import Foundation
import TestSupport
import XCTest

/// The card's own options: lines that skip (`--lines 3,7-8` and its "…" row), `--align`,
/// `--scale` and `--max-lines`, by the report's boxes.
final class CardOptionsCLITests: CLITestCase {
    struct Box { var role: String; var text: String; var x, y, width, height, size: Double }

    func boxes(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> (width: Int, boxes: [Box]) {
        let out = temp("card-\(UUID().uuidString).png"), json = temp("card-\(UUID().uuidString).json")
        let result = try run(["card", cover, lyrics] + arguments + ["-o", out, "--report", json])
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let list = try XCTUnwrap(object["boxes"] as? [[String: Any]])
        let made = list.map { b in
            Box(role: b["role"] as? String ?? "", text: b["text"] as? String ?? "", x: b["x"] as? Double ?? 0, y: b["y"] as? Double ?? 0,
                width: b["width"] as? Double ?? 0, height: b["height"] as? Double ?? 0, size: b["font_size"] as? Double ?? 0)
        }
        return (object["width"] as? Int ?? 0, made)
    }

    func testSkippedLinesAreMarkedWithAnEllipsisRow() throws {
        let card = try boxes(["--lines", "3,7-8"]).boxes
        let rows = card.filter { $0.role == "quote" || $0.role == "ellipsis" }.sorted { $0.y < $1.y }
        XCTAssertEqual(rows.map(\.role), ["quote", "ellipsis", "quote", "quote"])
        XCTAssertEqual(rows.map(\.text), ["The radio is humming in a key we never learned", "…",
                                          "Every mile a little brighter, every exit left behind",
                                          "Gas station halos floating in the rearview mirror"])
        for (a, b) in zip(rows, rows.dropFirst()) {
            XCTAssertLessThanOrEqual(a.y + a.height, b.y + 0.5, "\(a.text) and \(b.text) overlap")
        }
        // Consecutive numbers, a quote and a time never skip.
        XCTAssertFalse(try boxes(["--lines", "3-5"]).boxes.contains { $0.role == "ellipsis" })
        XCTAssertFalse(try boxes(["--lines", "3,4,5"]).boxes.contains { $0.role == "ellipsis" })
        XCTAssertEqual(try boxes(["--lines", "1,3,5"]).boxes.filter { $0.role == "ellipsis" }.count, 2)
    }

    func testAlignPutsTheLinesOnTheirSide() throws {
        for side in ["left", "center", "right"] {
            let (width, card) = try boxes(["--lines", "4-6", "--align", side, "--preset", "feed"])
            let quotes = card.filter { $0.role == "quote" }
            XCTAssertEqual(quotes.count, 3)
            let lefts = quotes.map(\.x), rights = quotes.map { $0.x + $0.width }, centres = quotes.map { $0.x + $0.width / 2 }
            func spread(_ v: [Double]) -> Double { (v.max() ?? 0) - (v.min() ?? 0) }
            switch side {
            case "left":
                XCTAssertLessThanOrEqual(spread(lefts), 1.5, "left edges \(lefts)")
                XCTAssertGreaterThan(spread(rights), 20, "ragged right \(rights)")
            case "right":
                XCTAssertLessThanOrEqual(spread(rights), 1.5, "right edges \(rights)")
                XCTAssertGreaterThan(spread(lefts), 20, "ragged left \(lefts)")
                XCTAssertGreaterThan(rights[0], Double(width) * 0.8)
            default:
                XCTAssertLessThanOrEqual(spread(centres), 1.5, "centres \(centres)")
                XCTAssertEqual(centres[0], Double(width) / 2, accuracy: 2)
            }
        }
    }

    func testScaleDrawsTheSameCardWithMorePixels() throws {
        let (one, small) = try boxes(["--lines", "4-5", "--preset", "square"])
        let (two, large) = try boxes(["--lines", "4-5", "--preset", "square", "--scale", "2"])
        XCTAssertEqual(one, 1080)
        XCTAssertEqual(two, 2160)
        XCTAssertEqual(small.map(\.role), large.map(\.role))
        for (a, b) in zip(small, large) {
            XCTAssertEqual(b.size, 2 * a.size, accuracy: 2, "\(a.role) size")
            XCTAssertEqual(b.x, 2 * a.x, accuracy: 4, "\(a.role) x")
            XCTAssertEqual(b.y, 2 * a.y, accuracy: 4, "\(a.role) y")
            XCTAssertEqual(b.width, 2 * a.width, accuracy: 0.04 * b.width + 4, "\(a.role) width")
        }
    }

    func testMaxLinesRaisesAndLowersTheCap() throws {
        XCTAssertEqual(try boxes(["--lines", "1-9", "--max-lines", "9"]).boxes.filter { $0.role == "quote" }.count, 9)
        let out = temp("never.png")
        let cases: [([String], Int32, String)] = [
            (["--lines", "1-9"], 64, "a card takes at most 8 (--max-lines allows up to 16)"),
            (["--lines", "1-4", "--max-lines", "3"], 64, "a card takes at most 3"),
            (["--lines", "1", "--max-lines", "17"], 64, "--max-lines must be from 1 to 16"),
            (["--at", "0:20", "--count", "4", "--max-lines", "3"], 64, "--count must be from 1 to 3"),
            // A quote running over three lines, where two are allowed.
            (["--quote", "learned and the highway hums it back beneath our feet so drive", "--max-lines", "2"], 1,
             "the choice spans 3 lines, more than the 2 a card takes"),
            (["--lines", "3", "--align", "middle"], 64, "--align must be left, center or right"),
            (["--lines", "3", "--align", "auto"], 64, "--align must be left, center or right"),
            (["--lines", "3", "--scale", "4"], 64, "--scale must be 1, 2 or 3"),
            (["--lines", "5,3"], 64, "--lines must be"),
            (["--lines", "3,3-4"], 64, "--lines must be"),
            (["--lines", "3,"], 64, "--lines must be"),
            (["--lines", "3,30-31"], 1, "--lines 30-31: the lyrics have 26 lines"),
        ]
        for (arguments, status, message) in cases {
            let result = try run(["card", cover, lyrics] + arguments + ["-o", out])
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): '\(result.stderr)' lacks '\(message)'")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "\(arguments) wrote a file")
        }
    }

    func testACoverOnlyCardForASongWithoutLyrics() throws {
        // A song with tags and a folder cover, and no lyrics anywhere.
        let folder = temp("quiet")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let audio = folder + "/song.mp3"
        let made = try tool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=1", "-metadata", "title=Quiet Harbour",
                                       "-metadata", "artist=Nobody Sings", audio])
        XCTAssertEqual(made.status, 0, made.stderr)
        try FileManager.default.copyItem(atPath: cover, toPath: folder + "/cover.jpg")
        let refused = try run(["card", audio, "--lines", "1", "-o", temp("never.png")])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("no lyrics"), refused.stderr)
        for theme in ["card", "classic", "immersive", "minimal", "block", "paper"] {
            let out = temp("cover-\(theme).png"), json = temp("cover-\(theme).json")
            let result = try run(["card", audio, "--cover-only", "--theme", theme, "-o", out, "--report", json])
            XCTAssertEqual(result.status, 0, "\(theme): \(result.stderr)")
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
            let roles = (object["boxes"] as? [[String: Any]] ?? []).compactMap { $0["role"] as? String }
            XCTAssertFalse(roles.contains { ["quote", "current", "previous", "next", "ellipsis"].contains($0) }, "\(theme): no lyric line: \(roles)")
            if theme != "classic" {
                let texts = (object["boxes"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
                XCTAssertTrue(texts.contains("Quiet Harbour"), "\(theme): the title from the tags: \(texts)")
            }
        }
        // A song that has lyrics shows none of them; an e-ink cover card; choices do not mix.
        let withLyrics = try run(["card", cover, lyrics, "--cover-only", "--panel", "waveshare-7.5", "-o", temp("eink.png")])
        XCTAssertEqual(withLyrics.status, 0, withLyrics.stderr)
        let mixed = try run(["card", audio, "--cover-only", "--lines", "1", "-o", temp("never.png")])
        XCTAssertEqual(mixed.status, 64)
        XCTAssertTrue(mixed.stderr.contains("--cover-only shows no lines"), mixed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp("never.png")))
    }
}
