// A poster of a song at an instant, written as PNG; then a card of three lines.
import Foundation
import LyricPoster

let renderer = try PosterRenderer()
let song = try Song(lyricsFile: "samples/night-drive/night-drive.lrc", coverFile: "samples/night-drive/cover.jpg")
let style = PosterStyle(preset: .square, theme: .immersive)
let poster = try await renderer.render(song, at: .seconds(83.45), style: style)
try poster.pngData().write(to: URL(fileURLWithPath: "poster.png"))

do {
    let card = try await renderer.card(song, lines: 5...7, style: style)
    try card.jpegData(quality: 85).write(to: URL(fileURLWithPath: "card.jpg"))
} catch PosterError.cardDoesNotFit(_, let lines, let width, let height) {
    print("\(lines) lines do not fit a \(width)×\(height) card; choose fewer")
}
