import Foundation
import Testing
@testable import LyricPoster
@testable import PosterLive
import SongSources
@testable import NowPlaying

@Suite struct PlaybackClockTests {
    @Test func extrapolatesByRateWhilePlaying() {
        let clock = PlaybackClock(position: 10_000_000, anchor: 1_000_000_000, rate: 2, playing: true)
        #expect(clock.position(at: 1_000_000_000) == 10_000_000)
        #expect(clock.position(at: 1_500_000_000) == 11_000_000)  // 0.5 s at double speed
        // Reaching 12 s takes 1 s of wall time at rate 2.
        #expect(clock.instant(of: 12_000_000) == 2_000_000_000)
        #expect(clock.instant(of: 9_000_000) == nil)
    }

    @Test func standsStillWhenPausedOrAtRateZero() {
        let paused = PlaybackClock(position: 5_000_000, anchor: 0, rate: 1, playing: false)
        #expect(paused.position(at: 9_000_000_000) == 5_000_000)
        #expect(paused.instant(of: 6_000_000) == nil)
        let stopped = PlaybackClock(position: 5_000_000, anchor: 0, rate: 0, playing: true)
        #expect(stopped.position(at: 9_000_000_000) == 5_000_000)
        #expect(stopped.instant(of: 6_000_000) == nil)
        // A nonsense rate counts as 1.
        #expect(PlaybackClock(position: 0, anchor: 0, rate: .nan, playing: true).rate == 1)
    }
}

@Suite struct MPRISMetadataTests {
    @Test(arguments: [
        ("file:///music/a%20b/%C3%BCber%20%231.mp3", "/music/a b/über #1.mp3"),
        ("file://localhost/music/x.flac", "/music/x.flac"),
        ("FILE:///Music/Y.ogg", "/Music/Y.ogg"),
    ])
    func fileURLsArePercentDecoded(url: String, path: String) {
        #expect(MPRIS.localPath(fromFileURL: url) == path)
    }

    @Test(arguments: ["https://example.com/a.mp3", "file://otherhost/a.mp3", "file:///bad%ZZescape", "", "file:"])
    func otherURLsAreNotLocalFiles(url: String) {
        #expect(MPRIS.localPath(fromFileURL: url) == nil)
    }

    @Test func readsWhatPlayersSendInTheirOwnTypes() {
        let metadata = MPRIS.Metadata([
            "mpris:trackid": .objectPath("/org/mpv/Track/3"), "xesam:title": .string("Song"),
            "xesam:artist": .string("Solo"),  // some players send a string, not a list
            "mpris:length": .uint64(180_000_000), "xesam:url": .string("file:///m/song.mp3"),
        ])
        #expect(metadata.title == "Song")
        #expect(metadata.artist == "Solo")
        #expect(metadata.length == 180_000_000)
        #expect(metadata.localPath == "/m/song.mp3")
        let listed = MPRIS.Metadata(["xesam:artist": .strings(["A", "B"]), "mpris:length": .int32(5)])
        #expect(listed.artist == "A, B")
        #expect(listed.length == 5)
        #expect(MPRIS.Metadata(["mpris:length": .string("long")]).length == nil)
    }

    @Test func aFileIsItsURLAndAStreamItsTitle() {
        var file = MPRIS.Metadata(["xesam:url": .string("file:///m/a.mp3"), "xesam:title": .string("a.mp3")])
        let before = file.identity
        file.title = "A (from its tags)"
        #expect(file.identity == before)
        // mpv-mpris may send a file with a placeholder id, then with its playlist position's: the
        // same track. The same file under another real id (a second playlist entry) is not.
        var placeholder = file
        placeholder.trackID = "/noplaylist"
        var numbered = file
        numbered.trackID = "/0"
        #expect(numbered.isSameTrack(as: placeholder))
        #expect(numbered.isSameTrack(as: file))
        var again = file
        again.trackID = "/1"
        #expect(!again.isSameTrack(as: numbered))
        var other = numbered
        other.url = "file:///m/b.mp3"
        #expect(!other.isSameTrack(as: placeholder))
        var stream = MPRIS.Metadata(["xesam:url": .string("http://radio/live"), "xesam:title": .string("One")])
        let first = stream.identity
        stream.title = "Two"
        #expect(stream.identity != first)
        // The same title again under another track id is another track; an id naming no track is none.
        stream.trackID = "/t/2"
        let second = stream.identity
        stream.trackID = "/t/3"
        #expect(stream.identity != second)
        stream.trackID = MPRIS.noTrack
        let none = stream.identity
        stream.trackID = nil
        #expect(stream.identity == none)
        // A stream is never taken for the track before it by its URL alone.
        var next = stream
        next.title = "Three"
        #expect(!next.isSameTrack(as: stream))
    }
}

@Suite struct NowPlayingSongTests {
    @Test func dataURLsDecodeAndBadOnesSaySo() {
        var problems: [String] = []
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
        let found = NowPlayingSong.artwork("data:image/png;base64," + Data(png).base64EncodedString(), options: RenderOptions(), problems: &problems)
        #expect(found.map { [UInt8]($0.0) } == png)
        #expect(problems.isEmpty)
        for bad in ["data:image/png;base64,!!!!", "data:image/png;base64,", "data:nocomma"] {
            var problems: [String] = []
            #expect(NowPlayingSong.artwork(bad, options: RenderOptions(), problems: &problems) == nil)
        }
        // Web art is not fetched.
        #expect(NowPlayingSong.artwork("https://example.com/a.jpg", options: RenderOptions(), problems: &problems) == nil)
    }

