import Foundation
import TestSupport
import XCTest

/// Controlling the player from the poster screen, against a real mpv with its MPRIS plugin on a
/// private session bus: `POST /api/player/ACTION` and `lyricposter control`, each checked on mpv's
/// own state read over its JSON IPC socket (not over MPRIS, the path under test); the lock-screen
/// page in headless chromium; tokens, a read-only server and a player that stops answering.
final class ServeControlTests: FollowTestCase {
    /// mpv at normal speed (its clock is the reference), with its IPC socket.
    private func mpvWithSocket(_ files: [String]) throws -> (process: Process, socket: String) {
        let socket = temp("mpv.sock")
        let process = try spawn("/usr/bin/mpv", ["--no-config", "--script=/usr/lib/mpv-mpris/mpris.so", "--ao=null", "--no-video",
                                                 "--keep-open=yes", "--really-quiet", "--input-ipc-server=\(socket)"] + files, log: "mpv.log")
        XCTAssertTrue(waitFor("mpv's IPC socket") { _ in self.mpvProperty(socket, "playlist-pos") != nil })
        return (process, socket)
    }

    /// Two songs of a line a second, the first 30 s and the second 20 s, with the cover.
    private func makeMusic() throws -> [String] {
        let first = try makeSong("first", title: "First Song", seconds: 30, in: "music")
        let second = try makeSong("second", title: "Second Song", seconds: 20, in: "music")
        try copyCover(to: "music")
        return [first, second]
    }

    private func control(_ base: String, _ action: String, _ extra: [String] = []) throws -> Answer {
        try curl(["-X", "POST"] + extra + [base + "/api/player/" + action])
    }

