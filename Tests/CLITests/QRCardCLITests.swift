import Foundation
import TestSupport
import XCTest

/// `card --qr URL`: a QR code in a corner no text is in, read back by an outside decoder
/// (zbarimg), in every theme and card preset; and refused when no corner is free.
final class QRCardCLITests: CLITestCase {
    struct Box { var role: String; var x, y, width, height: Double
        var maxX: Double { x + width }
        var maxY: Double { y + height }
        func intersects(_ o: Box) -> Bool { x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY }
    }

    func boxes(_ json: String) throws -> (qr: Box?, text: [Box]) {
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        func box(_ b: [String: Any]) -> Box {
            Box(role: b["role"] as? String ?? "", x: b["x"] as? Double ?? 0, y: b["y"] as? Double ?? 0,
                width: b["width"] as? Double ?? 0, height: b["height"] as? Double ?? 0)
        }
        return ((report["qr"] as? [String: Any]).map(box), (report["boxes"] as? [[String: Any]] ?? []).map(box))
    }

    /// The text zbarimg reads from `png`, or a skip when it is not installed.
    func decoded(_ png: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg") else {
            throw XCTSkip("SKIPPED LOUDLY: zbarimg (zbar-tools) is not installed; make test installs it")
        }
        let read = try tool("zbarimg", ["-q", "--raw", png])
        return String(decoding: read.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testTheCodeReadsBackAndNeverCoversText() throws {
        let url = "https://example.org/songs/night-drive?line=4"
        let themes = Sanitizers.active ? ["card", "block"] : ["card", "classic", "immersive", "minimal", "block", "paper"]
        for theme in themes {
            for preset in ["feed", "story", "square", "landscape"] {
                let out = temp("\(theme)-\(preset).png"), json = temp("\(theme)-\(preset).json")
                let result = try run(["card", cover, lyrics, "--lines", "4-6", "--theme", theme, "--preset", preset, "--qr", url,
                                      "-o", out, "--report", json])
                XCTAssertEqual(result.status, 0, "\(theme) \(preset): \(result.stderr)")
                let (qr, text) = try boxes(json)
                let code = try XCTUnwrap(qr, "\(theme) \(preset): a qr box in the report")
                XCTAssertEqual(code.width, code.height)
                for block in text { XCTAssertFalse(block.intersects(code), "\(theme) \(preset): \(block.role) under the QR code") }
                XCTAssertEqual(try decoded(out), url, "\(theme) \(preset)")
            }
        }
    }

    func testAnEInkCardsCodeReadsBack() throws {
        let out = temp("eink.png")
        let result = try run(["card", cover, lyrics, "--lines", "4-5", "--panel", "inky-impression-7.3", "--qr", "https://example.org/x", "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try decoded(out), "https://example.org/x")
    }

    func testMistakes() throws {
        let out = temp("never.png")
        let long = "https://example.org/" + String(repeating: "a", count: 600)
        for (arguments, status, message) in [(["--lines", "4", "--qr", ""], 64 as Int32, "--qr: nothing to encode"),
                                             (["--lines", "4", "--qr", long], 64, "more than the 512 a QR code on a card holds"),
                                             (["--lines", "1-8", "--theme", "paper", "--preset", "square", "--qr", "https://example.org"], 1,
                                              "the QR code finds no corner of the 1080×1080 card free of the chosen lines")] {
            let result = try run(["card", cover, lyrics] + arguments + ["-o", out])
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): '\(result.stderr)' lacks '\(message)'")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        }
    }
}
