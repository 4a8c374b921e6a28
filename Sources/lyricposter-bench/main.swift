// lyricposter-bench: measures the `lyricposter` binary next to it (wall time, frames/s, CPU time,
// peak RSS, bytes per frame, per-stage times) and the PNG encoders it could use. `make bench`
// builds both in release mode and runs this. It prints numbers; it asserts nothing.
import Foundation
import LyricPoster
import LyricsCore
import PosterGraphics

var runs = 5
var workFolder = ".build/bench"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--runs": runs = Int(arguments.popFirst() ?? "") ?? runs
    case "--work": workFolder = arguments.popFirst() ?? workFolder
    default:
        print("usage: lyricposter-bench [--runs N] [--work DIR]")
        exit(64)
    }
}

let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    .appendingPathComponent("lyricposter").path
guard FileManager.default.isExecutableFile(atPath: binary) else {
    FileHandle.standardError.write(Data("error: \(binary) not found; build it with `swift build -c release`\n".utf8))
    exit(1)
}
let cores = ProcessInfo.processInfo.activeProcessorCount
let inputs = try BenchInputs.make(in: workFolder + "/inputs")

func cpuModel() -> String {
    let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let line = info.split(separator: "\n").first { $0.hasPrefix("model name") }
    return line.map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) } ?? "unknown"
}

print("# lyricposter benchmark")
print("machine: \(cores) cores, \(cpuModel()); medians of \(runs) runs")
print("inputs: 60- and 600-line songs; covers 3000×3000 JPEG and 1200×1200 PNG (generated in \(workFolder)/inputs)")
print("")

/// Runs `lines` into a fresh folder and returns the measurement plus bytes per frame and stages.
@MainActor func runLines(cover: String, song: String, size: String, jobs: Int, extra: [String] = []) throws -> (Measured, Double, [String: Double]) {
    let out = workFolder + "/out-lines"
    try? FileManager.default.removeItem(atPath: out)
    let m = try measure(binary, ["lines", cover, song, "-o", out, "--size", size, "--jobs", "\(jobs)", "--quiet", "--timings"] + extra)
    guard m.status == 0 else { throw BenchError("lines failed (\(m.status)): \(m.stderr)") }
    let files = (try FileManager.default.contentsOfDirectory(atPath: out)).filter { $0.hasSuffix(".png") }
    var bytes = 0
    for file in files {
        bytes += ((try FileManager.default.attributesOfItem(atPath: out + "/" + file))[.size] as? Int) ?? 0
    }
    return (m, Double(bytes) / Double(max(1, files.count)), stages(m.stderr))
}

/// Parses `--timings` lines ("name   12.3 ms").
func stages(_ text: String) -> [String: Double] {
    var result: [String: Double] = [:]
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        if parts.count == 3, parts[2] == "ms", let value = Double(parts[1]) { result[String(parts[0])] = value }
    }
    return result
}

func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
func lpad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
func f(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }

// MARK: lines

print("## lines: 60 frames")
print("| cover | size | jobs | wall s | frames/s | CPU s | peak RSS MB | KB/frame |")
print("|---|---|---|---|---|---|---|---|")
var headline: (wall: Double, rss: Double, kb: Double) = (0, 0, 0)
var stageSample: [String: Double] = [:]
for (name, cover) in [("3000² JPEG", inputs.jpeg), ("1200² PNG", inputs.png)] {
    for size in ["1080x1920", "1080x1080"] {
        for jobs in Set([1, cores]).sorted() {
            var walls: [Double] = [], cpus: [Double] = [], rss: [Double] = [], kb = 0.0
            for _ in 0..<runs {
                let (m, bytes, stageTimes) = try runLines(cover: cover, song: inputs.song60, size: size, jobs: jobs)
                walls.append(m.wall); cpus.append(m.cpu); rss.append(m.peakRSSMB); kb = bytes / 1024
                if jobs == 1, size == "1080x1920", cover == inputs.jpeg { stageSample = stageTimes }
            }
            let wall = median(walls)
            if cover == inputs.jpeg, size == "1080x1920", jobs == cores { headline = (wall, rss.max() ?? 0, kb) }
            print("| \(name) | \(size) | \(jobs) | \(f(wall)) | \(f(60 / wall, 1)) | \(f(median(cpus))) | \(f(rss.max() ?? 0, 0)) | \(f(kb, 0)) |")
        }
    }
}
print("")

// MARK: stages

print("## stages (`--timings`), lines, 3000² JPEG, 1080×1920, jobs 1")
print("| stage | total ms | ms/frame |")
print("|---|---|---|")
for stage in ["lyrics", "decode", "background", "fonts", "layout", "raster", "convert", "encode", "write"] {
    let ms = stageSample[stage] ?? 0
    let perFrame = ["layout", "raster", "convert", "encode", "write"].contains(stage)
    print("| \(stage) | \(f(ms, 1)) | \(perFrame ? f(ms / 60, 2) : "once per song") |")
}
print("")

// MARK: cold frame

