import Foundation
import Testing
@testable import NowPlaying
@testable import PosterLive

/// Reading Subsonic addresses and answers, hostile ones included. (Real servers are in
/// CLITests/FollowSubsonicTests.)
@Suite struct SubsonicTests {
    @Test func readsAddressesWithoutAPassword() {
        #expect(SubsonicAddress.parse("subsonic+http://me@music.lan:4533") == SubsonicAddress(base: "http://music.lan:4533", user: "me"))
        #expect(SubsonicAddress.parse("subsonic+https://me%40home@music.lan/navidrome/") == SubsonicAddress(base: "https://music.lan/navidrome", user: "me@home"))
        #expect(SubsonicAddress.parse("subsonic+http://me@[::1]:4533")?.base == "http://[::1]:4533")
        for bad in ["subsonic+http://music.lan", "subsonic+http://me:secret@music.lan", "subsonic+ftp://me@music.lan", "subsonic+http://me@",
                    "subsonic+http://me@music.lan/?x=1", "http://me@music.lan"] {
            #expect(SubsonicAddress.parse(bad) == nil, "\(bad)")
        }
        #expect(SubsonicAddress.parse("subsonic+http://me@music.lan")?.description == "subsonic+http://me@music.lan")
        // The server's jukebox: the same address under its own scheme.
        let jukebox = SubsonicAddress.parse("subsonic-jukebox+https://me@music.lan:4533/navidrome")
        #expect(jukebox?.jukebox == true)
        #expect(jukebox?.base == "https://music.lan:4533/navidrome")
        #expect(jukebox?.description == "subsonic-jukebox+https://me@music.lan:4533/navidrome")
        #expect(SubsonicAddress.parse("subsonic+http://me@music.lan")?.jukebox == false)
        for bad in ["subsonic-jukebox+http://music.lan", "subsonic-jukebox+http://me:pw@music.lan", "subsonic-jukebox://me@music.lan", "jukebox+http://me@x"] {
            #expect(SubsonicAddress.parse(bad) == nil, "\(bad)")
        }
    }

