// libFuzzer target for choosing a share card's lines: the input is a choice (`--lines` text or a
// `--quote`), a NUL byte, then LRC lyrics. Every choice must resolve to sung lines in order, at
// most eight, consecutive except between ranges of numbers (where the card's "…" rows go), or fail
// with an error that names the lyrics file. FUZZ_TARGET=choice; seeds in Tests/Fuzz/corpus/choice.
import Foundation
import LyricPoster
import LyricsCore

func fuzzChoice(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let choiceText = String(decoding: bytes[..<split], as: UTF8.self)
    let lyricsBytes = Data(bytes[min(bytes.count, split + 1)...])
    guard let lyrics = try? LyricsReader.load(lyricsBytes, format: .lrc) else { return 0 }
    let scenes = SceneBuilder(lyrics: lyrics)
    var choices: [LineChoice] = [.quote(choiceText)]
    var skips = false
    if let ranges = LineChoice.parseNumbers(choiceText) {
        precondition(ranges.allSatisfy { $0.lowerBound >= 1 }, "line numbers count from 1")
        precondition(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound }, "ascending, apart")
        choices.append(.numbers(ranges))
        skips = zip(ranges, ranges.dropFirst()).contains { $0.upperBound + 1 < $1.lowerBound }
    }
    if let t = Timestamp.parse(choiceText) { choices.append(.at(t, count: 1 + Int(bytes[0] % 8))) }
    let numbered = lyrics.numberedLines
    for choice in choices {
        do {
            let indices = try choice.resolve(in: lyrics, scenes: scenes, lyricsPath: "fuzz.lrc")
            precondition(!indices.isEmpty && indices.count <= LineChoice.maxLines, "one to eight lines")
            let positions = indices.map { numbered.firstIndex(of: $0) ?? -1 }
            precondition(!positions.contains(-1), "only numbered (sung) lines")
            precondition(zip(positions, positions.dropFirst()).allSatisfy { $1 > $0 }, "in order")
            let gaps = LineChoice.gaps(in: indices, lyrics: lyrics)
            if case .numbers = choice { precondition(gaps.isEmpty == !skips, "a gap exactly where the numbers skip") } else {
                precondition(gaps.isEmpty, "a quote or a time gives consecutive lines")
            }
            let scene = scenes.quote(indices, gaps: gaps)
            precondition(scene.lines.filter { $0.role == .ellipsis }.count == gaps.count, "one … row a gap")
        } catch {
            precondition(error.path == "fuzz.lrc", "errors name the lyrics file")
        }
    }
    return 0
}
