import CPNG

/// Packed 8-bit pixels ready to encode: RGB (3 channels) or straight RGBA (4), rows tightly packed.
package struct PixelBuffer: Sendable {
    package let width: Int
    package let height: Int
    package let channels: Int
    package let bytes: [UInt8]

    package init(width: Int, height: Int, channels: Int, bytes: [UInt8]) {
        precondition(bytes.count == width * height * channels)
        self.width = width
        self.height = height
        self.channels = channels
        self.bytes = bytes
    }
}

extension PNG {
    /// One way of writing a PNG, as the benchmark compares them.
    package enum Method: Hashable, Sendable, CustomStringConvertible {
        /// libpng with zlib at `level` (0–9), a zlib `strategy` and a filter choice.
        case libpng(level: Int32, strategy: Strategy, filter: Filter)
        /// The minimal writer around libdeflate at `level` (1–12), Up filter or none.
        case libdeflate(level: Int32, up: Bool)
        /// ISA-L level 0, Up filter, the IDAT made of one segment per 32 rows exactly as
        /// `RowsEncoder` writes it (here all compressed afresh), with Huffman tables made from
        /// some of each segment's rows (`tableRows`, see `lp_deflate_segment`; `fast` uses
        /// `RowsEncoder.tableRows`) or, with 0, ISA-L's defaults.
        case isal(tableRows: Int32)

        package enum Strategy: String, Hashable, Sendable, CaseIterable { case standard = "default", rle, filtered, huffman }
        package enum Filter: String, Hashable, Sendable, CaseIterable { case none, sub, up, adaptive }

        package var description: String {
            switch self {
            case .libpng(let level, let strategy, let filter):
                return "libpng level \(level), \(strategy.rawValue) strategy, \(filter.rawValue) filter"
            case .libdeflate(let level, let up):
                return "libdeflate level \(level), \(up ? "up" : "none") filter"
            case .isal(let tableRows):
                return tableRows == 0 ? "ISA-L level 0, default Huffman tables, up filter"
                    : tableRows == 1 ? "ISA-L level 0, Huffman tables from each whole segment, up filter"
                    : "ISA-L level 0, Huffman tables from 2 rows in \(2 * tableRows) of each segment, up filter"
            }
        }
    }

    /// How hard the encoder works (`--png-compression`). Chosen by measurement with
    /// `lyricposter-bench` (README, Performance) on 1080×1920 frames of a photographic cover:
    /// - `fast`: ISA-L level 0 with Huffman tables from a quarter of each segment's rows, 32-row
    ///   segments, Up filter. A song's frames go through `RowsEncoder`, so rows equal to the
    ///   song's base picture reuse segments compressed once per song; a whole photographic frame
    ///   takes about 6 ms on one core (the whole segment's histogram: 7 ms and 5 % smaller;
    ///   ISA-L's default tables: 4 ms and 18 % larger; libdeflate level 3: 26 ms), shared between
    ///   cores when it is compressed whole.
    /// - `balanced`: libdeflate level 6, Up filter, whole frames (≈ 0.95× `fast`'s old libdeflate
    ///   level 3 size, 50 ms a frame).
    /// - `small`: libpng level 9, adaptive filters (slowest, smallest).
    package enum Compression: String, Sendable, CaseIterable {
        case fast, balanced, small

        package var method: Method {
            switch self {
            case .fast: return .isal(tableRows: RowsEncoder.tableRows)
            case .balanced: return .libdeflate(level: 6, up: true)
            case .small: return .libpng(level: 9, strategy: .standard, filter: .adaptive)
            }
        }
    }

    /// Encodes `pixels` as an 8-bit RGB or RGBA PNG. Deterministic: no time stamps or other
    /// run-dependent chunks are written.
    package static func encode(_ pixels: PixelBuffer, method: Method) throws(GraphicsError) -> [UInt8] {
        try pixels.bytes.withUnsafeBufferPointer { (rows) throws(GraphicsError) -> [UInt8] in
            try encode(rows: rows, width: pixels.width, height: pixels.height, channels: pixels.channels, method: method)
        }
    }

    /// Encodes `rows` (packed, `width * channels` bytes each) as `encode(_:method:)` does,
    /// without copying them first.
    package static func encode(rows: UnsafeBufferPointer<UInt8>, width: Int, height: Int, channels: Int,
                              method: Method) throws(GraphicsError) -> [UInt8] {
        precondition(rows.count == width * height * channels)
        if case .isal(let tableRows) = method {
            let n = RowsEncoder.chunkRows, chunks = (height + n - 1) / n
            let made = try RowsEncoder.compress((0..<chunks).map { ($0, rows.baseAddress!) }, rowBytes: width * channels,
                                                rows: { $0 * n ..< min(height, ($0 + 1) * n) }, tableRows: tableRows)
            return try RowsEncoder.assemble((0..<chunks).map { made[$0]! }, width: width, height: height, channels: channels)
        }
        var buffer = lp_png_buffer()
        var message = [CChar](repeating: 0, count: Int(LP_PNG_MESSAGE_SIZE))
        let status: Int32 = {
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
                return lp_png_encode(rows.baseAddress, UInt32(width), UInt32(height), Int32(channels),
                                     level, zlibStrategy, filters, &buffer, &message)
            case .libdeflate(let level, let up):
                return lp_png_encode_libdeflate(rows.baseAddress, UInt32(width), UInt32(height),
                                                Int32(channels), level, up ? 1 : 0, &buffer, &message)
            case .isal:
                return -1  // handled above
            }
        }()
        guard status == 0, let data = buffer.data else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .encode(text.isEmpty ? "unknown error" : text)
        }
        defer { lp_png_buffer_free(&buffer) }
        return [UInt8](UnsafeBufferPointer(start: data, count: buffer.size))
    }
}
