// libFuzzer target holding the PNG reader that skips libpng (lp_png_decode_fast) to libpng's
// decode: whatever the fast reader takes, libpng must decode too, to the same pixels and header
// fields. FUZZ_TARGET=png; seeds in Tests/Fuzz/corpus/png.
import CPNG
import Foundation

func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    var header = lp_png_info()
    let known = lp_png_read_header(data, size, &header) == 0
    // The fast reader is asked even where libpng cannot read a header (it must then refuse too),
    // with room for the size the file's IHDR claims.
    func claimed(_ at: Int) -> Int { size >= at + 4 ? (0..<4).reduce(0) { $0 << 8 | Int(data[at + $1]) } : 0 }
    let width = known ? Int(header.width) : claimed(16), height = known ? Int(header.height) : claimed(20)
    // Small pictures only: the fuzzer is here for the parsing, not for allocating.
    guard width > 0, height > 0, width <= 4096, height <= 4096, width * height <= 2_000_000 else { return 0 }
    var fastInfo = lp_png_info(), slowInfo = lp_png_info()
    var fast = [UInt8](repeating: 0, count: width * height * 4), slow = fast
    guard lp_png_decode_fast(data, size, &fast, width * 4, &fastInfo) == 1 else { return 0 }
    precondition(known, "the fast reader took a file whose header libpng refuses")
    let status = lp_png_decode_argb32(data, size, &slow, width * 4, &slowInfo)
    precondition(status == 0, "the fast reader took a file libpng refuses")
    precondition(fast == slow, "the fast reader's pixels are not libpng's")
    precondition(fastInfo.width == slowInfo.width && fastInfo.height == slowInfo.height && fastInfo.bit_depth == slowInfo.bit_depth
                 && fastInfo.color_type == slowInfo.color_type && fastInfo.interlaced == slowInfo.interlaced
                 && fastInfo.exif_orientation == slowInfo.exif_orientation, "the fast reader's header fields are not libpng's")
    return 0
}
