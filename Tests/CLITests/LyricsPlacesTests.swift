import Foundation
import XCTest

/// Lyrics without a file of their own, through the real binary: a local LRCLIB database dump
/// (built by Tests/Fixtures/make-lrclib-db.py with LRCLIB's schema and known rows), a lyrics folder
/// indexed by the tags inside its files, a Lyricsfile beside the audio file, and the precedence of
/// every place (sidecar → tags → Lyricsfile → lyrics dirs → LRCLIB dump).
final class LyricsPlacesTests: CLITestCase {
    /// A dump with the generator's known rows (see its docstring).
    func dump() throws -> String {
        let path = temp("lrclib.sqlite3")
        let made = try tool("python3", [Self.package.appendingPathComponent("Tests/Fixtures/make-lrclib-db.py").path, path])
        XCTAssertEqual(made.status, 0, made.stderr)
        return path
    }

    /// A FLAC file of `seconds` of silence with the given Vorbis comments, in its own folder.
    func song(_ name: String, seconds: Double, title: String?, artist: String?, album: String? = nil,
              lyrics: String? = nil, beside: [String: String] = [:]) throws -> String {
        let folder = work.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        var arguments = ["-loglevel", "error", "-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono", "-t", String(seconds)]
        for (key, value) in [("title", title), ("artist", artist), ("album", album), ("lyrics", lyrics)] {
            if let value { arguments += ["-metadata", "\(key)=\(value)"] }
        }
        let made = try tool("ffmpeg", arguments + [path])
        XCTAssertEqual(made.status, 0, made.stderr)
        for (file, text) in beside { try Data(text.utf8).write(to: folder.appendingPathComponent(file)) }
        return path
    }

