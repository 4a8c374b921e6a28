import ArgumentParser
import Foundation
import LyricPoster
import LyricsCore

struct SequenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sequence",
        abstract: "Render frames sampled at a frame rate; identical frames are rendered once.",
        discussion: """
        The manifest maps every tick to its frame file; frames.ffconcat plays them with the right \
        durations. --dense also writes <dir>/dense/00000.png… (hard links where possible) for tools \
        that want a gap-free numbered sequence.
        """
    )

    @Argument(help: ArgumentHelp("The cover image (PNG or JPEG).", valueName: "cover")) var cover: String
    @Argument(help: ArgumentHelp("The lyrics (LRC).", valueName: "lyrics")) var lyrics: String
    @Option(help: ArgumentHelp("Frames per second.", valueName: "n")) var fps: Int
    @Option(name: .shortAndLong, help: ArgumentHelp("The output folder.", valueName: "dir")) var output: String
    @Option(help: ArgumentHelp("Start time (default 0).", valueName: "time")) var from: Timestamp?
    @Option(help: ArgumentHelp("End time (default: the end of the lyrics).", valueName: "time")) var to: Timestamp?
    @Flag(help: "Also write a gap-free numbered sequence in <dir>/dense/.") var dense = false
    @Option(help: ArgumentHelp("Also write the manifest to this file.", valueName: "file")) var report: String?
    @OptionGroup var render: RenderOptionGroup
    @OptionGroup var batch: BatchOptionGroup

    func validate() throws {
        if output.isEmpty { throw ValidationError("-o needs a path") }
        guard (1...240).contains(fps) else { throw ValidationError("--fps must be from 1 to 240") }
        if let from, let to, to <= from { throw ValidationError("--to must be later than --from") }
    }

    func run() throws {
        try checkOutputs([output, report].compactMap { $0 }, inputs: [cover, lyrics])
        let stop = StopFlag()
        stop.installSignalHandlers()
        let clock = Timings()
        let progress = Progress(label: "sequence", quiet: batch.quiet)
        var outcome: BatchRenderer.Result?
        do throws(PosterError) {
            let session = try PosterSession(cover: cover, lyrics: lyrics, options: render.renderOptions, timings: clock)
            session.warnings.forEach(warn)
            let start = from ?? Timestamp(milliseconds: 0)
            let end = to ?? session.scenes.timeline.end
            guard end > start else {
                throw PosterError(path: lyrics, reason: "the lyrics end at \(end), before --from \(start)")
            }
            let plan = FramePlan.sequence(session.scenes, fps: fps, from: start, to: end)
            let renderer = BatchRenderer(session: session, directory: output, coverPath: cover, lyricsPath: lyrics,
                                         jobs: batch.jobs, force: batch.force)
            let result = try renderer.run(frames: plan.frames, kind: "sequence", fps: fps, ticks: plan.ticks, stop: stop,
                                          progress: progress.update)
            if let report { try OutputFile.writeAtomically(result.manifest.json(), to: report) }
            if dense, !result.interrupted { try DenseSequence.write(result.manifest, in: output) }
            progress.finish(summary(result, directory: output) + ", \(plan.ticks.count) ticks at \(fps) fps")
            if batch.timings { FileHandle.standardError.write(Data((clock.summary() + "\n").utf8)) }
            outcome = result
        } catch {
            progress.finish()
            throw fail(error)
        }
        if let outcome, outcome.interrupted { throw interrupted(outcome) }
    }
}
