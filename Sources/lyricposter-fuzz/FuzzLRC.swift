// libFuzzer target for the lyrics path: decoding, parsing, the timeline, scenes and display-text
// cleaning. Built by `make fuzz` with AddressSanitizer and coverage instrumentation and linked with libFuzzer
// (driven through LLVMFuzzerRunDriver, see main.swift; FUZZ_TARGET=lrc).
import Foundation
import LyricPoster
import LyricsCore

func fuzzLRC(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = Data(bytes: data, count: size)
    // Odd first byte: also try a forced legacy encoding.
    let forced = size > 0 && data[0] & 1 == 1 ? "big5" : nil
    guard let lyrics = try? LRC.load(bytes, encoding: forced) else { return 0 }
    _ = lyrics.inspectJSON()
    _ = lyrics.inspectTable()
    let builder = SceneBuilder(lyrics: lyrics, before: 2, after: 2)
    let end = builder.timeline.end.milliseconds
    for t in [0, 1, end / 3, end / 2, max(0, end - 1), end, end + 1000] {
        let scene = builder.scene(at: Timestamp(milliseconds: t))
        for line in scene.lines { _ = DisplayText.clean(line.text) }
        precondition(scene.lines.count <= 5, "at most before + 1 + after lines")
    }
    _ = FramePlan.perLine(builder)
    return 0
}
