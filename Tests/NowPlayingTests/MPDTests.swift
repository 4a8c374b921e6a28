import Foundation
import Testing
@testable import NowPlaying

/// The MPD client's reading of addresses, answers and hostile servers. (The real server is in
/// CLITests/FollowMPDTests.)
@Suite struct MPDAddressTests {
    @Test func readsEveryFormOfAnAddress() {
        let none: [String: String] = [:]
        #expect(MPDAddress.parse("mpd", environment: none) == MPDAddress(endpoint: .tcp(host: "localhost", port: 6600)))
        #expect(MPDAddress.parse("mpd", environment: ["MPD_HOST": "box", "MPD_PORT": "6601"]) == MPDAddress(endpoint: .tcp(host: "box", port: 6601)))
        #expect(MPDAddress.parse("mpd", environment: ["MPD_HOST": "pw@box"]) == MPDAddress(endpoint: .tcp(host: "box", port: 6600), password: "pw"))
        #expect(MPDAddress.parse("mpd", environment: ["MPD_HOST": "/run/mpd/socket"]) == MPDAddress(endpoint: .socket("/run/mpd/socket")))
        #expect(MPDAddress.parse("mpd", environment: ["MPD_HOST": "pw@/run/mpd/socket"])
                == MPDAddress(endpoint: .socket("/run/mpd/socket"), password: "pw"))
        #expect(MPDAddress.parse("mpd", environment: ["MPD_HOST": "@mpd"]) == MPDAddress(endpoint: .socket("@mpd")))
        #expect(MPDAddress.parse("mpd://music.lan") == MPDAddress(endpoint: .tcp(host: "music.lan", port: 6600)))
        #expect(MPDAddress.parse("mpd://p%40ss@music.lan:6700") == MPDAddress(endpoint: .tcp(host: "music.lan", port: 6700), password: "p@ss"))
        #expect(MPDAddress.parse("mpd://[::1]:6601") == MPDAddress(endpoint: .tcp(host: "::1", port: 6601)))
        #expect(MPDAddress.parse("mpd:///run/mpd/socket") == MPDAddress(endpoint: .socket("/run/mpd/socket")))
        #expect(MPDAddress.parse("mpd://pw@/run/mpd/socket") == MPDAddress(endpoint: .socket("/run/mpd/socket"), password: "pw"))
        for bad in ["mpris", "mpd:/x", "mpd://", "mpd:///", "mpd://host:0", "mpd://host:99999", "mpd://host:port", "mpd://[::1", "http://host"] {
            #expect(MPDAddress.parse(bad, environment: none) == nil, "\(bad)")
        }
        // Shown without its password.
        #expect(MPDAddress.parse("mpd://secret@host:6601")?.description == "mpd://host:6601")
    }

    @Test func aPlayerStateFromStatusAndCurrentSong() {
        let status = [("state", "play"), ("songid", "7"), ("elapsed", "83.456"), ("duration", "200.100")].map { (key: $0.0, value: $0.1) }
        let song = [("file", "Artist/An Album/01 A Song #1.flac"), ("Title", "A Song"), ("Artist", "One"), ("Artist", "Two"), ("Album", "An Album")]
            .map { (key: $0.0, value: $0.1) }
        let state = MPDWatcher.playerState(status: status, song: song, musicDirectory: "/srv/music", owner: "mpd#2", at: 5_000)
        #expect(state.status == .playing)
        #expect(state.owner == "mpd#2")
        #expect(state.metadata.localPath == "/srv/music/Artist/An Album/01 A Song #1.flac")
        #expect(state.metadata.title == "A Song")
        #expect(state.metadata.artist == "One, Two")
        #expect(state.metadata.length == 200_100_000)
        #expect(state.metadata.trackID == "mpd:song:7")
        #expect(state.clock.position(at: 5_000) == 83_456_000)
        #expect(state.clock.position(at: 1_005_000) == 83_457_000)
        // Without the music folder the song is MPD's; a stream keeps its URL; stopped stands still.
        let remote = MPDWatcher.playerState(status: [(key: "state", value: "pause")], song: song, musicDirectory: nil, owner: "mpd#1", at: 0)
        #expect(remote.metadata.url == "mpd:Artist/An Album/01 A Song #1.flac")
        #expect(remote.metadata.localPath == nil)
        #expect(remote.status == .paused)
        let stream = MPDWatcher.playerState(status: [(key: "state", value: "stop")], song: [(key: "file", value: "http://radio.lan/live"), (key: "Name", value: "Radio")],
                                            musicDirectory: "/srv/music", owner: "mpd#1", at: 0)
        #expect(stream.metadata.url == "http://radio.lan/live")
        #expect(stream.metadata.title == "Radio")
        #expect(stream.status == .stopped)
        #expect(!stream.clock.playing)
        // Nothing queued: no track at all.
        #expect(MPDWatcher.playerState(status: [], song: [], musicDirectory: nil, owner: "mpd#1", at: 0).metadata.url == nil)
    }
}

/// A server that answers with exactly the given bytes (a socket pair; the client's commands are
/// never read), then says no more. Its end stays open (until the test process ends) so that the
/// client's commands can still be sent.
private func connection(answering bytes: String, password: String? = nil, timeout: Double = 1) throws(MPDError) -> MPDConnection {
    var pair: [Int32] = [0, 0]
    precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
    let data = Array(bytes.utf8)
    var written = 0
    while written < data.count {
        let n = data[written...].withUnsafeBytes { write(pair[1], $0.baseAddress, $0.count) }
        precondition(n > 0)
        written += n
    }
    shutdown(pair[1], Int32(SHUT_WR))
    return try MPDConnection(socket: pair[0], password: password, timeout: timeout)
}

