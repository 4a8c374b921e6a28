import Foundation
import LyricPoster
import SongSources
import LyricsCore
import PosterGraphics
import XCTest

/// The backdrop cache between runs: a warm run gives the same bytes as a cold one, and a damaged
/// or truncated entry is ignored and rewritten, never trusted.
final class BackdropCacheTests: CLITestCase {
    func entries() throws -> [String] {
        let folder = cacheHome + "/lyricposter/backdrops"
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.map { folder + "/" + $0 }
    }

    func frame(_ name: String, environment: [String: String] = [:]) throws -> Data {
        try timedFrame(name, environment: environment).png
    }

    /// A frame of the cover, and whether it prepared its backdrop (`--timings` names the stage)
    /// rather than taking it from the cache.
    func timedFrame(_ name: String, environment: [String: String] = [:]) throws -> (png: Data, prepared: Bool) {
        let result = try run(["frame", cover, lyrics, "--at", "0:20", "-o", temp(name), "--size", "540x960", "--timings"],
                             environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("raster"), result.stderr)
        return (try Data(contentsOf: URL(fileURLWithPath: temp(name))), result.stderr.split(separator: "\n").contains { $0.hasPrefix("background ") })
    }

    /// A song's cover digest is made once and kept with it (a catalogue's key, then its session),
    /// and forgotten when the bytes change; a session takes the kept one, and renders the same key
    /// and frame as one that made its own.
    func testACoverDigestIsMadeOnceAndForgottenWhenTheBytesChange() throws {
        var options = RenderOptions()
        options.backdropCache = nil
        options.preset = Preset(name: "small", width: 270, height: 480)
        var song = try SongResolver.resolve(.files(cover: cover, lyrics: lyrics), options: options)
        XCTAssertNil(song.madeCoverDigest)
        let plain = try PosterSession(song: song, options: options)
        let digest = song.coverDigest()
        XCTAssertEqual(digest, Digest.sha256(try Data(contentsOf: URL(fileURLWithPath: cover))))
        XCTAssertEqual(song.madeCoverDigest, digest)
        let kept = try PosterSession(song: song, options: options)
        XCTAssertEqual(kept.coverDigest, digest)
        XCTAssertEqual(kept.renderKey, plain.renderKey)
        XCTAssertEqual(try kept.render(at: Timestamp(milliseconds: 20_000)).png, try plain.render(at: Timestamp(milliseconds: 20_000)).png)
        var other = song
        other.coverData = Data(other.coverData.dropLast())
        XCTAssertNil(other.madeCoverDigest, "forgotten with the bytes")
        XCTAssertNotEqual(other.coverDigest(), digest)
        XCTAssertEqual(song.coverDigest(), digest)
    }

