import Foundation
import PosterGraphics

/// The cover of a song that has none (`follow` with no `mpris:artUrl`, no embedded picture and no
/// folder image): a quiet two-tone gradient whose hue comes from the title, so every song keeps its
/// own colour, the same on every run.
package enum PlaceholderCover {
    package static func make(seed: String) throws(GraphicsError) -> Bitmap {
        // FNV-1a: stable across runs and machines (Swift's Hasher is seeded per process).
        var hash: UInt32 = 2_166_136_261
        for byte in seed.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hue = Double(hash % 360)
        let side = 512
        let canvas = try Canvas(width: side, height: side)
        canvas.fillVerticalGradient(Rect(x: 0, y: 0, width: Double(side), height: Double(side)),
                                    stops: [(0, color(hue: hue, saturation: 0.28, lightness: 0.36)),
                                            (1, color(hue: (hue + 40).truncatingRemainder(dividingBy: 360), saturation: 0.32, lightness: 0.13))])
        try canvas.finish()
        return canvas.snapshot()
    }

    static func color(hue: Double, saturation s: Double, lightness l: Double) -> Color {
        let c = (1 - abs(2 * l - 1)) * s
        let h = hue / 60
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double)
        switch Int(h) {
        case 0: (r, g, b) = (c, x, 0)
        case 1: (r, g, b) = (x, c, 0)
        case 2: (r, g, b) = (0, c, x)
        case 3: (r, g, b) = (0, x, c)
        case 4: (r, g, b) = (x, 0, c)
        default: (r, g, b) = (c, 0, x)
        }
        let m = l - c / 2
        return Color(red: r + m, green: g + m, blue: b + m)
    }
}
