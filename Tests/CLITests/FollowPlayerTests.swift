import Foundation
import XCTest

/// `follow` against the tests' own MPRIS player (Tests/Fixtures/mpris-player.py), which does
/// exactly what it is told: rate changes, `data:` art, odd URLs, players that vanish.
final class FollowPlayerTests: FollowTestCase {
    func testRateChangesBendTheTimerAndVanishingPlayersAreWaitedFor() throws {
        let song = try makeSong("song", title: "Rated", seconds: 30, in: "music")
        try copyCover(to: "music")
        let follower = try follow()
        try startPlayer()
        try track(["xesam:title": "Rated", "xesam:url": fileURL(song), "mpris:trackid": "/t/1", "mpris:length": 30_000_000])
        try send(["cmd": "play"])
        XCTAssertTrue(waitFor("line 2") { $0.contains { $0.kind == "poster" && $0.line == 2 } })
        let changedAt = nowMs
        try send(["cmd": "rate", "rate": 4])
        XCTAssertTrue(waitFor("four lines at rate 4") { $0.filter { $0.kind == "poster" && $0.wall > changedAt + 100 }.count >= 5 })
        let fast = posters.filter { $0.wall > changedAt + 100 }
        for late in boundaryLateness(fast, rate: 4) { XCTAssertLessThanOrEqual(late, FollowBound.lateness) }
        for (a, b) in zip(fast, fast.dropFirst()) where b.frame == a.frame + 1 {
            XCTAssertEqual(Double(b.wall - a.wall), 250, accuracy: 60, "a line a second long lasts 250 ms at rate 4")
        }

        // The player vanishes mid-song: the poster stays, follow waits, and a new player is followed.
        try send(["cmd": "quit"])
        XCTAssertTrue(waitFor("the player to be lost") { $0.contains { $0.kind == "player-lost" } })
        XCTAssertTrue(FileManager.default.fileExists(atPath: temp("out/now.png")))
        try startPlayer("another")
        try track(["xesam:title": "Rated", "xesam:url": fileURL(song), "mpris:trackid": "/t/1"], at: 20)
        try send(["cmd": "play"])
        XCTAssertTrue(waitFor("the new player's posters") { events in
            events.contains { $0.kind == "player-found" && ($0.fields["player"] as? String) == "another" }
                && events.contains { $0.kind == "poster" && $0.start >= 20000 }
        })
        XCTAssertTrue(follower.isRunning)
    }

    /// mpv-mpris may send a file first with a placeholder track id (its playlist position not
    /// known yet), then with its position's id: the same song, prepared and shown once.
    func testAFileSentFirstWithAPlaceholderTrackIDIsOneSong() throws {
        let song = try makeSong("song", title: "Placed", seconds: 20, in: "music")
        try copyCover(to: "music")
        _ = try follow()
        try startPlayer()
        try track(["xesam:title": "song.mp3", "xesam:url": fileURL(song), "mpris:trackid": "/noplaylist"])
        try send(["cmd": "play"])
        XCTAssertTrue(waitFor("line 0") { $0.contains { $0.kind == "poster" && $0.line == 0 } })
        try track(["xesam:title": "Placed", "xesam:url": fileURL(song), "mpris:trackid": "/0", "mpris:length": 20_000_000], at: 0.3)
        XCTAssertTrue(waitFor("line 1") { $0.contains { $0.kind == "poster" && $0.line == 1 } })
        let all = events()
        XCTAssertEqual(all.filter { $0.kind == "song" }.count, 1, "the song was prepared again; \(record)")
        XCTAssertEqual(posters.compactMap(\.line), [0, 1], "a line was shown twice; \(record)")
    }

    func testSwitchesToThePlayerThatStartsPlaying() throws {
        let one = try makeSong("one", title: "One", seconds: 30, in: "music")
        let two = try makeSong("two", title: "Two", seconds: 30, in: "music")
        _ = try follow()
        try startPlayer("first")
        try track(["xesam:title": "One", "xesam:url": fileURL(one), "mpris:trackid": "/t/1"])
        try send(["cmd": "play"])
        XCTAssertTrue(waitFor("the first player's song") { $0.contains { $0.kind == "poster" && $0.track == "One" } })
        try startPlayer("second")
        try track(["xesam:title": "Two", "xesam:url": fileURL(two), "mpris:trackid": "/t/1"], at: 10)
        usleep(300_000)
        XCTAssertFalse(events().contains { $0.kind == "poster" && $0.track == "Two" }, "a paused player was followed")
        try send(["cmd": "play"])
        XCTAssertTrue(waitFor("the switch to the second player") { events in
            events.contains { $0.kind == "player-found" && ($0.fields["player"] as? String) == "second" }
                && events.contains { $0.kind == "poster" && $0.track == "Two" && $0.start >= 10000 }
        })
        // Pausing the second does not switch back; the first playing again does.
        input = inputs["second"]
        try send(["cmd": "pause"])
        input = inputs["first"]
        try send(["cmd": "pause"])
        try send(["cmd": "play"])
        let switchedBack = nowMs
        XCTAssertTrue(waitFor("the switch back") { $0.contains { $0.kind == "poster" && $0.track == "One" && $0.wall >= switchedBack } })
    }

