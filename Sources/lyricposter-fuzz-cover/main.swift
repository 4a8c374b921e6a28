import Foundation

// libFuzzer's driver, looked up at run time: `make fuzz` links libclang_rt.fuzzer_no_main whole
// and exports it. Found through dlsym rather than linked by name so that an ordinary
// `swift build` of the package, which builds this target too, links without libFuzzer.
typealias FuzzerDriver = @convention(c) (
    UnsafeMutablePointer<Int32>,
    UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "LLVMFuzzerRunDriver") else {
    FileHandle.standardError.write(Data("error: built without libFuzzer; run `make fuzz`\n".utf8))
    exit(1)
}
let driver = unsafeBitCast(symbol, to: FuzzerDriver.self)
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(driver(&argc, &argv, { data, size in fuzzCover(data, size) }))
