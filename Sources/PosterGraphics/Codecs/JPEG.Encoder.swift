import CCairoPango
import CTurboJPEG

extension Canvas {
    /// Encodes the canvas as a baseline 4:2:0 JPEG through TurboJPEG (used to make test and
    /// benchmark covers; posters themselves are PNG).
    package func jpegData(quality: Int = 90) throws(GraphicsError) -> [UInt8] {
        try finish()
        guard let data = cairo_image_surface_get_data(surface) else { throw .encode("no pixel data") }
        guard let handle = tjInitCompress() else { throw .encode("could not start the JPEG encoder") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let stride = Int32(cairo_image_surface_get_stride(surface))
        let status = tjCompress2(handle, data, Int32(width), stride, Int32(height), Int32(TJPF_BGRA.rawValue), &output, &size,
                                 Int32(TJSAMP_420.rawValue), Int32(quality), 0)
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            throw .encode(String(cString: tjGetErrorStr2(handle)))
        }
        return [UInt8](UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
