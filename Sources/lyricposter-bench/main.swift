// lyricposter-bench: measures the `lyricposter` binary next to it (wall time, frames/s, CPU time,
// peak RSS, bytes per frame, per-stage times) and the PNG encoders it could use. `make bench`
// builds both in release mode and runs this. It prints numbers; it asserts nothing.
import Foundation
import LyricPoster
import SongSources
import LyricsCore
import PosterGraphics

var runs = 5
var workFolder = ".build/bench"
var only: String?
var compare: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--runs": runs = Int(arguments.popFirst() ?? "") ?? runs
    case "--work": workFolder = arguments.popFirst() ?? workFolder
    case "--only": only = arguments.popFirst()
    case "--compare": compare = arguments.popFirst()
    default:
        print("usage: lyricposter-bench [--runs N] [--work DIR] [--only video|cold|inputs|encoders|lrclib] [--compare OTHER-LYRICPOSTER]")
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
let otherCovers = try BenchInputs.otherKinds(photo: inputs.photo, in: workFolder + "/inputs")
// Every run starts cold (no backdrop cache) unless a row says otherwise.
setenv("LYRICPOSTER_NO_CACHE", "1", 1)
setenv("XDG_CACHE_HOME", FileManager.default.currentDirectoryPath + "/" + workFolder + "/cache", 1)
let fontsDir = FileManager.default.currentDirectoryPath + "/fonts"

// MARK: PNG encoders

/// One whole frame in each candidate encoder, in process (`--only encoders` prints just this).
@MainActor func printEncoderTable() throws {
    print("## PNG encoders on one whole 1080×1920 frame of the photographic cover (RGB, in process)")
    let session = try PosterSession(cover: inputs.photo, lyrics: inputs.song60, options: RenderOptions())
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
        .isal(tableRows: 0),
        .isal(tableRows: 1),
        .isal(tableRows: 4),
    ]
    var reference = 0.0
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
        let marks = PNG.Compression.allCases.filter { $0.method == method }.map { " (`\($0.rawValue)`)" }.joined()
        print("| \(method)\(marks) | \(f(median(times), 1)) | \(f(Double(size) / 1024, 0)) | \(f(Double(size) / reference))× |")
    }
    print("")
}

if only == "encoders" {
    try printEncoderTable()
    exit(0)
}
if only == "inputs" {
    // The Benchmarks package (make bench-check) measures the C floor beside `lines`: built here.
    let floor = try buildFloor(work: workFolder)
    print("inputs in \(workFolder)/inputs; the C floor: \(floor)")
    exit(0)
}
// The cold rows for this build and, with --compare, another one (say, the previous release).
let coldBinaries = [("this build", binary)] + (compare.map { [("--compare", $0)] } ?? [])
if only == "cold" {
    try ColdBench.run(binaries: coldBinaries, inputs: (inputs.photo, inputs.song60, inputs.songWords, otherCovers), work: workFolder,
                      runs: runs, cores: cores)
    exit(0)
}

if only == "video" {
    try VideoBench.run(inputs: (inputs.photo, inputs.songWords), work: workFolder, runs: runs, cores: cores)
    exit(0)
}
if only == "lrclib" {
    try LRCLIBBench.run(work: workFolder)
    exit(0)
}

func cpuModel() -> String {
    let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let line = info.split(separator: "\n").first { $0.hasPrefix("model name") }
    return line.map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) } ?? "unknown"
}

