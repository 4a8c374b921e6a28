import Foundation
import LyricPoster

let renderer = try PosterRenderer()                   // Sendable: one for the whole program
let song = try Song(lyricsFile: "samples/night-drive/night-drive.lrc", coverFile: "samples/night-drive/cover.jpg")
let style = PosterStyle(preset: .square, theme: .immersive)
let poster = try await renderer.render(song, at: .seconds(83.45), style: style)
try poster.pngData().write(to: URL(fileURLWithPath: "poster.png"))   // or jpegData(), pixels()
do {
    let card = try await renderer.card(song, lines: 5...7, style: style)
    try card.pngData().write(to: URL(fileURLWithPath: "card.png"))
} catch PosterError.cardDoesNotFit(_, let lines, let width, let height) {
    print("\(lines) lines do not fit a \(width)×\(height) card")
}