    func inspect(_ arguments: [String]) throws -> (source: String?, lines: [String], instrumental: Bool) {
        let result = try run(["inspect"] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let source = (json["source"] as? [String: Any])?["lyrics"] as? String
        let lines = (json["lines"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        return (source, lines, json["instrumental"] as? Bool ?? false)
    }

    func testTheDumpIsLookedUpAsLRCLIBDoes() throws {
        let db = try dump()
        // Exact: title, artist, album and a duration of 200 s.
        let exact = try inspect([try song("a.flac", seconds: 200, title: "Paper Moon", artist: "The Lanterns", album: "Night Songs"), "--lrclib-db", db])
        XCTAssertEqual(exact.source, "lrclib:1")
        XCTAssertEqual(exact.lines, ["Paper moon on the water", "Lantern light"])
        // Within 2 s of the row's duration; case, accents and punctuation normalised as LRCLIB does.
        XCTAssertEqual(try inspect([try song("b.flac", seconds: 201.5, title: "PAPER MOON", artist: "the lanterns"), "--lrclib-db", db]).source, "lrclib:1")
        XCTAssertEqual(try inspect([try song("c.flac", seconds: 150, title: "Cafe Senor", artist: "Unicode Band"), "--lrclib-db", db]).source, "lrclib:4")
        XCTAssertEqual(try inspect([try song("d.flac", seconds: 210, title: "Dont Stop - Remix", artist: "A B C"), "--lrclib-db", db]).source, "lrclib:5")
        // The album and the duration choose between rows of one title.
        let live = try inspect([try song("e.flac", seconds: 260, title: "Paper Moon", artist: "The Lanterns", album: "Live at the Harbour"), "--lrclib-db", db])
        XCTAssertEqual(live.source, "lrclib:2")
        XCTAssertEqual(try inspect([try song("f.flac", seconds: 320, title: "Paper Moon", artist: "The Lanterns"), "--lrclib-db", db]).source, "lrclib:8")
        // The newest lyrics of a track (last_lyrics_id).
        XCTAssertEqual(try inspect([try song("g.flac", seconds: 190, title: "Second Thoughts", artist: "The Lanterns"), "--lrclib-db", db]).lines, ["New version"])
        // Out of ±2 s, another album, another artist: not found, and the error says where it looked.
        for miss in [try song("h.flac", seconds: 230, title: "Paper Moon", artist: "The Lanterns"),
                     try song("i.flac", seconds: 200, title: "Paper Moon", artist: "The Lanterns", album: "Other Songs"),
                     try song("j.flac", seconds: 200, title: "Paper Moon", artist: "Someone Else")] {
            let result = try run(["inspect", miss, "--lrclib-db", db])
            XCTAssertEqual(result.status, 1, miss)
            XCTAssertTrue(result.stderr.contains("not in the LRCLIB database"), result.stderr)
        }
    }

    func testAnInstrumentalRowMakesAnInstrumentalPoster() throws {
        let db = try dump()
        let quiet = try song("quiet.flac", seconds: 180, title: "Quiet Field", artist: "The Lanterns")
        try FileManager.default.copyItem(atPath: Self.package.appendingPathComponent(cover).path,
                                         toPath: URL(fileURLWithPath: quiet).deletingLastPathComponent().appendingPathComponent("cover.jpg").path)
        let found = try inspect([quiet, "--lrclib-db", db])
        XCTAssertEqual(found.source, "lrclib:3")
        XCTAssertTrue(found.instrumental)
        XCTAssertEqual(found.lines, [])
        let out = temp("quiet.png")
        let result = try run(["frame", quiet, "--lrclib-db", db, "--at", "1:00", "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
        // A plain-only row is unsynchronised: said so, exit 1.
        let plain = try run(["frame", try song("p.flac", seconds: 120, title: "Plain Only", artist: "The Lanterns"), "--lrclib-db", db, "--cover", cover, "--at", "5", "-o", temp("p.png")])
        XCTAssertEqual(plain.status, 1)
        XCTAssertTrue(plain.stderr.contains("plain text without times"), plain.stderr)
    }

    func testADatabaseThatIsNotLRCLIBsIsRefusedInOneLine() throws {
        let flac = try song("a.flac", seconds: 200, title: "Paper Moon", artist: "The Lanterns")
        let other = temp("other.sqlite3")
        XCTAssertEqual(try tool("sqlite3", [other, "CREATE TABLE songs(id INTEGER, name TEXT);"]).status, 0)
        let noIndex = temp("noindex.sqlite3")
        XCTAssertEqual(try tool("sqlite3", [noIndex, """
            CREATE TABLE tracks(id INTEGER PRIMARY KEY, name TEXT, name_lower TEXT, artist_name TEXT, artist_name_lower TEXT,
              album_name TEXT, album_name_lower TEXT, duration FLOAT, last_lyrics_id INTEGER);
            CREATE TABLE lyrics(id INTEGER PRIMARY KEY, plain_lyrics TEXT, synced_lyrics TEXT, instrumental BOOLEAN);
            """]).status, 0)
        for (file, reason) in [(other, "no `tracks` table"), (noIndex, "no index on tracks(name_lower)"),
                               (flac, "not an LRCLIB database dump"), (temp("missing.sqlite3"), "no such file")] {
            let result = try run(["inspect", flac, "--lrclib-db", file])
            XCTAssertEqual(result.status, 1, file)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("error: \(file): "), result.stderr)
            XCTAssertTrue(result.stderr.contains(reason), result.stderr)
        }
        // Opened read-only: the dump is not changed (no journal, same bytes).
        let db = try dump()
        let before = try sha256(db)
        _ = try inspect([flac, "--lrclib-db", db])
        XCTAssertEqual(try sha256(db), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db + "-journal"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: db + "-wal"))
    }

    func testALyricsFolderIsIndexedByTheTagsInside() throws {
        let folder = work.appendingPathComponent("lyrics/deep/er")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let files = [
            "track07.lrc": "[ar:The Lanterns]\n[ti:Harbour Bells]\n[al:Night Songs]\n[length: 3:20]\n[00:01.00]Bells in the harbour\n",
            "track07-live.lrc": "[ar:the lanterns]\n[ti:HARBOUR BELLS]\n[al:Live]\n[length:4:30]\n[00:01.00]Bells (live)\n",
            "untagged.lrc": "[00:01.00]No tags here\n",
            "late.lrc": "[00:01.00]x\n[ar:The Lanterns]\n[ti:Late Tags]\n",
        ]
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        let dir = work.appendingPathComponent("lyrics").path
        let bells = try song("bells.flac", seconds: 200, title: "Harbour Bells", artist: "The Lanterns")
        XCTAssertEqual(try inspect([bells, "--lyrics-dir", dir]).source, "lyrics-dir:track07.lrc")
        // Album first, then the length nearest the song's.
        XCTAssertEqual(try inspect([try song("live.flac", seconds: 200, title: "Harbour Bells", artist: "The Lanterns", album: "Live"),
                                    "--lyrics-dir", dir]).source, "lyrics-dir:track07-live.lrc")
        XCTAssertEqual(try inspect([try song("long.flac", seconds: 271, title: "Harbour Bells", artist: "The Lanterns"),
                                    "--lyrics-dir", dir]).source, "lyrics-dir:track07-live.lrc")
        // Tags after the first stamp are not the file's tags; a missing folder is a flag error.
        XCTAssertEqual(try run(["inspect", try song("late.flac", seconds: 60, title: "Late Tags", artist: "The Lanterns"), "--lyrics-dir", dir]).status, 1)
        XCTAssertEqual(try run(["inspect", bells, "--lyrics-dir", temp("nowhere")]).status, 64)
        // A file added to the folder is seen (the index follows the folder's changes).
        try Data("[ar:The Lanterns]\n[ti:New Song]\n[00:01.00]Fresh\n".utf8).write(to: folder.appendingPathComponent("new.lrc"))
        XCTAssertEqual(try inspect([try song("new.flac", seconds: 60, title: "New Song", artist: "The Lanterns"), "--lyrics-dir", dir]).lines, ["Fresh"])
    }

    func testEachPlaceInItsOrder() throws {
        let db = try dump()
        let dir = work.appendingPathComponent("dir")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("[ar:The Lanterns]\n[ti:Paper Moon]\n[00:01.00]From the folder\n".utf8).write(to: dir.appendingPathComponent("x.lrc"))
        let yaml = "version: '1.0'\nmetadata: {title: Paper Moon, artist: The Lanterns}\nlines:\n  - {text: From the Lyricsfile, start_ms: 1000}\n"
        func places(_ beside: [String: String], tags: String? = nil) throws -> String? {
            let flac = try song("song.flac", seconds: 200, title: "Paper Moon", artist: "The Lanterns", album: "Night Songs", lyrics: tags, beside: beside)
            return try inspect([flac, "--lrclib-db", db, "--lyrics-dir", dir.path]).source
        }
        XCTAssertEqual(try places([:]), "lyrics-dir:x.lrc", "the folder before the dump")
        XCTAssertEqual(try places(["song.lyricsfile.yaml": yaml]), "lyricsfile:song.lyricsfile.yaml", "a Lyricsfile before the folder")
        XCTAssertEqual(try places(["song.yaml": yaml], tags: "[00:01.00]From the tags\n"), "vorbis:LYRICS", "the tags before a Lyricsfile")
        XCTAssertEqual(try places(["song.yaml": yaml, "song.lrc": "[00:01.00]From the sidecar\n"], tags: "[00:01.00]From the tags\n"),
                       "sidecar:song.lrc", "the sidecar first")
        // Without the folder, the dump.
        let flac = try song("song.flac", seconds: 200, title: "Paper Moon", artist: "The Lanterns", album: "Night Songs")
        XCTAssertEqual(try inspect([flac, "--lrclib-db", db]).source, "lrclib:1")
    }

    func testConvertWritesAndReadsLyricsfiles() throws {
        let lrc = try write("[ti:Tin Roof]\n[ar:The Lanterns]\n[00:01.00]Tin roof sings\n[00:03.50]Lantern light\n[00:06.00]\n", to: "tin.lrc")
        let out = temp("tin.yaml")
        let result = try run(["convert", lrc, "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("version: '1.0'\n"), text)
        let back = try run(["convert", out, "-o", "-", "--to", "lrc"])
        XCTAssertEqual(back.status, 0, back.stderr)
        let original = try run(["convert", lrc, "-o", "-", "--to", "lrc"])
        XCTAssertEqual(back.stdout, original.stdout, "LRC → Lyricsfile → LRC")
    }
}