print("## cold `frame` (process start to PNG on disk)")
print("| cover | size | wall ms | peak RSS MB |")
print("|---|---|---|---|")
var coldJPEG = 0.0
for (name, cover) in [("3000² JPEG", inputs.jpeg), ("1200² PNG", inputs.png)] {
    var walls: [Double] = [], rss: [Double] = []
    for _ in 0..<runs {
        let m = try measure(binary, ["frame", cover, inputs.song60, "--at", "1:30", "-o", workFolder + "/cold.png"])
        guard m.status == 0 else { throw BenchError("frame failed: \(m.stderr)") }
        walls.append(m.wall); rss.append(m.peakRSSMB)
    }
    if cover == inputs.jpeg { coldJPEG = median(walls) }
    print("| \(name) | 1080×1920 | \(f(median(walls) * 1000, 0)) | \(f(rss.max() ?? 0, 0)) |")
}
print("")

// MARK: long song

print("## 600 frames (memory must not grow with the song)")
let (long, longKB, _) = try runLines(cover: inputs.jpeg, song: inputs.song600, size: "1080x1920", jobs: cores)
print("| frames | jobs | wall s | frames/s | peak RSS MB | KB/frame |")
print("|---|---|---|---|---|---|")
print("| 600 | \(cores) | \(f(long.wall)) | \(f(600 / long.wall, 1)) | \(f(long.peakRSSMB, 0)) | \(f(longKB / 1024, 0)) |")
print("")

// MARK: PNG encoders

print("## PNG encoders on one 1080×1920 frame (RGB, in process)")
let session = try PosterSession(cover: inputs.jpeg, lyrics: inputs.song60, options: RenderOptions())
let renderer = try session.makeRenderer()
let pixels = try renderer.draw(session.scenes.scene(at: Timestamp(milliseconds: 90_000))) { canvas, _ throws(PosterError) in
    do { return try canvas.pixels(opaque: true) } catch { throw PosterError(path: "bench", reason: "\(error)") }
}
let candidates: [PNG.Method] = [
    .libpng(level: 6, strategy: .standard, filter: .adaptive),
    .libpng(level: 1, strategy: .standard, filter: .adaptive),
    .libpng(level: 1, strategy: .standard, filter: .up),
    .libpng(level: 1, strategy: .rle, filter: .up),
    .libpng(level: 1, strategy: .rle, filter: .sub),
    .libpng(level: 1, strategy: .huffman, filter: .up),
    .libpng(level: 9, strategy: .standard, filter: .adaptive),
    .libdeflate(level: 1, up: true),
    .libdeflate(level: 1, up: false),
    .libdeflate(level: 3, up: true),
    .libdeflate(level: 4, up: true),
    .libdeflate(level: 6, up: true),
    .libdeflate(level: 9, up: true),
    .libdeflate(level: 10, up: true),
]
var reference = 0.0
var fastest = Double.infinity
print("| encoder | ms | KB | size vs libpng default |")
print("|---|---|---|---|")
for method in candidates {
    var times: [Double] = []
    var size = 0
    for _ in 0..<max(3, runs) {
        let start = DispatchTime.now().uptimeNanoseconds
        size = try PNG.encode(pixels, method: method).count
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    if reference == 0 { reference = Double(size) }
    fastest = min(fastest, median(times))
    let marks = PNG.Compression.allCases.filter { $0.method == method }.map { " (`\($0.rawValue)`)" }.joined()
    print("| \(method)\(marks) | \(f(median(times), 1)) | \(f(Double(size) / 1024, 0)) | \(f(Double(size) / reference))× |")
}
let defaultSize = try PNG.encode(pixels, method: PNG.Compression.fast.method).count
print("")

// MARK: compression settings

print("## --png-compression on the 60-line song (3000² JPEG, 1080×1920, jobs \(cores))")
print("| setting | wall s | KB/frame |")
print("|---|---|---|")
for setting in PNG.Compression.allCases {
    var walls: [Double] = []
    var kb = 0.0
    for _ in 0..<max(1, runs / 2) {
        let (m, bytes, _) = try runLines(cover: inputs.jpeg, song: inputs.song60, size: "1080x1920", jobs: cores,
                                         extra: ["--png-compression", setting.rawValue])
        walls.append(m.wall); kb = bytes / 1024
    }
    print("| \(setting.rawValue) | \(f(median(walls))) | \(f(kb, 0)) |")
}
print("")

// MARK: targets

let floor = 60 * fastest / 1000 / Double(cores)
func verdict(_ ok: Bool) -> String { ok ? "met" : "NOT met" }
print("## targets")
print("- lines, 60 frames, 1080×1920, 3000² JPEG, jobs \(cores): \(f(headline.wall)) s (target ≤ 1.5 s): \(verdict(headline.wall <= 1.5))")
print("- within 1.5× of frames × fastest encode ÷ cores = \(f(floor)) s: \(f(headline.wall / floor))× (\(verdict(headline.wall <= 1.5 * floor)))")
print("- cold frame: \(f(coldJPEG * 1000, 0)) ms (target ≤ 250 ms): \(verdict(coldJPEG <= 0.25))")
print("- peak RSS: \(f(headline.rss, 0)) MB for 60 frames, \(f(long.peakRSSMB, 0)) MB for 600 (target ≤ 150 MB): \(verdict(max(headline.rss, long.peakRSSMB) <= 150))")
print("- default output size: \(f(Double(defaultSize) / reference))× libpng's default (target ≤ 1.3×): \(verdict(Double(defaultSize) <= 1.3 * reference))")
