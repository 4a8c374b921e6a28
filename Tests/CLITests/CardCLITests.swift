import Foundation
import TestSupport
import XCTest

/// `lyricposter card`: files, report, exit codes and messages; `inspect --text` numbering.
final class CardCLITests: CLITestCase {
    func report(_ path: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    func testCardWritesTheChosenLinesWhole() throws {
        let out = temp("card.png"), json = temp("card.json")
        let result = try run(["card", cover, lyrics, "--lines", "4-6", "--preset", "feed", "-o", out, "--report", json])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, out + "\n")
        let png = try Data(contentsOf: URL(fileURLWithPath: out))
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        let r = try report(json)
        XCTAssertEqual(r["width"] as? Int, 1080)
        XCTAssertEqual(r["height"] as? Int, 1350)
        let boxes = try XCTUnwrap(r["boxes"] as? [[String: Any]])
        let quotes = boxes.filter { $0["role"] as? String == "quote" }
        XCTAssertEqual(quotes.compactMap { $0["text"] as? String }, [
            "And the highway hums it back beneath our feet",
            "So drive me through the night, don't tell me where we're going",
            "Keep the windows down and let the neon do the talking",
        ])
        for quote in quotes {
            XCTAssertEqual(quote["cut"] as? Bool, false)
            XCTAssertGreaterThanOrEqual(quote["lines"] as? Int ?? 0, 1)
        }
        XCTAssertEqual(boxes.first { $0["role"] as? String == "title" }?["text"] as? String, "Night Drive")
        XCTAssertNotNil(boxes.first { $0["role"] as? String == "artist" })
        let contrasts = try XCTUnwrap(r["contrasts"] as? [String: Double])
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(contrasts["quote"]), 4.5)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(contrasts["artist"]), 3.0)
    }

    func testQuoteAndTimeChooseLikeNumbers() throws {
        let byNumber = temp("a.png"), byQuote = temp("b.png"), byTime = temp("c.png")
        XCTAssertEqual(try run(["card", cover, lyrics, "--lines", "4-5", "-o", byNumber]).status, 0)
        // Case, width and spacing ignored; from the end of line 4 into line 5.
        let quoted = try run(["card", cover, lyrics, "--quote", "BENEATH  our ｆｅｅｔ so drive", "-o", byQuote])
        XCTAssertEqual(quoted.status, 0, quoted.stderr)
        XCTAssertEqual(try run(["card", cover, lyrics, "--at", "0:25", "--count", "2", "-o", byTime]).status, 0)
        let a = try Data(contentsOf: URL(fileURLWithPath: byNumber))
        XCTAssertEqual(a, try Data(contentsOf: URL(fileURLWithPath: byQuote)))
        XCTAssertEqual(a, try Data(contentsOf: URL(fileURLWithPath: byTime)))
    }

    func testEveryThemeAndCardPresetRenders() throws {
        let presets = ["lockscreen", "feed", "square", "landscape"]
        for (t, theme) in ["card", "classic", "immersive", "minimal", "block"].enumerated() {
            // Under ThreadSanitizer each theme with one preset (every preset met): the threads of
            // a card are the same whatever it draws.
            for preset in Sanitizers.thread ? [presets[t % presets.count]] : presets {
                let out = temp("\(theme)-\(preset).png")
                let result = try run(["card", cover, lyrics, "--lines", "5-7", "--theme", theme, "--preset", preset, "-o", out])
                XCTAssertEqual(result.status, 0, "\(theme) \(preset): \(result.stderr)")
            }
        }
    }

    func testBadChoicesFailWithOneLineAndWriteNothing() throws {
        let out = temp("never.png")
        let cases: [([String], Int32, String)] = [
            (["--lines", "40-45"], 1, "night-drive.lrc: --lines 40-45: the lyrics have 26 lines"),
            (["--lines", "5-2"], 64, "--lines must be"),
            (["--lines", "1-9"], 64, "a card takes at most 8"),
            ([], 64, "choose the lines"),
            (["--lines", "2", "--quote", "night"], 64, "one way"),
            (["--count", "3"], 64, "choose the lines"),
            (["--at", "0:30", "--count", "9"], 64, "--count must be from 1 to 8"),
            (["--quote", "xyzzy plugh"], 1, "no line contains \"xyzzy plugh\"; the closest is line"),
            (["--quote", "   "], 64, "--quote needs some text"),
            (["--at", "9:00"], 1, "no line is sung at or after that time"),
        ]
        for (arguments, status, message) in cases {
            let result = try run(["card", cover, lyrics] + arguments + ["-o", out])
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): '\(result.stderr)' lacks '\(message)'")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "\(arguments) wrote a file")
        }
        // Input errors are one line.
        let input = try run(["card", cover, lyrics, "--lines", "40-45", "-o", out])
        XCTAssertEqual(input.stderr.split(separator: "\n").count, 1, input.stderr)
    }

    func testAChoiceThatCannotFitIsRefused() throws {
        let long = (0..<8).map { String(format: "[00:%02d.00]", $0 * 5) + String(repeating: "a long line of many words that wraps ", count: 6) }
        let path = try write(long.joined(separator: "\n") + "\n", to: "long.lrc")
        let out = temp("long.png")
        let result = try run(["card", cover, path, "--lines", "1-8", "--preset", "landscape", "-o", out])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("do not fit a 1920×1080 card whole"), result.stderr)
        XCTAssertTrue(result.stderr.contains("choose fewer lines or a taller preset"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testInspectNumbersSungLinesOnly() throws {
        let path = try write("[00:01.00]one\n[00:02.00]\n[00:03.00]two\n", to: "gap.lrc")
        let table = try run(["inspect", "--text", path])
        XCTAssertEqual(table.status, 0)
        let rows = table.stdout.split(separator: "\n").filter { $0.contains("00:0") }
        XCTAssertEqual(rows.count, 3)
        XCTAssertTrue(rows[0].hasPrefix("1  "), String(rows[0]))
        XCTAssertTrue(rows[1].hasPrefix("   "), String(rows[1]))
        XCTAssertTrue(rows[2].hasPrefix("2  "), String(rows[2]))
    }

    func testUntitledSongsAreNamedAfterTheirFile() throws {
        let path = try write("[00:01.00]one line\n[00:04.00]another\n", to: "Quiet Hours.lrc")
        let json = temp("untitled.json")
        XCTAssertEqual(try run(["card", cover, path, "--lines", "1", "-o", temp("u.png"), "--report", json]).status, 0)
        let boxes = try XCTUnwrap(try report(json)["boxes"] as? [[String: Any]])
        XCTAssertEqual(boxes.first { $0["role"] as? String == "title" }?["text"] as? String, "Quiet Hours")
    }
}
