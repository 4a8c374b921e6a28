import Foundation
import XCTest

/// `follow` against real players, measured from outside on each player's own clock
/// (Tests/Fixtures/measure-lateness.py reads the player's Position every 10 ms and watches the
/// poster file every 5 ms). VLC refuses to run as root, so as root the run happens as an ordinary
/// user made for the tests, on that user's own session bus.
final class FollowRealPlayersTests: CLITestCase {
    static let user = "lyricposter-test"

    /// A folder every user may use, with a 30 s song (a line every 1.7 s) and its cover.
    func songFolder() throws -> String {
        let folder = temp("players")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        chmod(folder, 0o777)
        var parent = (folder as NSString).deletingLastPathComponent
        while parent != "/" && !parent.isEmpty {
            var info = stat()
            if stat(parent, &info) == 0 { chmod(parent, info.st_mode | 0o011) }
            parent = (parent as NSString).deletingLastPathComponent
        }
        let made = try run(["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=30",
                            "-metadata", "title=Real", "-metadata", "artist=Tester", "-q:a", "9", folder + "/song.mp3"], executable: "/usr/bin/ffmpeg")
        XCTAssertEqual(made.status, 0, made.stderr)
        let lines = (1...16).map { i -> String in
            let ms = i * 1700
            return String(format: "[%02d:%02d.%02d]Real line %d", ms / 60000, ms / 1000 % 60, ms % 1000 / 10, i)
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: folder + "/song.lrc"))
        try FileManager.default.copyItem(atPath: Self.package.appendingPathComponent(cover).path, toPath: folder + "/cover.jpg")
        for name in ["song.mp3", "song.lrc", "cover.jpg"] { chmod(folder + "/" + name, 0o644) }
        return folder
    }

    /// Runs the player, follow and the measurement on a private bus (as the test user when root).
    func measure(_ player: String, seconds: Int) throws -> [String: Any] {
        for tool in ["/usr/bin/dbus-run-session", "/usr/bin/ffmpeg", player == "vlc" ? "/usr/bin/cvlc" : "/usr/bin/mpv"] {
            guard FileManager.default.isExecutableFile(atPath: tool) else {
                print("SKIPPED: \(tool) is missing; `make test` installs vlc-bin, vlc-plugin-base, mpv, mpv-mpris and dbus")
                throw XCTSkip("\(tool) is missing: run `make test`")
            }
        }
        let folder = try songFolder()
        let result = try onPrivateBus(["Tests/Fixtures/follow-player.sh", Self.binary.path, folder, player, String(seconds), folder + "/song.mp3"])
        let json = result.stdout.split(separator: "\n").last(where: { $0.contains("lateness_ms") || $0.contains("error") }).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        guard let json, json["error"] == nil else {
            let log = (try? String(contentsOfFile: folder + "/follow.log", encoding: .utf8)) ?? ""
            XCTFail("\(player): no measurement: \(result.stdout) \(result.stderr)\nfollow: \(log)")
            throw XCTSkip("no measurement")
        }
        return json
    }

    /// Runs a fixture script (its path from the package, then its arguments) under
    /// dbus-run-session: a private session bus, as the test user when root (VLC refuses root).
    func onPrivateBus(_ arguments: [String]) throws -> Run {
        let script = Self.package.appendingPathComponent(arguments[0]).path
        let command = ["/usr/bin/dbus-run-session", "--", script] + arguments.dropFirst()
        guard getuid() == 0 else { return try run(Array(command.dropFirst()), executable: command[0]) }
        if try run(["-u", Self.user], executable: "/usr/bin/id").status != 0 {
            let made = try run(["--system", "--create-home", "--shell", "/usr/sbin/nologin", Self.user], executable: "/usr/sbin/useradd")
            XCTAssertEqual(made.status, 0, "cannot make the test user: \(made.stderr)")
        }
        return try run(["-u", Self.user, "--"] + command, executable: "/usr/sbin/runuser")
    }

    func check(_ player: String, _ json: [String: Any]) {
        let late = json["lateness_ms"] as? [Double] ?? []
        print("follow with \(player), on its own clock: \(late.count) line changes, median \(json["median"] ?? "-") ms, p95 \(json["p95"] ?? "-") ms, worst \(json["worst"] ?? "-") ms (\(json["steps"] ?? 0) position steps, rate \(json["rate"] ?? "-")): \(late) ms")
        XCTAssertGreaterThanOrEqual(late.count, 8, "\(player): \(json)")
        // The first counted change comes 1.7 s into playback, while follow has only just found the
        // player and loaded the song (this is the debug build). In full-suite runs VLC's came
        // 103.8 and 108.6 ms late, every later one within 10 ms; run alone 7 times, the worst
        // change of a run was 5.7 to 94.9 ms, and in the two runs listed the first came 0.1 and
        // 67.1 ms late, the later ones within 15 ms. So the first may take 250 ms, and every later
        // one is held to the follow tests' bound.
        if let first = late.first { XCTAssertLessThanOrEqual(abs(first), 250, "\(player): first change \(first) ms late: \(late)") }
        for value in late.dropFirst() { XCTAssertLessThanOrEqual(abs(value), FollowBound.lateness, "\(player): lateness \(value) ms: \(late)") }
        if let median = json["median"] as? Double { XCTAssertLessThanOrEqual(abs(median), 30, "\(player): median \(median) ms") }
    }

    func testVLCIsFollowedOnItsOwnClock() throws {
        check("vlc", try measure("vlc", seconds: 20))
    }

    func testMPVIsFollowedOnItsOwnClock() throws {
        check("mpv", try measure("mpv", seconds: 20))
    }

    /// VLC controlled from the poster screen: `serve --follow` and `control` drive a real VLC
    /// (Tests/Fixtures/control-player.sh), each step checked on what VLC itself then reports.
    func testVLCIsControlledFromThePosterScreen() throws {
        for tool in ["/usr/bin/dbus-run-session", "/usr/bin/cvlc", "/usr/bin/playerctl", "/usr/bin/curl"] {
            guard FileManager.default.isExecutableFile(atPath: tool) else {
                print("SKIPPED: \(tool) is missing; `make test` installs vlc-bin, vlc-plugin-base, playerctl, curl and dbus")
                throw XCTSkip("\(tool) is missing: run `make test`")
            }
        }
        let folder = try songFolder()
        let result = try onPrivateBus(["Tests/Fixtures/control-player.sh", Self.binary.path, folder])
        let steps = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let log = (try? String(contentsOfFile: folder + "/serve.log", encoding: .utf8)) ?? ""
        XCTAssertEqual(steps.count, 11, "\(result.stdout) \(result.stderr)\nserve: \(log)")
        XCTAssertEqual(steps.first?["vlc"] as? String, "Playing", "\(steps.first ?? [:])")
        for step in steps {
            switch step["step"] as? String {
            case "pause", "play", "toggle":
                XCTAssertEqual(step["http"] as? Int, 204, "\(step)")
            case "seek":
                XCTAssertEqual(step["http"] as? Int, 204, "\(step)")
                let target = step["target_ms"] as? Int ?? 0, at = step["vlc_ms"] as? Int ?? -1
                // VLC's Position moves in steps: at the target, or a moment past it while playing.
                XCTAssertTrue((target - 250...target + 400).contains(at), "VLC at \(at) ms after a seek to \(target) ms: \(step)")
                XCTAssertEqual(step["start_ms"] as? Int, step["line_ms"] as? Int, "the seeked line's poster: \(step)")
            case "past-end":
                XCTAssertEqual(step["http"] as? Int, 422, "\(step)")
            case "control-play":
                XCTAssertEqual(step["exit"] as? Int, 0, "\(step)")
                XCTAssertEqual(step["vlc"] as? String, "Playing", "\(step)")
            case "control-seek":
                XCTAssertEqual(step["exit"] as? Int, 0, "\(step)")
                XCTAssertTrue((4750...5400).contains(step["vlc_ms"] as? Int ?? 0), "\(step)")
            default: break
            }
        }
        let expected = ["pause": "Paused", "play": "Playing"]
        for (step, next) in zip(steps.dropFirst(), steps.dropFirst(2)) where step["step"] as? String == "toggle" && next["step"] as? String == "toggle" {
            XCTAssertEqual([step["vlc"] as? String, next["vlc"] as? String], ["Paused", "Playing"], "toggle twice")
        }
        for step in steps {
            if let name = step["step"] as? String, let want = expected[name] { XCTAssertEqual(step["vlc"] as? String, want, "\(step)") }
        }
        let seeks = steps.filter { $0["step"] as? String == "seek" }.map { "\($0["target_ms"] ?? "-")→\($0["vlc_ms"] ?? "-")" }
        print("vlc controls: seeks (asked→VLC's Position, ms) \(seeks.joined(separator: ", "))")
    }
}
