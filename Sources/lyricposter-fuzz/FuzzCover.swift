// libFuzzer target for the cover decoders (PNG through libpng, JPEG through TurboJPEG, WebP through
// libwebp and its demuxer, EXIF). Built by `make fuzz` with AddressSanitizer and coverage instrumentation
// and linked with libFuzzer (driven through LLVMFuzzerRunDriver, see main.swift; FUZZ_TARGET=cover).
import Foundation
import PosterGraphics

func fuzzCover(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = Data(bytes: data, count: size)
    // A small pixel limit keeps the fuzzer on parsing, not on allocating large images.
    let limits = DecodeLimits(maxPixels: 4_000_000, maxSide: 4096)
    if let image = try? ImageDecoder.decode(bytes, limits: limits, minimumSize: (16, 16)) {
        precondition(image.width > 0 && image.height > 0)
        _ = image.rgba(x: image.width - 1, y: image.height - 1)
    }
    return 0
}
