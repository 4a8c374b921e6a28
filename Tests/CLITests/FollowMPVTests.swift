import Foundation
import TestSupport
import XCTest

/// `follow` against a real player: mpv with its MPRIS plugin on a private session bus, at double
/// speed, playing generated songs with a lyric line every second.
final class FollowMPVTests: FollowTestCase {
    func testFollowsMPVLineByLineThroughSeekPauseTrackChangeAndRestart() throws {
        let first = try makeSong("first", title: "First Song", seconds: 16, in: "music")
        let second = try makeSong("second", title: "Second Song", seconds: 8, in: "music")
        try copyCover(to: "music")
        let follower = try follow(["--player", "mpv"])
        XCTAssertTrue(events().contains { $0.kind == "waiting" })
        var player = try mpv([first, second])

        // Every line, in order, each on time.
        XCTAssertTrue(waitFor("line 5") { events in events.contains { $0.kind == "poster" && $0.line == 5 } })
        let early = posters.filter { $0.track == "First Song" }
        let lines = early.compactMap(\.line)
        XCTAssertEqual(lines, Array((lines.first ?? 0)...(lines.last ?? 0)), "posters skipped or repeated a line; \(record)")
        let lateness = boundaryLateness(early, rate: 2)
        XCTAssertGreaterThanOrEqual(lateness.count, 3)
        let slack = FollowBound.lateness
        for late in lateness { XCTAssertLessThanOrEqual(late, slack, "a line change was \(late) ms late") }
        for (a, b) in zip(early, early.dropFirst()) where b.frame == a.frame + 1 && a.frame > (early.first?.frame ?? 0) {
            // A line a second long lasts 500 ms at double speed.
            XCTAssertEqual(Double(b.wall - a.wall), 500, accuracy: slack, "lines \(a.frame)→\(b.frame)")
        }

        // A seek shows its line at once: within 500 ms of playerctl having told mpv.
        let before = nowMs
        try playerctl("-p", "mpv", "position", "12")
        let seekedAt = nowMs
        XCTAssertTrue(waitFor("the 12 s line after the seek") { $0.contains { $0.kind == "poster" && $0.start == 12000 && $0.wall >= before } })
        if let poster = posters.first(where: { $0.start == 12000 && $0.wall >= before }) {
            XCTAssertLessThanOrEqual(poster.wall - seekedAt, 500, "the seeked line came late")
        }

        // Paused: nothing more is rendered, and the poster in place is `frame` at its line.
        try playerctl("-p", "mpv", "pause")
        XCTAssertTrue(waitFor("the pause") { $0.contains { $0.kind == "status" && ($0.fields["status"] as? String) == "Paused" } })
        let count = posters.count
        usleep(1_200_000)
        XCTAssertEqual(posters.count, count, "posters were rendered while paused")
        let shown = try XCTUnwrap(posters.last)
        let placed = try Data(contentsOf: URL(fileURLWithPath: temp("out/now.png")))
        let frame = try run(["frame", first, "--at", "\(shown.start)ms", "--no-karaoke", "--size", "360x640", "-o", temp("frame.png")])
        XCTAssertEqual(frame.status, 0, frame.stderr)
        XCTAssertTrue(placed == (try Data(contentsOf: URL(fileURLWithPath: temp("frame.png")))),
                      "the poster at \(shown.start) ms is not `frame --at` byte for byte")

        // The next track loads its own lyrics.
        try playerctl("-p", "mpv", "play")
        try playerctl("-p", "mpv", "next")
        XCTAssertTrue(waitFor("the second song's lines") { events in
            events.contains { $0.kind == "song" && $0.track == "Second Song" && ($0.fields["lyrics"] as? String) == "sidecar:second.lrc" }
                && events.contains { $0.kind == "poster" && $0.track == "Second Song" && $0.line != nil }
        })

        // mpv killed and started again.
        player.interrupt()
        kill(player.processIdentifier, SIGKILL)
        player.waitUntilExit()
        XCTAssertTrue(waitFor("the player to be lost") { $0.contains { $0.kind == "player-lost" } })
        let restartedAt = nowMs
        player = try mpv([first])
        XCTAssertTrue(waitFor("posters after the restart") { events in
            events.contains { $0.kind == "player-found" && $0.wall >= restartedAt }
                && events.contains { $0.kind == "poster" && $0.wall >= restartedAt && $0.track == "First Song" }
        })
        XCTAssertTrue(follower.isRunning, "follow ended when the player went away")

        // SIGTERM: exit 0, the last poster in place, nothing half-written left behind.
        follower.terminate()
        follower.waitUntilExit()
        XCTAssertEqual(follower.terminationStatus, 0)
        XCTAssertEqual(try files(temp("out")), ["now.png"])
        let log = try String(contentsOfFile: temp("follow.log"), encoding: .utf8)
        XCTAssertLessThan(log.split(separator: "\n").count, 20, "follow logs per poster:\n\(log)")
    }

    func testPublishesTheCurrentLineAndForwardsControls() throws {
        let first = try makeSong("first", title: "First Song", seconds: 16, in: "music")
        try copyCover(to: "music")
        _ = try follow(["--publish"])
        _ = try mpv([first])
        XCTAssertTrue(waitFor("line 3") { $0.contains { $0.kind == "poster" && $0.line == 3 } })
        try playerctl("-p", "mpv", "pause")
        XCTAssertTrue(waitFor("the pause") { $0.contains { $0.kind == "status" && ($0.fields["status"] as? String) == "Paused" } })
        let line = try XCTUnwrap(posters.last?.line)
        XCTAssertEqual(try playerctl("-p", "lyricposter", "metadata", "title"), "First Song line \(line)")
        XCTAssertEqual(try playerctl("-p", "lyricposter", "metadata", "artist"), "Tester")
        let art = try playerctl("-p", "lyricposter", "metadata", "mpris:artUrl")
        XCTAssertTrue(art.hasPrefix("file://"), art)
        let artPath = try XCTUnwrap(URL(string: art)?.path)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: artPath)), try Data(contentsOf: URL(fileURLWithPath: temp("out/now.png"))))

        // Controls reach mpv.
        try playerctl("-p", "lyricposter", "play")
        XCTAssertTrue(waitFor("mpv to play") { _ in (try? self.playerctl("-p", "mpv", "status")) == "Playing" })
        try playerctl("-p", "lyricposter", "pause")
        XCTAssertTrue(waitFor("mpv to pause") { _ in (try? self.playerctl("-p", "mpv", "status")) == "Paused" })
        XCTAssertTrue(waitFor("the published player to show the pause") { _ in (try? self.playerctl("-p", "lyricposter", "status")) == "Paused" })
        // One art file at a time beside the poster.
        let out = try files(temp("out"))
        XCTAssertEqual(out.filter { $0.hasPrefix("now-") }.count, 1, "\(out)")
    }
}
