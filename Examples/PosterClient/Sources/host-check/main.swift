// Renders as a host program would, and says whether LyricPoster changed anything of the host's:
// fontconfig's current configuration and the fonts it lists. PosterClientTests runs it with HOME
// pointed at an empty folder and checks that the folder stays empty.
import CFontconfig
import Foundation
import LyricPoster

/// The current configuration and the number of fonts it lists.
func fontconfigState() -> (config: OpaquePointer?, fonts: Int) {
    let config = FcConfigGetCurrent()
    let pattern = FcPatternCreate()
    let objects = FcObjectSetCreate()
    defer { FcPatternDestroy(pattern); FcObjectSetDestroy(objects) }
    _ = FcObjectSetAdd(objects, FC_FILE)
    guard let set = FcFontList(config, pattern, objects) else { return (config, 0) }
    defer { FcFontSetDestroy(set) }
    return (config, Int(set.pointee.nfont))
}

let before = fontconfigState()
let lyrics = Data("[ti:Host Check]\n[00:01.00]first line\n[00:04.00]second line\n[00:08.00]third line\n".utf8)
let cover = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
let renderer = try PosterRenderer()
let song = try Song(lyrics: lyrics, cover: cover)
let poster = try await renderer.render(song, at: .seconds(5), style: PosterStyle(preset: .square))
let after = fontconfigState()
print("poster \(try poster.pngData().count) bytes")
print("fonts before \(before.fonts) after \(after.fonts)")
print("configuration \(before.config == after.config ? "same" : "changed")")
