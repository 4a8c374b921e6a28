import Foundation
import TestSupport
import XCTest

/// `--background`: a picture of your own behind the lyrics (its orientation honoured, legible,
/// never overwritten), and the backdrop styles by name.
final class BackgroundCLITests: CLITestCase {
    /// The poster's pixels as RGB rows, read back by ffmpeg (an outside decoder).
    func pixels(_ png: String) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let probe = try tool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", png])
        let size = String(decoding: probe.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        let width = Int(size.first ?? "") ?? 0, height = Int(size.last ?? "") ?? 0
        let decoded = try tool("ffmpeg", ["-v", "error", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        XCTAssertEqual(decoded.status, 0, decoded.stderr)
        return (width, height, Array(decoded.stdout))
    }

    func testAPictureOfYourOwnStandsUprightBehindTheLyrics() throws {
        // exif-orient-6.jpg is stored turned; upright it is red at the top left, green at the top
        // right, blue at the bottom left (the decoder's tests say so).
        let picture = fixture("exif-orient-6.jpg")
        let out = temp("photo.png"), json = temp("photo.json")
        let result = try run(["frame", cover, lyrics, "--at", "0:30", "--background", picture, "--theme", "immersive",
                              "--preset", "square", "-o", out, "--report", json])
        XCTAssertEqual(result.status, 0, result.stderr)
        let (w, h, rgb) = try pixels(out)
        XCTAssertEqual(w, 1080)
        func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let i = (y * w + x) * 3
            return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
        }
        let topLeft = pixel(40, 20), topRight = pixel(w - 40, 20)
        XCTAssertGreaterThan(topLeft.0, topLeft.1 + 40, "red at the top left: \(topLeft)")
        XCTAssertGreaterThan(topRight.1, topRight.0 + 40, "green at the top right: \(topRight)")
        XCTAssertEqual(h, 1080)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let contrasts = try XCTUnwrap(report["contrasts"] as? [String: Double])
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(contrasts["current"]), 4.5)
        for (role, value) in contrasts where role != "current" { XCTAssertGreaterThanOrEqual(value, 3.0, role) }
    }

    func testABusyPictureKeepsEveryLineLegibleInEveryTheme() throws {
        let busy = temp("busy.png")
        // testsrc2 is ffmpeg's busy colour test picture: bars, a gradient, moving text.
        let made = try tool("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=800x800", "-frames:v", "1", busy])
        XCTAssertEqual(made.status, 0, made.stderr)
        for theme in ["card", "classic", "immersive", "minimal", "block"] {
            let json = temp("\(theme).json")
            let result = try run(["frame", cover, lyrics, "--at", "0:30", "--background", busy, "--theme", theme, "-o", temp("\(theme).png"),
                                  "--report", json])
            XCTAssertEqual(result.status, 0, "\(theme): \(result.stderr)")
            let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
            let contrasts = try XCTUnwrap(report["contrasts"] as? [String: Double])
            XCTAssertGreaterThanOrEqual(try XCTUnwrap(contrasts["current"]), 4.5, theme)
            for (role, value) in contrasts where role != "current" { XCTAssertGreaterThanOrEqual(value, 3.0, "\(theme) \(role)") }
        }
        // A card too.
        XCTAssertEqual(try run(["card", cover, lyrics, "--lines", "4-5", "--background", busy, "-o", temp("card.png")]).status, 0)
    }

    func testStylesByNameDiffer() throws {
        var digests: [String: String] = [:]
        for style in ["cover", "photo", "solid", "gradient"] {
            let out = temp("\(style).png")
            let result = try run(["frame", cover, lyrics, "--at", "0:30", "--background", style, "--preset", "square", "-o", out])
            XCTAssertEqual(result.status, 0, "\(style): \(result.stderr)")
            digests[style] = try sha256(out)
        }
        XCTAssertEqual(Set(digests.values).count, 4, "\(digests)")
        // The card theme's own backdrop is the blurred cover.
        let plain = temp("plain.png")
        XCTAssertEqual(try run(["frame", cover, lyrics, "--at", "0:30", "--preset", "square", "-o", plain]).status, 0)
        XCTAssertEqual(try sha256(plain), digests["cover"])
    }

    func testBadPicturesFailWithOneLineAndNothingIsLost() throws {
        let out = temp("never.png")
        let missing = try run(["frame", cover, lyrics, "--at", "0:30", "--background", temp("nowhere.png"), "-o", out])
        XCTAssertEqual(missing.status, 64, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("no such file; a picture, or one of cover, photo, solid, gradient"), missing.stderr)
        let broken = try write("not a picture at all", to: "broken.png")
        let bad = try run(["frame", cover, lyrics, "--at", "0:30", "--background", broken, "-o", out])
        XCTAssertEqual(bad.status, 1, bad.stderr)
        XCTAssertTrue(bad.stderr.hasPrefix("error: \(broken): "), bad.stderr)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        // The picture is an input: writing over it is refused, and it is left as it was.
        let picture = temp("mine.jpg")
        try FileManager.default.copyItem(atPath: fixture("baseline.jpg"), toPath: picture)
        let before = try sha256(picture)
        let over = try run(["frame", cover, lyrics, "--at", "0:30", "--background", picture, "-o", picture])
        XCTAssertNotEqual(over.status, 0)
        XCTAssertEqual(try sha256(picture), before)
    }
}
