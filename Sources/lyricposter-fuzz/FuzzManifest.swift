// libFuzzer target for catalogue manifests (JSONL): the input is written to a temporary file and
// read through CatalogSources to the end. Every entry must come out as a song with a safe id or as
// a reported bad entry, with no line longer than the cap accepted.
// FUZZ_TARGET=manifest; seeds in Tests/Fuzz/corpus/manifest.
import Foundation
import LyricPoster
import PosterBatch

func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let path = NSTemporaryDirectory() + "lyricposter-fuzz-\(getpid()).jsonl"
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size)) else { return 0 }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let sources = CatalogSources([path])
    var count = 0
    while let entry = sources.next() {
        count += 1
        if case .song(let song) = entry { precondition(CatalogSources.problem(withID: song.id) == nil, "unsafe id accepted") }
    }
    // Every entry is a line of the input (or one error for the file).
    precondition(count <= max(1, size / 2 + 1))
    return 0
}