print("# lyricposter benchmark")
print("machine: \(cores) cores, \(cpuModel()); medians of \(runs) runs")
print("inputs: 60- and 600-line songs, a word-timed 3-minute song; covers: a photographic 3000×3000 JPEG (film grain), the drawn")
print("3000×3000 JPEG and 1200×1200 PNG (generated in \(workFolder)/inputs); no backdrop cache unless a row says so")
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
for (name, cover) in [("3000² photo JPEG", inputs.photo), ("3000² drawn JPEG", inputs.jpeg), ("1200² PNG", inputs.png)] {
    for size in ["1080x1920", "1080x1080"] {
        for jobs in Set([1, cores]).sorted() {
            var walls: [Double] = [], cpus: [Double] = [], rss: [Double] = [], kb = 0.0
            for _ in 0..<runs {
                let (m, bytes, stageTimes) = try runLines(cover: cover, song: inputs.song60, size: size, jobs: jobs)
                walls.append(m.wall); cpus.append(m.cpu); rss.append(m.peakRSSMB); kb = bytes / 1024
                if jobs == 1, size == "1080x1920", cover == inputs.photo { stageSample = stageTimes }
            }
            let wall = median(walls)
            if cover == inputs.photo, size == "1080x1920", jobs == cores { headline = (wall, rss.max() ?? 0, kb) }
            print("| \(name) | \(size) | \(jobs) | \(f(wall)) | \(f(60 / wall, 1)) | \(f(median(cpus))) | \(f(rss.max() ?? 0, 0)) | \(f(kb, 0)) |")
        }
    }
}
print("")

// MARK: stages

print("## stages (`--timings`), lines, 3000² photo JPEG, 1080×1920, jobs 1")
print("| stage | total ms | ms/frame |")
print("|---|---|---|")
for stage in ["lyrics", "cache", "decode", "background", "fonts", "base", "layout", "raster", "convert", "encode", "write"] {
    let ms = stageSample[stage] ?? 0
    let perFrame = ["layout", "raster", "convert", "encode", "write"].contains(stage)
    print("| \(stage) | \(f(ms, 1)) | \(perFrame ? f(ms / 60, 2) : "once per song") |")
}
print("")

// MARK: side by side

print("## side by side: 60 frames, 1080×1920, 3000² photo JPEG, \(cores) jobs (medians of \(runs))")
print("The whole-frame C floor (scripts/bench/floor.c: TurboJPEG, Cairo/Pango, whole-frame libdeflate level 1) and ffmpeg + libass")
print("do the same job: a darkened full cover with three centred lines. `classic` is the like-for-like theme; `card` is the default.")
print("| pipeline | wall s | CPU s | peak RSS MB | KB/frame | × floor |")
print("|---|---|---|---|---|---|")
@MainActor func medianRun(_ body: () throws -> Measured) throws -> (Measured, Double) {
    var all: [Measured] = []
    for _ in 0..<runs { all.append(try body()) }
    return (all.sorted { $0.wall < $1.wall }[all.count / 2], median(all.map(\.wall)))
}
let referenceOut = workFolder + "/out-reference"
let (floorRun, floorWall) = try medianRun {
    try runFloor(cover: inputs.photo, song: inputs.song60, out: referenceOut, width: 1080, height: 1920, jobs: cores, fontsDir: fontsDir, work: workFolder)
}
let floorKB = try framesWritten(in: referenceOut).bytesPerFrame / 1024
let (ffmpegRun, ffmpegWall) = try medianRun {
    try runFFmpegLibass(cover: inputs.photo, song: inputs.song60, out: referenceOut, width: 1080, height: 1920, frames: 60, fontsDir: fontsDir, work: workFolder)
}
let ffmpegKB = try framesWritten(in: referenceOut).bytesPerFrame / 1024
var sideBySide: [String: Double] = [:]
for theme in ["card", "classic"] {
    var walls: [Double] = [], cpus: [Double] = [], rss: [Double] = [], kb = 0.0
    for _ in 0..<runs {
        let (m, bytes, _) = try runLines(cover: inputs.photo, song: inputs.song60, size: "1080x1920", jobs: cores, extra: ["--theme", theme])
        walls.append(m.wall); cpus.append(m.cpu); rss.append(m.peakRSSMB); kb = bytes / 1024
    }
    sideBySide[theme] = median(walls)
    print("| lyricposter lines --theme \(theme) | \(f(median(walls))) | \(f(median(cpus))) | \(f(rss.max() ?? 0, 0)) | \(f(kb, 0)) | \(f(median(walls) / floorWall))× |")
}
print("| C floor, whole-frame libdeflate 1 | \(f(floorWall)) | \(f(floorRun.cpu)) | \(f(floorRun.peakRSSMB, 0)) | \(f(floorKB, 0)) | 1.00× |")
print("| ffmpeg + libass | \(f(ffmpegWall)) | \(f(ffmpegRun.cpu)) | \(f(ffmpegRun.peakRSSMB, 0)) | \(f(ffmpegKB, 0)) | \(f(ffmpegWall / floorWall))× |")
print("")

