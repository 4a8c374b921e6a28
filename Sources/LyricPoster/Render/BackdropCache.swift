import Foundation
import PosterGraphics

/// Prepared backdrops kept between runs under `$XDG_CACHE_HOME/lyricposter/backdrops` (else
/// `~/.cache/…`), keyed by the cover's bytes, the canvas and the theme: a cold `frame` of a cover
/// seen before skips decoding it and preparing its backdrop.
///
/// An entry is found by a quick key (the cover's size and the digest of its first 64 KB, besides
/// the canvas and theme), so that a cover never seen starts decoding at once, without reading all
/// its bytes first; the entry holds the SHA-256 of the whole cover, and is used only when it is
/// that of the cover in hand (`coverDigest`). Two covers with the same beginning and size share
/// the slot, each correct in turn.
///
/// Never a correctness risk: an entry is read only whole, with its key, its cover's digest and a
/// CRC-32 of its bytes matching; anything else is ignored (and rewritten). Entries are written to a temporary file
/// and renamed, so concurrent runs never see half an entry; the folder is kept under
/// `maxBytes` by removing the least recently used entries. `LYRICPOSTER_NO_CACHE=1` turns it off.
package enum BackdropCache {
    static let maxBytes = 256 << 20
    static let magic = Array("LPBACKDROP2\n".utf8)
    /// The cover's first bytes, read for the quick key.
    static let quickPrefix = 64 << 10

    /// The command's folder: `$XDG_CACHE_HOME/lyricposter/backdrops`, else `~/.cache/…`; nil
    /// with `LYRICPOSTER_NO_CACHE` set (the library has none unless its caller gives one).
    package static var defaultFolder: String? {
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        if let off = variable("LYRICPOSTER_NO_CACHE"), !off.isEmpty, off != "0" { return nil }
        if let xdg = variable("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/lyricposter/backdrops" }
        guard let home = variable("HOME"), home.hasPrefix("/") else { return nil }
        return home + "/.cache/lyricposter/backdrops"
    }

    /// The slot of a backdrop: the cover's size and first bytes (see ``quickPrefix``), the canvas,
    /// the lines around the current one (they shape the text zones), the theme and the renderer's
    /// version. `limits`: the decoding limits, so that a cover refused under stricter ones is not
    /// served.
    static func key(cover: Data, geometry: PosterGeometry, theme: Theme, before: Int, after: Int, limits: String) -> String {
        key(coverCount: cover.count, head: cover.prefix(quickPrefix), geometry: geometry, theme: theme, before: before, after: after,
            limits: limits)
    }

    /// The same slot from the cover's size and its first ``quickPrefix`` bytes alone (`head`: all
    /// of them, or the whole cover if it is shorter), for a reader that has not read the rest.
    static func key(coverCount: Int, head: Data, geometry: PosterGeometry, theme: Theme, before: Int, after: Int,
                    limits: String) -> String {
        let p = geometry.preset
        let quick = "\(coverCount):" + Digest.sha256(head.prefix(quickPrefix))
        return Digest.sha256(["backdrop-\(SequenceRenderer.version)", quick, "\(p.width)x\(p.height)", p.arrangement.rawValue,
                              "\(p.isLockScreen)", "\(before)", "\(after)", theme.keyText, limits].joined(separator: "\n")
                             + (p.safeArea.map { "\n\($0)" } ?? ""))
    }

    /// The slot of the backdrop `options` make of `cover`.
    static func key(cover: Data, options: RenderOptions) -> String {
        key(coverCount: cover.count, head: cover.prefix(quickPrefix), options: options)
    }

    /// The slot of the backdrop `options` make of a cover of `coverCount` bytes that starts with
    /// `head` (see ``key(coverCount:head:geometry:theme:before:after:limits:)``).
    static func key(coverCount: Int, head: Data, options: RenderOptions) -> String {
        key(coverCount: coverCount, head: head, geometry: options.geometry, theme: options.theme, before: options.linesBefore,
            after: options.linesAfter, limits: options.limits.keyText)
    }

    /// The backdrop in `key`'s slot, and the SHA-256 of the cover it was made from.
    static func load(key: String, geometry: PosterGeometry, in folder: String) -> (background: Background, coverDigest: String)? {
        // Read in pieces, each bitmap's pixels straight into its own array (8 MB at 1080×1920):
        // reading the file whole and copying the pixels out after was two thirds of a warm
        // frame's loading, mostly page faults and copies.
        guard var file = EntryFile(path: folder + "/" + key) else { return nil }
        // The fields up to the first bitmap's size, all fixed in length: the key and the cover's
        // digest, seven colours, two flags, then the bitmap's width, height and stride.
        let fieldsLength = magic.count + 64 + 64 + 7 * 32 + 2 * 4 + 3 * 4
        guard let fields = file.read(fieldsLength), Array(fields.prefix(magic.count)) == magic else { return nil }
        var reader = Reader(bytes: fields, offset: magic.count)
        guard String(decoding: reader.take(64) ?? Data(), as: UTF8.self) == key, let digest = reader.take(64),
              let tint = reader.color(), let average = reader.color(), let hasVibrant = reader.u32(),
              let vibrant = reader.color(), let muted = reader.color(), let scheme = reader.u32(),
              let text = reader.color(), let current = reader.color(), let duet = reader.color(),
              let bitmap = file.bitmap(size: &reader), let hasFrost = file.read(4).flatMap(Reader.u32)
        else { return nil }
        var frost: Bitmap?
        if hasFrost == 1 {
            guard let size = file.read(12) else { return nil }
            var sizeReader = Reader(bytes: size, offset: 0)
            frost = file.bitmap(size: &sizeReader)
        }
        guard hasFrost == 0 || frost != nil, bitmap.width == geometry.preset.width, bitmap.height == geometry.preset.height,
              file.endsWithItsChecksum()
        else { return nil }
        touch(folder + "/" + key)
        let palette = Palette(scheme: scheme == 1 ? .light : .dark, text: text, current: current, duet: duet)
        return (Background(geometry: geometry, bitmap: bitmap, tint: tint, average: average, vibrant: hasVibrant == 1 ? vibrant : nil,
                           muted: muted, palette: palette, frost: frost), String(decoding: digest, as: UTF8.self))
    }

    /// Writes `background`, made from the cover whose SHA-256 is `coverDigest`, into `key`'s slot
    /// (best effort: a cache that cannot be written is no error).
    static func store(_ background: Background, key: String, coverDigest: String, in folder: String) {
        precondition(coverDigest.utf8.count == 64)
        // The entry is written piece by piece: the bitmaps' pixels (8 MB at 1080×1920) straight
        // from the backdrop, not copied after the fields first (that copy and its page faults
        // were about a third of storing, on a thread that then competes with the frame's).
        var pieces: [ArraySlice<UInt8>] = []
        var out = magic + Array(key.utf8) + Array(coverDigest.utf8)
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        func color(_ c: Color) { for v in [c.red, c.green, c.blue, c.alpha] { withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 } } }
        func bitmap(_ b: Bitmap) {
            u32(UInt32(b.width)); u32(UInt32(b.height)); u32(UInt32(b.stride))
            pieces.append(out[...])
            pieces.append(b.pixels.prefix(b.stride * b.height))
            out = []
        }
        color(background.tint)
        color(background.average)
        u32(background.vibrant == nil ? 0 : 1)
        color(background.vibrant ?? .black)
        color(background.muted)
        u32(background.palette.scheme == .light ? 1 : 0)
        color(background.palette.text)
        color(background.palette.current)
        color(background.palette.duet)
        bitmap(background.bitmap)
        u32(background.frost == nil ? 0 : 1)
        if let frost = background.frost { bitmap(frost) }
        pieces.append(out[...])
        withUnsafeBytes(of: Checksum.crc32(pieces).littleEndian) { pieces.append(ArraySlice($0)) }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try OutputFile.writeAtomically(pieces: pieces, to: folder + "/" + key)
        } catch {
            return
        }
        trim(folder)
    }

    private static func touch(_ path: String) {
        utimes(path, nil)
    }

    /// Removes the least recently used entries while the folder holds more than `maxBytes`.
    private static func trim(_ folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        var entries: [(path: String, size: Int, time: Int)] = []
        for name in names where name.count == 64 && name.allSatisfy(\.isHexDigit) {
            var info = stat()
            let path = folder + "/" + name
            if stat(path, &info) == 0 { entries.append((path, Int(info.st_size), Int(info.st_mtim.tv_sec))) }
        }
        var total = entries.reduce(0) { $0 + $1.size }
        for entry in entries.sorted(by: { $0.time < $1.time }) where total > maxBytes {
            unlink(entry.path)
            total -= entry.size
        }
    }

    /// An entry's file read from the start, piece by piece, keeping the CRC-32 of what was read;
    /// the entry is whole when its last 4 bytes, right after, are that CRC.
    private struct EntryFile: ~Copyable {
        let fd: Int32
        let size: Int
        var offset = 0
        var crc: UInt32 = 0

        init?(path: String) {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                close(fd)
                return nil
            }
            size = Int(info.st_size)
        }

        deinit { close(fd) }

        /// The next `n` bytes, or nil past the end or on an error. Never into the last 4 bytes
        /// (the checksum, see ``endsWithItsChecksum()``).
        mutating func read(_ n: Int) -> Data? {
            guard fits(n) else { return nil }
            var bytes = Data(count: n)
            guard bytes.withUnsafeMutableBytes({ fill($0) }) else { return nil }
            return bytes
        }

        /// A bitmap whose width, height and stride `size` holds next: its pixels read into their
        /// array, within the file and the limits of any picture made here.
        mutating func bitmap(size: inout Reader) -> Bitmap? {
            guard let w = size.u32(), let h = size.u32(), let stride = size.u32(), w > 0, h > 0, w <= 32767, h <= 32767, stride >= w * 4
            else { return nil }
            let n = Int(stride) * Int(h)
            guard fits(n) else { return nil }
            var read = false
            let pixels = [UInt8](unsafeUninitializedCapacity: n) { buffer, count in
                read = fill(UnsafeMutableRawBufferPointer(buffer))
                count = read ? n : 0
            }
            return read ? Bitmap(width: Int(w), height: Int(h), stride: Int(stride), pixels: pixels) : nil
        }

        /// Whether `n` more bytes lie before the checksum.
        private func fits(_ n: Int) -> Bool {
            n >= 0 && n <= size - 4 - offset
        }

        /// Whether the 4 bytes left are the CRC-32 of all before them.
        mutating func endsWithItsChecksum() -> Bool {
            guard offset == size - 4 else { return false }
            let body = crc
            var trailer = Data(count: 4)
            guard trailer.withUnsafeMutableBytes({ readAll($0) }) else { return false }
            return Reader.u32(trailer) == body
        }

        private mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
            guard readAll(buffer) else { return false }
            crc = buffer.withMemoryRebound(to: UInt8.self) { Checksum.crc32(continuing: crc, UnsafeBufferPointer($0)) }
            return true
        }

        private mutating func readAll(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
            guard let base = buffer.baseAddress else { return true }
            var done = 0
            while done < buffer.count {
                let got = pread(fd, base + done, buffer.count - done, off_t(offset + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { return false }
                done += got
            }
            offset += done
            return true
        }
    }

    private struct Reader {
        let bytes: Data
        var offset: Int

        mutating func take(_ n: Int) -> Data? {
            guard n >= 0, offset + n <= bytes.count else { return nil }
            defer { offset += n }
            return bytes[offset..<offset + n]
        }

        /// `bytes` (4 of them) as a little-endian number.
        static func u32(_ bytes: Data) -> UInt32? {
            var reader = Reader(bytes: bytes, offset: 0)
            return reader.u32()
        }

        mutating func u32() -> UInt32? {
            guard let b = take(4) else { return nil }
            return b.reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func double() -> Double? {
            guard let b = take(8) else { return nil }
            return Double(bitPattern: b.reversed().reduce(0) { $0 << 8 | UInt64($1) })
        }

        mutating func color() -> Color? {
            guard let r = double(), let g = double(), let b = double(), let a = double() else { return nil }
            return Color(red: r, green: g, blue: b, alpha: a)
        }
    }
}
