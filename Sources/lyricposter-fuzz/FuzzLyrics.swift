// libFuzzer targets for the lyrics path, one per format: decoding, that format's parser, the
// timeline, scenes and display-text cleaning. Built by `make fuzz` with AddressSanitizer and
// coverage instrumentation and linked with libFuzzer (driven through LLVMFuzzerRunDriver, see
// main.swift; FUZZ_TARGET=lrc, ttml, yrc, srt, vtt, eslrc, lys, lyl, lqe, ass or lyricsfile). The format is forced, so every input
// reaches the parser under test whatever its content; `lrc` also runs the content sniffer.
import Foundation
import LyricPoster
import LyricsCore

func fuzzLyrics(_ data: UnsafePointer<UInt8>?, _ size: Int, format: LyricsFormat) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = Data(bytes: data, count: size)
    // Odd first byte: also try a forced legacy encoding.
    let forced = data[0] & 1 == 1 ? "big5" : nil
    if format == .lrc { _ = try? LyricsReader.load(bytes, encoding: forced) }
    guard let lyrics = try? LyricsReader.load(bytes, format: format, encoding: forced) else { return 0 }
    precondition(lyrics.format == format, "the forced format is the one reported")
    _ = lyrics.inspectJSON()
    _ = lyrics.inspectTable()
    for line in lyrics.lines {
        precondition(line.end >= line.start, "a line never ends before it starts")
        precondition(line.words.isEmpty || line.words.map(\.text).joined() == line.text, "words join into the text")
    }
    var builder = SceneBuilder(lyrics: lyrics, before: 2, after: 2)
    builder.karaoke = true
    let end = builder.timeline.end.milliseconds
    for t in [0, 1, end / 3, end / 2, max(0, end - 1), end, end + 1000] {
        let scene = builder.scene(at: Timestamp(milliseconds: t))
        for line in scene.lines { _ = DisplayText.clean(line.text) }
        precondition(scene.lines.filter { $0.role != .current }.count <= 5, "at most before + marker + after lines")
    }
    _ = FramePlan.perLine(builder)
    // Every writer takes whatever was read, and its output reads back.
    for output in OutputFormat.allCases {
        guard let written = try? LyricsWriter.write(lyrics, as: output) else { continue }
        _ = try? LyricsReader.parse(written, format: output.readFormat)
    }
    return 0
}
