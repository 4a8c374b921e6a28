// libFuzzer target for `--lrclib-db`: the input is written to a file and opened as an LRCLIB dump
// (SQLite, read-only: the schema checked, then a lookup), and its first 256 bytes are normalised as
// a title is. A damaged database must be one error, never a crash or a hang.
// FUZZ_TARGET=lrclib; seeds in Tests/Fuzz/corpus/lrclib (a dump of the generator's known rows).
import Foundation
import LyricsDatabase

func fuzzLRCLIB(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size <= 4 << 20 else { return 0 }
    let bytes = Data(bytes: data, count: size)
    _ = LRCLIBDump.normalised(String(decoding: bytes.prefix(256), as: UTF8.self))
    let path = NSTemporaryDirectory() + "lyricposter-fuzz-lrclib-\(getpid()).sqlite3"
    guard FileManager.default.createFile(atPath: path, contents: bytes) else { return 0 }
    defer { try? FileManager.default.removeItem(atPath: path) }
    if let dump = try? LRCLIBDump(path: path) {
        _ = try? dump.lookup(title: "Paper Moon", artist: "The Lanterns", album: "Night Songs", durationMs: 200_000)
        _ = try? dump.lookup(title: "Quiet Field", artist: "The Lanterns")
    }
    return 0
}
