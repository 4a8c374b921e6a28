import ArgumentParser
import Foundation
import Locks
import LyricPoster
import SongSources
import PosterBatch

/// How a command that renders many frames runs: `--jobs`, `--quiet`, `--timings` (the batch
/// commands and `video`).
struct RunOptionGroup: ParsableArguments {
    @Option(name: .customLong("jobs"), help: ArgumentHelp("Frames rendered in parallel (default: the CPUs this process may use: Slurm's SLURM_CPUS_PER_TASK, the affinity mask, the cgroup's quota).", valueName: "n"))
    var jobsOption: Int?

    var jobs: Int { jobsOption ?? CPUs.available() }

    @Flag(name: [.customShort("q"), .long], help: "No progress bar, summary or notes.")
    var quiet = false

    @Flag(help: "Print the time each stage took to stderr.")
    var timings = false

    func validate() throws {
        if let jobsOption, !(1...256).contains(jobsOption) { throw ValidationError("--jobs must be from 1 to 256") }
    }
}

/// Options every batch command shares.
struct BatchOptionGroup: ParsableArguments {
    @OptionGroup var runOptions: RunOptionGroup

    @Flag(help: "Re-render every frame and overwrite files LyricPoster did not write.")
    var force = false

    var jobs: Int { runOptions.jobs }
    var quiet: Bool { runOptions.quiet }
    var timings: Bool { runOptions.timings }
}

/// Progress on stderr: a bar redrawn in place on a terminal, nothing until the summary otherwise.
final class Progress: Sendable {
    private let quiet: Bool
    private let terminal = isatty(STDERR_FILENO) == 1
    private let start = DispatchTime.now().uptimeNanoseconds
    /// When the bar was last drawn; the lock also keeps two threads from drawing at once.
    private let lastDraw = Guarded<UInt64>(0)
    private let label: String

    init(label: String, quiet: Bool) {
        self.label = label
        self.quiet = quiet
    }

    var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    func update(_ done: Int, _ total: Int) {
        redraw(force: done == total) { seconds in
            let width = 28
            let filled = total > 0 ? width * done / total : width
            let rate = seconds > 0 ? Double(done) / seconds : 0
            let eta = rate > 0 ? Double(total - done) / rate : 0
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            return String(format: "%@ %@ %d/%d  %.1f frames/s  ETA %.0fs", label, bar, done, total, rate, eta)
        }
    }

    /// Redraws the line in place with `text(seconds elapsed)`, at most ten times a second unless forced.
    func redraw(force: Bool = false, _ text: (Double) -> String) {
        guard !quiet, terminal else { return }
        lastDraw.withLock { lastDraw in
            let now = DispatchTime.now().uptimeNanoseconds
            guard force || now - lastDraw > 100_000_000 else { return }
            lastDraw = now
            FileHandle.standardError.write(Data(("\r" + text(elapsed) + " ").utf8))
        }
    }

    /// Clears the bar and prints one summary line (none when `summary` is empty).
    func finish(_ summary: String = "") {
        guard !quiet else { return }
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        if !summary.isEmpty { FileHandle.standardError.write(Data((summary + "\n").utf8)) }
    }
}

/// Opens a file with the desktop's viewer for it (`$LYRICPOSTER_VIEWER`, else `xdg-open`).
enum Viewer {
    static func open(_ path: String) {
        let environment = ProcessInfo.processInfo.environment
        var command: String?
        if let viewer = environment["LYRICPOSTER_VIEWER"], !viewer.isEmpty {
            command = viewer
        } else if let found = Executable.find("xdg-open"), environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil {
            command = found
        }
        guard let command else {
            FileHandle.standardError.write(Data("note: no viewer available to open \(path) (set LYRICPOSTER_VIEWER, or install xdg-utils on a desktop)\n".utf8))
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" \"$1\" >/dev/null 2>&1 &", command, path]
        do {
            try process.run()
            process.waitUntilExit()
            FileHandle.standardError.write(Data("opened \(path) with \(command)\n".utf8))
        } catch {
            FileHandle.standardError.write(Data("note: could not start \(command): \(error)\n".utf8))
        }
    }
}

/// Refuses an output that would overwrite an input, before anything is read or written.
func checkOutputs(_ outputs: [String], inputs: [String]) throws {
    for target in outputs {
        for input in inputs where OutputFile.sameFile(target, input) {
            throw fail(PosterError(path: target, reason: "output would overwrite the input \(input)"))
        }
    }
}

