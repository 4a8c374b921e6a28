import Foundation

/// Bounds checked from an image's header before any pixel memory is allocated.
package struct DecodeLimits: Sendable, Equatable {
    /// Largest width × height accepted (default 100 megapixels).
    package var maxPixels: Int
    /// Largest width or height accepted: Cairo's own limit for an image surface.
    package var maxSide: Int
    package init(maxPixels: Int = 100_000_000, maxSide: Int = 32_767) {
        self.maxPixels = maxPixels
        self.maxSide = maxSide
    }

    /// Every field, spelled out (a cache key's part: describing the value by reflection searches
    /// the runtime's conformance records). `DecoderTests` holds it to every stored property.
    package var keyText: String { "maxPixels=\(maxPixels);maxSide=\(maxSide)" }

    func check(width: Int, height: Int) throws(ImageError) {
        guard width > 0, height > 0 else { throw .malformed("image has no pixels (\(width)×\(height))") }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels {
            throw .tooLarge(width: width, height: height, limit: maxPixels)
        }
        if width > maxSide || height > maxSide {
            throw .malformed("image is \(width)×\(height) pixels; sides over \(maxSide) pixels are not supported")
        }
    }
}

/// Decodes cover images (PNG, JPEG or WebP, told apart by their bytes, not their names) into
/// upright `Bitmap`s, honouring EXIF orientation.
package enum ImageDecoder {
    package enum Format: String, Sendable { case png, jpeg, webp }

    package static func sniff(_ data: Data) -> Format? {
        if data.count >= 8, data.prefix(8).elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return .png
        }
        if data.count >= 3, data.prefix(3).elementsEqual([0xFF, 0xD8, 0xFF]) { return .jpeg }
        // RIFF <size> WEBP
        if data.count >= 12, data.prefix(4).elementsEqual(Array("RIFF".utf8)),
           data.dropFirst(8).prefix(4).elementsEqual(Array("WEBP".utf8)) { return .webp }
        return nil
    }

    /// Decodes `data`.
    ///
    /// - Parameter minimumSize: the smallest (width, height) the caller will draw the image at.
    ///   Large JPEGs are decoded with TurboJPEG's DCT scaling to the smallest scale that still
    ///   covers it, which is much faster than a full decode followed by a downscale.
    package static func decode(_ data: Data, limits: DecodeLimits = DecodeLimits(),
                              minimumSize: (width: Int, height: Int)? = nil) throws(ImageError) -> Bitmap {
        guard !data.isEmpty else { throw .empty }
        switch sniff(data) {
        case .png: return try PNG.Decoder.decode(data, limits: limits)
        case .jpeg: return try JPEG.Decoder.decode(data, limits: limits, minimumSize: minimumSize)
        case .webp: return try WebP.Decoder.decode(data, limits: limits)
        case nil: throw .unknownFormat
        }
    }
}
