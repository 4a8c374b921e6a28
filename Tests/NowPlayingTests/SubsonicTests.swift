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
    }
}