func summary(_ result: BatchRenderer.Result, directory: String) -> String {
    let frames = result.manifest.frames.count
    let rate = result.seconds > 0 ? Double(result.rendered) / result.seconds : 0
    return String(format: "%d frames in %@ (%d rendered, %d up to date) in %.2f s, %.1f frames/s",
                  frames, directory, result.rendered, result.reused, result.seconds, rate)
}

/// What a batch command plans once its song is prepared.
struct BatchPlan {
    var frames: [PlannedFrame]
    var kind: String
    var fps: Int? = nil
    var ticks: [Tick]? = nil
}

/// The common run of `lines` and `sequence`: check outputs, prepare the song, render the plan
/// into `output` with progress and signals handled, write the `--report` copy, and exit 130
/// after an interruption. `after` runs on a complete result (e.g. the dense sequence).
func runBatch(source: SongSource, places: LyricsPlaces = LyricsPlaces(), output: String, report: String?, render: RenderOptionGroup,
              batch: BatchOptionGroup, karaoke: Bool = false, alpha: Bool = false, plan: (PosterSession) throws(PosterError) -> BatchPlan,
              after: (BatchRenderer.Result) throws(PosterError) -> Void = { _ in }) throws {
    try checkOutputs([output, report].compactMap { $0 }.filter { $0 != "-" }, inputs: source.paths + render.inputPaths)
    let stop = StopFlag()
    stop.installSignalHandlers()
    let clock = Timings()
    var outcome: BatchRenderer.Result?
    var label = ""
    let progress = Progress(label: "frames", quiet: batch.quiet)
    do throws(PosterError) {
        var options = try render.renderOptions(karaoke: karaoke)
        options.textLayer = alpha
        let session = try PosterSession(source: source, options: options, places: places, timings: clock)
        session.notes.map(\.withFlagHints).forEach(warn)
        let planned = try plan(session)
        let renderer = BatchRenderer(session: session, directory: output, coverPath: session.song.coverPath,
                                     lyricsPath: session.song.lyricsPath,
                                     jobs: batch.jobs, force: batch.force)
        let result = try renderer.run(frames: planned.frames, kind: planned.kind, fps: planned.fps, ticks: planned.ticks,
                                      stop: stop, progress: progress.update)
        if report == "-" {
            try PictureOutputGroup.standardOutput(Array(result.manifest.json().utf8))
        } else if let report {
            try OutputFile.writeAtomically(result.manifest.json(), to: report)
        }
        if let message = render.droppedLinesWarning(before: result.dropped.before, after: result.dropped.after) { warn(message) }
        if !result.interrupted { try after(result) }
        if let ticks = planned.ticks, let fps = planned.fps { label = ", \(ticks.count) ticks at \(fps) fps" }
        progress.finish(summary(result, directory: output) + label)
        if batch.timings { FileHandle.standardError.write(Data((clock.summary() + "\n").utf8)) }
        outcome = result
    } catch {
        progress.finish()
        throw fail(error)
    }
    if let outcome, outcome.interrupted {
        FileHandle.standardError.write(Data("stopped: \(outcome.manifest.frames.count) frames are complete and listed in the manifest\n".utf8))
        throw ExitCode(130)
    }
}


/// Runs `body` for each song of a several-songs command (`lines`, `sheet`): a song that fails is
/// reported (its error line is already on stderr) and skipped; an interruption stops the run.
/// Exits 1 when any song failed.
///
/// `body` gets the song's path and its output name: the file's stem, or its whole name where two
/// songs share a stem (`song.mp3`, `song.flac`).
func eachSong(_ song: SongArguments, batch: BatchOptionGroup, _ body: (String, String) throws -> Void) throws {
    let paths: [String]
    do { paths = try song.songs() } catch { throw fail(error) }
    var stems: [String: Int] = [:]
    for path in paths { stems[SongSource.audio(path, cover: nil, lyrics: nil).stem, default: 0] += 1 }
    var failed: [String] = []
    for path in paths {
        let stem = SongSource.audio(path, cover: nil, lyrics: nil).stem
        let name = stems[stem, default: 0] > 1 ? (path as NSString).lastPathComponent : stem
        do {
            try body(path, name)
        } catch let exit as ExitCode where exit == ExitCode(130) {
            throw exit
        } catch {
            failed.append((path as NSString).lastPathComponent)
        }
    }
    if !batch.quiet || !failed.isEmpty {
        let done = paths.count - failed.count
        let skipped = failed.isEmpty ? "" : "; skipped \(failed.count): \(failed.joined(separator: ", "))"
        FileHandle.standardError.write(Data("\(done) of \(paths.count) songs rendered\(skipped)\n".utf8))
    }
    if !failed.isEmpty { throw ExitCode(1) }
}
