import Foundation
import PosterGraphics

/// The benchmark's inputs, made on the spot so that they are the same on every machine: a cover
/// drawn with Cairo (saved as a 3000×3000 JPEG and a 1200×1200 PNG) and songs of 60 and 600 lines.
enum BenchInputs {
    static func make(in folder: String) throws -> (jpeg: String, png: String, song60: String, song600: String) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let jpeg = folder + "/cover-3000.jpg", png = folder + "/cover-1200.png"
        if !FileManager.default.fileExists(atPath: jpeg) {
            try Data(try cover(side: 3000).jpegData(quality: 92)).write(to: URL(fileURLWithPath: jpeg))
        }
        if !FileManager.default.fileExists(atPath: png) {
            try Data(try cover(side: 1200).pngData(opaque: true, compression: .small)).write(to: URL(fileURLWithPath: png))
        }
        let song60 = folder + "/song-60.lrc", song600 = folder + "/song-600.lrc"
        try Data(song(lines: 60).utf8).write(to: URL(fileURLWithPath: song60))
        try Data(song(lines: 600).utf8).write(to: URL(fileURLWithPath: song600))
        return (jpeg, png, song60, song600)
    }

    /// A busy, photo-like cover: a sunset gradient, soft discs and fine stripes.
    static func cover(side: Int) throws -> Canvas {
        let canvas = try Canvas(width: side, height: side)
        let s = Double(side)
        canvas.fillVerticalGradient(Rect(x: 0, y: 0, width: s, height: s), stops: [
            (0, Color(red: 0.12, green: 0.08, blue: 0.30)), (0.55, Color(red: 0.95, green: 0.45, blue: 0.35)),
            (1, Color(red: 0.10, green: 0.05, blue: 0.12)),
        ])
        var seed: UInt64 = 0x5EED
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for _ in 0..<120 {
            let r = s * (0.01 + 0.06 * random())
            canvas.fill(Rect(x: random() * s, y: random() * s, width: r, height: r),
                        color: Color(red: random(), green: random(), blue: random(), alpha: 0.35), cornerRadius: r / 2)
        }
        var y = s * 0.6
        while y < s {
            canvas.fill(Rect(x: 0, y: y, width: s, height: s / 600), color: Color(red: 1, green: 0.8, blue: 0.5, alpha: 0.25))
            y += s / 90
        }
        return canvas
    }

    /// One line every 3 s from 0 s, so `lines` renders exactly `lines` frames (no interludes).
    static func song(lines: Int) -> String {
        let words = ["night", "city", "lights", "river", "slow", "neon", "echo", "window", "highway", "summer",
                     "quiet", "signal", "paper", "lantern", "morning", "static"]
        var text = "[ti:Benchmark Song]\n[ar:LyricPoster]\n[al:Bench]\n"
        for i in 0..<lines {
            let ms = i * 3000
            let stamp = String(format: "[%02d:%02d.%02d]", ms / 60_000, (ms / 1000) % 60, (ms % 1000) / 10)
            let count = 4 + (i * 7) % 9
            var line = (0..<count).map { words[(i * 5 + $0 * 3) % words.count] }.joined(separator: " ")
            if i % 10 == 3 { line = "灯火照亮回家的路 " + line }
            if i % 10 == 7 { line += " — and the long way round, every mile a little brighter" }
            text += stamp + line.prefix(1).uppercased() + line.dropFirst() + "\n"
        }
        text += String(format: "[%02d:%02d.00]\n", (lines * 3) / 60, (lines * 3) % 60)
        return text
    }
}
