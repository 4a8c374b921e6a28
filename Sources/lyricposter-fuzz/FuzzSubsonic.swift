// libFuzzer target for what a Subsonic server answers `follow`: the input is read as a JSON
// answer, then as getNowPlaying (the user's entry and the player's state made from it), as
// getLyricsBySongId (structured lyrics turned into LRC, then read as lyrics) and as jukeboxControl
// (the jukebox, its song's metadata, its controls and its clock).
// FUZZ_TARGET=subsonic; seeds in Tests/Fuzz/corpus/subsonic.
import Foundation
import LyricsCore
import PosterLive

func fuzzSubsonic(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size <= 1 << 20 else { return 0 }
    guard let object = try? JSONSerialization.jsonObject(with: Data(bytes: data, count: size)) as? [String: Any],
          let answer = object["subsonic-response"] as? [String: Any] else { return 0 }
    if let entry = SubsonicSource.entry(in: answer, user: "tester") {
        _ = SubsonicSource.playerState(entry, id: "1", lyrics: nil, user: "tester", at: 0)
    }
    if let jukebox = SubsonicSource.jukebox(in: answer) {
        _ = SubsonicSource.jukeboxControls(jukebox)
        if let current = jukebox.current { _ = SubsonicSource.metadata(current.entry, id: current.id, lyrics: nil) }
        _ = SubsonicSource.jukeboxClock(seconds: jukebox.seconds, playing: jukebox.playing, at: 0, previous: nil, pausedAt: nil)
    }
    if let lrc = SubsonicSource.lrc(fromStructured: answer) {
        _ = try? LRC.parse(lrc)
    }
    return 0
}
