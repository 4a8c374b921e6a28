// libFuzzer target for e-ink palette files (`--palette FILE`): the input is parsed as a file's
// text. A palette that parses has 2 to 16 distinct colours and a bit depth that holds them; an
// input over the size limit is always refused. FUZZ_TARGET=palette; seeds in
// Tests/Fuzz/corpus/palette.
import Foundation
import PosterGraphics

func fuzzPalette(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do throws(EInkPaletteError) {
        let palette = try EInkPalette.parse(text, name: "fuzz")
        precondition(text.utf8.count <= EInkPalette.maxFileBytes, "an oversized file parsed")
        precondition(EInkPalette.fileColours.contains(palette.colours.count), "2 to 16 colours")
        precondition(Set(palette.colours).count == palette.colours.count, "distinct colours")
        precondition(1 << palette.bitDepth >= palette.colours.count, "the bit depth holds every index")
    } catch {
        precondition(!error.description.isEmpty && !error.description.contains("\n"), "one-line errors")
    }
    return 0
}
