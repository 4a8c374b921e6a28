// libFuzzer targets for the encrypted and compressed lyric forms (FUZZ_TARGET=qrc or krc): the
// fuzzer's bytes go through every reading path of the format — as text with the format forced (the
// plain body, QQ's XML wrapper, encrypted hex), as QQ's raw encrypted stream, and as a `.krc` file
// (the input taken as the XORed stream after `krc1`) — then through the same checks as the text
// formats (FuzzLyrics.swift).
import Foundation
import LyricsCore

func fuzzQRC(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = Data(bytes: data, count: size)
    _ = fuzzLyrics(data, size, format: .qrc)
    if let text = try? QRC.decrypt(bytes.prefix(size / 8 * 8)) {
        _ = try? LyricsReader.parse(text)
    }
    _ = try? QRC.decodeLocal(bytes)
    return 0
}

func fuzzKRC(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    _ = fuzzLyrics(data, size, format: .krc)
    // The bytes as the stream inside a `.krc`: the key is applied by the decoder, so apply it
    // here first, letting the fuzzer write zlib directly.
    let key: [UInt8] = [0x40, 0x47, 0x61, 0x77, 0x5E, 0x32, 0x74, 0x47, 0x51, 0x36, 0x31, 0x2D, 0xCE, 0xD2, 0x6E, 0x69]
    var file = Data("krc1".utf8)
    file.append(contentsOf: (0..<size).map { data[$0] ^ key[$0 & 15] })
    if let lyrics = try? LyricsReader.load(file) {
        precondition(lyrics.format == .krc, "a krc1 file reads as KRC")
        for line in lyrics.lines { precondition(line.end >= line.start, "a line never ends before it starts") }
    }
    return 0
}