// MARK: cold frame

print("## cold `frame` (process start to PNG on disk)")
print("| cover | size | wall ms | peak RSS MB |")
print("|---|---|---|---|")
var coldJPEG = 0.0, warmJPEG = 0.0
for (name, cover, warm) in [("3000² photo JPEG", inputs.photo, false), ("3000² photo JPEG, warm backdrop cache", inputs.photo, true),
                            ("3000² drawn JPEG", inputs.jpeg, false), ("1200² PNG", inputs.png, false)] {
    var walls: [Double] = [], rss: [Double] = []
    if warm {
        unsetenv("LYRICPOSTER_NO_CACHE")
        // Fill the cache: the median is of warm runs.
        _ = try measure(binary, ["frame", cover, inputs.song60, "--at", "1:30", "-o", workFolder + "/cold.png"])
    }
    defer { setenv("LYRICPOSTER_NO_CACHE", "1", 1) }
    for _ in 0..<runs {
        let m = try measure(binary, ["frame", cover, inputs.song60, "--at", "1:30", "-o", workFolder + "/cold.png"])
        guard m.status == 0 else { throw BenchError("frame failed: \(m.stderr)") }
        walls.append(m.wall); rss.append(m.peakRSSMB)
    }
    if cover == inputs.photo { if warm { warmJPEG = median(walls) } else { coldJPEG = median(walls) } }
    print("| \(name) | 1080×1920 | \(f(median(walls) * 1000, 0)) | \(f(rss.max() ?? 0, 0)) |")
}
print("")

// MARK: long song

print("## 600 frames (memory must not grow with the song)")
let (long, longKB, _) = try runLines(cover: inputs.photo, song: inputs.song600, size: "1080x1920", jobs: cores)
print("| frames | jobs | wall s | frames/s | peak RSS MB | KB/frame |")
print("|---|---|---|---|---|---|")
print("| 600 | \(cores) | \(f(long.wall)) | \(f(600 / long.wall, 1)) | \(f(long.peakRSSMB, 0)) | \(f(longKB / 1024, 0)) |")
print("")

try printEncoderTable()

// MARK: compression settings

print("## --png-compression on the 60-line song (3000² photo JPEG, 1080×1920, jobs \(cores))")
print("| setting | wall s | KB/frame |")
print("|---|---|---|")
for setting in PNG.Compression.allCases {
    var walls: [Double] = []
    var kb = 0.0
    for _ in 0..<max(1, runs / 2) {
        let (m, bytes, _) = try runLines(cover: inputs.photo, song: inputs.song60, size: "1080x1920", jobs: cores,
                                         extra: ["--png-compression", setting.rawValue])
        walls.append(m.wall); kb = bytes / 1024
    }
    print("| \(setting.rawValue) | \(f(median(walls))) | \(f(kb, 0)) |")
}
print("")

// MARK: cold

try ColdBench.run(binaries: coldBinaries, inputs: (inputs.photo, inputs.song60, inputs.songWords, otherCovers), work: workFolder,
                  runs: runs, cores: cores)

// MARK: video

try VideoBench.run(inputs: (inputs.photo, inputs.songWords), work: workFolder, runs: max(1, runs / 2), cores: cores)

// MARK: sequence

// Last but the targets: its 5400 files, written and deleted, would weigh on the rows after it
// (writeback, and on ext4 without a journal every file created for minutes after).

