import Foundation
import HummingbirdTesting
import PosterServer
import Synchronization
import Testing

/// The library `serve` lists: symbolic links followed as `catalog` follows them, as long as they
/// stay inside the library folders it was given.
@Suite(.tags(.server)) struct LibraryWalkTests {
    /// Two library folders and a store outside both:
    ///
    ///     A/night-drive/            a pair (a real folder)
    ///     A/archive/harbour-bells/  an audio file (a real folder)
    ///     A/linked -> archive/harbour-bells     a link inside A
    ///     A/into-b -> ../B/paper                a link into the other library folder
    ///     A/outside -> ../store/river-lights    a link out of both
    ///     A/stray.lrc -> ../store/river-lights/river-lights.ttml   a file link out of both
    ///     A/loop -> .                           a link to a folder it is in
    ///     A/gone -> ../unmounted                a link to nothing
    ///     B/paper/                  a pair
    static func makeLibraries() throws -> (a: String, b: String) {
        let samples = ServerRouteTests.root + "/samples"
        let top = FileManager.default.temporaryDirectory.appendingPathComponent("lyricposter-walk-\(UUID().uuidString)").path
        let files = FileManager.default
        for folder in ["A/archive", "B", "store"] { try files.createDirectory(atPath: top + "/" + folder, withIntermediateDirectories: true) }
        try files.copyItem(atPath: samples + "/night-drive", toPath: top + "/A/night-drive")
        try files.copyItem(atPath: samples + "/harbour-bells", toPath: top + "/A/archive/harbour-bells")
        try files.copyItem(atPath: samples + "/paper-lanterns", toPath: top + "/B/paper")
        try files.copyItem(atPath: samples + "/river-lights", toPath: top + "/store/river-lights")
        try files.createSymbolicLink(atPath: top + "/A/linked", withDestinationPath: "archive/harbour-bells")
        try files.createSymbolicLink(atPath: top + "/A/into-b", withDestinationPath: "../B/paper")
        try files.createSymbolicLink(atPath: top + "/A/outside", withDestinationPath: "../store/river-lights")
        try files.createSymbolicLink(atPath: top + "/A/stray.lrc", withDestinationPath: "../store/river-lights/river-lights.ttml")
        try files.createSymbolicLink(atPath: top + "/A/loop", withDestinationPath: ".")
        try files.createSymbolicLink(atPath: top + "/A/gone", withDestinationPath: "../unmounted")
        return (top + "/A", top + "/B")
    }

    /// The songs `GET /api/songs` lists once the walk and the reading of lyrics are done.
    static func listedSongs(_ client: some TestClientProtocol) async throws -> [[String: Any]] {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let (songs, scanning) = try await client.execute(uri: "/api/songs?limit=1000", method: .get) { response -> ([[String: Any]], Bool) in
                let json = try JSONSerialization.jsonObject(with: Data(Array(buffer: response.body))) as? [String: Any]
                return (json?["songs"] as? [[String: Any]] ?? [], json?["scanning"] as? Bool ?? true)
            }
            if !scanning { return songs }
            try #require(ContinuousClock.now < deadline, "the library was still being walked after 30 s")
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The lines the server logs.
    final class Said: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    @Test func linksAreFollowedInsideEveryLibraryFolderAndNoFurther() async throws {
        let (a, b) = try Self.makeLibraries()
        defer { try? FileManager.default.removeItem(atPath: (a as NSString).deletingLastPathComponent) }
        var configuration = try ServerRouteTests.configuration()
        configuration.library = [a, b]
        let said = Said()
        configuration.log = { line in said.lines.withLock { $0.append(line) } }
        let server = try PosterServer.make(configuration)
        try await server.application.test(.router) { client in
            let files = try await Self.listedSongs(client).compactMap { $0["file"] as? String }
            let loops = files.filter { $0.hasPrefix("loop/") }
            #expect(loops.isEmpty, "a link to a folder it is in is not walked again: \(loops.count) songs under loop/")
            #expect(files.filter { !$0.hasPrefix("loop/") }.sorted() == [
                "archive/harbour-bells/harbour-bells.mp3",
                "into-b/paper-lanterns.lrc",
                "linked/harbour-bells.mp3",
                "night-drive/night-drive.lrc",
                "paper/paper-lanterns.lrc",
            ], "a link into either library folder is followed; one out of both is not")
        }
        // What was left out, and why: a line each, then the count.
        let lines = said.all
        #expect(lines.count == 5, "\(lines)")
        let named = lines.prefix(4)
        #expect(named.allSatisfy { $0.hasPrefix("left out \(a)/") }, "\(lines)")
        #expect(named.contains("left out \(a)/gone: a symbolic link to ../unmounted, which leads nowhere"), "\(lines)")
        #expect(named.first { $0.contains("/A/loop: a symbolic link to ") }?.hasSuffix("/A, a folder it is in (walked once)") == true, "\(lines)")
        #expect(named.first { $0.contains("/A/outside: a symbolic link to ") }?.hasSuffix("/store/river-lights, outside every library folder") == true, "\(lines)")
        #expect(named.first { $0.contains("/A/stray.lrc: a symbolic link to ") }?.hasSuffix("/river-lights.ttml, outside every library folder") == true, "\(lines)")
        #expect(lines.last == "4 songs or folders of the library left out", "\(lines)")
    }

    /// A library of many songs without covers: the first few are named, then the count.
    @Test func whatIsLeftOutIsNamedUpToTheCap() async throws {
        let top = FileManager.default.temporaryDirectory.appendingPathComponent("lyricposter-walk-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: top) }
        try FileManager.default.createDirectory(atPath: top, withIntermediateDirectories: true)
        let lyrics = try Data(contentsOf: URL(fileURLWithPath: ServerRouteTests.root + "/samples/night-drive/night-drive.lrc"))
        for i in 0..<(Library.maxReported + 5) { try lyrics.write(to: URL(fileURLWithPath: top + "/song-\(i).lrc")) }
        var configuration = try ServerRouteTests.configuration()
        configuration.library = [top]
        let said = Said()
        configuration.log = { line in said.lines.withLock { $0.append(line) } }
        let server = try PosterServer.make(configuration)
        try await server.application.test(.router) { client in
            let songs = try await Self.listedSongs(client)
            #expect(songs.isEmpty, "\(songs)")
        }
        let lines = said.all
        #expect(lines.count == Library.maxReported + 1, "\(lines)")
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("left out \(top)/song-") && $0.hasSuffix(": no cover image beside it (same name, or cover.jpg/folder.jpg)") }, "\(lines)")
        #expect(lines.last == "\(Library.maxReported + 5) songs or folders of the library left out (the first \(Library.maxReported) named above)")
    }

    /// An audio file with tags and no lyrics anywhere is listed by its tags, with why it makes no posters.
    @Test func aSongWithoutLyricsIsListedByItsTags() async throws {
        let top = FileManager.default.temporaryDirectory.appendingPathComponent("lyricposter-walk-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: top) }
        try FileManager.default.createDirectory(atPath: top + "/quiet", withIntermediateDirectories: true)
        try Self.writeTaggedAudio(top + "/quiet/track-07.mp3", title: "Quiet Harbour", artist: "The Fixtures", album: "No Words")
        var configuration = try ServerRouteTests.configuration()
        configuration.library = [top, ServerRouteTests.root + "/samples/harbour-bells"]
        let server = try PosterServer.make(configuration)
        try await server.application.test(.router) { client in
            let songs = try await Self.listedSongs(client)
            let quiet = try #require(songs.first { $0["file"] as? String == "quiet/track-07.mp3" }, "\(songs)")
            #expect(quiet["title"] as? String == "Quiet Harbour")
            #expect(quiet["artist"] as? String == "The Fixtures")
            #expect(quiet["album"] as? String == "No Words")
            #expect(quiet["line_count"] as? Int == 0)
            #expect((quiet["problem"] as? String)?.hasPrefix("no lyrics") == true, "\(quiet)")
            #expect((quiet["duration_ms"] as? Int).map { (1500...2500).contains($0) } == true, "\(quiet)")
            let sung = try #require(songs.first { $0["file"] as? String == "harbour-bells.mp3" }, "\(songs)")
            #expect(sung["problem"] is NSNull, "a song with lyrics has no problem: \(sung)")
            #expect((sung["line_count"] as? Int ?? 0) > 0)
        }
    }

    /// A 2 s tone with ID3 tags and nothing else (ffmpeg).
    static func writeTaggedAudio(_ path: String, title: String, artist: String, album: String) throws {
        let ffmpeg = "/usr/bin/ffmpeg"
        try #require(FileManager.default.isExecutableFile(atPath: ffmpeg), "ffmpeg is missing: `make test` installs it")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=330:duration=2",
                             "-metadata", "title=\(title)", "-metadata", "artist=\(artist)", "-metadata", "album=\(album)",
                             "-y", path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "ffmpeg could not write \(path)")
    }
}
