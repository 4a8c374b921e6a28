import CQRencode
import Foundation

/// Why a text could not be made a QR code.
package enum QRCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing to encode.
    case empty
    /// More bytes than a QR code a phone reads at poster size holds (``QRCode/maxBytes``).
    case tooLong(bytes: Int, limit: Int)
    /// libqrencode refused it (the reason its `errno` gives).
    case encoder(String)

    package var description: String {
        switch self {
        case .empty: return "nothing to encode"
        case .tooLong(let bytes, let limit): return "\(bytes) bytes, more than the \(limit) a QR code on a card holds"
        case .encoder(let reason): return "libqrencode: \(reason)"
        }
    }
}

/// A QR code's modules, made by libqrencode (the corresponding C type is `QRcode`): error
/// correction level M (15 %), the smallest version that holds the text, 8-bit mode (UTF-8).
package struct QRCode: Hashable, Sendable {
    /// Modules a side (21 for version 1, up to 177).
    package let size: Int
    /// Row by row: true for a dark module.
    package let modules: [Bool]

    /// The most bytes encoded: version 17 at level M (85 modules a side), which still has
    /// modules of 3 px on a 1080-px card.
    package static let maxBytes = 512

    package init(_ text: String) throws(QRCodeError) {
        let bytes = text.utf8.count
        guard bytes > 0 else { throw .empty }
        guard bytes <= Self.maxBytes, !text.utf8.contains(0) else { throw .tooLong(bytes: bytes, limit: Self.maxBytes) }
        errno = 0
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            throw .encoder(String(cString: strerror(errno)))
        }
        defer { QRcode_free(code) }
        let side = Int(code.pointee.width)
        size = side
        // Bit 0 of each byte: dark; the other bits say what the module is for.
        modules = (0..<(side * side)).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module at column `x`, row `y` is dark.
    package func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }
}

extension Canvas {
    /// Draws `code` filling `rect` (square): a white tile with a quiet zone of four modules, the
    /// dark modules as whole-pixel squares (each module the same size, so a phone reads it).
    package func draw(_ code: QRCode, in rect: Rect) {
        let module = (min(rect.width, rect.height) / Double(code.size + 8)).rounded(.down)
        guard module >= 1 else { return }
        let side = module * Double(code.size + 8)
        let x0 = (rect.minX + (rect.width - side) / 2).rounded(), y0 = (rect.minY + (rect.height - side) / 2).rounded()
        fill(Rect(x: x0, y: y0, width: side, height: side), color: .white)
        for y in 0..<code.size {
            var x = 0
            while x < code.size {
                guard code.isDark(x: x, y: y) else { x += 1; continue }
                var end = x
                while end < code.size, code.isDark(x: end, y: y) { end += 1 }
                fill(Rect(x: x0 + Double(x + 4) * module, y: y0 + Double(y + 4) * module, width: Double(end - x) * module, height: module),
                     color: .black)
                x = end
            }
        }
    }

    /// The side of the square ``draw(_:in:)`` fills in a `side`-pixel square: whole modules.
    package static func qrSide(_ code: QRCode, within side: Double) -> Double {
        (side / Double(code.size + 8)).rounded(.down) * Double(code.size + 8)
    }
}
