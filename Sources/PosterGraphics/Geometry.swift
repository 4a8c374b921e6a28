import Foundation

/// A point in output pixels; y grows downwards.
package struct Point: Hashable, Sendable {
    package var x: Double
    package var y: Double
    package init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// An axis-aligned rectangle in output pixels.
package struct Rect: Hashable, Sendable, CustomStringConvertible {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double
    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    package var minX: Double { x }
    package var minY: Double { y }
    package var maxX: Double { x + width }
    package var maxY: Double { y + height }
    package var midX: Double { x + width / 2 }
    package var midY: Double { y + height / 2 }
    package var isEmpty: Bool { width <= 0 || height <= 0 }

    package func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
    package func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }
    package func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }
    package func union(_ other: Rect) -> Rect {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }
    package var description: String { "(\(x), \(y), \(width)×\(height))" }
}

/// A straight (not premultiplied) sRGB colour with components in 0...1.
package struct Color: Hashable, Sendable {
    package var red: Double
    package var green: Double
    package var blue: Double
    package var alpha: Double
    package init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    package static let white = Color(red: 1, green: 1, blue: 1)
    package static let black = Color(red: 0, green: 0, blue: 0)

    package func withAlpha(_ alpha: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: alpha) }

    /// `#RRGGBBAA`.
    package var hex: String {
        func byte(_ v: Double) -> String {
            let b = Int((min(max(v, 0), 1) * 255).rounded())
            let s = String(b, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + byte(red) + byte(green) + byte(blue) + byte(alpha)
    }

    /// WCAG 2 relative luminance of the opaque colour.
    package var relativeLuminance: Double {
        Color.luminance(red: red, green: green, blue: blue)
    }

    package static func luminance(red: Double, green: Double, blue: Double) -> Double {
        luminance(linearRed: linear(red), linearGreen: linear(green), linearBlue: linear(blue))
    }

    /// The same from channels already in linear light (e.g. looked up in `linearOfByte`).
    package static func luminance(linearRed: Double, linearGreen: Double, linearBlue: Double) -> Double {
        0.2126 * linearRed + 0.7152 * linearGreen + 0.0722 * linearBlue
    }

    /// The sRGB transfer function: a channel's encoded value (0…1) as linear light.
    package static func linear(_ encoded: Double) -> Double {
        encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
    }

    /// `linear` of each 8-bit value (k / 255), made once: a lookup gives the same numbers.
    package static let linearOfByte: [Double] = (0..<256).map { linear(Double($0) / 255) }

    /// Its inverse: linear light (a grey's relative luminance) as the encoded value (0…1).
    package static func encoded(_ linear: Double) -> Double {
        linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    /// WCAG 2 contrast ratio between two relative luminances.
    package static func contrast(_ a: Double, _ b: Double) -> Double {
        (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// CIE L* (0 black … 100 white) of a relative luminance: how light a grey looks.
    package static func lightness(_ luminance: Double) -> Double {
        luminance > 216.0 / 24389 ? 116 * pow(luminance, 1.0 / 3) - 16 : luminance * 24389 / 27
    }

    /// The relative luminance of CIE L* `lightness` (the inverse of ``lightness(_:)``).
    package static func luminance(lightness: Double) -> Double {
        lightness > 8 ? pow((lightness + 16) / 116, 3) : lightness * 27 / 24389
    }
}