    /// `jukeboxControl`'s answers (`get` and the others), hostile ones included.
    @Test func readsTheJukebox() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/subsonic")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: corpus.appendingPathComponent("jukebox.json"))) as? [String: Any]
        let answer = try #require(object?["subsonic-response"] as? [String: Any])
        let jukebox = try #require(SubsonicSource.jukebox(in: answer))
        #expect(jukebox.index == 1 && jukebox.playing && jukebox.seconds == 12 && jukebox.entries.count == 2)
        #expect(jukebox.current?.id == "a2")
        #expect(SubsonicSource.jukeboxControls(jukebox) == [.pause, .seek, .previous])
        let status = try #require(SubsonicSource.jukebox(in: ["jukeboxStatus": ["currentIndex": 0, "playing": false, "position": 0]]))
        #expect(status.current == nil, "a status names no song")
        #expect(SubsonicSource.jukeboxControls(status) == [.play])
        for hostile: [String: Any] in [[:], ["jukeboxStatus": "x"], ["jukeboxStatus": ["currentIndex": "nan"]], ["jukeboxStatus": ["currentIndex": 1e300]],
                                       ["jukeboxPlaylist": ["currentIndex": -1, "entry": [["id": "x"]]]]] {
            #expect(SubsonicSource.jukebox(in: hostile)?.current == nil, "\(hostile)")
        }
        let odd = try #require(SubsonicSource.jukebox(in: ["jukeboxStatus": ["currentIndex": 0, "playing": "true", "position": -4]]))
        #expect(odd.playing && odd.seconds == 0)
        let long = try #require(SubsonicSource.jukebox(in: ["jukeboxPlaylist": ["currentIndex": 0, "entry": Array(repeating: ["id": "x"], count: 20_000)]]))
        #expect(long.entries.count == SubsonicSource.maxJukeboxEntries)
    }

    /// Whole seconds, and a clock that keeps its anchor while they agree with it.
    @Test func theJukeboxClockKeepsWhatItKnows() {
        let second: Int64 = 1_000_000_000
        // Started elsewhere: the middle of the reported second.
        let placed = SubsonicSource.jukeboxClock(seconds: 12, playing: true, at: 0, previous: nil, pausedAt: nil)
        #expect(placed.position(at: 0) == 12_500_000 && placed.playing)
        // Anchored by a control (exactly 12 s at 0): polls within the second keep it.
        let exact = PlaybackClock(position: 12_000_000, anchor: 0, rate: 1, playing: true)
        #expect(SubsonicSource.jukeboxClock(seconds: 14, playing: true, at: 2 * second + second / 2, previous: exact, pausedAt: nil) == exact)
        // Behind the reported second: lifted to its start.
        let behind = SubsonicSource.jukeboxClock(seconds: 15, playing: true, at: 2 * second + second / 2 + 3 * second / 10, previous: exact, pausedAt: nil)
        #expect(behind.position(at: 2 * second + second / 2 + 3 * second / 10) == 15_000_000)
        // Far off (a seek elsewhere): placed again.
        let moved = SubsonicSource.jukeboxClock(seconds: 40, playing: true, at: second, previous: exact, pausedAt: nil)
        #expect(moved.position(at: second) == 40_500_000)
        // Stopped and saying 0 (Supysonic forgets): the pause's place stands, and stays the same clock.
        let paused = SubsonicSource.jukeboxClock(seconds: 0, playing: false, at: second, previous: exact, pausedAt: 9_600_000)
        #expect(paused.position(at: 5 * second) == 9_600_000 && !paused.playing)
        #expect(SubsonicSource.jukeboxClock(seconds: 0, playing: false, at: 3 * second, previous: paused, pausedAt: 9_600_000) == paused)
        // Stopped elsewhere: where the clock was.
        #expect(SubsonicSource.jukeboxClock(seconds: 0, playing: false, at: second, previous: exact, pausedAt: nil).position(at: 0) == 13_000_000)
    }

    @Test func theUsersLatestEntryAndItsPosition() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/subsonic")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: corpus.appendingPathComponent("nowplaying.json"))) as? [String: Any]
        let answer = try #require(object?["subsonic-response"] as? [String: Any])
        let entry = try #require(SubsonicSource.entry(in: answer, user: "tester"))
        let state = SubsonicSource.playerState(entry, id: "7", lyrics: "[00:01.00]x", user: "tester", at: 1_000)
        #expect(state.status == .playing)
        #expect(state.name == "subsonic:tester@phone")
        #expect(state.clock.position(at: 1_000) == 83_400_000)
        #expect(state.metadata.length == 240_000_000)
        #expect(state.metadata.url == "subsonic:7")
        #expect(SubsonicSource.entry(in: answer, user: "nobody") == nil)
        // Without a position: the title poster, standing.
        let old = SubsonicSource.playerState(["id": "8", "title": "Old"], id: "8", lyrics: nil, user: "tester", at: 0)
        #expect(old.status == .paused)
        #expect(old.clock.position(at: 9_000_000_000) == 0)
        // Hostile values are passed over, not trusted.
        let odd = SubsonicSource.playerState(["positionMs": -5, "playbackRate": 1e300, "duration": "x"], id: "9", lyrics: nil, user: "t", at: 0)
        #expect(odd.status == .paused)
        #expect(odd.metadata.length == nil)
        let fast = SubsonicSource.playerState(["positionMs": 1000, "playbackRate": 1e300], id: "9", lyrics: nil, user: "t", at: 0)
        #expect(fast.clock.rate == 1)
    }

    @Test func structuredLyricsBecomeLRCWithTheirOffset() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/subsonic")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: corpus.appendingPathComponent("lyrics.json"))) as? [String: Any]
        let answer = try #require(object?["subsonic-response"] as? [String: Any])
        // offset -100: lines show 100 ms later; the unsynced set is passed over.
        #expect(SubsonicSource.lrc(fromStructured: answer) == "[00:00.100]a\n[00:02.100]b c\n[00:03.101]d")
        #expect(SubsonicSource.lrc(fromStructured: ["lyricsList": ["structuredLyrics": [["synced": false, "line": []]]]]) == nil)
        #expect(SubsonicSource.lrc(fromStructured: ["lyricsList": "nonsense"]) == nil)
        // Found by the fuzzer: a start of 2.2e62 ms trapped converting to Int. Such lines are passed over.
        let huge: [String: Any] = ["lyricsList": ["structuredLyrics": [["synced": true, "offset": -9_619_427, "line": [
            ["start": 2000, "value": "b"], ["start": "222222222222222222222222222222222222222222222222222222222223001", "value": "d"],
            ["start": 1e300, "value": "e"]]]]]]
        #expect(SubsonicSource.lrc(fromStructured: huge) == "[160:21.427]b")
    }
}
