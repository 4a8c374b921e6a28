import CPNGShim

extension PNG {
    /// How hard the encoder works. Chosen by measurement on 1080×1920 poster frames: `fast` uses
    /// zlib level 1 with the Up filter and run-length strategy, which is several times faster than
    /// libpng's defaults while poster frames (smooth blurred backgrounds, flat scrims) stay compact.
    public enum Compression: String, Sendable, CaseIterable {
        case fast, balanced, small

        var settings: (level: Int32, strategy: Int32, filters: Int32) {
            switch self {
            case .fast: return (1, lp_png_strategy_rle(), lp_png_filter_up())
            case .balanced: return (3, lp_png_strategy_default(), lp_png_filter_up())
            case .small: return (9, lp_png_strategy_default(), lp_png_filter_all())
            }
        }
    }

    /// Encodes Cairo ARGB32 pixels as an 8-bit PNG: RGB when `opaque`, RGBA otherwise.
    /// Deterministic: no time stamps or other run-dependent chunks are written.
    static func encode(pixels: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int, opaque: Bool,
                       compression: Compression) throws(GraphicsError) -> [UInt8] {
        var buffer = lp_png_buffer()
        var message = [CChar](repeating: 0, count: Int(LP_PNG_MESSAGE_SIZE))
        let s = compression.settings
        let status = lp_png_encode_argb32(pixels.bindMemory(to: UInt8.self).baseAddress, UInt32(width), UInt32(height),
                                          stride, opaque ? 1 : 0, s.level, s.strategy, s.filters, &buffer, &message)
        guard status == 0, let data = buffer.data else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .encode(text.isEmpty ? "unknown error" : text)
        }
        defer { lp_png_buffer_free(&buffer) }
        return [UInt8](UnsafeBufferPointer(start: data, count: buffer.size))
    }
}
