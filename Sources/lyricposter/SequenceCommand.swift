import ArgumentParser
import Foundation
import LyricPoster
import PosterBatch
import LyricsCore

struct SequenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sequence",
        abstract: "Render frames sampled at a frame rate; identical frames are rendered once.",
        discussion: """
        The manifest maps every tick to its frame file; frames.ffconcat plays them with the right \
        durations. Each change of lines moves over --transition-ms (--transition scroll, fade or none). --dense also writes <dir>/dense/00000.png, 00001.png, ... (hard links where possible) for tools \
        that want a gap-free numbered sequence.
        """
    )

    @OptionGroup var song: SongArguments
    @Option(help: ArgumentHelp("Frames per second.", valueName: "n")) var fps: Int = 30
    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("The output folder (default: <song>-sequence here).", valueName: "dir"),
            completion: .directory) var outputFolder: String?
    @Option(help: ArgumentHelp("Start time (default 0).", valueName: "time")) var from: Timestamp?
    @Option(help: ArgumentHelp("End time (default: the end of the lyrics, or of the audio file if sooner).", valueName: "time")) var to: Timestamp?
    @Flag(help: "Also write a gap-free numbered sequence in <dir>/dense/.") var dense = false
    @Option(help: ArgumentHelp("Also write the manifest to this file; - for standard output.", valueName: "file")) var report: String?
    @OptionGroup var motion: MotionOptionGroup
    @OptionGroup var alpha: AlphaOptionGroup
    @OptionGroup var render: RenderOptionGroup
    @OptionGroup var karaoke: KaraokeOptionGroup
    @OptionGroup var batch: BatchOptionGroup

    func validate() throws {
        try song.validateOne("sequence")
        if outputFolder?.isEmpty == true { throw ValidationError("-o needs a path") }
        guard (1...240).contains(fps) else { throw ValidationError("--fps must be from 1 to 240") }
        if let from, let to, to <= from { throw ValidationError("--to must be later than --from") }
    }

    /// `-o`, or `<song>-sequence` here.
    var output: String { outputFolder ?? song.source.stem + "-sequence" }

    func run() throws {
        try runBatch(source: song.source, places: song.places, output: output, report: report, render: render, batch: batch, karaoke: karaoke.karaoke, alpha: alpha.alpha,
                     plan: { (session: PosterSession) throws(PosterError) -> BatchPlan in
            let start = from ?? Timestamp(milliseconds: 0)
            // An audio file's song stops with its audio, even where its last line would run on.
            var end = to ?? session.scenes.timeline.end
            if to == nil, let length = session.song.audio?.lengthMs, length > 0 { end = min(end, Timestamp(milliseconds: length)) }
            guard end > start else {
                throw PosterError(path: session.song.lyricsPath, reason: "the lyrics end at \(end), before --from \(start)")
            }
            let plan = FramePlan.sequence(session.scenes, fps: fps, from: start, to: end,
                                          motion: MotionPlan(session.scenes, transition: motion.value))
            return BatchPlan(frames: plan.frames, kind: "sequence", fps: fps, ticks: plan.ticks)
        }, after: { (result: BatchRenderer.Result) throws(PosterError) in
            if dense { try DenseSequence.write(result.manifest, in: output) }
        })
    }
}