    func testDataArtOddURLsMissingFilesAndLyricsFolders() throws {
        // A file name with spaces, '#', '%' and non-ASCII letters, percent-encoded in its URL; no
        // cover beside it, so the art comes from a data: URL.
        let odd = try makeSong("Señal #1 100% ünd Ω", title: "Odd", seconds: 20, in: "odd folder")
        let coverData = try Data(contentsOf: Self.package.appendingPathComponent(cover))
        _ = try follow(["--lyrics-dir", temp("lyrics")])
        try startPlayer()
        try track(["xesam:title": "Odd", "xesam:url": fileURL(odd), "mpris:trackid": "/t/1",
                   "mpris:artUrl": "data:image/jpeg;base64," + coverData.base64EncodedString()], at: 3.5)
        try send(["cmd": "pause"])
        XCTAssertTrue(waitFor("the odd song's poster") { $0.contains { $0.kind == "poster" && $0.start == 3000 } })
        let song = try XCTUnwrap(events().last { $0.kind == "song" })
        XCTAssertEqual(song.fields["lyrics"] as? String, "sidecar:Señal #1 100% ünd Ω.lrc")
        XCTAssertEqual(song.fields["cover"] as? String, "mpris:artUrl (data)")
        let frame = try run(["frame", odd, "--cover", cover, "--at", "3000ms", "--no-karaoke", "--size", "360x640", "-o", temp("frame.png")])
        XCTAssertEqual(frame.status, 0, frame.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: temp("out/now.png"))),
                       try Data(contentsOf: URL(fileURLWithPath: temp("frame.png"))), "the data: cover poster differs from `frame --cover`")

        // A URL to a file that does not exist: one line saying so, and a title poster.
        try track(["xesam:title": "Gone", "xesam:artist": ["Nobody"], "xesam:url": "file:///no/such/place/gone%20song.flac",
                   "mpris:trackid": "/t/2", "mpris:artUrl": "file:///no/such/cover.png"])
        XCTAssertTrue(waitFor("the missing song's title poster") { events in
            events.contains { $0.kind == "no-lyrics" && $0.track == "Gone" } && events.contains { $0.kind == "poster" && $0.track == "Gone" }
        })
        let log = try String(contentsOfFile: temp("follow.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("/no/such/place/gone song.flac: no such file"), log)

        // A stream (no file): lyrics from --lyrics-dir by "Artist - Title".
        try FileManager.default.createDirectory(atPath: temp("lyrics"), withIntermediateDirectories: true)
        _ = try write("[00:00.00]Streamed line zero\n[00:05.00]Streamed line five\n", to: "lyrics/the band - ON AIR.lrc")
        try track(["xesam:title": "On Air", "xesam:artist": ["The Band"], "xesam:url": "https://radio.example/stream",
                   "mpris:trackid": "/t/3"], at: 6)
        XCTAssertTrue(waitFor("the streamed song's line") { events in
            events.contains { $0.kind == "song" && ($0.fields["lyrics"] as? String) == "lyrics-dir:the band - ON AIR.lrc" }
                && events.contains { $0.kind == "poster" && $0.track == "On Air" && $0.line == 1 }
        })
    }

    func testExecRunsOneAtATimeWithThePosterPath() throws {
        let song = try makeSong("song", title: "Exec", seconds: 30, in: "music")
        // Each run takes longer than a line lasts; overlapping runs would find the lock taken.
        let script = try write("""
            if ! mkdir "$LOCK" 2>/dev/null; then echo overlap >> "$LOG"; fi
            echo "ran $1" >> "$LOG"
            sleep 0.4
            rmdir "$LOCK"
            """, to: "hook.sh")
        let command = "LOCK='\(temp("lock"))' LOG='\(temp("exec.log"))' sh '\(script)'"
        _ = try follow(["--exec", command])
        try startPlayer()
        try track(["xesam:title": "Exec", "xesam:url": fileURL(song), "mpris:trackid": "/t/1"])
        try send(["cmd": "rate", "rate": 4])
        try send(["cmd": "play"])
        XCTAssertTrue(waitFor("ten posters") { $0.filter { $0.kind == "poster" }.count >= 10 })
        usleep(900_000)
        let log = try String(contentsOfFile: temp("exec.log"), encoding: .utf8)
        XCTAssertFalse(log.contains("overlap"), log)
        let runs = log.split(separator: "\n")
        XCTAssertGreaterThanOrEqual(runs.count, 3)
        XCTAssertLessThan(runs.count, posters.count, "posters arriving during a run should be coalesced")
        XCTAssertTrue(runs.allSatisfy { $0 == "ran \(temp("out/now.png"))" }, log)
    }
}
