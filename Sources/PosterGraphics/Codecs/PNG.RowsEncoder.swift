import CCairoPango
import CPNG
import CPixels
import Foundation
import Synchronization
import Locks

extension PNG {
    /// Encodes the frames of one song, which differ from the song's base picture (backdrop, cover,
    /// captions) only in a few bands of rows.
    ///
    /// The image is cut into chunks of `chunkRows` rows. A PNG's image data is one zlib stream,
    /// but it may be built from raw-deflate segments that each end byte-aligned and refer to
    /// nothing before their start (ISA-L level 0 with a full flush), one per chunk: a chunk whose filtered
    /// bytes equal the base's reuses the base's segment, compressed once; the others are filtered
    /// and compressed afresh. The Adler-32 of the whole comes from the pieces' checksums.
    ///
    /// Each segment is an IDAT chunk of its own (the stream may be cut anywhere between IDATs),
    /// made with its CRC once: a frame's bytes up to its first changed chunk are then the base's,
    /// and so is the SHA-256 of them, hashed once per base (see `encode(_:changed:memory:digest:)`).
    ///
    /// The output depends only on the frame's pixels: not on the base, nor on which rows the
    /// caller says may have changed (that only narrows the comparison). The same picture always
    /// encodes to the same bytes. Rows are PNG-filtered with Up (row 0: none).
    ///
    /// Safe to share between threads: the cached segments are behind a mutex.
    package final class RowsEncoder: Sendable {
        package let width: Int
        package let height: Int
        package static let channels = 3
        /// Rows per chunk: small enough that a band of text changes few, large enough that the
        /// per-segment costs vanish (measured: 32 and 1 920 rows compress alike).
        package static let chunkRows = 32
        /// ISA-L level 0 with Huffman tables made from each segment's own rows: the histogram of
        /// two rows out of every eight, so the bytes depend on the rows alone, in every process
        /// (docs/decisions/0004-png-segments-level-0.md says why not level 1, and what this
        /// sample costs and saves against the whole segment's histogram).
        package static let tableRows: Int32 = 4

        private let base: [UInt8]
        private let rowBytes: Int
        private let cache: Guarded<[Segment?]>
        /// SHA-256 states of a frame's bytes through the head and the base's first `c` segments,
        /// at index `c`: made when a frame first needs them, then only copied.
        private let prefixHashes: Guarded<[Digest.SHA256?]>

        struct Segment: Sendable {
            /// The whole IDAT chunk: length, type, the raw-deflate segment, CRC.
            var bytes: [UInt8]
            var adler: UInt32
            /// Filtered (uncompressed) length.
            var length: Int
        }

        /// `base`: packed 8-bit RGB rows, `width * height * 3` bytes.
        package init(base: [UInt8], width: Int, height: Int) {
            precondition(width > 0 && height > 0 && base.count == width * height * Self.channels)
            self.base = base
            self.width = width
            self.height = height
            self.rowBytes = width * Self.channels
            self.cache = Guarded([Segment?](repeating: nil, count: (height + Self.chunkRows - 1) / Self.chunkRows))
            self.prefixHashes = Guarded([Digest.SHA256?](repeating: nil, count: (height + Self.chunkRows - 1) / Self.chunkRows + 1))
        }

        private var chunkCount: Int { (height + Self.chunkRows - 1) / Self.chunkRows }

        /// The rows chunk `c`'s segment is made from: its own and, for the Up filter, the one above.
        static func filteredRows(ofChunk c: Int, height: Int) -> Range<Int> {
            max(0, c * chunkRows - 1) ..< min(height, (c + 1) * chunkRows)
        }

        /// Whether `rows` hold the same ARGB32 pixels (`width` of them a row) in `a` and `b`.
        static func sameRows(_ rows: Range<Int>, _ a: UnsafePointer<UInt8>, stride aStride: Int, _ b: UnsafePointer<UInt8>, stride bStride: Int,
                             width: Int) -> Bool {
            rows.allSatisfy { memcmp(a + $0 * aStride, b + $0 * bStride, width * 4) == 0 }
        }

        private func rows(ofChunk c: Int) -> Range<Int> {
            c * Self.chunkRows ..< min(height, (c + 1) * Self.chunkRows)
        }

        /// What one renderer's previous frames compressed, chunk by chunk: a frame's chunk that
        /// differs from the base but equals the one remembered (its filtered input, row above
        /// included) reuses its segment. Karaoke ticks of one line change a few chunks only.
        /// Not thread-safe: one per renderer.
        package final class Memory {
            /// Rows of the chunks remembered, each at its place in a whole frame: allocated once,
            /// zeroed lazily by the system, so only the rows ever remembered take memory.
            var rows: UnsafeMutablePointer<UInt8>?
            var size = 0
            /// Per chunk: the row above it as it was, and the segment made.
            var chunks: [(above: [UInt8], segment: Segment)?] = []
            package init() {}
            deinit { free(rows) }
        }

        /// Encodes `frame` (packed RGB, same size as the base). `changed`: the only rows that may
        /// differ from the base (nil: any). `memory`: the caller's own previous chunks. Every chunk is a segment of its own, so the bytes are
        /// those of `PNG.encode(_:method: PNG.Compression.fast.method)`, whatever the base.
        package func encode(_ frame: UnsafeBufferPointer<UInt8>, changed: [Range<Int>]?, memory: Memory? = nil) throws(GraphicsError) -> [UInt8] {
            try encode(frame, changed: changed, memory: memory, digest: false).png
        }

        /// As `encode(_:changed:memory:)`; with `digest`, also the lowercase hex SHA-256 of the
        /// bytes, the same as `Digest.sha256(png)`: the bytes before the first chunk that differs
        /// from the base are the base's, and their hash state is kept, so only the rest is hashed.
        package func encode(_ frame: UnsafeBufferPointer<UInt8>, changed: [Range<Int>]?, memory: Memory? = nil,
                           digest: Bool) throws(GraphicsError) -> (png: [UInt8], sha256: String?) {
            precondition(frame.count == base.count)
            // Which chunks' filtered bytes differ: a chunk's Up-filtered rows depend on its rows
            // and the row above it.
            var dirty = [Bool](repeating: false, count: chunkCount)
            base.withUnsafeBufferPointer { base in
                for c in 0..<chunkCount {
                    let rows = rows(ofChunk: c)
                    let needed = max(0, rows.lowerBound - 1) ..< rows.upperBound
                    if let changed, !changed.contains(where: { $0.overlaps(needed) }) { continue }
                    let offset = needed.lowerBound * rowBytes, count = needed.count * rowBytes
                    dirty[c] = memcmp(frame.baseAddress! + offset, base.baseAddress! + offset, count) != 0
                }
            }
            // Each chunk its own segment: the base's, cached, or compressed afresh.
            if let memory, memory.chunks.count != chunkCount || memory.size != base.count {
                memory.chunks = Array(repeating: nil, count: chunkCount)
                free(memory.rows)
                memory.rows = calloc(base.count, 1)?.assumingMemoryBound(to: UInt8.self)
                memory.size = memory.rows == nil ? 0 : base.count
            }
            let remembering = memory?.rows != nil ? memory : nil
            // Segments already made, and the chunks still to compress (from the base or the frame).
            var pieces = [Segment?](repeating: nil, count: chunkCount)
            var fromBase: [Int] = [], fromFrame: [Int] = []
            let cached = cache.withLock { cache -> [Segment?] in
                return cache
            }
            for c in 0..<chunkCount {
                guard dirty[c] else {
                    if let segment = cached[c] { pieces[c] = segment } else { fromBase.append(c) }
                    continue
                }
                let rows = rows(ofChunk: c)
                let span = rows.lowerBound * rowBytes ..< rows.upperBound * rowBytes
                let above = rows.lowerBound > 0 ? (rows.lowerBound - 1) * rowBytes ..< rows.lowerBound * rowBytes : 0..<0
                if let memory = remembering, let stored = memory.rows, let remembered = memory.chunks[c],
                   remembered.above.count == above.count,
                   above.isEmpty || remembered.above.withUnsafeBufferPointer({ memcmp($0.baseAddress!, frame.baseAddress! + above.lowerBound, above.count) == 0 }),
                   memcmp(stored + span.lowerBound, frame.baseAddress! + span.lowerBound, span.count) == 0 {
                    pieces[c] = remembered.segment
                    continue
                }
                fromFrame.append(c)
            }
            let made = try base.withUnsafeBufferPointer { (b) throws(GraphicsError) -> [Int: Segment] in
                try Self.compress(fromBase.map { ($0, b.baseAddress!) } + fromFrame.map { ($0, frame.baseAddress!) },
                                  rowBytes: rowBytes, rows: rows(ofChunk:))
            }
            if !fromBase.isEmpty {
                // Two renderers may both compress a missing chunk of the base; they make the same bytes.
                cache.withLock { cache in
                    for c in fromBase { cache[c] = made[c] }
                }
            }
            for c in fromFrame {
                guard let memory = remembering, let stored = memory.rows, let segment = made[c] else { continue }
                let rows = rows(ofChunk: c)
                let span = rows.lowerBound * rowBytes ..< rows.upperBound * rowBytes
                let above = rows.lowerBound > 0 ? (rows.lowerBound - 1) * rowBytes ..< rows.lowerBound * rowBytes : 0..<0
                memcpy(stored + span.lowerBound, frame.baseAddress! + span.lowerBound, span.count)
                memory.chunks[c] = (Array(frame[above]), segment)
            }
            let segments = (0..<chunkCount).map { pieces[$0] ?? made[$0]! }
            let png = try Self.assemble(segments, width: width, height: height, channels: Self.channels)
            guard digest else { return (png, nil) }
            return (png, sha256(png, segments: segments, sameAsBase: dirty.firstIndex(of: true) ?? chunkCount))
        }

        /// The SHA-256 of `png`, whose first `shared` segments (of `segments`, assembled in it) are
        /// the base's: from the kept state after them, made here from the nearest one kept before.
        private func sha256(_ png: [UInt8], segments: [Segment], sameAsBase shared: Int) -> String {
            let kept = prefixHashes.withLock { hashes -> (Int, Digest.SHA256?) in
                var c = shared
                while c > 0, hashes[c] == nil { c -= 1 }
                return (c, hashes[c])
            }
            return png.withUnsafeBytes { bytes in
                var c = kept.0
                var offset = Self.headLength + segments[..<c].reduce(0) { $0 + $1.bytes.count }
                var made: [(Int, Digest.SHA256)] = []
                let hash: Digest.SHA256
                if let state = kept.1 {
                    hash = state.copy()
                } else {
                    hash = Digest.SHA256()
                    hash.update(UnsafeRawBufferPointer(rebasing: bytes[0..<Self.headLength]))
                    made.append((0, hash.copy()))
                }
                while c < shared {
                    let end = offset + segments[c].bytes.count
                    hash.update(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                    offset = end
                    c += 1
                    made.append((c, hash.copy()))
                }
                if !made.isEmpty {
                    // Another thread may have kept the same states meanwhile: they are equal.
                    prefixHashes.withLock { hashes in
                        for (c, state) in made where hashes[c] == nil { hashes[c] = state }
                    }
                }
                hash.update(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                return hash.finish()
            }
        }

        /// Compresses the chunks `jobs` names (chunk, the pixels to read it from), on as many
        /// threads as there are cores when there are enough of them to share (see
        /// `parallelChunks`), else on this thread. The segments do not depend on how
        /// the work was shared.
        static func compress(_ jobs: [(chunk: Int, pixels: UnsafePointer<UInt8>)], rowBytes: Int, rows: (Int) -> Range<Int>,
                             tableRows: Int32 = tableRows) throws(GraphicsError) -> [Int: Segment] {
            let chunkRows = jobs.map { rows($0.chunk) }
            // The pixels stay put and unchanged until every worker is done (compressEach returns).
            nonisolated(unsafe) let jobs = jobs
            return try compressEach(jobs.count) { (k) throws(GraphicsError) -> (Int, Segment) in
                (jobs[k].chunk, try compress(jobs[k].pixels, rowBytes: rowBytes, rows: chunkRows[k], tableRows: tableRows))
            }
        }

        /// Makes `count` segments with `make` (given 0..<count, it returns the chunk and its
        /// segment), shared between the cores from `parallelChunks` up, else on this thread.
        static func compressEach(_ count: Int, _ make: @Sendable (Int) throws(GraphicsError) -> (Int, Segment)) throws(GraphicsError) -> [Int: Segment] {
            let workers = count >= parallelChunks ? ProcessInfo.processInfo.activeProcessorCount : 1
            guard workers > 1 else {
                var made: [Int: Segment] = [:]
                for k in 0..<count {
                    let (chunk, segment) = try make(k)
                    made[chunk] = segment
                }
                return made
            }
            let results = Guarded((made: [Int: Segment](), error: GraphicsError?.none))
            // The lock is taken once on each side of the hand-over as well: what this thread wrote
            // (the pixels) happens before the workers read it, as ThreadSanitizer can see it.
            results.withLock { _ in }
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                results.withLock { _ in }
                var mine: [Int: Segment] = [:]
                var failure: GraphicsError?
                for k in Swift.stride(from: worker, to: count, by: workers) {
                    do throws(GraphicsError) {
                        let (chunk, segment) = try make(k)
                        mine[chunk] = segment
                    } catch {
                        failure = error
                        break
                    }
                }
                results.withLock { results in
                    results.made.merge(mine) { a, _ in a }
                    if results.error == nil, let failure { results.error = failure }
                }
            }
            let (made, error) = results.withLock { ($0.made, $0.error) }
            if let error { throw error }
            return made
        }

        /// Encodes premultiplied ARGB32 pixels (a canvas's: `stride` bytes a row) as opaque RGB,
        /// the bytes of `PNG.encode(_:method: PNG.Compression.fast.method)` of their RGB conversion: each
        /// chunk's rows (and the row above it) are converted by the thread that compresses them.
        package static func encodeOpaque(argb pixels: UnsafePointer<UInt8>, stride: Int, width: Int,
                                        height: Int) throws(GraphicsError) -> [UInt8] {
            let segments = try opaqueSegments(argb: pixels, stride: stride, width: width, height: height).segments
            return try assemble(segments, width: width, height: height, channels: channels)
        }

        /// The segments `encodeOpaque(argb:stride:width:height:)` assembles, chunk by chunk.
        /// `previous`: a frame encoded whole before, whose segment a chunk takes when its rows (and
        /// the row above) are that frame's.
        static func opaqueSegments(argb pixels: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int,
                                   previous: WholeFrame? = nil) throws(GraphicsError) -> (segments: [Segment], fromPrevious: Int) {
            precondition(width > 0 && height > 0 && stride >= width * 4)
            let chunks = (height + chunkRows - 1) / chunkRows
            let previous = previous.flatMap { $0.width == width && $0.height == height ? $0 : nil }
            nonisolated(unsafe) let pixels = pixels
            let taken = Atomic<Int>(0)
            let made = try compressEach(chunks) { (c) throws(GraphicsError) -> (Int, Segment) in
                if let previous, previous.matches(rows: filteredRows(ofChunk: c, height: height), of: pixels, stride: stride) {
                    taken.add(1, ordering: .relaxed)
                    return (c, previous.segments[c])
                }
                return (c, try opaqueSegment(c, argb: pixels, stride: stride, width: width, height: height))
            }
            return ((0..<chunks).map { made[$0]! }, taken.load(ordering: .relaxed))
        }

        /// Takes, for each chunk of the base not compressed yet, the segment `frame` made for it
        /// when that frame's rows there (its own and the one above) are the base picture's, `argb`:
        /// a base made after a frame with the same captions was encoded whole compresses only the
        /// rows that frame's text covered. A segment depends only on the pixels, so the bytes are
        /// the same.
        package func seed(from frame: WholeFrame, argb: Bitmap) {
            guard frame.width == width, frame.height == height, argb.width == width, argb.height == height else { return }
            let missing = cache.withLock { cache -> [Int] in
                return cache.indices.filter { cache[$0] == nil }
            }
            var found: [(Int, Segment)] = []
            argb.pixels.withUnsafeBufferPointer { own in
                for c in missing where frame.matches(rows: Self.filteredRows(ofChunk: c, height: height), of: own.baseAddress!, stride: argb.stride) {
                    found.append((c, frame.segments[c]))
                }
            }
            guard !found.isEmpty else { return }
            let taken = cache.withLock { cache -> Int in
                var taken = 0
                for (c, segment) in found where cache[c] == nil {
                    cache[c] = segment
                    taken += 1
                }
                return taken
            }
            seededCount.add(taken, ordering: .relaxed)
        }

        /// How many of the base's segments were taken from a frame encoded whole.
        package var seeded: Int { seededCount.load(ordering: .relaxed) }
        private let seededCount = Atomic<Int>(0)

        /// The segment of chunk `c` of premultiplied ARGB32 pixels converted to opaque RGB.
        static func opaqueSegment(_ c: Int, argb pixels: UnsafePointer<UInt8>, stride: Int, width: Int,
                                  height: Int) throws(GraphicsError) -> Segment {
            let rowBytes = width * channels
            let rows = c * chunkRows ..< min(height, (c + 1) * chunkRows)
            let first = max(0, rows.lowerBound - 1)
            let count = rows.upperBound - first
            let rgb = [UInt8](unsafeUninitializedCapacity: count * rowBytes) { buffer, initialized in
                lp_argb32_to_rgb(pixels + first * stride, UInt32(width), UInt32(count), stride, 1, buffer.baseAddress)
                initialized = count * rowBytes
            }
            // Rows counted from `first`: the chunk's first row keeps the row above it (Up), or is
            // the picture's first row (no filter).
            return try rgb.withUnsafeBufferPointer { (buffer) throws(GraphicsError) -> Segment in
                try compress(buffer.baseAddress!, rowBytes: rowBytes, rows: rows.lowerBound - first ..< rows.upperBound - first, tableRows: tableRows)
            }
        }

        /// Chunks below which a frame is compressed on the calling thread: a frame compressed whole
        /// or nearly (60 chunks at 1920 rows: a first frame, a still) is shared between the cores;
        /// the few chunks a frame of a song changes stay on its own thread, which `lines` and
        /// `sequence` already run one per core (sharing those measured slower: 0.47 against 0.41 s
        /// for 60 frames).
        static let parallelChunks = 40

        /// Encodes the base picture itself.
        package func encodeBase() throws(GraphicsError) -> [UInt8] {
            try base.withUnsafeBufferPointer { (b) throws(GraphicsError) -> [UInt8] in try encode(b, changed: []) }
        }

        static func compress(_ pixels: UnsafePointer<UInt8>, rowBytes: Int, rows: Range<Int>, tableRows: Int32) throws(GraphicsError) -> Segment {
            let length = (rowBytes + 1) * rows.count
            var filtered = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
                lp_png_filter_up_rows(pixels, rowBytes, UInt32(rows.lowerBound), UInt32(rows.upperBound), buffer.baseAddress)
                count = length
            }
            let adler = filtered.withUnsafeBufferPointer { lp_adler32(1, $0.baseAddress, length) }
            let bound = lp_deflate_segment_bound(length)
            var size = 0
            // The IDAT chunk around the segment: length and type before it, CRC after.
            let bytes = [UInt8](unsafeUninitializedCapacity: bound + 12) { out, count in
                size = filtered.withUnsafeBufferPointer { lp_deflate_segment($0.baseAddress, length, rowBytes + 1, tableRows, out.baseAddress! + 8, bound) }
                guard size > 0, size <= 0x7fff_ffff else { count = 0; return }
                frameChunk("IDAT", at: out.baseAddress!, dataLength: size)
                count = size + 12
            }
            filtered = []
            guard size > 0, size <= 0x7fff_ffff else { throw .encode("compression failed") }
            return Segment(bytes: bytes, adler: adler, length: length)
        }

        /// `value` big-endian at `p`.
        private static func store32(_ value: UInt32, at p: UnsafeMutablePointer<UInt8>) {
            p[0] = UInt8(value >> 24)
            p[1] = UInt8((value >> 16) & 0xff)
            p[2] = UInt8((value >> 8) & 0xff)
            p[3] = UInt8(value & 0xff)
        }

        /// Writes a PNG chunk's length and type before its `dataLength` bytes of data, already at
        /// `chunk + 8`, and its CRC (of type and data) after them.
        private static func frameChunk(_ type: String, at chunk: UnsafeMutablePointer<UInt8>, dataLength: Int) {
            store32(UInt32(dataLength), at: chunk)
            for (i, byte) in type.utf8.prefix(4).enumerated() { chunk[4 + i] = byte }
            store32(lp_crc32(0, chunk + 4, dataLength + 4), at: chunk + 8 + dataLength)
        }

        /// Bytes before the first segment: signature, IHDR, and the IDAT holding the zlib header.
        static let headLength = 8 + 25 + 14

        /// Signature, IHDR, the IDATs of one zlib stream (one holding the zlib header, one per
        /// segment, one holding the final empty block and the Adler-32), IEND.
        /// `channels`: 3 (RGB) or 4 (straight RGBA).
        static func assemble(_ pieces: [Segment], width: Int, height: Int, channels: Int) throws(GraphicsError) -> [UInt8] {
            var adler: UInt32 = 1
            var chunks = 0
            for piece in pieces {
                adler = lp_adler32_combine(adler, piece.adler, piece.length)
                chunks += piece.bytes.count
            }
            var out: [UInt8] = []
            out.reserveCapacity(headLength + chunks + 18 + 12)
            out += [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)] }
            func chunk(_ type: String, _ data: [UInt8]) {
                let start = out.count
                out += [UInt8](repeating: 0, count: 8) + data + [0, 0, 0, 0]
                out.withUnsafeMutableBufferPointer { frameChunk(type, at: $0.baseAddress! + start, dataLength: data.count) }
            }
            // 8-bit RGB or RGBA, deflate, adaptive filtering, no interlace.
            chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, channels == 4 ? 6 : 2, 0, 0, 0])
            chunk("IDAT", [0x78, 0x01])  // zlib: deflate, 32 KiB window, no dictionary
            assert(out.count == headLength)
            for piece in pieces { out += piece.bytes }
            chunk("IDAT", [0x03, 0x00] + be32(adler))  // the final block: empty, fixed Huffman codes
            chunk("IEND", [])
            return out
        }
    }
}

