import Foundation
import TestSupport
import XCTest

/// `follow --source mpd` against a real MPD (Debian's `mpd`, with a private configuration, the
/// `null` audio output and a music folder of generated songs), driven with `mpc`. Line changes are
/// measured on MPD's own clock: Tests/Fixtures/mpd-clock.py samples `status` from outside
/// `follow`, and each poster's wall time is placed on MPD's `elapsed`.
final class FollowMPDTests: FollowTestCase {
    private var mpd: Process?
    private var sampler: Process?
    private var port = 0
    private var password: String?

    override func setUpWithError() throws {
        try super.setUpWithError()
        for tool in ["/usr/bin/mpd", "/usr/bin/mpc"] where !FileManager.default.isExecutableFile(atPath: tool) {
            XCTFail("\(tool) is missing: run `make test`, which installs mpd and mpc")
            throw XCTSkip("no \(tool)")
        }
    }

    override func tearDownWithError() throws {
        for process in [sampler, mpd].compactMap({ $0 }) where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try super.tearDownWithError()
    }

    /// Two songs of 12 s with a line a second: the first with an embedded cover, the second with
    /// the folder's `cover.jpg`; both with a sidecar `.lrc`.
    private func makeMusic() throws {
        _ = try makeSong("plain", title: "Second Song", seconds: 12, in: "music/album")
        let bare = try makeSong("bare", title: "First Song", seconds: 12, in: "music/album")
        let covered = temp("music/album/first.mp3")
        let made = try command("/usr/bin/ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", bare, "-i",
                                                   Self.package.appendingPathComponent("Tests/Fixtures/covers/baseline.jpg").path,
                                                   "-map", "0:a", "-map", "1:v", "-c:a", "copy", "-c:v", "mjpeg",
                                                   "-disposition:v", "attached_pic", "-id3v2_version", "3", covered])
        XCTAssertTrue(FileManager.default.fileExists(atPath: covered), "ffmpeg: \(made)")
        try FileManager.default.removeItem(atPath: bare)
        try FileManager.default.moveItem(atPath: temp("music/album/bare.lrc"), toPath: temp("music/album/first.lrc"))
        try FileManager.default.moveItem(atPath: temp("music/album/plain.mp3"), toPath: temp("music/album/second.mp3"))
        try FileManager.default.moveItem(atPath: temp("music/album/plain.lrc"), toPath: temp("music/album/second.lrc"))
        try copyCover(to: "music/album")
    }

    /// Starts MPD on 127.0.0.1 and on a socket in the scratch folder; waits until it answers.
    private func startMPD() throws {
        if port == 0 { port = Self.freePort() }
        try FileManager.default.createDirectory(atPath: temp("mpd/playlists"), withIntermediateDirectories: true)
        var config = """
            music_directory "\(temp("music"))"
            playlist_directory "\(temp("mpd/playlists"))"
            db_file "\(temp("mpd/db"))"
            log_file "\(temp("mpd/log"))"
            bind_to_address "127.0.0.1"
            bind_to_address "\(temp("mpd/socket"))"
            port "\(port)"
            auto_update "no"
            zeroconf_enabled "no"
            audio_output {
                type "null"
                name "null"
                mixer_type "none"
            }

            """
        if let password { config += "password \"\(password)@read,add,control,admin\"\ndefault_permissions \"read\"\n" }
        try Data(config.utf8).write(to: URL(fileURLWithPath: temp("mpd/mpd.conf")))
        mpd = try spawn("/usr/bin/mpd", ["--no-daemon", "--stderr", temp("mpd/mpd.conf")], log: "mpd-stderr.log")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, mpc("status").isEmpty { usleep(50_000) }
        XCTAssertFalse(mpc("status").isEmpty, "MPD did not start: \((try? String(contentsOfFile: temp("mpd-stderr.log"), encoding: .utf8)) ?? "")")
    }

    private func stopMPD() {
        guard let mpd, mpd.isRunning else { return }
        mpd.terminate()
        mpd.waitUntilExit()
    }

    @discardableResult
    private func mpc(_ arguments: String...) -> String {
        let host = (password.map { $0 + "@" } ?? "") + "127.0.0.1"
        return (try? command("/usr/bin/mpc", ["-h", host, "-p", String(port)] + arguments)) ?? ""
    }

    private func startSampler(_ target: String) throws {
        sampler = try spawn("/usr/bin/python3", [Self.package.appendingPathComponent("Tests/Fixtures/mpd-clock.py").path, target,
                                                 temp("clock.jsonl")] + (password.map { [$0] } ?? []), log: "sampler.log")
    }

    /// MPD's `elapsed` at wall time `wall` (ms), between the two samples around it while playing;
    /// nil when there are none within 100 ms on both sides.
    private func mpdElapsed(at wall: Double) -> Double? {
        guard let text = try? String(contentsOfFile: temp("clock.jsonl"), encoding: .utf8) else { return nil }
        let samples = text.split(separator: "\n").compactMap { line -> (wall: Double, elapsed: Double)? in
            guard let fields = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  fields["state"] as? String == "play", let w = fields["wall_ms"] as? Double, let e = fields["elapsed_ms"] as? Double else { return nil }
            return (w, e)
        }
        guard let after = samples.firstIndex(where: { $0.wall >= wall }), after > 0 else { return nil }
        let (a, b) = (samples[after - 1], samples[after])
        guard wall - a.wall <= 100, b.wall - wall <= 100, b.elapsed >= a.elapsed, b.elapsed - a.elapsed <= b.wall - a.wall + 50 else { return nil }
        return a.elapsed + (b.elapsed - a.elapsed) * (wall - a.wall) / max(1, b.wall - a.wall)
    }

    /// For each line change the timer made (frame k then k+1 of one song), how far MPD's own
    /// clock was past the line's start when the poster was in place (ms; negative: early).
    private func latenessOnMPDClock(_ posters: [Event]) -> [Double] {
        zip(posters, posters.dropFirst()).compactMap { previous, next in
            guard next.frame == previous.frame + 1, next.track == previous.track, let elapsed = mpdElapsed(at: Double(next.wall)) else { return nil }
            return elapsed - Double(next.start)
        }
    }

    private func report(_ label: String, _ lateness: [Double]) {
        let sorted = lateness.sorted()
        guard !sorted.isEmpty else { return }
        let median = sorted[sorted.count / 2], worst = sorted.max { abs($0) < abs($1) } ?? 0
        print(String(format: "MPD clock, %@: %d line changes, median %.1f ms, worst %.1f ms", label, sorted.count, median, worst))
    }

    func testFollowsMPDOnItsOwnClockThroughSeekPauseNextAndARestart() throws {
        try makeMusic()
        try startMPD()
        mpc("update", "--wait")
        mpc("add", "album/first.mp3")
        mpc("add", "album/second.mp3")
        try startSampler(temp("mpd/socket"))
        // Over the local socket, MPD names its music directory itself: no --music-dir.
        let follower = try follow(["--source", "mpd://" + temp("mpd/socket")])
        XCTAssertTrue(events().contains { $0.kind == "waiting" || $0.kind == "player-found" }, record)
        mpc("play")

        XCTAssertTrue(waitFor("line 6 of the first song") { $0.contains { $0.kind == "poster" && $0.track == "First Song" && $0.line == 6 } })
        let song = try XCTUnwrap(events().first { $0.kind == "song" && $0.track == "First Song" }, record)
        XCTAssertEqual(song.fields["lyrics"] as? String, "sidecar:first.lrc")
        XCTAssertEqual(song.fields["cover"] as? String, "apic", record)  // the ID3 picture frame
        let early = posters.filter { $0.track == "First Song" }
        let lines = early.compactMap(\.line)
        XCTAssertEqual(lines, Array((lines.first ?? 0)...(lines.last ?? 0)), "posters skipped or repeated a line; \(record)")
        var lateness = latenessOnMPDClock(early)
        XCTAssertGreaterThanOrEqual(lateness.count, 4, "line changes measured on MPD's clock; \(record)")
        for late in lateness { XCTAssertLessThanOrEqual(abs(late), FollowBound.lateness, "a line change \(late) ms off MPD's clock") }

        // A seek shows its line within 500 ms of mpc having told MPD.
        let before = nowMs
        mpc("seek", "9")
        let seekedAt = nowMs
        XCTAssertTrue(waitFor("the 9 s line after the seek") { $0.contains { $0.kind == "poster" && $0.start == 9000 && $0.wall >= before } })
        if let poster = posters.first(where: { $0.start == 9000 && $0.wall >= before }) {
            XCTAssertLessThanOrEqual(poster.wall - seekedAt, 500, "the seeked line came late")
        }

        // Paused: within 500 ms, and nothing more is rendered.
        let pausedAt = nowMs
        mpc("pause")
        XCTAssertTrue(waitFor("the pause") { $0.contains { $0.kind == "status" && ($0.fields["status"] as? String) == "Paused" && $0.wall >= pausedAt } })
        if let paused = events().first(where: { $0.kind == "status" && ($0.fields["status"] as? String) == "Paused" && $0.wall >= pausedAt }) {
            XCTAssertLessThanOrEqual(paused.wall - pausedAt, 500)
        }
        let count = posters.count
        usleep(1_200_000)
        XCTAssertEqual(posters.count, count, "posters were rendered while paused")

        // The next song: its own lyrics and the folder's cover, its lines on time.
        mpc("play")
        mpc("next")
        XCTAssertTrue(waitFor("the second song's line 4") { $0.contains { $0.kind == "poster" && $0.track == "Second Song" && $0.line == 4 } })
        let second = events().first { $0.kind == "song" && $0.track == "Second Song" }
        XCTAssertEqual(second?.fields["lyrics"] as? String, "sidecar:second.lrc")
        XCTAssertEqual(second?.fields["cover"] as? String, "file:cover.jpg", record)
        let later = latenessOnMPDClock(posters.filter { $0.track == "Second Song" })
        for late in later { XCTAssertLessThanOrEqual(abs(late), FollowBound.lateness, "a line change \(late) ms off MPD's clock") }
        lateness += later

        // MPD stopped and started again: the player is lost, then found, and lines go on.
        stopMPD()
        XCTAssertTrue(waitFor("MPD to be lost") { $0.contains { $0.kind == "player-lost" } })
        let restartedAt = nowMs
        try startMPD()
        mpc("add", "album/first.mp3")
        mpc("play")
        XCTAssertTrue(waitFor("posters after the restart", seconds: 30) { events in
            events.contains { $0.kind == "player-found" && $0.wall >= restartedAt }
                && events.contains { $0.kind == "poster" && $0.wall >= restartedAt && $0.track == "First Song" && ($0.line ?? 0) >= 2 }
        })
        let resumed = posters.filter { $0.wall >= restartedAt && $0.track == "First Song" }
        let afterRestart = latenessOnMPDClock(resumed)
        for late in afterRestart { XCTAssertLessThanOrEqual(abs(late), FollowBound.lateness, "after the restart, \(late) ms off MPD's clock") }
        lateness += afterRestart
        report("socket", lateness)
        XCTAssertTrue(follower.isRunning, "follow ended when MPD went away")

        follower.terminate()
        follower.waitUntilExit()
        XCTAssertEqual(follower.terminationStatus, 0)
        XCTAssertEqual(try files(temp("out")), ["now.png"])
    }

    func testAPasswordAndCoversOverTheProtocolWithoutTheMusicFolder() throws {
        try makeMusic()
        password = "s3cret w0rd"
        try startMPD()
        mpc("update", "--wait")
        mpc("add", "album/first.mp3")
        mpc("add", "album/second.mp3")

        // A wrong password: one line naming MPD and the reason, exit 1, at once.
        let wrong = try run(["follow", "--source", "mpd://nope@127.0.0.1:\(port)", "-o", temp("wrong/now.png")],
                            environment: ["DBUS_SESSION_BUS_ADDRESS": busAddress])
        XCTAssertEqual(wrong.status, 1, wrong.stderr)
        XCTAssertEqual(wrong.stderr.split(separator: "\n").count, 1, wrong.stderr)
        XCTAssertTrue(wrong.stderr.hasPrefix("error: mpd://127.0.0.1:\(port): the password was refused"), wrong.stderr)
        XCTAssertFalse(wrong.stderr.contains("nope"), "the password is never printed")

        // The right one from a file; no music folder over TCP: lyrics from --lyrics-dir, covers
        // read from MPD (the embedded picture, then the folder's).
        let file = try write(password! + "\n", to: "password")
        try FileManager.default.createDirectory(atPath: temp("lyrics"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: temp("music/album/first.lrc"), toPath: temp("lyrics/Tester - First Song.lrc"))
        try FileManager.default.copyItem(atPath: temp("music/album/second.lrc"), toPath: temp("lyrics/Second Song.lrc"))
        try startSampler("127.0.0.1:\(port)")
        let follower = try follow(["--source", "mpd://127.0.0.1:\(port)", "--password-file", file, "--lyrics-dir", temp("lyrics")])
        mpc("play")
        XCTAssertTrue(waitFor("line 5 of the first song") { $0.contains { $0.kind == "poster" && $0.track == "First Song" && $0.line == 5 } })
        let first = events().first { $0.kind == "song" && $0.track == "First Song" }
        XCTAssertEqual(first?.fields["lyrics"] as? String, "lyrics-dir:Tester - First Song.lrc", record)
        XCTAssertEqual(first?.fields["cover"] as? String, "mpd:readpicture", record)
        let lateness = latenessOnMPDClock(posters.filter { $0.track == "First Song" })
        XCTAssertGreaterThanOrEqual(lateness.count, 3, record)
        for late in lateness { XCTAssertLessThanOrEqual(abs(late), FollowBound.lateness, "a line change \(late) ms off MPD's clock") }
        report("TCP with a password", lateness)
        mpc("next")
        XCTAssertTrue(waitFor("the second song") { $0.contains { $0.kind == "song" && $0.track == "Second Song" } })
        XCTAssertEqual(events().first { $0.kind == "song" && $0.track == "Second Song" }?.fields["cover"] as? String, "mpd:albumart", record)
        follower.terminate()
        follower.waitUntilExit()
        XCTAssertEqual(follower.terminationStatus, 0)
        let log = try String(contentsOfFile: temp("follow.log"), encoding: .utf8)
        XCTAssertFalse(log.contains(password!), "the password is never printed")
    }

    /// `serve --source mpd` (which implies --follow): /now.json names the line MPD plays, on time.
    func testServeFollowsMPD() throws {
        try makeMusic()
        try startMPD()
        mpc("update", "--wait")
        mpc("add", "album/first.mp3")
        let server = try startServer([temp("music"), "--source", "mpd://" + temp("mpd/socket"), "--size", "360x640"],
                                     environment: ["DBUS_SESSION_BUS_ADDRESS": busAddress])
        mpc("play")
        mpc("seek", "5")
        var now: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let answer = try get(server.base + "/now.json")
            now = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]) ?? [:]
            if let start = now["start_ms"] as? Int, start >= 6000 { break }
            usleep(100_000)
        }
        XCTAssertGreaterThanOrEqual(now["start_ms"] as? Int ?? -1, 6000, "\(now)")
        XCTAssertEqual(now["track"] as? String, "First Song", "\(now)")
        XCTAssertEqual(now["player"] as? String, "mpd", "\(now)")
        let poster = try get(server.base + "/now.png")
        XCTAssertEqual(poster.status, 200)
        XCTAssertEqual(Array(poster.body.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    }

    /// `serve --source mpd` takes controls: each action changes MPD's own `status`, a seek lands
    /// within 250 ms on MPD's clock (sampled from outside by mpd-clock.py) and the line's poster
    /// follows; what MPD cannot do is 409; a stopped MPD is 503, not a hang. Then `control`.
    func testServeControlsMPD() throws {
        try makeMusic()
        try startMPD()
        mpc("update", "--wait")
        mpc("add", "album/first.mp3")
        mpc("add", "album/second.mp3")
        mpc("play")
        try startSampler(temp("mpd/socket"))
        let server = try startServer([temp("music"), "--source", "mpd://127.0.0.1:\(port)", "--music-dir", temp("music"), "--size", "360x640"],
                                     environment: ["DBUS_SESSION_BUS_ADDRESS": busAddress])
        func post(_ action: String, _ extra: [String] = []) throws -> Answer { try curl(["-X", "POST"] + extra + [server.base + "/api/player/" + action]) }
        func now() -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: (try? get(server.base + "/now.json"))?.body ?? Data()) as? [String: Any]) ?? [:]
        }
        func state() -> String { mpc("status").split(separator: "\n").dropFirst().first.map { String($0.prefix(9)) } ?? "" }
        XCTAssertTrue(waitFor("the first poster") { _ in now()["poster"] is String })
        XCTAssertEqual(now()["controls"] as? [String], ["play", "pause", "seek", "next", "previous"])

        for (action, expected) in [("pause", "[paused]"), ("play", "[playing]"), ("toggle", "[paused]"), ("toggle", "[playing]")] {
            let answer = try post(action)
            XCTAssertEqual(answer.status, 204, "\(action): \(String(decoding: answer.body, as: UTF8.self))")
            XCTAssertTrue(waitFor("MPD after \(action)") { _ in state().hasPrefix(expected) }, "\(action): \(state())")
        }
        XCTAssertTrue(waitFor("the server to see MPD play") { _ in now()["status"] as? String == "playing" })

        var errors: [Double] = [], posters: [Double] = []
        for (target, json) in [(7_500, false), (3_250, true)] {
            let answer = json
                ? try post("seek", ["-H", "Content-Type: application/json", "-d", "{\"position_ms\": \(target)}"])
                : try post("seek?position_ms=\(target)")
            let answered = Double(nowMs)
            XCTAssertEqual(answer.status, 204, String(decoding: answer.body, as: UTF8.self))
            var shown: Double?
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, shown == nil {
                if now()["start_ms"] as? Int == target / 1000 * 1000 { shown = Double(nowMs) - answered }
                usleep(10_000)
            }
            XCTAssertLessThanOrEqual(try XCTUnwrap(shown, "the \(target) ms line's poster never came"), 500)
            posters.append(shown ?? -1)
            // MPD's own clock 300 ms after the 204, against where the seek should have it by then.
            usleep(600_000)
            let elapsed = try XCTUnwrap(mpdElapsed(at: answered + 300), "no MPD clock samples around the seek")
            errors.append(elapsed - Double(target) - 300)
            XCTAssertLessThanOrEqual(abs(errors.last ?? 999), 250, "MPD was at \(elapsed) ms 300 ms after a seek to \(target) ms")
        }
        print("seek accuracy on MPD (ms, its elapsed less the asked position): \(errors.map { Int($0.rounded()) }); "
              + "poster of the seeked line after the 204 (ms): \(posters.map { Int($0.rounded()) })")

        XCTAssertEqual(try post("seek?position_ms=60000").status, 422, "past the end of a 12 s song")
        XCTAssertEqual(try post("next").status, 204)
        XCTAssertTrue(waitFor("MPD's second song") { _ in self.mpc("current").contains("second") || self.mpc("current").contains("Second") })
        XCTAssertTrue(waitFor("the second song's poster") { _ in now()["track"] as? String == "Second Song" })
        XCTAssertEqual(try post("previous").status, 204)
        XCTAssertTrue(waitFor("MPD's first song") { _ in self.mpc("current").contains("First") })

        // Stopped: nothing to pause or seek (409); play starts the queue.
        mpc("stop")
        XCTAssertTrue(waitFor("the server to see the stop") { _ in now()["status"] as? String == "stopped" })
        XCTAssertEqual(now()["controls"] as? [String], ["play"])
        let seekStopped = try post("seek?position_ms=1000")
        XCTAssertEqual(seekStopped.status, 409)
        XCTAssertTrue(String(decoding: seekStopped.body, as: UTF8.self).contains("nothing is playing"))
        let cli = try run(["control", "toggle", "--source", "mpd://127.0.0.1:\(port)"])
        XCTAssertEqual(cli.status, 0, cli.stderr)
        XCTAssertTrue(waitFor("MPD to play from the command line") { _ in state().hasPrefix("[playing]") })
        let cliSeek = try run(["control", "seek", "9", "--source", "mpd://127.0.0.1:\(port)"])
        XCTAssertEqual(cliSeek.status, 0, cliSeek.stderr)

        // MPD stops answering: 503 once its timeouts are up, never a hang.
        let stopped = try XCTUnwrap(mpd)
        kill(stopped.processIdentifier, SIGSTOP)
        let answer = try post("pause")
        kill(stopped.processIdentifier, SIGCONT)
        XCTAssertEqual(answer.status, 503, String(decoding: answer.body, as: UTF8.self))
        let metrics = String(decoding: try get(server.base + "/metrics").body, as: UTF8.self)
        XCTAssertTrue(metrics.contains("lyricposter_player_controls_total{action=\"pause\",result=\"unavailable\"} 1"), metrics)
    }

    /// `--exec` with `{path}` gets a fresh name for each poster (desktops cache wallpapers by path),
    /// the one before removed; `--latency` holds line changes back by that much on MPD's clock.
    func testAFreshPathForEachPosterAndLatency() throws {
        try makeMusic()
        try startMPD()
        mpc("update", "--wait")
        mpc("add", "album/second.mp3")
        try startSampler(temp("mpd/socket"))
        let seen = temp("exec.log")
        let follower = try follow(["--source", "mpd://" + temp("mpd/socket"), "--latency", "300",
                                   "--exec", "test -f {path} && cmp -s {path} \"$(dirname {path})/now.png\"; echo \"$? {path}\" >> '\(seen)'"])
        mpc("play")
        XCTAssertTrue(waitFor("line 5") { $0.contains { $0.kind == "poster" && $0.line == 5 } })
        usleep(300_000)
        let runs = ((try? String(contentsOfFile: seen, encoding: .utf8)) ?? "").split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1) }
        XCTAssertGreaterThanOrEqual(runs.count, 4, "\(runs)")
        XCTAssertTrue(runs.allSatisfy { $0.first == "0" }, "each path is the poster of its moment: \(runs)")
        let paths = runs.compactMap { $0.last.map(String.init) }
        XCTAssertEqual(Set(paths).count, paths.count, "a new path each time: \(paths)")
        XCTAssertTrue(paths.allSatisfy { $0.hasPrefix(temp("out/now-")) && $0.hasSuffix(".png") }, "\(paths)")
        // Only the latest is kept beside the output.
        let kept = try files(temp("out")).filter { $0 != "now.png" }
        XCTAssertLessThanOrEqual(kept.count, 2, "old posters are removed: \(kept)")
        XCTAssertTrue(kept.contains((paths.last! as NSString).lastPathComponent) || kept.count == 2, "\(kept)")
        let lateness = latenessOnMPDClock(posters.filter { $0.track == "Second Song" })
        XCTAssertGreaterThanOrEqual(lateness.count, 3, record)
        for late in lateness { XCTAssertEqual(late, 300, accuracy: FollowBound.lateness, "--latency 300: a line change \(late) ms past its start") }
        report("--latency 300", lateness)
        follower.terminate()
        follower.waitUntilExit()
    }
}
