/// Why a cover image could not be read.
package enum ImageError: Error, Equatable, CustomStringConvertible, Sendable {
    case empty
    case unknownFormat
    case tooLarge(width: Int, height: Int, limit: Int)
    case malformed(String)

    package var description: String {
        switch self {
        case .empty: return "file is empty"
        case .unknownFormat: return "not a PNG, JPEG or WebP image"
        case .tooLarge(let width, let height, let limit):
            return "image is \(width)×\(height) pixels, more than the limit of \(limit) pixels"
        case .malformed(let reason): return reason
        }
    }
}

/// Why fonts could not be set up.
package enum FontError: Error, Equatable, CustomStringConvertible, Sendable {
    case configuration(String)
    case noFonts(String)

    package var description: String {
        switch self {
        case .configuration(let reason): return "font configuration failed: \(reason)"
        case .noFonts(let where_): return "no usable fonts in \(where_)"
        }
    }
}

/// A failure inside Cairo or a picture encoder (PNG, JPEG, WebP).
package enum GraphicsError: Error, Equatable, CustomStringConvertible, Sendable {
    case cairo(String)
    case encode(String)

    package var description: String {
        switch self {
        case .cairo(let reason): return "drawing failed: \(reason)"
        case .encode(let reason): return "encoding failed: \(reason)"
        }
    }
}
