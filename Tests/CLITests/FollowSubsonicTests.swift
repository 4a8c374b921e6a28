import Foundation
import XCTest

/// `follow --source subsonic+http://…`: against a real Supysonic (Debian's, the Subsonic API 1.10
/// base: now playing, cover art, lyrics text; it predates salted tokens and OpenSubsonic), and
/// against Tests/Fixtures/opensubsonic-server.py for what Supysonic lacks: the `playbackReport`
/// position in `getNowPlaying`, structured lyrics and salted-token logins.
final class FollowSubsonicTests: FollowTestCase {
    private var servers: [Process] = []

    override func tearDownWithError() throws {
        for process in servers where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try super.tearDownWithError()
    }

    func testSupysonicsNowPlayingCoverAndLyrics() throws {
        for tool in ["/usr/bin/supysonic-cli", "/usr/bin/supysonic-server"] where !FileManager.default.isExecutableFile(atPath: tool) {
            XCTFail("\(tool) is missing: run `make test`, which installs supysonic")
            throw XCTSkip("no \(tool)")
        }
        let home = temp("supysonic")
        try FileManager.default.createDirectory(atPath: home + "/cache", withIntermediateDirectories: true)
        _ = try makeSong("song", title: "Sub Song", seconds: 20, in: "supysonic/music/album")
        // Supysonic's getLyrics reads the text file beside the song (here LRC).
        try FileManager.default.moveItem(atPath: home + "/music/album/song.lrc", toPath: home + "/music/album/song.txt")
        try copyCover(to: "supysonic/music/album")
        try Data("""
            [base]
            database_uri = sqlite:///\(home)/supysonic.db
            [webapp]
            cache_dir = \(home)/cache
            mount_webui = off
            [daemon]
            socket = \(home)/daemon.sock
            run_watcher = no

            """.utf8).write(to: URL(fileURLWithPath: home + "/supysonic.conf"))
        let password = "pa ss/wörd"
        for arguments in [["user", "add", "tester", "-p", password], ["folder", "add", "music", home + "/music"], ["folder", "scan", "music"]] {
            let result = try run(arguments, executable: "/usr/bin/supysonic-cli", directory: home)
            XCTAssertEqual(result.status, 0, "supysonic-cli \(arguments): \(result.stderr)")
        }
        let port = Self.freePort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/supysonic-server")
        server.arguments = ["-h", "127.0.0.1", "-p", String(port)]
        server.currentDirectoryURL = URL(fileURLWithPath: home)
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        servers.append(server)
        let base = "http://127.0.0.1:\(port)/rest/"
        let auth = "u=tester&p=enc:" + password.utf8.map { String(format: "%02x", $0) }.joined() + "&v=1.10.2&c=test&f=json"
        let deadline = Date().addingTimeInterval(20)
        var found = ""
        while Date() < deadline {
            found = (try? command("/usr/bin/curl", ["-s", base + "search3.view?" + auth + "&query=Sub"])) ?? ""
            if found.contains("\"song\"") { break }
            usleep(200_000)
        }
        let answer = try JSONSerialization.jsonObject(with: Data(found.utf8)) as? [String: Any]
        let songs = ((answer?["subsonic-response"] as? [String: Any])?["searchResult3"] as? [String: Any])?["song"] as? [[String: Any]]
        let id = try XCTUnwrap(songs?.first?["id"] as? String, "Supysonic did not list the song: \(found)")
        // Playing it (streaming it) makes it the user's now playing.
        _ = try command("/usr/bin/curl", ["-s", "-o", "/dev/null", base + "stream.view?" + auth + "&id=" + id])

        let file = try write(password + "\n", to: "password")
        let follower = try follow(["--source", "subsonic+http://tester@127.0.0.1:\(port)", "--password-file", file])
        XCTAssertTrue(waitFor("the song") { $0.contains { $0.kind == "song" && $0.track == "Sub Song" } })
        XCTAssertTrue(waitFor("its poster") { $0.contains { $0.kind == "poster" && $0.track == "Sub Song" } })
        let song = try XCTUnwrap(events().first { $0.kind == "song" })
        XCTAssertEqual(song.fields["cover"] as? String, "subsonic:getCoverArt", record)
        XCTAssertEqual(song.fields["lyrics"] as? String, "subsonic:getLyrics", record)
        XCTAssertEqual(song.fields["frames"] as? Int, 20, record)
        // Only when it started is known: the song's poster, standing, and a note saying so.
        XCTAssertTrue(events().contains { $0.kind == "status" && ($0.fields["status"] as? String) == "Paused" }, record)
        XCTAssertEqual(posters.first?.start, 0)
        let log = try String(contentsOfFile: temp("follow.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("the poster follows the song, not the line"), log)
        XCTAssertTrue(log.contains("does not take salted tokens"), log)
        XCTAssertFalse(log.contains(password), "the password is never printed")
        follower.terminate()
        follower.waitUntilExit()
        XCTAssertEqual(follower.terminationStatus, 0)
    }

    func testPlaybackReportPositionsStructuredLyricsAndSaltedTokens() throws {
        let png = temp("cover.png")
        let made = try run(["frame", Self.package.path + "/" + cover, Self.package.path + "/" + lyrics, "--at", "1", "--size", "300x300", "-o", png])
        XCTAssertEqual(made.status, 0, made.stderr)
        let server = try spawn("/usr/bin/python3", [Self.package.appendingPathComponent("Tests/Fixtures/opensubsonic-server.py").path,
                                                    "tester", "s3cret", png], log: "opensubsonic.log")
        servers.append(server)
        var base = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, base.isEmpty {
            let said = (try? String(contentsOfFile: temp("opensubsonic.log"), encoding: .utf8)) ?? ""
            if let range = said.range(of: #"ready [0-9]+"#, options: .regularExpression) { base = "http://127.0.0.1:" + said[range].dropFirst(6) }
            usleep(50_000)
        }
        XCTAssertFalse(base.isEmpty, "the OpenSubsonic fixture did not start")

        // A wrong password: one line, exit 1, at once.
        let wrong = try run(["follow", "--source", "subsonic+" + base.replacingOccurrences(of: "://", with: "://tester@"), "-o", temp("w/now.png")],
                            environment: ["LYRICPOSTER_SUBSONIC_PASSWORD": "nope", "DBUS_SESSION_BUS_ADDRESS": busAddress])
        XCTAssertEqual(wrong.status, 1, wrong.stderr)
        XCTAssertTrue(wrong.stderr.hasPrefix("error: subsonic+http://tester@127.0.0.1:") && wrong.stderr.contains("refused the login"), wrong.stderr)
        XCTAssertEqual(wrong.stderr.split(separator: "\n").count, 1, wrong.stderr)

        try postControl(base, ["position_ms": 2000, "playing": true])
        let follower = try follow(["--source", "subsonic+" + base.replacingOccurrences(of: "://", with: "://tester@"),
                                   "--password-file", try write("s3cret", to: "password")])
        XCTAssertTrue(waitFor("line 6") { $0.contains { $0.kind == "poster" && $0.track == "Open Song" && ($0.line ?? 0) >= 6 } })
        let song = try XCTUnwrap(events().first { $0.kind == "song" })
        XCTAssertEqual(song.fields["cover"] as? String, "subsonic:getCoverArt", record)
        XCTAssertEqual(song.fields["lyrics"] as? String, "subsonic:getLyricsBySongId", record)
        // Structured lyrics, offset +250 ms: a line stamped 3.25 s shows at 3 s.
        XCTAssertTrue(posters.contains { $0.start == 3000 }, record)
        // Line changes on the server's clock (its positionMs extrapolated between 5 s polls).
        var lateness: [Double] = []
        for (previous, next) in zip(posters, posters.dropFirst()) where next.frame == previous.frame + 1 {
            if let position = try serverPosition(base, atWall: Double(next.wall)) { lateness.append(position - Double(next.start)) }
        }
        XCTAssertGreaterThanOrEqual(lateness.count, 3, record)
        for late in lateness { XCTAssertLessThanOrEqual(abs(late), FollowBound.lateness, "a line change \(late) ms off the server's clock") }
        let sorted = lateness.sorted()
        print(String(format: "OpenSubsonic fixture clock: %d line changes, median %.1f ms, worst %.1f ms", sorted.count,
                     sorted[sorted.count / 2], sorted.max { abs($0) < abs($1) } ?? 0))

        // A seek on the server is seen at the next poll (5 s at most).
        let before = nowMs
        try postControl(base, ["position_ms": 30000])
        XCTAssertTrue(waitFor("the seek", seconds: 8) { $0.contains { $0.kind == "poster" && $0.wall >= before && $0.start >= 30000 } })
        // Paused on the server: the status follows.
        try postControl(base, ["playing": false])
        XCTAssertTrue(waitFor("the pause", seconds: 8) { $0.contains { $0.kind == "status" && ($0.fields["status"] as? String) == "Paused" } })

        follower.terminate()
        follower.waitUntilExit()
        // Every call was signed with a fresh salt (the fixture refuses a plain password or a salt used twice).
        let calls = try command("/usr/bin/curl", ["-s", base + "/log"])
        XCTAssertTrue(calls.contains("getLyricsBySongId") && calls.contains("getOpenSubsonicExtensions"), calls)
        XCTAssertFalse(try String(contentsOfFile: temp("follow.log"), encoding: .utf8).contains("s3cret"))
    }

    private func postControl(_ base: String, _ body: [String: Any]) throws {
        let data = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        _ = try command("/usr/bin/curl", ["-s", "-X", "POST", "-H", "Content-Type: application/json", "-d", data, base + "/control"])
    }

    /// The fixture's position at wall time `wall` (ms), from its clock now (it runs at rate 1).
    private func serverPosition(_ base: String, atWall wall: Double) throws -> Double? {
        let text = try command("/usr/bin/curl", ["-s", base + "/clock"])
        guard let clock = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let now = clock["wall_ms"] as? Double, let position = clock["position_ms"] as? Double, clock["playing"] as? Bool == true else { return nil }
        return position - (now - wall)
    }
}
