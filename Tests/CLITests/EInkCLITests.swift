import Foundation
import TestSupport
import XCTest

/// `--palette` and `--panel` on `frame` and `card`: indexed PNGs of the panel's colours, read
/// back by an outside decoder (ffmpeg), and the options' mistakes.
final class EInkCLITests: CLITestCase {
    struct Header { var width: Int; var height: Int; var depth: Int; var colourType: Int; var palette: [[UInt8]] }

    /// IHDR and PLTE, read from the bytes.
    func header(_ path: String) throws -> Header {
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func u32(_ i: Int) -> Int { png[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        var palette: [[UInt8]] = []
        var at = 8
        while at + 8 <= png.count {
            let length = u32(at), type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            if type == "PLTE" {
                palette = stride(from: at + 8, to: at + 8 + length, by: 3).map { Array(png[$0..<($0 + 3)]) }
            }
            at += 12 + length
        }
        return Header(width: u32(16), height: u32(20), depth: Int(png[24]), colourType: Int(png[25]), palette: palette)
    }

    /// Every pixel as RGB, decoded by ffmpeg.
    func pixels(_ path: String) throws -> [UInt8] {
        let decoded = try tool("ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        XCTAssertEqual(decoded.status, 0, decoded.stderr)
        return Array(decoded.stdout)
    }

    func testEveryPaletteWritesAnIndexedPNGOfItsColours() throws {
        let expected: [(String, Int, Int)] = [("inky7", 7, 4), ("spectra6", 6, 4), ("gray4", 4, 2), ("mono", 2, 1)]
        for (name, colours, depth) in expected {
            let out = temp("\(name).png")
            let result = try run(["frame", cover, lyrics, "--at", "0:30", "--palette", name, "--size", "400x240", "-o", out])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            let h = try header(out)
            XCTAssertEqual(h.colourType, 3, "\(name): a palette PNG")
            XCTAssertEqual(h.depth, depth, name)
            XCTAssertEqual(h.palette.count, colours, name)
            XCTAssertEqual([h.width, h.height], [400, 240])
            let allowed = Set(h.palette)
            let rgb = try pixels(out)
            XCTAssertEqual(rgb.count, 400 * 240 * 3)
            let outside = stride(from: 0, to: rgb.count, by: 3).filter { !allowed.contains(Array(rgb[$0..<($0 + 3)])) }.count
            XCTAssertEqual(outside, 0, "\(name): every pixel is one of the palette's colours")
            let used = Set(stride(from: 0, to: rgb.count, by: 3).map { Array(rgb[$0..<($0 + 3)]) })
            XCTAssertGreaterThanOrEqual(used.count, min(colours, 3), "\(name): the cover is dithered into several colours")
        }
    }

    func testPanelsSetTheirSizeAndColours() throws {
        for (panel, width, height, depth) in [("inky-impression-5.7", 600, 448, 4), ("inky-impression-4", 640, 400, 4),
                                              ("waveshare-7.5", 800, 480, 1), ("spectra6-13.3", 1600, 1200, 4)] {
            let out = temp("\(panel).png")
            let result = try run(["frame", cover, lyrics, "--at", "0:30", "--panel", panel, "-o", out])
            XCTAssertEqual(result.status, 0, "\(panel): \(result.stderr)")
            let h = try header(out)
            XCTAssertEqual([h.width, h.height, h.depth], [width, height, depth], panel)
        }
        // A card on a panel, and a palette that overrides the panel's.
        let card = temp("card.png")
        XCTAssertEqual(try run(["card", cover, lyrics, "--lines", "4-5", "--panel", "inky-impression-7.3", "--palette", "gray4", "-o", card]).status, 0)
        let h = try header(card)
        XCTAssertEqual([h.width, h.height, h.depth, h.palette.count], [800, 480, 2, 4])
    }

    func testAPaletteFileOfYourOwn() throws {
        let file = try write("# my three inks\n#000000\n#FFFFFF\n200, 30, 30  // red\n", to: "three.txt")
        let out = temp("three.png")
        let result = try run(["frame", cover, lyrics, "--at", "0:30", "--palette", file, "--size", "400x240", "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        let h = try header(out)
        XCTAssertEqual(h.palette, [[0, 0, 0], [255, 255, 255], [200, 30, 30]])
        XCTAssertEqual(h.depth, 2)
    }

    func testMistakesFailWithOneLineAndWriteNothing() throws {
        let out = temp("never.png")
        let bad = try write("#000000\n#GGGGGG\n", to: "bad.txt")
        let one = try write("#000000\n", to: "one.txt")
        let cases: [([String], Int32, String)] = [
            (["--palette", "rainbow"], 64, "--palette rainbow: no such file"),
            (["--panel", "kindle"], 64, "unknown panel 'kindle'"),
            (["--panel", "waveshare-7.5", "--preset", "square"], 64, "--panel sets the canvas"),
            (["--palette", "mono", "--alpha"], 64, "--alpha and --palette cannot be used together"),
            (["--palette", bad], 1, "bad.txt: "),
            (["--palette", one], 1, "one.txt: "),
        ]
        for (arguments, status, message) in cases {
            let result = try run(["frame", cover, lyrics, "--at", "0:30"] + arguments + ["-o", out])
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): '\(result.stderr)' lacks '\(message)'")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "\(arguments) wrote a file")
        }
        let jpeg = try run(["frame", cover, lyrics, "--at", "0:30", "--palette", "mono", "-o", temp("never.jpg")])
        XCTAssertEqual(jpeg.status, 64)
        XCTAssertTrue(jpeg.stderr.contains("give -o a .png name"), jpeg.stderr)
    }
}