    func testWarmDamagedAndTruncatedEntriesGiveTheSameFrame() throws {
        let cold = try frame("cold.png")
        let stored = try entries()
        XCTAssertEqual(stored.count, 1, "one entry per cover, canvas and theme")
        let entry = try Data(contentsOf: URL(fileURLWithPath: stored[0]))
        // Taken from the entry (written in pieces: fields, then the pixels straight from the
        // backdrop), not prepared again: no backdrop stage.
        let warm = try timedFrame("warm.png")
        XCTAssertEqual(warm.png, cold)
        XCTAssertFalse(warm.prepared, "the stored entry is read back")

        // A flipped byte in the middle of the pixels: the checksum refuses it, the backdrop is
        // prepared again, and the entry is rewritten whole.
        var damaged = entry
        damaged[damaged.count / 2] ^= 0xFF
        try damaged.write(to: URL(fileURLWithPath: stored[0]))
        let fromDamaged = try timedFrame("damaged.png")
        XCTAssertEqual(fromDamaged.png, cold)
        XCTAssertTrue(fromDamaged.prepared, "a damaged entry is not used")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: stored[0])), entry)

        try entry.prefix(entry.count - 1000).write(to: URL(fileURLWithPath: stored[0]))
        XCTAssertEqual(try frame("truncated.png"), cold)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: stored[0])), entry)

        try Data().write(to: URL(fileURLWithPath: stored[0]))
        XCTAssertEqual(try frame("empty.png"), cold)

        // A backdrop's height read as 32 767 rows (bytes 376-379: after the magic, key, digest,
        // seven colours and two flags, and the width): more pixels than the file holds, refused
        // before anything is allocated for them.
        var tall = entry
        tall.replaceSubrange(376..<380, with: [0xFF, 0x7F, 0, 0])
        XCTAssertEqual(Array(entry[372..<376]), [0x1C, 0x02, 0, 0], "the width, 540, comes just before")
        try tall.write(to: URL(fileURLWithPath: stored[0]))
        XCTAssertEqual(try frame("tall.png"), cold)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: stored[0])), entry)

        // Another theme is another entry; turned off, nothing new is written.
        let other = try run(["frame", cover, lyrics, "--at", "0:20", "-o", temp("minimal.png"), "--size", "540x960", "--theme", "minimal"])
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertEqual(try entries().count, 2)
        let off = try run(["frame", cover, lyrics, "--at", "0:20", "-o", temp("off.png"), "--size", "540x960", "--theme", "classic"],
                          environment: ["LYRICPOSTER_NO_CACHE": "1"])
        XCTAssertEqual(off.status, 0, off.stderr)
        XCTAssertEqual(try entries().count, 2)
    }

    /// Entries are found by the cover's size and first 64 KB, and used only for the cover whose
    /// whole SHA-256 they hold: two covers alike in both take turns in one slot, each drawn as
    /// itself, never as the other.
    func testCoversWithTheSameBeginningAndSizeAreNeverTakenForEachOther() throws {
        // Two different pictures behind the same 64 KB comment, padded after their end to the
        // same size (decoders stop at the end-of-image marker).
        let first = try Data(contentsOf: URL(fileURLWithPath: cover))
        let made = try run(["frame", cover, lyrics, "--at", "0:40", "-o", temp("other.jpg"), "--size", "540x960"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let second = try Data(contentsOf: URL(fileURLWithPath: temp("other.jpg")))
        let comment = Data([0xFF, 0xD8, 0xFF, 0xFE, 0xFF, 0xFF]) + Data(repeating: 0x4C, count: 0xFFFF - 2)
        var a = comment + first.dropFirst(2), b = comment + second.dropFirst(2)
        let size = max(a.count, b.count)
        a += Data(count: size - a.count)
        b += Data(count: size - b.count)
        XCTAssertEqual(a.prefix(64 << 10), b.prefix(64 << 10))
        XCTAssertNotEqual(a, b)
        try a.write(to: URL(fileURLWithPath: temp("a.jpg")))
        try b.write(to: URL(fileURLWithPath: temp("b.jpg")))
        try FileManager.default.removeItem(atPath: cacheHome)
        func frame(_ cover: String, _ name: String, cache: Bool) throws -> Data {
            let result = try run(["frame", temp(cover), lyrics, "--at", "0:20", "-o", temp(name), "--size", "540x960"],
                                 environment: cache ? [:] : ["LYRICPOSTER_NO_CACHE": "1"])
            XCTAssertEqual(result.status, 0, result.stderr)
            return try Data(contentsOf: URL(fileURLWithPath: temp(name)))
        }
        let aAlone = try frame("a.jpg", "a-alone.png", cache: false), bAlone = try frame("b.jpg", "b-alone.png", cache: false)
        XCTAssertNotEqual(aAlone, bAlone)
        XCTAssertEqual(try frame("a.jpg", "a-cold.png", cache: true), aAlone)
        XCTAssertEqual(try entries().count, 1)
        XCTAssertEqual(try frame("b.jpg", "b-cold.png", cache: true), bAlone, "b was drawn with a's backdrop")
        XCTAssertEqual(try entries().count, 1, "one slot for both")
        XCTAssertEqual(try frame("b.jpg", "b-warm.png", cache: true), bAlone)
        XCTAssertEqual(try frame("a.jpg", "a-again.png", cache: true), aAlone, "a was drawn with b's backdrop")
    }
}
