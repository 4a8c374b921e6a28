import CPixels
import Foundation
import Locks

extension Bitmap {
    /// The bitmap at half its size: each pixel the rounded mean of a 2×2 block (an odd last
    /// column or row is dropped), or nil when a side would fall under one pixel.
    package func halved() -> Bitmap? {
        let w = width / 2, h = height / 2
        guard w > 0, h > 0 else { return nil }
        let out = LargeBuffers.bytes(w * 4 * h) { out in
            pixels.withUnsafeBytes { src in
                lp_halve_argb32(src.bindMemory(to: UInt8.self).baseAddress, stride, Int32(width), Int32(height), out, w * 4)
            }
        }
        return Bitmap(width: w, height: h, stride: w * 4, pixels: out)
    }
}

/// A picture and its halvings, made as they are first asked for, so that drawing it much smaller
/// starts from a level at most twice the size drawn: Cairo's GOOD filter reads every source pixel
/// under the destination, so a 2250-pixel cover drawn as a 280-pixel blur base or a card's
/// shadow mask would cost as much as a full-size draw.
///
/// Safe to share between threads (a song's backdrop and its card are drawn on two): each level is
/// made once, under a lock.
package final class BitmapLevels: Sendable {
    /// Level 0 is the picture itself; level k is 1/2^k of it.
    private let levels: Guarded<[Bitmap]>

    package init(_ bitmap: Bitmap) {
        levels = Guarded([bitmap])
        full = bitmap
    }

    /// The picture at full size.
    package let full: Bitmap

    /// The level to draw the part `source` (in full-size pixels) of the picture from, into a
    /// `width`×`height` destination, with `source` in that level's pixels: the smallest level
    /// that still has as many pixels as the destination along both sides.
    package func level(for source: Rect, width: Double, height: Double) -> (bitmap: Bitmap, source: Rect) {
        levels.withLock { levels in level(for: source, width: width, height: height, levels: &levels) }
    }

    private func level(for source: Rect, width: Double, height: Double, levels: inout [Bitmap]) -> (bitmap: Bitmap, source: Rect) {
        var k = 0
        while true {
            let f = Double(1 << (k + 1))
            guard source.width / f >= width, source.height / f >= height else { break }
            if k + 1 >= levels.count {
                guard let next = levels[k].halved(), next.width >= 8, next.height >= 8 else { break }
                levels.append(next)
            }
            k += 1
        }
        let f = Double(1 << k)
        return (levels[k], Rect(x: source.x / f, y: source.y / f, width: source.width / f, height: source.height / f))
    }
}
