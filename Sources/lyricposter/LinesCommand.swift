import ArgumentParser
import Foundation
import LyricPoster

struct LinesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lines",
        abstract: "Render one frame per lyric line (plus interludes) into a folder, with a manifest.",
        discussion: """
        Writes <dir>/NNNN-MMmSS.mmms.png for each lyric line (the frame shown while it is current), an \
        interlude frame before the first line and for each gap of 4 s or more, <dir>/manifest.json and \
        <dir>/frames.ffconcat. Re-running into the same folder renders only frames whose inputs changed.
        """
    )

    @Argument(help: ArgumentHelp("The cover image (PNG or JPEG).", valueName: "cover")) var cover: String
    @Argument(help: ArgumentHelp("The lyrics (LRC).", valueName: "lyrics")) var lyrics: String
    @Option(name: .shortAndLong, help: ArgumentHelp("The output folder.", valueName: "dir")) var output: String
    @Option(help: ArgumentHelp("Also write the manifest to this file.", valueName: "file")) var report: String?
    @Flag(help: "Open the first frame in the desktop's image viewer.") var open = false
    @OptionGroup var render: RenderOptionGroup
    @OptionGroup var batch: BatchOptionGroup

    func validate() throws {
        if output.isEmpty { throw ValidationError("-o needs a path") }
    }

    func run() throws {
        try checkOutputs([output, report].compactMap { $0 }, inputs: [cover, lyrics])
        let stop = StopFlag()
        stop.installSignalHandlers()
        let clock = Timings()
        let progress = Progress(label: "lines", quiet: batch.quiet)
        var outcome: BatchRenderer.Result?
        do throws(PosterError) {
            let session = try PosterSession(cover: cover, lyrics: lyrics, options: render.renderOptions, timings: clock)
            session.warnings.forEach(warn)
            let frames = FramePlan.perLine(session.scenes)
            let renderer = BatchRenderer(session: session, directory: output, coverPath: cover, lyricsPath: lyrics,
                                         jobs: batch.jobs, force: batch.force)
            let result = try renderer.run(frames: frames, kind: "lines", stop: stop, progress: progress.update)
            if let report { try OutputFile.writeAtomically(result.manifest.json(), to: report) }
            progress.finish(summary(result, directory: output))
            if batch.timings { FileHandle.standardError.write(Data((clock.summary() + "\n").utf8)) }
            outcome = result
        } catch {
            progress.finish()
            throw fail(error)
        }
        if let outcome, outcome.interrupted { throw interrupted(outcome) }
        if open, let first = outcome?.manifest.frames.first { Viewer.open(output + "/" + first.file) }
    }
}

/// Exit 130 after an interrupted batch, saying what is usable.
func interrupted(_ result: BatchRenderer.Result) -> ExitCode {
    FileHandle.standardError.write(Data("stopped: \(result.manifest.frames.count) frames are complete and listed in the manifest\n".utf8))
    return ExitCode(130)
}
