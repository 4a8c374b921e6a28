// libFuzzer target for the tag reader (TagLib behind CTagLibShim): the input is written to a
// temporary file whose extension the first byte picks (mp3, flac, m4a, ogg, opus), and read as that
// file's tags, lyrics and pictures; the lyrics then go through the same resolver as a real song.
// FUZZ_TARGET=tags; seeds in Tests/Fuzz/corpus/tags (made by Tests/Fixtures/make-audio.py).
import Foundation
import LyricPoster
import SongSources
import MediaTags

func fuzzTags(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 1 else { return 0 }
    let extensions = ["mp3", "flac", "m4a", "ogg", "opus"]
    let path = NSTemporaryDirectory() + "lyricposter-fuzz-\(getpid()).\(extensions[Int(data[0]) % extensions.count])"
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: data + 1, count: size - 1)) else { return 0 }
    defer { try? FileManager.default.removeItem(atPath: path) }
    if let tags = try? MediaTags.read(path, maxPictureBytes: 1 << 20, maxItems: 256) {
        precondition(tags.pictures.allSatisfy { $0.data.count <= 1 << 20 })
        _ = try? SongResolver.resolve(.audio(path, cover: nil, lyrics: nil), options: RenderOptions(), needCover: false)
    }
    return 0
}