    @Test func lyricsFoldersMatchArtistAndTitleCaseInsensitively() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lyricposter-np-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["AC_DC - Thunder.LRC", "Only Title.ttml", "Other - Only Title.txt"] {
            FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
        }
        let dir = [folder.path]
        #expect(LyricsPlaces.named(title: "thunder", artist: "AC/DC", in: dir)?.hasSuffix("AC_DC - Thunder.LRC") == true)
        #expect(LyricsPlaces.named(title: "Only Title", artist: "Someone", in: dir)?.hasSuffix("Only Title.ttml") == true)
        #expect(LyricsPlaces.named(title: "Missing", artist: nil, in: dir) == nil)
        #expect(LyricsPlaces.named(title: nil, artist: "AC/DC", in: dir) == nil)
    }
}

@Suite struct SerializedMetadataTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/corpus/mpris")

    @Test func readsWhatGLibWrites() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent("mpv-file")))
        let metadata = MPRIS.Metadata(serialized: bytes)
        #expect(metadata.title == "Song")
        #expect(metadata.artists == ["Tester"])
        #expect(metadata.trackID == "/0")
        #expect(metadata.length == 12_042_449)
        #expect(metadata.localPath == "/music/a b.mp3")
        let odd = MPRIS.Metadata(serialized: [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent("odd-types"))))
        #expect(odd.artist == "Solo")
        #expect(odd.length == -1)
    }

    /// Every truncation and a run of random bytes: read without crashing, as GLib checks untrusted data.
    @Test func hostileBytesAreReadSafely() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent("mpv-file")))
        for end in 0..<bytes.count { _ = MPRIS.Metadata(serialized: Array(bytes[..<end])) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var noisy = bytes
            for _ in 0..<4 { noisy[Int.random(in: 0..<noisy.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = MPRIS.Metadata(serialized: noisy)
        }
    }
}

/// Which controls a source offers, and what the ones that cannot be controlled say.
@Suite struct PlayerControlsTests {
    @Test func mprisCapabilitiesBecomeControls() {
        let all: [String: DBusValue] = ["CanControl": .bool(true), "CanPlay": .bool(true), "CanPause": .bool(true),
                                        "CanSeek": .bool(true), "CanGoNext": .bool(true), "CanGoPrevious": .bool(true)]
        #expect(PlayerWatcher.controls(all) == .all)
        #expect(PlayerControls.all.names == ["play", "pause", "seek", "next", "previous"])
        var some = all
        some["CanSeek"] = .bool(false)
        some["CanGoNext"] = nil  // missing: false, as the specification defaults it
        #expect(PlayerWatcher.controls(some).names == ["play", "pause", "previous"])
        // Without CanControl nothing may be asked, whatever the rest say.
        some["CanControl"] = .bool(false)
        #expect(PlayerWatcher.controls(some) == [])
        #expect(PlayerWatcher.controls([:]) == [])
    }

    @Test func mpdOffersWhatItsStateAllows() {
        let song: [(key: String, value: String)] = [(key: "file", value: "a.mp3")]
        func controls(_ state: String, queued: Int) -> PlayerControls {
            MPDWatcher.playerState(status: [(key: "state", value: state), (key: "playlistlength", value: String(queued))],
                                   song: song, musicDirectory: nil, owner: "mpd#1", at: 0).controls
        }
        #expect(controls("play", queued: 2) == .all)
        #expect(controls("pause", queued: 1) == .all)
        #expect(controls("stop", queued: 3) == [.play])
        #expect(controls("stop", queued: 0) == [])
    }

    @Test func pushAndSubsonicCannotBeControlled() {
        let push = PushSource(device: nil)
        #expect(!push.canBeControlled)
        #expect(throws: ControlError.cannot("the push source is read-only: devices say what they play, and cannot be told what to do")) {
            try push.control(.play)
        }
        let subsonic = SubsonicSource(address: SubsonicAddress.parse("subsonic+http://ann@127.0.0.1:9")!, log: { _ in })
        #expect(!subsonic.canBeControlled)
        #expect(throws: ControlError.self) { try subsonic.control(.seek(1_000_000)) }
        // The server's jukebox can be; one that is not there is unavailable (503), not a hang.
        let jukebox = SubsonicSource(address: SubsonicAddress.parse("subsonic-jukebox+http://ann@127.0.0.1:9")!, log: { _ in })
        #expect(jukebox.canBeControlled && jukebox.pollInterval == 1)
        do { try jukebox.control(.pause) } catch {
            guard case .unavailable(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.hasPrefix("subsonic-jukebox+http://ann@127.0.0.1:9: "), "\(reason)")
        }
        #expect(ControlError.pastEnd(position: 99_000_000, length: 40_045_000).description
                == "position_ms: 99000 is past the end of the track (40045 ms)")
    }

    /// MPD that is not there: the control is `unavailable` (503), at once, not a hang.
    @Test func anMPDThatIsNotThereIsUnavailable() {
        let watcher = MPDWatcher(address: MPDAddress(endpoint: .socket("/nonexistent/lyricposter-test.sock")), musicDirectory: nil, log: { _ in })
        #expect(throws: ControlError.self) { try watcher.control(.pause) }
        do { try watcher.control(.toggle) } catch {
            guard case .unavailable(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.hasPrefix("MPD at mpd:///nonexistent/lyricposter-test.sock: "), "\(reason)")
        }
    }
}
