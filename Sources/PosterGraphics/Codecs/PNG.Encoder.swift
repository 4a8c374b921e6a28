import CPNGShim

/// Packed 8-bit pixels ready to encode: RGB (3 channels) or straight RGBA (4), rows tightly packed.
public struct PixelBuffer: Sendable {
    public let width: Int
    public let height: Int
    public let channels: Int
    public let bytes: [UInt8]
}

extension PNG {
    /// One way of writing a PNG, as the benchmark compares them.
    public enum Method: Hashable, Sendable, CustomStringConvertible {
        /// libpng with zlib at `level` (0–9), a zlib `strategy` and a filter choice.
        case libpng(level: Int32, strategy: Strategy, filter: Filter)
        /// The minimal writer around libdeflate at `level` (1–12), Up filter or none.
        case libdeflate(level: Int32, up: Bool)

        public enum Strategy: String, Hashable, Sendable, CaseIterable { case standard = "default", rle, filtered, huffman }
        public enum Filter: String, Hashable, Sendable, CaseIterable { case none, sub, up, adaptive }

        public var description: String {
            switch self {
            case .libpng(let level, let strategy, let filter):
                return "libpng level \(level), \(strategy.rawValue) strategy, \(filter.rawValue) filter"
            case .libdeflate(let level, let up):
                return "libdeflate level \(level), \(up ? "up" : "none") filter"
            }
        }
    }

    /// How hard the encoder works (`--png-compression`). Chosen by measurement on a 1080×1920
    /// poster frame with `lyricposter-bench` (README, Performance), against libpng's default
    /// settings (zlib level 6, adaptive filters: 71 ms, the size reference):
    /// - `fast`: libdeflate level 3, Up filter — 12 ms and 1.13× the reference size. The fastest
    ///   setting within 1.3× of the reference: libdeflate level 1 with no filter is quicker (10 ms)
    ///   but 1.35×; libpng's fastest tunings (level 1, Up or Sub filter) take 15–16 ms for 1.37–1.42×.
    ///   Poster frames are mostly smooth gradients, which the Up filter turns into long runs.
    /// - `balanced`: libdeflate level 6, Up filter — 20 ms, 1.04×.
    /// - `small`: libpng level 9, adaptive filters — 475 ms, 0.92× (libdeflate level 12 is 0.88×
    ///   but takes 1.6 s a frame).
    public enum Compression: String, Sendable, CaseIterable {
        case fast, balanced, small

        public var method: Method {
            switch self {
            case .fast: return .libdeflate(level: 3, up: true)
            case .balanced: return .libdeflate(level: 6, up: true)
            case .small: return .libpng(level: 9, strategy: .standard, filter: .adaptive)
            }
        }
    }

    /// Encodes `pixels` as an 8-bit RGB or RGBA PNG. Deterministic: no time stamps or other
    /// run-dependent chunks are written.
    public static func encode(_ pixels: PixelBuffer, method: Method) throws(GraphicsError) -> [UInt8] {
        var buffer = lp_png_buffer()
        var message = [CChar](repeating: 0, count: Int(LP_PNG_MESSAGE_SIZE))
        let status: Int32 = pixels.bytes.withUnsafeBufferPointer { rows in
            switch method {
            case .libpng(let level, let strategy, let filter):
                let zlibStrategy: Int32
                switch strategy {
                case .standard: zlibStrategy = lp_png_strategy_default()
                case .rle: zlibStrategy = lp_png_strategy_rle()
                case .filtered: zlibStrategy = lp_png_strategy_filtered()
                case .huffman: zlibStrategy = lp_png_strategy_huffman()
                }
                let filters: Int32
                switch filter {
                case .none: filters = lp_png_filter_none()
                case .sub: filters = lp_png_filter_sub()
                case .up: filters = lp_png_filter_up()
                case .adaptive: filters = lp_png_filter_all()
                }
                return lp_png_encode(rows.baseAddress, UInt32(pixels.width), UInt32(pixels.height), Int32(pixels.channels),
                                     level, zlibStrategy, filters, &buffer, &message)
            case .libdeflate(let level, let up):
                return lp_png_encode_libdeflate(rows.baseAddress, UInt32(pixels.width), UInt32(pixels.height),
                                                Int32(pixels.channels), level, up ? 1 : 0, &buffer, &message)
            }
        }
        guard status == 0, let data = buffer.data else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .encode(text.isEmpty ? "unknown error" : text)
        }
        defer { lp_png_buffer_free(&buffer) }
        return [UInt8](UnsafeBufferPointer(start: data, count: buffer.size))
    }
}