print("## sequence --fps 30: the word-timed 3-minute song, 1080×1920, 3000² photo JPEG, \(cores) jobs")
print("| written to | ticks | PNGs written | wall s | ticks/s | PNGs/s | peak RSS MB | KB/PNG |")
print("|---|---|---|---|---|---|---|---|")
/// The runs of `sequence` into `out` (removed before each run and after the last): the PNGs/s of
/// the median run and the bytes written.
@MainActor func sequenceRuns(into out: String, label: String) throws -> (rate: Double, bytes: Double) {
    var walls: [Double] = [], rss: [Double] = [], written = 0, ticks = 0, kb = 0.0
    defer { try? FileManager.default.removeItem(atPath: out) }
    for _ in 0..<max(1, runs / 2) {
        try? FileManager.default.removeItem(atPath: out)
        let m = try measure(binary, ["sequence", inputs.photo, inputs.songWords, "--fps", "30", "-o", out, "--size", "1080x1920",
                                     "--jobs", "\(cores)", "--quiet"])
        guard m.status == 0 else { throw BenchError("sequence failed (\(m.status)): \(m.stderr)") }
        let counted = try framesWritten(in: out)
        written = counted.count; kb = counted.bytesPerFrame / 1024
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [String: Any]
        ticks = (manifest?["ticks"] as? [Any])?.count ?? 0
        walls.append(m.wall); rss.append(m.peakRSSMB)
    }
    let wall = median(walls)
    let rate = Double(written) / wall
    print("| \(label) | \(ticks) | \(written) | \(f(wall)) | \(f(Double(ticks) / wall, 0)) | \(f(rate, 0)) | \(f(rss.max() ?? 0, 0)) | \(f(kb, 0)) |")
    return (rate, Double(written) * kb * 1024)
}
let sequenceOnDisk = try sequenceRuns(into: workFolder + "/out-sequence", label: "the work folder")
let sequenceRate = sequenceOnDisk.rate
// The same into memory (tmpfs) where there is room for twice the output: what the renderer
// writes when no file system's costs weigh on it (creating files costs some far more than others:
// ext4 without a journal passes over every inode deleted in the last minutes, as the run
// before's were).
var sequenceInMemory: Double?
if let room = memoryRoom(), Double(room) >= 2 * sequenceOnDisk.bytes {
    sequenceInMemory = try sequenceRuns(into: "/dev/shm/lyricposter-bench-\(getpid())-sequence", label: "/dev/shm (tmpfs)").rate
} else {
    print("| /dev/shm (tmpfs) | not run: no /dev/shm, or less than twice the output free in it and in memory | | | | | | |")
}
print("")

try LRCLIBBench.run(work: workFolder)

// MARK: targets

func verdict(_ ok: Bool) -> String { ok ? "met" : "NOT met" }
let card = sideBySide["card"] ?? 0
print("## targets")
print("- lines, 60 frames, 1080×1920, photo JPEG, \(cores) jobs, cache off: \(f(card)) s = \(f(card / floorWall))× the whole-frame C floor (target ≤ 0.3×): \(verdict(card <= 0.3 * floorWall))")
print("- the same against ffmpeg + libass: \(f(card / ffmpegWall))× (target ≤ 0.1×): \(verdict(card <= 0.1 * ffmpegWall))")
print("- sequence --fps 30, word-timed 3-minute song: \(f(sequenceRate, 0)) PNGs/s written to the work folder (target ≥ 400): \(verdict(sequenceRate >= 400))" + (sequenceInMemory.map { "; \(f($0, 0)) PNGs/s to tmpfs" } ?? ""))
print("- frame with the cache off: \(f(coldJPEG * 1000, 0)) ms; warm backdrop cache: \(f(warmJPEG * 1000, 0)) ms (the cold rows above: a fresh cache folder, target ≤ 80 ms)")
print("- peak RSS: \(f(headline.rss, 0)) MB for 60 frames, \(f(long.peakRSSMB, 0)) MB for 600 (target ≤ 150 MB): \(verdict(max(headline.rss, long.peakRSSMB) <= 150))")
print("- default output: \(f(headline.kb, 0)) KB per frame")