    private func now(_ base: String, _ extra: [String] = []) -> [String: Any] {
        guard let answer = try? get(base + "/now.json", headers: extra) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]) ?? [:]
    }

    /// Seeks over HTTP and measures where mpv is just after the 204 (its own clock, less the time
    /// it played since), then how long `/now.json` took to name the poster of the line mpv is in.
    /// (Paused, mpv reports where its demuxer landed, up to 0.2 s before the target on these MP3s,
    /// and finishes the seek when it plays: the test measures that case after playing.)
    private func seek(_ base: String, toMs target: Int, json: Bool) throws -> (errorMs: Double, posterMs: Double?) {
        let socket = temp("mpv.sock")
        let answer = json
            ? try control(base, "seek", ["-H", "Content-Type: application/json", "-d", "{\"position_ms\": \(target)}"])
            : try control(base, "seek?position_ms=\(target)")
        let answered = Date()
        XCTAssertEqual(answer.status, 204, String(decoding: answer.body, as: UTF8.self))
        let position = (mpvProperty(socket, "time-pos") as? Double ?? -1) * 1000
        let playing = (mpvProperty(socket, "pause") as? Bool) == false
        let error = position - Double(target) - (playing ? Date().timeIntervalSince(answered) * 1000 : 0)
        if playing { XCTAssertLessThanOrEqual(abs(error), 250, "mpv is at \(position) ms after a seek to \(target) ms") }
        let line = Int(position) / 1000 * 1000
        var posterMs: Double?
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if now(base)["start_ms"] as? Int == line { posterMs = Date().timeIntervalSince(answered) * 1000; break }
            usleep(10_000)
        }
        let shown = try XCTUnwrap(posterMs, "the poster of the \(line) ms line never came")
        // As for `follow`: a seek's line is on screen within 500 ms (FollowMPVTests).
        XCTAssertLessThanOrEqual(shown, 500, "the seeked line's poster came \(shown) ms after the 204")
        return (error, posterMs)
    }

    func testEveryControlReachesMPVAndThePosterFollows() throws {
        let songs = try makeMusic()
        let server = try startServer([temp("music"), "--follow", "--player", "mpv", "--size", "360x640"], environment: environment)
        XCTAssertEqual(try control(server.base, "pause").status, 409, "no player yet: nothing to control")
        let (player, socket) = try mpvWithSocket(songs)
        XCTAssertTrue(waitFor("the first poster") { _ in self.now(server.base)["poster"] is String })
        let state = now(server.base)
        XCTAssertEqual(state["controls"] as? [String], ["play", "pause", "seek", "next", "previous"], "\(state)")
        XCTAssertEqual(Double(state["duration_ms"] as? Int ?? 0), 30_000, accuracy: 200)

        // Pause, play, toggle: mpv's own `pause` property; the server's status follows.
        for (action, paused) in [("pause", true), ("play", false), ("toggle", true), ("toggle", false)] {
            let answer = try control(server.base, action)
            XCTAssertEqual(answer.status, 204, "\(action): \(String(decoding: answer.body, as: UTF8.self))")
            XCTAssertTrue(waitFor("mpv after \(action)") { _ in self.mpvProperty(socket, "pause") as? Bool == paused })
            XCTAssertTrue(waitFor("the status after \(action)") { _ in
                self.now(server.base)["status"] as? String == (paused ? "paused" : "playing")
            })
        }

        // Seeks, by query and by JSON body, while playing and while paused.
        var errors: [Double] = [], posters: [Double] = []
        for (target, json) in [(20_500, false), (5_250, true)] {
            let (error, poster) = try seek(server.base, toMs: target, json: json)
            errors.append(error)
            posters.append(poster ?? -1)
        }
        XCTAssertEqual(try control(server.base, "pause").status, 204)
        XCTAssertTrue(waitFor("mpv paused") { _ in self.mpvProperty(socket, "pause") as? Bool == true })
        let (_, pausedPoster) = try seek(server.base, toMs: 12_000, json: false)
        posters.append(pausedPoster ?? -1)
        XCTAssertEqual(try control(server.base, "play").status, 204)
        let played = Date()
        usleep(300_000)
        let resumed = (mpvProperty(socket, "time-pos") as? Double ?? -1) * 1000
        let pausedError = resumed - 12_000 - Date().timeIntervalSince(played) * 1000
        XCTAssertLessThanOrEqual(abs(pausedError), 250, "mpv played from \(resumed) ms after a paused seek to 12000 ms")
        errors.append(pausedError)
        print("seek accuracy on mpv (ms, mpv's time-pos less the asked position): \(errors.map { Int($0.rounded()) }); "
              + "poster of the seeked line after the 204 (ms): \(posters.map { Int($0.rounded()) })")

        // Past the end: 422, and mpv stays where it was.
        let past = try control(server.base, "seek?position_ms=99000")
        XCTAssertEqual(past.status, 422)
        XCTAssertTrue(String(decoding: past.body, as: UTF8.self).contains("past the end"), String(decoding: past.body, as: UTF8.self))
        XCTAssertLessThan(mpvProperty(socket, "time-pos") as? Double ?? 99, 29)

        // Next and previous: mpv's playlist position, and the new song's posters.
        XCTAssertEqual(try control(server.base, "next").status, 204)
        XCTAssertTrue(waitFor("mpv's next track") { _ in self.mpvProperty(socket, "playlist-pos") as? Int == 1 })
        XCTAssertTrue(waitFor("the second song") { _ in self.now(server.base)["track"] as? String == "Second Song" })
        XCTAssertEqual(try control(server.base, "previous").status, 204)
        XCTAssertTrue(waitFor("mpv's first track again") { _ in self.mpvProperty(socket, "playlist-pos") as? Int == 0 })

        // Another site's page, or a rebound name, is refused, and mpv is left alone.
        let foreign = try control(server.base, "pause", ["-H", "Origin: http://music.example"])
        XCTAssertEqual(foreign.status, 403)
        let rebound = try control(server.base, "pause", ["-H", "Host: music.example"])
        XCTAssertEqual(rebound.status, 403)
        XCTAssertEqual(try control(server.base, "pause", ["-H", "Origin: \(server.base)"]).status, 204, "the server's own page")
        XCTAssertEqual(try control(server.base, "eject").status, 404)

        // Counted by action and result.
        let metrics = String(decoding: try get(server.base + "/metrics").body, as: UTF8.self)
        for line in ["lyricposter_player_controls_total{action=\"seek\",result=\"done\"} 3",
                     "lyricposter_player_controls_total{action=\"seek\",result=\"invalid\"} 1",
                     "lyricposter_player_controls_total{action=\"pause\",result=\"refused\"} 2",
                     "lyricposter_player_controls_total{action=\"pause\",result=\"cannot\"} 1",
                     "lyricposter_player_controls_total{action=\"toggle\",result=\"done\"} 2"] {
            XCTAssertTrue(metrics.contains(line), "no \(line) in:\n\(metrics.split(separator: "\n").filter { $0.contains("controls") }.joined(separator: "\n"))")
        }

        // The command line, through the same code.
        let play = try run(["control", "play", "--player", "mpv"], environment: environment)
        XCTAssertEqual(play.status, 0, play.stderr)
        XCTAssertTrue(waitFor("mpv to play from the command line") { _ in self.mpvProperty(socket, "pause") as? Bool == false })
        let pause = try run(["control", "toggle"], environment: environment)
        XCTAssertEqual(pause.status, 0, pause.stderr)
        XCTAssertTrue(waitFor("mpv to pause from the command line") { _ in self.mpvProperty(socket, "pause") as? Bool == true })
        let seek = try run(["control", "seek", "0:17.5", "--player", "mpv"], environment: environment)
        XCTAssertEqual(seek.status, 0, seek.stderr)
        XCTAssertEqual((mpvProperty(socket, "time-pos") as? Double ?? 0) * 1000, 17_500, accuracy: 250, "paused: exactly where asked")
        let missing = try run(["control", "next", "--player", "nosuchplayer"], environment: environment)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "error: next: no MPRIS player named nosuchplayer is running\n")
        let usage = try run(["control", "seek"], environment: environment)
        XCTAssertEqual(usage.status, 64, usage.stderr)

        // A player that stops answering: 503 once its 2 s are up, never a hang; one that is gone: 409.
        kill(player.processIdentifier, SIGSTOP)
        let stopped = try control(server.base, "play")
        kill(player.processIdentifier, SIGCONT)
        XCTAssertEqual(stopped.status, 503, String(decoding: stopped.body, as: UTF8.self))
        XCTAssertTrue(String(decoding: stopped.body, as: UTF8.self).contains("mpv did not take it"))
        kill(player.processIdentifier, SIGKILL)
        player.waitUntilExit()
        XCTAssertTrue(waitFor("the server to lose mpv") { _ in self.now(server.base)["status"] as? String == "waiting" })
        let gone = try control(server.base, "play")
        XCTAssertEqual(gone.status, 409, String(decoding: gone.body, as: UTF8.self))
        let cli = try run(["control", "play"], environment: environment)
        XCTAssertEqual(cli.status, 1)
        XCTAssertEqual(cli.stderr, "error: play: no MPRIS player is running\n")
    }

    /// Beyond loopback: the token rules, a view-only token and a read-only server; then the
    /// lock-screen page in headless chromium, clicked and dragged, with screenshots.
    func testLockScreenControlsInABrowserAndTheTokenRules() throws {
        let songs = try makeMusic()
        let server = try startServer([temp("music"), "--follow", "--player", "mpv", "--size", "360x640", "--listen", "127.0.0.2",
                                      "--token", "control-token-1", "--view-token", "view-token-1"], environment: environment)
        let (_, socket) = try mpvWithSocket(songs)
        let full = ["-H", "Authorization: Bearer control-token-1"], view = ["-H", "Authorization: Bearer view-token-1"]
        XCTAssertTrue(waitFor("the first poster") { _ in self.now(server.base, full)["poster"] is String })

        XCTAssertEqual(try control(server.base, "pause").status, 401, "no token")
        XCTAssertEqual(try control(server.base, "pause", ["-H", "Authorization: Bearer wrong-token-1"]).status, 401)
        let viewOnly = try control(server.base, "pause", view)
        XCTAssertEqual(viewOnly.status, 403, "the view token cannot control")
        XCTAssertTrue(String(decoding: viewOnly.body, as: UTF8.self).contains("--view-token"))
        XCTAssertEqual(try curl(["-X", "POST"] + view + [server.base + "/api/rescan"]).status, 403, "nor post anything else")
        XCTAssertEqual(try get(server.base + "/now.png", headers: view).status, 200, "but it sees posters")
        XCTAssertTrue(now(server.base, view)["controls"] is NSNull, "\(now(server.base, view))")
        XCTAssertEqual(now(server.base, full)["controls"] as? [String], ["play", "pause", "seek", "next", "previous"])
        XCTAssertEqual(mpvProperty(socket, "pause") as? Bool, false, "nothing refused reached mpv")
        let allowed = try control(server.base + "", "seek?position_ms=4000&token=control-token-1")
        XCTAssertEqual(allowed.status, 204, String(decoding: allowed.body, as: UTF8.self))

        try requireBrowser()
        let result = try run([Self.package.appendingPathComponent("Tests/Fixtures/browser-check.py").path, "controls",
                              "--base", server.base, "--token", "control-token-1", "--view-token", "view-token-1",
                              "--mpv-socket", socket, "--shots", Self.screenshots], environment: environment, executable: "/usr/bin/python3")
        if result.status == 77 { throw XCTSkip("the browser could not start: \(result.stdout)") }
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        print("browser controls: \(result.stdout.split(separator: "\n").last ?? "")")
    }

    func testAReadOnlyServerShowsPostersWithoutControls() throws {
        let songs = try makeMusic()
        let server = try startServer([temp("music"), "--follow", "--player", "mpv", "--size", "360x640", "--read-only"], environment: environment)
        let (_, socket) = try mpvWithSocket(songs)
        XCTAssertTrue(waitFor("the first poster") { _ in self.now(server.base)["poster"] is String })
        XCTAssertTrue(now(server.base)["controls"] is NSNull)
        let refused = try control(server.base, "pause")
        XCTAssertEqual(refused.status, 403)
        XCTAssertTrue(String(decoding: refused.body, as: UTF8.self).contains("--read-only"))
        usleep(300_000)
        XCTAssertEqual(mpvProperty(socket, "pause") as? Bool, false)
    }
}

extension FollowTestCase {
    /// One of mpv's properties over its JSON IPC socket (`--input-ipc-server`): the player's own
    /// state, apart from MPRIS. Nil when mpv does not answer within 3 s.
    func mpvProperty(_ path: String, _ name: String) -> Any? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, byte) in bytes.enumerated() { raw[i] = byte } }
        var timeout = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return nil }
        let request = Array("{\"command\": [\"get_property\", \"\(name)\"], \"request_id\": 9}\n".utf8)
        guard request.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return nil }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                // mpv also writes its events on the socket; the answer carries the request id.
                if let message = try? JSONSerialization.jsonObject(with: line) as? [String: Any], message["request_id"] as? Int == 9 {
                    return message["error"] as? String == "success" ? message["data"] : nil
                }
            }
        }
    }
}
