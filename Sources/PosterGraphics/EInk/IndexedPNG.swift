import CPNG

/// Palette PNGs (colour type 3) of quantised pictures: what an e-ink panel's driver, or a person
/// checking one, reads. Written through libpng (`lp_png_write_indexed`).
package enum IndexedPNG {
    /// Encodes `indices` (from `EInkQuantizer.quantize`: `width * height`, row-major) as a PNG of
    /// `palette.bitDepth` bits a pixel whose PLTE is `palette.colours` in index order, so that a
    /// pixel's stored index is the panel's colour index.
    ///
    /// Deterministic: only IHDR, PLTE, IDAT and IEND are written, no time or text chunks. Throws
    /// `.encode` with libpng's or the writer's reason, among them an index that is not below
    /// `palette.colours.count` (the pixel is named). Traps if `indices` is not `width * height`
    /// long.
    package static func encode(indices: [UInt8], width: Int, height: Int, palette: EInkPalette) throws(GraphicsError) -> [UInt8] {
        precondition(width >= 0 && height >= 0 && indices.count == width * height, "indices must hold width × height bytes")
        // PNG's own limit for a side (2³¹ − 1); checked here so that the conversion cannot trap.
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .encode("image of \(width)×\(height) pixels cannot be a PNG")
        }
        let paletteBytes = palette.colours.flatMap { [$0.r, $0.g, $0.b] }
        var message = [CChar](repeating: 0, count: Int(LP_PNG_MESSAGE_SIZE))
        var buffer = lp_png_buffer()
        let status = indices.withUnsafeBufferPointer { indices in
            paletteBytes.withUnsafeBufferPointer { paletteBytes in
                lp_png_write_indexed(indices.baseAddress, UInt32(width), UInt32(height), paletteBytes.baseAddress,
                                     Int32(palette.colours.count), Int32(palette.bitDepth), &buffer, &message)
            }
        }
        defer { lp_png_buffer_free(&buffer) }
        guard status == 0, let data = buffer.data else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .encode(text.isEmpty ? "unknown error" : text)
        }
        return [UInt8](UnsafeBufferPointer(start: data, count: buffer.size))
    }
}
