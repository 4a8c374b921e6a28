// libFuzzer target for what `serve` reads from clients: the first byte picks byte ranges, a
// multipart body, a Content-Type's parameters, an uploaded file's name or a query value; the rest
// is the input. FUZZ_TARGET=request; seeds in Tests/Fuzz/corpus/request.
import PosterServer

func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    RequestFuzzing.exercise(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