@Suite struct MPDHostileServerTests {
    @Test func readsAnswersPairsAndBinaryChunks() throws {
        let c = try connection(answering: "OK MPD 0.23.5\nstate: play\nelapsed: 1.000\nOK\nsize: 7\ntype: image/png\nbinary: 5\nab\ncd\nOK\nsize: 7\nbinary: 2\nef\nOK\n")
        #expect(c.version == "0.23.5")
        let status = try c.command("status")
        #expect(status.map(\.key) == ["state", "elapsed"])
        #expect(try c.picture("readpicture", uri: "a.mp3", maxBytes: 100) == Data("ab\ncdef".utf8))
    }

    @Test func refusesWhatIsNotMPD() {
        #expect(throws: MPDError.malformed("the greeting was \"HTTP/1.1 400 Bad Request\"")) { try connection(answering: "HTTP/1.1 400 Bad Request\n") }
        #expect { try connection(answering: "OK MPD 0.23\n" + String(repeating: "x", count: 70_000)).command("status") } throws: { error in
            (error as? MPDError).map { if case .malformed(let reason) = $0 { reason.contains("longer than") } else { false } } ?? false
        }
        #expect { try connection(answering: "OK MPD 0.23\nno colon here\nOK\n").command("status") } throws: { error in
            (error as? MPDError).map { if case .malformed = $0 { true } else { false } } ?? false
        }
        #expect { try connection(answering: "OK MPD 0.23\nbinary: 99999999999\n").command("readpicture") } throws: { error in
            (error as? MPDError).map { if case .malformed = $0 { true } else { false } } ?? false
        }
        // A picture larger than the cover limit is refused from its stated size, before its bytes.
        #expect { try connection(answering: "OK MPD 0.23\nsize: 50000000\nbinary: 1\nx\nOK\n").picture("readpicture", uri: "a", maxBytes: 1000) } throws: { error in
            (error as? MPDError).map { if case .malformed(let reason) = $0 { reason.contains("cover limit") } else { false } } ?? false
        }
        // A size that changes between chunks, or a chunk that never comes.
        #expect { try connection(answering: "OK MPD 0.23\nsize: 10\nbinary: 2\nab\nOK\nsize: 20\nbinary: 2\ncd\nOK\n").picture("albumart", uri: "a", maxBytes: 1000) } throws: { error in
            (error as? MPDError).map { if case .malformed = $0 { true } else { false } } ?? false
        }
        #expect { try connection(answering: "OK MPD 0.23\nsize: 10\nbinary: 2\nab\nOK\nsize: 10\nbinary: 0\n\nOK\n").picture("albumart", uri: "a", maxBytes: 1000) } throws: { error in
            (error as? MPDError).map { if case .malformed = $0 { true } else { false } } ?? false
        }
    }

    @Test func aClosedOrSilentServerAndARefusedPassword() {
        #expect { try connection(answering: "OK MPD 0.23\nstate: play\n").command("status") } throws: { error in
            (error as? MPDError).map { if case .unreachable = $0 { true } else { false } } ?? false
        }
        #expect(throws: MPDError.password("incorrect password")) {
            try connection(answering: "OK MPD 0.23\nACK [3@0] {password} incorrect password\n", password: "nope")
        }
        #expect(throws: MPDError.refused(code: 50, command: "currentsong", message: "No such song")) {
            try connection(answering: "OK MPD 0.23\nACK [50@0] {currentsong} No such song\n").command("currentsong")
        }
        // albumart with no cover in the folder: none, not an error.
        #expect((try? connection(answering: "OK MPD 0.23\nACK [50@0] {albumart} No file exists\n").picture("albumart", uri: "a", maxBytes: 10)) == .some(nil))
        // A server that says nothing more: the read times out instead of hanging.
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        _ = "OK MPD 0.23\n".withCString { write(pair[1], $0, 12) }
        let started = Date()
        #expect(throws: MPDError.unreachable("MPD did not answer in time")) {
            try MPDConnection(socket: pair[0], password: nil, timeout: 0.2).command("status")
        }
        #expect(Date().timeIntervalSince(started) < 2)
    }

    /// The fuzz target's seeds, and every truncation of them: read without crashing.
    @Test func fuzzSeedsAndTheirTruncationsAreReadSafely() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/corpus/mpd")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
        #expect(seeds.count >= 3)
        for seed in seeds {
            let text = try String(contentsOf: corpus.appendingPathComponent(seed), encoding: .utf8)
            for end in stride(from: 0, through: text.utf8.count, by: 7) {
                let cut = String(decoding: Array(text.utf8.prefix(end)), as: UTF8.self)
                guard let c = try? connection(answering: cut) else { continue }
                let status = (try? c.command("status")) ?? []
                let song = (try? c.command("currentsong")) ?? []
                _ = MPDWatcher.playerState(status: status, song: song, musicDirectory: "/m", owner: "o", at: 0)
                _ = try? c.picture("readpicture", uri: "a", maxBytes: 1 << 20)
            }
        }
    }
}
