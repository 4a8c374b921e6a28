// One song prepared once, then a poster at every second of its first minute, in parallel.
import Foundation
import LyricPoster

let renderer = try PosterRenderer()
let song = try Song(lyricsFile: "samples/night-drive/night-drive.lrc", coverFile: "samples/night-drive/cover.jpg")
let prepared = try await renderer.prepare(song, style: PosterStyle(preset: .story))
let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
    for second in 0..<60 {
        group.addTask { try await prepared.render(at: .seconds(Double(second))).pngData().count }
    }
    var total = 0
    for try await size in group { total += size }
    return total
}
print("60 posters, \(sizes) bytes of PNG")
