// libFuzzer target for what an MPD server answers `follow`: the input is the server's side of the
// conversation (greeting, `key: value` lines, `binary:` chunks, ACKs), written into a socket pair;
// the client sends `status`, `currentsong` and a chunked `readpicture` and builds the player's
// state from what it reads. FUZZ_TARGET=mpd; seeds in Tests/Fuzz/corpus/mpd.
import Foundation
import NowPlaying

func fuzzMPD(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size <= 1 << 16 else { return 0 }
    var pair: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { return 0 }
    // A socket pair holds well over 64 KiB: the whole answer is written before the client reads.
    var written = 0
    while written < size {
        let n = write(pair[1], data + written, size - written)
        if n <= 0 { break }
        written += n
    }
    shutdown(pair[1], Int32(SHUT_WR))
    defer { close(pair[1]) }
    guard let connection = try? MPDConnection(socket: pair[0], password: nil, timeout: 1) else { return 0 }
    let status = (try? connection.command("status")) ?? []
    let song = (try? connection.command("currentsong")) ?? []
    _ = MPDWatcher.playerState(status: status, song: song, musicDirectory: "/music", owner: "mpd#1", at: 0)
    _ = try? connection.picture("readpicture", uri: "a/b.mp3", maxBytes: 1 << 20)
    return 0
}
