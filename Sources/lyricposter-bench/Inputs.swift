import CTurboJPEG
import Foundation
import PosterGraphics

/// The benchmark's inputs, made on the spot so that they are the same on every machine: a cover
/// drawn with Cairo (saved as a 3000×3000 JPEG and a 1200×1200 PNG), the same cover with film
/// grain and texture (a 3000×3000 JPEG that compresses like a photograph), songs of 60 and 600
/// lines and a word-timed (enhanced LRC) song of 60 lines.
enum BenchInputs {
    static func make(in folder: String) throws
        -> (jpeg: String, png: String, photo: String, song60: String, song600: String, songWords: String) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let jpeg = folder + "/cover-3000.jpg", png = folder + "/cover-1200.png", photo = folder + "/cover-photo-3000.jpg"
        if !FileManager.default.fileExists(atPath: jpeg) {
            try Data(try cover(side: 3000).jpegData(quality: 92)).write(to: URL(fileURLWithPath: jpeg))
        }
        if !FileManager.default.fileExists(atPath: png) {
            try Data(try cover(side: 1200).pngData(opaque: true, compression: .small)).write(to: URL(fileURLWithPath: png))
        }
        if !FileManager.default.fileExists(atPath: photo) {
            try Data(try photoCover(side: 3000).jpegData(quality: 92)).write(to: URL(fileURLWithPath: photo), options: .atomic)
        }
        let song60 = folder + "/song-60.lrc", song600 = folder + "/song-600.lrc", songWords = folder + "/song-words-180s.lrc"
        try Data(song(lines: 60).utf8).write(to: URL(fileURLWithPath: song60))
        try Data(song(lines: 600).utf8).write(to: URL(fileURLWithPath: song600))
        try Data(wordSong().utf8).write(to: URL(fileURLWithPath: songWords))
        return (jpeg, png, photo, song60, song600, songWords)
    }

    /// A busy, photo-like cover: a sunset gradient, soft discs and fine stripes.
    static func cover(side: Int) throws -> Canvas {
        let canvas = try Canvas(width: side, height: side)
        let s = Double(side)
        canvas.fillVerticalGradient(Rect(x: 0, y: 0, width: s, height: s), stops: [
            (0, Color(red: 0.12, green: 0.08, blue: 0.30)), (0.55, Color(red: 0.95, green: 0.45, blue: 0.35)),
            (1, Color(red: 0.10, green: 0.05, blue: 0.12)),
        ])
        var seed: UInt64 = 0x5EED
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for _ in 0..<120 {
            let r = s * (0.01 + 0.06 * random())
            canvas.fill(Rect(x: random() * s, y: random() * s, width: r, height: r),
                        color: Color(red: random(), green: random(), blue: random(), alpha: 0.35), cornerRadius: r / 2)
        }
        var y = s * 0.6
        while y < s {
            canvas.fill(Rect(x: 0, y: y, width: s, height: s / 600), color: Color(red: 1, green: 0.8, blue: 0.5, alpha: 0.25))
            y += s / 90
        }
        return canvas
    }

    /// One line every 3 s from 0 s, so `lines` renders exactly `lines` frames (no interludes).
    static func song(lines: Int) -> String {
        let words = ["night", "city", "lights", "river", "slow", "neon", "echo", "window", "highway", "summer",
                     "quiet", "signal", "paper", "lantern", "morning", "static"]
        var text = "[ti:Benchmark Song]\n[ar:LyricPoster]\n[al:Bench]\n"
        for i in 0..<lines {
            let ms = i * 3000
            let stamp = String(format: "[%02d:%02d.%02d]", ms / 60_000, (ms / 1000) % 60, (ms % 1000) / 10)
            let count = 4 + (i * 7) % 9
            var line = (0..<count).map { words[(i * 5 + $0 * 3) % words.count] }.joined(separator: " ")
            if i % 10 == 3 { line = "灯火照亮回家的路 " + line }
            if i % 10 == 7 { line += " — and the long way round, every mile a little brighter" }
            text += stamp + line.prefix(1).uppercased() + line.dropFirst() + "\n"
        }
        text += String(format: "[%02d:%02d.00]\n", (lines * 3) / 60, (lines * 3) % 60)
        return text
    }

    /// The photograph in the other forms covers come in: a progressive JPEG (the same DCT
    /// coefficients as the baseline one, reordered by TurboJPEG's lossless transform, as jpegtran
    /// and most web encoders write them), a PNG (libdeflate level 6, Up filter: `--compression
    /// balanced`) and a lossy WebP (quality 85). Made once in `folder`.
    static func otherKinds(photo: String, in folder: String) throws -> [(name: String, path: String)] {
        let progressive = folder + "/cover-photo-3000-progressive.jpg"
        let png = folder + "/cover-photo-3000.png", webp = folder + "/cover-photo-3000.webp"
        if !FileManager.default.fileExists(atPath: progressive) {
            let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo)))
            try Data(try progressiveJPEG(jpeg)).write(to: URL(fileURLWithPath: progressive), options: .atomic)
        }
        if !FileManager.default.fileExists(atPath: png) || !FileManager.default.fileExists(atPath: webp) {
            let pngData = try photoCover(side: 3000).pngData(opaque: true, compression: .balanced)
            try Data(pngData).write(to: URL(fileURLWithPath: png), options: .atomic)
            try Data(try PictureFormat.webp.encode(pixels: try PictureFormat.decoded(png: pngData, alphaWhenTransparent: true), quality: 85)).write(to: URL(fileURLWithPath: webp), options: .atomic)
        }
        return [("progressive JPEG", progressive), ("PNG", png), ("WebP", webp)]
    }

    /// `jpeg` rewritten as a progressive JPEG without decoding it (TurboJPEG's `tjTransform`).
    static func progressiveJPEG(_ jpeg: [UInt8]) throws -> [UInt8] {
        guard let handle = tjInitTransform() else { throw BenchError("TurboJPEG: no transformer") }
        defer { tjDestroy(handle) }
        var transform = tjtransform()
        transform.op = Int32(TJXOP_NONE.rawValue)
        transform.options = TJXOPT_PROGRESSIVE
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = jpeg.withUnsafeBufferPointer { input in
            tjTransform(handle, input.baseAddress, UInt(input.count), 1, &output, &size, &transform, 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { throw BenchError("TurboJPEG: " + String(cString: tjGetErrorStr2(handle))) }
        return [UInt8](UnsafeBufferPointer(start: output, count: Int(size)))
    }

    // MARK: photographic cover

    /// `cover(side:)` made to compress like a photograph: low-frequency luminance texture (value
    /// noise, four octaves) and film grain (about σ 10/255 per channel, partly shared between the
    /// channels), from a fixed-seed generator, so the JPEG is the same on every run and machine.
    /// At 3000² and quality 92 it is a JPEG of several MB, as a real album photo is.
    static func photoCover(side: Int) throws -> Canvas {
        let canvas = try cover(side: side)
        let base = canvas.snapshot()
        let rgb = grained(bgra: base.pixels, width: base.width, height: base.height, stride: base.stride, seed: 0xF11A_6EA1)
        // PosterGraphics has no public way in for raw pixels: go through an uncompressed PNG.
        let bitmap = try ImageDecoder.decode(Data(storedPNG(rgb: rgb, width: side, height: side)))
        canvas.draw(bitmap, in: Rect(x: 0, y: 0, width: Double(side), height: Double(side)))
        return canvas
    }

    /// Opaque ARGB32 pixels (B, G, R, A bytes, rows `stride` apart) → packed RGB with texture and grain.
    static func grained(bgra: [UInt8], width: Int, height: Int, stride: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        func next() -> UInt64 {  // SplitMix64
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        // Value noise: per octave a grid of random values, bilinear with smoothstep, summed into a
        // luminance offset of at most about ±22/255. Grid rows are blended once per pixel row.
        let octaves: [(cell: Int, amplitude: Float)] = [
            (cellSize(width, 7), 11), (cellSize(width, 18), 6), (cellSize(width, 48), 3.5), (cellSize(width, 130), 2),
        ]
        let columns = octaves.map { width / $0.cell + 2 }
        let grids: [[Float]] = octaves.indices.map { k in
            (0..<(columns[k] * (height / octaves[k].cell + 2))).map { _ in Float(next() >> 40) / Float(1 << 24) * 2 - 1 }
        }
        let cellOf: [[Int32]] = octaves.map { o in (0..<width).map { Int32($0 / o.cell) } }
        let weightOf: [[Float]] = octaves.map { o in (0..<width).map { smooth(Float($0 % o.cell) / Float(o.cell)) } }
        var blended: [[Float]] = columns.map { [Float](repeating: 0, count: $0) }
        var texture = [Float](repeating: 0, count: width)
        // Grain: a sum of four uniform bytes is close to a Gaussian (Irwin–Hall); one 64-bit draw
        // gives two. Each channel gets 0.6 × a shared sample + 0.8 × its own: σ 10, correlation 0.36.
        let sigma: Float = 10, unit = 1 / Float(147.8)  // √(4 × (256² − 1) / 12)
        func pair(_ v: UInt64) -> (Float, Float) {
            func sum(_ w: UInt64) -> Float {
                Float((w & 0xff) + (w >> 8 & 0xff) + (w >> 16 & 0xff) + (w >> 24 & 0xff)) - 510
            }
            return (sum(v) * unit, sum(v >> 32) * unit)
        }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        out.withUnsafeMutableBufferPointer { dst in
            bgra.withUnsafeBufferPointer { src in
                for y in 0..<height {
                    for x in 0..<width { texture[x] = 0 }
                    for k in octaves.indices {
                        let cell = octaves[k].cell, amplitude = octaves[k].amplitude, n = columns[k]
                        let gy = y / cell, t = smooth(Float(y % cell) / Float(cell))
                        let grid = grids[k], cells = cellOf[k], weights = weightOf[k]
                        blended[k].withUnsafeMutableBufferPointer { row in
                            for c in 0..<n {
                                let a = grid[gy * n + c], b = grid[(gy + 1) * n + c]
                                row[c] = a + (b - a) * t
                            }
                            for x in 0..<width {
                                let c = Int(cells[x]), a = row[c], b = row[c + 1]
                                texture[x] += (a + (b - a) * weights[x]) * amplitude
                            }
                        }
                    }
                    let inRow = y * stride, outRow = y * width * 3
                    for x in 0..<width {
                        let (shared, r) = pair(next()), (g, b) = pair(next())
                        let common = texture[x] + 0.6 * sigma * shared
                        let i = inRow + x * 4, o = outRow + x * 3
                        dst[o] = clamp(Float(src[i + 2]) + common + 0.8 * sigma * r)
                        dst[o + 1] = clamp(Float(src[i + 1]) + common + 0.8 * sigma * g)
                        dst[o + 2] = clamp(Float(src[i]) + common + 0.8 * sigma * b)
                    }
                }
            }
        }
        return out
    }

    private static func cellSize(_ width: Int, _ parts: Int) -> Int { max(2, width / parts) }
    private static func smooth(_ t: Float) -> Float { t * t * (3 - 2 * t) }
    private static func clamp(_ v: Float) -> UInt8 { UInt8(min(255, max(0, v + 0.5))) }

    /// A PNG (8-bit RGB) whose zlib stream holds the filter-free rows in stored (uncompressed)
    /// deflate blocks: no compressor needed, and libpng reads it at memory speed.
    static func storedPNG(rgb: [UInt8], width: Int, height: Int) -> [UInt8] {
        let rowBytes = width * 3
        var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * height)  // filter byte 0 (None) per row
        raw.withUnsafeMutableBufferPointer { dst in
            rgb.withUnsafeBufferPointer { src in
                for y in 0..<height {
                    let from = src.baseAddress! + y * rowBytes
                    (dst.baseAddress! + y * (rowBytes + 1) + 1).update(from: from, count: rowBytes)
                }
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        zlib.reserveCapacity(raw.count + raw.count / 65535 * 5 + 16)
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let last: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [last, UInt8(count & 0xff), UInt8(count >> 8), UInt8(~count & 0xff), UInt8((~count >> 8) & 0xff)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0  // Adler-32, reduced every 5552 bytes as zlib does
        raw.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                let end = min(p.count, i + 5552)
                while i < end { a &+= UInt32(p[i]); b &+= a; i += 1 }
                a %= 65521; b %= 65521
            }
        }
        zlib += bigEndian(b << 16 | a)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
        png += chunk("IDAT", zlib)
        png += chunk("IEND", [])
        return png
    }

    private static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        crcTable.withUnsafeBufferPointer { table in
            for byte in body { crc = table[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
        }
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc ^ 0xFFFF_FFFF)
    }

    // MARK: word-timed song

    /// A 3-minute word-timed song in enhanced LRC: 60 lines, one every 3 s from 0 s (as in
    /// `song(lines:)`, so `lines` renders 60 frames and the reference pipelines can run on it too),
    /// every word with its own `<mm:ss.xx>` start tag (the words of a line start within its first
    /// 2.3–2.7 s), then an empty line at 3:00. No closing stamp after a line's last word: with one,
    /// the gap before 3:00 becomes an outro and `lines` renders a 61st frame. Invented words,
    /// fixed, the same on every run.
    static func wordSong() -> String {
        let words = ["amber", "harbour", "lantern", "velvet", "morning", "hollow", "silver", "orchard", "static",
                     "meadow", "paper", "cinder", "river", "echo", "window", "signal", "cobalt", "drifting",
                     "quiet", "thunder", "marigold", "satellite", "under", "the", "and", "over", "into", "every",
                     "we", "you", "still", "again"]
        func stamp(_ ms: Int) -> String {
            String(format: "%02d:%02d.%02d", ms / 60_000, (ms / 1000) % 60, (ms % 1000) / 10)
        }
        var text = "[ti:Benchmark Words]\n[ar:LyricPoster]\n[al:Bench]\n[length:03:00]\n"
        for i in 0..<60 {
            let start = i * 3000
            let count = 4 + (i * 5) % 7 + (i % 9 == 4 ? 6 : 0)  // 4…10 words; every ninth line 6 more, to wrap
            let sung = 2700 - (i % 3) * 200                    // word starts spread over 2.3–2.7 s
            var line = "[\(stamp(start))]"
            for k in 0..<count {
                var word = words[(i * 7 + k * 11 + (i * k) % 5 * 3) % words.count]
                if k == 0 { word = word.prefix(1).uppercased() + word.dropFirst() }
                line += "<\(stamp(start + sung * k / count / 10 * 10))>\(word)" + (k + 1 < count ? " " : "")
            }
            text += line + "\n"
        }
        text += "[03:00.00]\n"
        return text
    }
}

