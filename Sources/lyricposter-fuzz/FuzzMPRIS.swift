// libFuzzer target for what a player sends `follow`: the input is read as a serialized MPRIS
// `Metadata` (a{sv}, through GLib's GVariant and our DBusValue reader), and its URLs go through the
// file-URL and data-URL decoding that finds the song's lyrics and cover. FUZZ_TARGET=mpris;
// seeds in Tests/Fuzz/corpus/mpris.
import SongSources
import Foundation
import LyricPoster
import PosterLive
import NowPlaying

func fuzzMPRIS(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var metadata = MPRIS.Metadata(serialized: bytes)
    // The bytes as URLs as well, so the decoders see hostile text directly.
    let text = String(decoding: bytes, as: UTF8.self)
    _ = MPRIS.localPath(fromFileURL: "file://" + text)
    metadata.artURL = metadata.artURL ?? "data:image/png;base64," + text
    var options = RenderOptions()
    options.limits.maxPixels = 1 << 16
    _ = NowPlayingSong.find(metadata, places: LyricsPlaces(), options: options)
    return 0
}