extension PNG {
    /// A frame encoded whole (see ``Canvas/opaquePNGKeepingSegments()``): its canvas and the
    /// segment of each chunk, kept so that a base picture made afterwards can take the segments
    /// of the rows it shares with the frame (``RowsEncoder/seed(from:argb:)``).
    ///
    /// `@unchecked Sendable`: its canvas (a Cairo surface, not thread-safe to draw on) is never
    /// drawn on again once the frame is encoded (``Canvas/opaquePNGKeepingSegments(previous:)``
    /// says so), and its pixels are then only read, by any number of threads at once.
    package final class WholeFrame: @unchecked Sendable {
        let canvas: Canvas
        let segments: [RowsEncoder.Segment]
        /// How many of its segments it took from the frame kept before it.
        package let fromPrevious: Int
        var width: Int { canvas.width }
        var height: Int { canvas.height }

        init(canvas: Canvas, segments: [RowsEncoder.Segment], fromPrevious: Int) {
            self.canvas = canvas
            self.segments = segments
            self.fromPrevious = fromPrevious
        }

        /// Whether `rows` of the frame hold the same ARGB pixels as `pixels` (`stride` bytes a row).
        func matches(rows: Range<Int>, of pixels: UnsafePointer<UInt8>, stride: Int) -> Bool {
            guard let data = cairo_image_surface_get_data(canvas.surface) else { return false }
            return RowsEncoder.sameRows(rows, data, stride: Int(cairo_image_surface_get_stride(canvas.surface)), pixels, stride: stride,
                                        width: width)
        }
    }
}
