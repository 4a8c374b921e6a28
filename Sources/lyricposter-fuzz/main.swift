import Foundation

// One libFuzzer executable, several targets: FUZZ_TARGET=lrc, ttml, yrc, srt, vtt, eslrc, lys, lyl, lqe, ass, lyricsfile (FuzzLyrics.swift),
// qrc, krc (FuzzBinaryLyrics.swift),
// cover (FuzzCover.swift), png (FuzzPNG.swift), tags (FuzzTags.swift), mpris (FuzzMPRIS.swift), mpd (FuzzMPD.swift), push (FuzzPush.swift), subsonic (FuzzSubsonic.swift), lrclib (FuzzLRCLIB.swift), manifest (FuzzManifest.swift), palette (FuzzPalette.swift)
// choice (FuzzChoice.swift) or request (FuzzRequest.swift).
//
// libFuzzer's driver is looked up at run time: `make fuzz` links libclang_rt.fuzzer_no_main whole
// and exports it. It is found through dlsym rather than linked by name so that an ordinary
// `swift build` of the package, which builds this target too, links without libFuzzer.
typealias FuzzerDriver = @convention(c) (
    UnsafeMutablePointer<Int32>,
    UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

let targets: [String: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32] = [
    "lrc": { data, size in fuzzLyrics(data, size, format: .lrc) },
    "ttml": { data, size in fuzzLyrics(data, size, format: .ttml) },
    "yrc": { data, size in fuzzLyrics(data, size, format: .yrc) },
    "srt": { data, size in fuzzLyrics(data, size, format: .srt) },
    "vtt": { data, size in fuzzLyrics(data, size, format: .vtt) },
    "eslrc": { data, size in fuzzLyrics(data, size, format: .eslrc) },
    "lys": { data, size in fuzzLyrics(data, size, format: .lys) },
    "lyl": { data, size in fuzzLyrics(data, size, format: .lyl) },
    "lqe": { data, size in fuzzLyrics(data, size, format: .lqe) },
    "ass": { data, size in fuzzLyrics(data, size, format: .ass) },
    "lyricsfile": { data, size in fuzzLyrics(data, size, format: .lyricsfile) },
    "qrc": { data, size in fuzzQRC(data, size) },
    "krc": { data, size in fuzzKRC(data, size) },
    "cover": { data, size in fuzzCover(data, size) },
    "png": { data, size in fuzzPNG(data, size) },
    "tags": { data, size in fuzzTags(data, size) },
    "mpris": { data, size in fuzzMPRIS(data, size) },
    "mpd": { data, size in fuzzMPD(data, size) },
    "push": { data, size in fuzzPush(data, size) },
    "subsonic": { data, size in fuzzSubsonic(data, size) },
    "lrclib": { data, size in fuzzLRCLIB(data, size) },
    "manifest": { data, size in fuzzManifest(data, size) },
    "palette": { data, size in fuzzPalette(data, size) },
    "choice": { data, size in fuzzChoice(data, size) },
    "request": { data, size in fuzzRequest(data, size) },
]
let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
guard let target = targets[name] else {
    FileHandle.standardError.write(Data("error: set FUZZ_TARGET to lrc, ttml, yrc, srt, vtt, eslrc, lys, lyl, lqe, ass, lyricsfile, qrc, krc, cover, png, tags, mpris, mpd, push, subsonic, lrclib, manifest, palette, choice or request\n".utf8))
    exit(64)
}
guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "LLVMFuzzerRunDriver") else {
    FileHandle.standardError.write(Data("error: built without libFuzzer; run `make fuzz`\n".utf8))
    exit(1)
}
let driver = unsafeBitCast(symbol, to: FuzzerDriver.self)
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(driver(&argc, &argv, target))
