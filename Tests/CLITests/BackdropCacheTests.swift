import Foundation
import XCTest

/// The backdrop cache between runs: a warm run gives the same bytes as a cold one, and a damaged
/// or truncated entry is ignored and rewritten, never trusted.
final class BackdropCacheTests: CLITestCase {
    func entries() throws -> [String] {
        let folder = cacheHome + "/lyricposter/backdrops"
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.map { folder + "/" + $0 }
    }

    func frame(_ name: String, environment: [String: String] = [:]) throws -> Data {
        let result = try run(["frame", cover, lyrics, "--at", "0:20", "-o", temp(name), "--size", "540x960"], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try Data(contentsOf: URL(fileURLWithPath: temp(name)))
    }

    func testWarmDamagedAndTruncatedEntriesGiveTheSameFrame() throws {
        let cold = try frame("cold.png")
        let stored = try entries()
        XCTAssertEqual(stored.count, 1, "one entry per cover, canvas and theme")
        let entry = try Data(contentsOf: URL(fileURLWithPath: stored[0]))
        XCTAssertEqual(try frame("warm.png"), cold)

        // A flipped byte in the middle of the pixels: the checksum refuses it, the backdrop is
        // prepared again, and the entry is rewritten whole.
        var damaged = entry
        damaged[damaged.count / 2] ^= 0xFF
        try damaged.write(to: URL(fileURLWithPath: stored[0]))
        XCTAssertEqual(try frame("damaged.png"), cold)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: stored[0])), entry)

        try entry.prefix(entry.count - 1000).write(to: URL(fileURLWithPath: stored[0]))
        XCTAssertEqual(try frame("truncated.png"), cold)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: stored[0])), entry)

        try Data().write(to: URL(fileURLWithPath: stored[0]))
        XCTAssertEqual(try frame("empty.png"), cold)

        // Another theme is another entry; turned off, nothing new is written.
        let other = try run(["frame", cover, lyrics, "--at", "0:20", "-o", temp("minimal.png"), "--size", "540x960", "--theme", "minimal"])
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertEqual(try entries().count, 2)
        let off = try run(["frame", cover, lyrics, "--at", "0:20", "-o", temp("off.png"), "--size", "540x960", "--theme", "classic"],
                          environment: ["LYRICPOSTER_NO_CACHE": "1"])
        XCTAssertEqual(off.status, 0, off.stderr)
        XCTAssertEqual(try entries().count, 2)
    }
}
