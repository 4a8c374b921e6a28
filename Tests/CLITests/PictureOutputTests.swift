import Foundation
import XCTest

/// One picture out (`frame`, `card`) as a user of ImageMagick or resvg expects: `-` is standard
/// output, the extension picks the format (PNG, JPEG, WebP), unknown extensions are refused.
final class PictureOutputTests: CLITestCase {
    /// Runs and returns standard output as bytes (a picture), with the status and stderr.
    func runBinary(_ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
        let (process, out, err) = try start(arguments)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, data, error)
    }

    var inputs: [String] { [cover, lyrics, "--at", "14", "--size", "270x480"] }

    func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    func testDashIsStandardOutput() throws {
        let file = temp("a.png")
        XCTAssertEqual(try run(["frame"] + inputs + ["-o", file]).status, 0)
        let piped = try runBinary(["frame"] + inputs + ["-o", "-"])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual([UInt8](piped.stdout), try bytes(file), "the same PNG on standard output, and nothing else there")
        XCTAssertFalse(FileManager.default.fileExists(atPath: Self.package.path + "/-"), "no file named -")
        // The report on standard output, the picture in its file.
        let report = try run(["frame"] + inputs + ["-o", temp("b.png"), "--report", "-"])
        XCTAssertEqual(report.status, 0, report.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        XCTAssertNotNil(json["boxes"])
        XCTAssertEqual(try bytes(temp("b.png")), try bytes(file))
        for (arguments, message) in [
            (["-o", "-", "--report", "-"], "-o - and --report - cannot both go to standard output"),
            (["-o", "-", "--open"], "--open needs a file"),
        ] {
            let result = try run(["frame"] + inputs + arguments)
            XCTAssertEqual(result.status, 64)
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
        }
    }

    /// Batch commands' `--report -` is the manifest on standard output (no file named -), and
    /// lyrics from standard input with no -o name the picture after the cover and the instant.
    func testBatchReportsToStandardOutputAndLyricsFromStandardInput() throws {
        let folder = temp("lines")
        let result = try run(["lines", cover, lyrics, "-o", folder, "--report", "-", "--size", "90x160"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(manifest["kind"] as? String, "lines")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.json")), Data(result.stdout.utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.path + "/-"))

        let lrc = Self.package.path + "/" + lyrics
        let piped = try run(["-c", "cd '\(work.path)' && exec '\(Self.binary.path)' frame '\(Self.package.path)/\(cover)' - --at 10 < '\(lrc)'"], executable: "/bin/sh")
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stdout, "cover-00m10s.png\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.path + "/cover-00m10s.png"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.path + "/-.png"))
    }

    func testTheExtensionPicksTheFormat() throws {
        let jpeg = temp("a.jpg"), small = temp("small.jpeg"), webp = temp("a.webp"), clear = temp("clear.webp")
        for (out, extra) in [(jpeg, [String]()), (small, ["--quality", "40"]), (webp, []), (clear, ["--alpha"])] {
            let result = try run(["frame"] + inputs + ["-o", out] + extra)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stdout, out + "\n")
        }
        XCTAssertEqual(Array(try bytes(jpeg).prefix(3)), [0xFF, 0xD8, 0xFF], "JPEG")
        XCTAssertLessThan(try bytes(small).count, try bytes(jpeg).count, "--quality 40 is smaller than the default 90")
        for path in [webp, clear] {
            let b = try bytes(path)
            XCTAssertEqual(Array(b[0..<4]), Array("RIFF".utf8))
            XCTAssertEqual(Array(b[8..<12]), Array("WEBP".utf8))
        }
        XCTAssertEqual(Array(try bytes(clear)[12..<16]), Array("VP8X".utf8), "the extended WebP that carries alpha")
        XCTAssertTrue(try bytes(clear).windows(of: 4).contains(Array("ALPH".utf8)), "an alpha chunk")
        // Decoded by ffmpeg: the size asked for; the transparent one transparent at the corner.
        let decoded = [UInt8](try tool("ffmpeg", ["-v", "error", "-i", clear, "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"]).stdout)
        XCTAssertEqual(decoded.count, 270 * 480 * 4)
        XCTAssertEqual(decoded[3], 0)
        // Same inputs, same bytes.
        XCTAssertEqual(try run(["frame"] + inputs + ["-o", temp("again.jpg")]).status, 0)
        XCTAssertEqual(try bytes(temp("again.jpg")), try bytes(jpeg))
        // A card too.
        let card = try run(["card", cover, lyrics, "--lines", "1", "--size", "270x480", "-o", temp("card.webp")])
        XCTAssertEqual(card.status, 0, card.stderr)
    }

    func testFormatsItCannotWriteAreRefusedInOneLine() throws {
        for (arguments, message) in [
            (["-o", temp("a.bmp")], "-o: .bmp is not a picture format this tool writes (use .png, .jpg, .jpeg, .webp, or - for standard output)"),
            (["-o", temp("a.jpg"), "--alpha"], "--alpha needs .png or .webp: JPEG has no transparency"),
            (["-o", temp("a.png"), "--quality", "80"], "--quality applies to .jpg and .webp (PNG is lossless)"),
            (["-o", temp("a.jpg"), "--quality", "0"], "--quality must be from 1 to 100"),
        ] {
            let result = try run(["frame"] + inputs + arguments)
            XCTAssertEqual(result.status, 64, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
            XCTAssertEqual(try files(), [], "nothing written")
        }
    }
}

extension Array where Element == UInt8 {
    /// Every run of `n` consecutive bytes.
    func windows(of n: Int) -> [[UInt8]] {
        count < n ? [] : (0...(count - n)).map { Array(self[$0..<$0 + n]) }
    }
}
