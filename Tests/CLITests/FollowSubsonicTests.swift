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

    /// A real Supysonic on a free port, serving the songs already made under temp("supysonic/music")
    /// to the user `tester` (password `password`), with its daemon and jukebox when `jukebox` is
    /// the command that plays a song (`%path`, `%offset`). Returns the REST base (`…/rest/`), the
    /// port and the songs' ids by title.
    private func startSupysonic(password: String, jukebox: String? = nil) throws -> (base: String, port: Int, ids: [String: String]) {
        var tools = ["/usr/bin/supysonic-cli", "/usr/bin/supysonic-server"]
        if jukebox != nil { tools.append("/usr/bin/supysonic-daemon") }
        for tool in tools where !FileManager.default.isExecutableFile(atPath: tool) {
            XCTFail("\(tool) is missing: run `make test`, which installs supysonic")
            throw XCTSkip("no \(tool)")
        }
        let home = temp("supysonic")
        try FileManager.default.createDirectory(atPath: home + "/cache", withIntermediateDirectories: true)
        try Data("""
            [base]
            database_uri = sqlite:///\(home)/supysonic.db
            [webapp]
            cache_dir = \(home)/cache
            mount_webui = off
            [daemon]
            socket = \(home)/daemon.sock
            run_watcher = no
            \(jukebox.map { "jukebox_command = " + $0 } ?? "")

            """.utf8).write(to: URL(fileURLWithPath: home + "/supysonic.conf"))
        var steps = [["user", "add", "tester", "-p", password], ["folder", "add", "music", home + "/music"], ["folder", "scan", "music"]]
        if jukebox != nil { steps += [["user", "setroles", "--jukebox", "tester"], ["user", "add", "guest", "-p", password]] }
        for arguments in steps {
            let result = try run(arguments, executable: "/usr/bin/supysonic-cli", directory: home)
            XCTAssertEqual(result.status, 0, "supysonic-cli \(arguments): \(result.stderr)")
        }
        let port = Self.freePort()
        var commands = [("/usr/bin/supysonic-server", ["-h", "127.0.0.1", "-p", String(port)])]
        if jukebox != nil { commands.insert(("/usr/bin/supysonic-daemon", []), at: 0) }
        for (tool, arguments) in commands {
            let server = Process()
            server.executableURL = URL(fileURLWithPath: tool)
            server.arguments = arguments
            server.currentDirectoryURL = URL(fileURLWithPath: home)
            server.standardOutput = FileHandle.nullDevice
            server.standardError = FileHandle.nullDevice
            try server.run()
            servers.append(server)
        }
        let base = "http://127.0.0.1:\(port)/rest/"
        let deadline = Date().addingTimeInterval(20)
        var found = ""
        while Date() < deadline {
            found = (try? command("/usr/bin/curl", ["-s", base + "search3.view?" + supysonicAuth(password) + "&query=Song"])) ?? ""
            if found.contains("\"song\"") { break }
            usleep(200_000)
        }
        let answer = try JSONSerialization.jsonObject(with: Data(found.utf8)) as? [String: Any]
        let songs = ((answer?["subsonic-response"] as? [String: Any])?["searchResult3"] as? [String: Any])?["song"] as? [[String: Any]] ?? []
        var ids: [String: String] = [:]
        for song in songs { if let title = song["title"] as? String, let id = song["id"] as? String { ids[title] = id } }
        XCTAssertFalse(ids.isEmpty, "Supysonic did not list the songs: \(found)")
        return (base, port, ids)
    }

    /// Supysonic predates salted tokens: the password, hex-encoded.
    private func supysonicAuth(_ password: String, user: String = "tester") -> String {
        "u=\(user)&p=enc:" + password.utf8.map { String(format: "%02x", $0) }.joined() + "&v=1.10.2&c=test&f=json"
    }

    func testSupysonicsNowPlayingCoverAndLyrics() throws {
        _ = try makeSong("song", title: "Sub Song", seconds: 20, in: "supysonic/music/album")
        // Supysonic's getLyrics reads the text file beside the song (here LRC).
        try FileManager.default.moveItem(atPath: temp("supysonic/music/album/song.lrc"), toPath: temp("supysonic/music/album/song.txt"))
        try copyCover(to: "supysonic/music/album")
        let password = "pa ss/wörd"
        let (base, port, ids) = try startSupysonic(password: password)
        let id = try XCTUnwrap(ids["Sub Song"])
        // Playing it (streaming it) makes it the user's now playing.
        _ = try command("/usr/bin/curl", ["-s", "-o", "/dev/null", base + "stream.view?" + supysonicAuth(password) + "&id=" + id])

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

    /// Supysonic's jukebox, playing through a real mpv (its `jukebox_command`), followed and
    /// controlled by `serve --follow --source subsonic-jukebox+…` and by `control`. mpv's own
    /// clock (its IPC socket) is the reference: where each seek lands, and how far the poster's
    /// clock is from what mpv plays. Supysonic's jukebox has its own ways, which the source works
    /// with: `stop` forgets the position and `start` plays the song from its beginning (so a
    /// resume is sent back to the pause), and positions come in whole seconds.
    func testSupysonicsJukeboxIsFollowedAndControlledFromThePosterScreen() throws {
        _ = try makeSong("one", title: "Juke Song One", seconds: 30, in: "supysonic/music/album")
        _ = try makeSong("two", title: "Juke Song Two", seconds: 20, in: "supysonic/music/album")
        for stem in ["one", "two"] {
            try FileManager.default.moveItem(atPath: temp("supysonic/music/album/\(stem).lrc"), toPath: temp("supysonic/music/album/\(stem).txt"))
        }
        try copyCover(to: "supysonic/music/album")
        let socket = temp("jukebox-mpv.sock")
        let password = "juke box"
        let (base, port, ids) = try startSupysonic(password: password, jukebox:
            "mpv --no-config --ao=null --no-video --really-quiet --input-ipc-server=\(socket) --start=%offset %path")
        let (one, two) = (try XCTUnwrap(ids["Juke Song One"]), try XCTUnwrap(ids["Juke Song Two"]))
        func jukebox(_ action: String, user: String = "tester") throws -> [String: Any] {
            let text = try command("/usr/bin/curl", ["-s", base + "jukeboxControl.view?" + supysonicAuth(password, user: user) + "&action=" + action])
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            return try XCTUnwrap(object?["subsonic-response"] as? [String: Any], text)
        }
        func status() throws -> [String: Any] { try jukebox("status")["jukeboxStatus"] as? [String: Any] ?? [:] }
        _ = try jukebox("set&id=\(one)&id=\(two)")
        let file = try write(password + "\n", to: "password")
        let source = "subsonic-jukebox+http://tester@127.0.0.1:\(port)"

        // A user without the jukebox right: one line, exit 1, for follow and for control.
        let guestSource = source.replacingOccurrences(of: "tester@", with: "guest@")
        for arguments in [["follow", "--source", guestSource, "--password-file", file, "-o", temp("g/now.png")],
                          ["control", "play", "--source", guestSource, "--password-file", file]] {
            let refused = try run(arguments)
            XCTAssertEqual(refused.status, 1, "\(arguments[0]): \(refused.stderr)")
            let errors = refused.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
            XCTAssertEqual(errors.count, 1, refused.stderr)
            XCTAssertTrue(errors.first?.contains("guest") == true && errors.first?.contains("refused") == true, refused.stderr)
        }
        XCTAssertEqual(try status()["playing"] as? Bool, false, "a refused control does not reach the jukebox")

        let server = try startServer([temp("supysonic/music"), "--follow", "--source", source, "--password-file", file, "--size", "360x640"])
        func now() -> [String: Any] {
            guard let answer = try? get(server.base + "/now.json") else { return [:] }
            return (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]) ?? [:]
        }
        func control(_ action: String) throws -> Answer { try curl(["-X", "POST", server.base + "/api/player/" + action]) }
        // Stopped, with a queue: only play and next are offered; a seek is refused.
        XCTAssertTrue(waitFor("the stopped jukebox's song") { _ in now()["track"] as? String == "Juke Song One" })
        XCTAssertEqual(now()["controls"] as? [String], ["play", "next"], "\(now())")
        XCTAssertEqual(now()["status"] as? String, "paused")
        let stoppedSeek = try control("seek?position_ms=5000")
        XCTAssertEqual(stoppedSeek.status, 409, String(decoding: stoppedSeek.body, as: UTF8.self))
        XCTAssertTrue(String(decoding: stoppedSeek.body, as: UTF8.self).contains("stopped"), String(decoding: stoppedSeek.body, as: UTF8.self))

        // Play: the jukebox starts mpv on the first song.
        XCTAssertEqual(try control("play").status, 204)
        XCTAssertTrue(waitFor("mpv playing the first song") { _ in (self.mpvProperty(socket, "path") as? String)?.hasSuffix("one.mp3") == true })
        XCTAssertTrue(waitFor("the playing status") { _ in now()["status"] as? String == "playing" })
        XCTAssertEqual(now()["controls"] as? [String], ["pause", "seek", "next"], "\(now())")

        // Seeks: where the new mpv starts (its first time-pos, on its own clock), how long after
        // the 204 it starts, and how far the poster's clock is from what it plays a second later.
        var landing: [Double] = [], startup: [Double] = [], ahead: [Double] = [], posterMs: [Double] = []
        for target in [12_000, 4_000, 21_400] {
            let before = mpvProperty(socket, "pid") as? Int
            let answered = try control("seek?position_ms=\(target)")
            let after = Date()
            XCTAssertEqual(answered.status, 204, String(decoding: answered.body, as: UTF8.self))
            let second = (target + 500) / 1000 * 1000   // the API takes whole seconds: rounded
            var first: (position: Double, ms: Double)?
            while first == nil, Date().timeIntervalSince(after) < 5 {
                if let pid = mpvProperty(socket, "pid") as? Int, pid != before, let position = mpvProperty(socket, "time-pos") as? Double {
                    first = (position * 1000, Date().timeIntervalSince(after) * 1000)
                }
                usleep(2_000)
            }
            let started = try XCTUnwrap(first, "the jukebox started no new mpv after a seek to \(target) ms")
            landing.append(started.position - Double(second))
            startup.append(started.ms)
            XCTAssertLessThanOrEqual(abs(started.position - Double(second)), 250, "mpv started at \(started.position) ms for a seek to \(second) ms")
            var shown: Double?
            while shown == nil, Date().timeIntervalSince(after) < 5 {
                if now()["start_ms"] as? Int == second { shown = Date().timeIntervalSince(after) * 1000 }
                usleep(10_000)
            }
            posterMs.append(try XCTUnwrap(shown, "the poster of the \(second) ms line never came"))
            usleep(1_000_000)
            let read = Date()
            let playing = (mpvProperty(socket, "time-pos") as? Double ?? -1) * 1000
            let poster = Double(now()["position_ms"] as? Int ?? -1) - Date().timeIntervalSince(read) * 1000
            ahead.append(poster - playing)
            XCTAssertLessThanOrEqual(abs(poster - playing), 600, "the poster's clock is \(poster - playing) ms off what mpv plays")
        }
        print("Supysonic jukebox through mpv: seeks start at (mpv's first position less the asked second, ms) "
              + "\(landing.map { Int($0.rounded()) }), \(startup.map { Int($0.rounded()) }) ms after the 204; "
              + "the poster's clock ahead of mpv (ms) \(ahead.map { Int($0.rounded()) }); "
              + "the seeked line's poster after the 204 (ms) \(posterMs.map { Int($0.rounded()) })")

        // Past the end: 422, and the jukebox is left alone.
        XCTAssertEqual(try control("seek?position_ms=99000").status, 422)

        // Pause: Supysonic stops mpv; the poster stands at the line it was on.
        XCTAssertEqual(try control("seek?position_ms=8000").status, 204)
        usleep(1_500_000)
        XCTAssertEqual(try control("pause").status, 204)
        XCTAssertEqual(try status()["playing"] as? Bool, false)
        XCTAssertTrue(waitFor("the paused status") { _ in now()["status"] as? String == "paused" })
        usleep(2_500_000)   // two polls: Supysonic says 0 s now, the poster stays
        let pausedLine = now()["start_ms"] as? Int ?? -1
        XCTAssertTrue((9_000...10_000).contains(pausedLine), "paused at about 9.5 s, the poster shows \(pausedLine) ms")
        // Play: from where it was paused, on mpv's clock.
        XCTAssertEqual(try control("play").status, 204)
        let resumedAt = Date()
        usleep(1_500_000)
        let resumed = (mpvProperty(socket, "time-pos") as? Double ?? -1) * 1000 - Date().timeIntervalSince(resumedAt) * 1000
        XCTAssertEqual(resumed, Double(pausedLine), accuracy: 1_000, "mpv resumed from \(resumed) ms after a pause at the \(pausedLine) ms line")
        print(String(format: "Supysonic jukebox: paused on the %d ms line, resumed at %.0f ms on mpv's clock", pausedLine, resumed))

        // Next and previous: the jukebox's index, mpv's file and the poster's song.
        XCTAssertEqual(try control("next").status, 204)
        XCTAssertTrue(waitFor("mpv playing the second song") { _ in (self.mpvProperty(socket, "path") as? String)?.hasSuffix("two.mp3") == true })
        XCTAssertTrue(waitFor("the second song's poster") { _ in now()["track"] as? String == "Juke Song Two" })
        XCTAssertEqual(now()["controls"] as? [String], ["pause", "seek", "previous"], "\(now())")
        XCTAssertEqual(try control("next").status, 409, "no next after the last song")
        XCTAssertEqual(try control("previous").status, 204)
        XCTAssertTrue(waitFor("mpv playing the first song again") { _ in (self.mpvProperty(socket, "path") as? String)?.hasSuffix("one.mp3") == true })
        XCTAssertEqual(try status()["currentIndex"] as? Int, 0)

        // The command line, through the same source.
        let paused = try run(["control", "pause", "--source", source, "--password-file", file])
        XCTAssertEqual(paused.status, 0, paused.stderr)
        XCTAssertEqual(try status()["playing"] as? Bool, false)
        XCTAssertTrue(waitFor("the status after control pause") { _ in now()["status"] as? String == "paused" })
        let mistaken = try run(["control", "pause", "--source", "subsonic+http://tester@127.0.0.1:\(port)"])
        XCTAssertEqual(mistaken.status, 64, "what a user plays cannot be controlled: \(mistaken.stderr)")
        XCTAssertTrue(mistaken.stderr.contains("subsonic-jukebox+"), mistaken.stderr)
        let log = (try? String(contentsOfFile: temp("serve-\(server.process.processIdentifier).log"), encoding: .utf8)) ?? ""
        XCTAssertFalse(log.contains(password), "the password is never printed")
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
