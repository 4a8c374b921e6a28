import CTurboJPEG
import Foundation

/// JPEG reading through TurboJPEG's `tj*` API, which reports errors as return codes.
enum JPEG {
    enum Decoder {
        static func decode(_ data: Data, limits: DecodeLimits,
                           minimumSize: (width: Int, height: Int)?) throws(ImageError) -> Bitmap {
            guard let handle = tjInitDecompress() else { throw .malformed("could not start the JPEG decoder") }
            defer { tjDestroy(handle) }

            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            let header = data.withUnsafeBytes { raw in
                tjDecompressHeader3(handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count),
                                    &width, &height, &subsampling, &colorspace)
            }
            guard header == 0 else { throw .malformed("corrupt JPEG: " + errorText(handle)) }
            // The dimensions come from the header alone: refuse before allocating anything.
            try limits.check(width: Int(width), height: Int(height))

            let orientation = exifOrientation(data)
            let (outWidth, outHeight) = scaledSize(width: Int(width), height: Int(height),
                                                   minimum: minimumSize, swapped: orientation >= 5)
            let cmyk = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
            let format = cmyk ? TJPF_CMYK : TJPF_BGRA
            // Not zeroed first: a successful decode writes every pixel, and a failed one is thrown away.
            var pixels = [UInt8](unsafeUninitializedCapacity: outWidth * outHeight * 4) { buffer, count in
                LargeBuffers.adviseHugePages(buffer.baseAddress, count: buffer.count)
                count = outWidth * outHeight * 4
            }
            func run(_ flags: Int32) -> Int32 {
                data.withUnsafeBytes { raw in
                    pixels.withUnsafeMutableBytes { out in
                        tjDecompress2(handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count),
                                      out.bindMemory(to: UInt8.self).baseAddress, Int32(outWidth), Int32(outWidth * 4),
                                      Int32(outHeight), Int32(format.rawValue), flags)
                    }
                }
            }
            // Stop on warnings so that a truncated file is an error, not a grey half-image; but
            // tolerate the harmless warnings real-world encoders trigger (stray bytes between markers).
            if run(TJFLAG_STOPONWARNING) != 0 {
                let message = errorText(handle)
                let fatal = tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue)
                if fatal || message.localizedCaseInsensitiveContains("premature end") || run(0) != 0 {
                    throw .malformed("corrupt JPEG: " + message)
                }
            }
            if cmyk { convertAdobeCMYK(&pixels) }
            return Bitmap(width: outWidth, height: outHeight, stride: outWidth * 4, pixels: pixels)
                .oriented(orientation)
        }

        /// The smallest DCT scaling factor whose output still covers `minimum` (in displayed
        /// orientation), or the full size.
        static func scaledSize(width: Int, height: Int, minimum: (width: Int, height: Int)?, swapped: Bool) -> (Int, Int) {
            guard let minimum else { return (width, height) }
            let needW = swapped ? minimum.height : minimum.width
            let needH = swapped ? minimum.width : minimum.height
            var count: Int32 = 0
            guard let factors = tjGetScalingFactors(&count) else { return (width, height) }
            var best = (width, height)
            for i in 0..<Int(count) {
                let f = factors[i]
                let num = Int(f.num), denom = Int(f.denom)
                guard num <= denom else { continue }  // never upscale here
                // Under half size, only 1/4 and 1/8: TurboJPEG has SIMD code for them, and 3/8
                // takes longer than 1/2 (31 against 29 ms on a 3000² photograph, 9.5 against 7).
                guard 2 * num >= denom || denom % num == 0 && (denom / num) & (denom / num - 1) == 0 else { continue }
                let w = (width * num + denom - 1) / denom, h = (height * num + denom - 1) / denom
                if w >= needW, h >= needH, w * h < best.0 * best.1 { best = (w, h) }
            }
            return best
        }

        /// Adobe (Photoshop) CMYK JPEGs store inverted ink values; convert them to BGRA in place.
        static func convertAdobeCMYK(_ pixels: inout [UInt8]) {
            pixels.withUnsafeMutableBytes { raw in
                let p = raw.bindMemory(to: UInt8.self)
                var i = 0
                while i < p.count {
                    let c = UInt32(p[i]), m = UInt32(p[i + 1]), y = UInt32(p[i + 2]), k = UInt32(p[i + 3])
                    p[i] = UInt8((y * k + 127) / 255)      // B
                    p[i + 1] = UInt8((m * k + 127) / 255)  // G
                    p[i + 2] = UInt8((c * k + 127) / 255)  // R
                    p[i + 3] = 255
                    i += 4
                }
            }
        }

        static func errorText(_ handle: tjhandle) -> String {
            guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
            return String(cString: text)
        }

        /// The EXIF orientation (1–8) from an APP1 segment before the scan, or 1.
        static func exifOrientation(_ data: Data) -> Int {
            let bytes = [UInt8](data.prefix(256 * 1024))
            var i = 2
            while i + 4 <= bytes.count, bytes[i] == 0xFF {
                let marker = bytes[i + 1]
                if marker == 0xDA || marker == 0xD9 { break }  // start of scan / end of image
                let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
                guard length >= 2, i + 2 + length <= bytes.count else { break }
                if marker == 0xE1, length >= 16, Array(bytes[(i + 4)..<(i + 10)]) == Array("Exif\0\0".utf8) {
                    return Exif.orientation(tiff: bytes[(i + 10)..<(i + 2 + length)]) ?? 1
                }
                i += 2 + length
            }
            return 1
        }
    }
}

/// Reads the one EXIF field a cover needs: IFD0's Orientation (tag 0x0112).
enum Exif {
    static func orientation(tiff: ArraySlice<UInt8>) -> Int? {
        let b = Array(tiff)
        guard b.count >= 8 else { return nil }
        let little: Bool
        switch (b[0], b[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= b.count else { return nil }
            return little ? Int(b[o]) | Int(b[o + 1]) << 8 : Int(b[o]) << 8 | Int(b[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let lo = u16(little ? o : o + 2), let hi = u16(little ? o + 2 : o) else { return nil }
            return hi << 16 | lo
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let o = ifd + 2 + entry * 12
            guard let tag = u16(o) else { return nil }
            if tag == 0x0112, let value = u16(o + 8), (1...8).contains(value) { return value }
        }
        return nil
    }
}
