import ArgumentParser
import Foundation
import LyricPoster
import PosterBatch

struct LinesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lines",
        abstract: "Render one frame per lyric line (plus interludes) into a folder, with a manifest.",
        discussion: """
        Writes <dir>/NNNN-MMmSS.mmms.png for each lyric line (the frame shown while it is current), an \
        interlude frame before the first line and for each gap of 4 s or more, <dir>/manifest.json and \
        <dir>/frames.ffconcat. Re-running into the same folder renders only frames whose inputs changed. \
        Several audio files (or a folder of them) render into <dir>/<song name>/ each.
        """
    )

    @OptionGroup var song: SongArguments
    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("The output folder (default: <song>-lines here; with several songs, lines).", valueName: "dir"),
            completion: .directory) var outputFolder: String?
    @Option(help: ArgumentHelp("Also write the manifest to this file; - for standard output.", valueName: "file")) var report: String?
    @Flag(help: "Open the first frame in the desktop's image viewer.") var open = false
    @OptionGroup var render: RenderOptionGroup
    @OptionGroup var alpha: AlphaOptionGroup
    @OptionGroup var batch: BatchOptionGroup

    func validate() throws {
        if outputFolder?.isEmpty == true { throw ValidationError("-o needs a path") }
        if song.isMany, report != nil { throw ValidationError("--report goes with one song") }
    }

    /// `-o`, or `<song>-lines` here (`lines` for several songs).
    var output: String { outputFolder ?? (song.isMany ? "lines" : song.source.stem + "-lines") }

    func run() throws {
        if song.isMany {
            // One sub-folder per song, named after the audio file; a song that fails is reported
            // and skipped, and the exit code says whether any did.
            do { try OutputFile.makeFolder(output) } catch { throw fail(error) }
            try eachSong(song, batch: batch) { (path: String, name: String) throws in
                let folder = (output as NSString).appendingPathComponent(name)
                try runBatch(source: .audio(path, cover: nil, lyrics: nil), output: folder, report: nil, render: render, batch: batch, alpha: alpha.alpha,
                             plan: { (session: PosterSession) throws(PosterError) -> BatchPlan in
                    BatchPlan(frames: FramePlan.perLine(session.scenes), kind: "lines")
                })
            }
            return
        }
        var first: String?
        try runBatch(source: song.source, places: song.places, output: output, report: report, render: render, batch: batch, alpha: alpha.alpha,
                     plan: { (session: PosterSession) throws(PosterError) -> BatchPlan in
            BatchPlan(frames: FramePlan.perLine(session.scenes), kind: "lines")
        }, after: { (result: BatchRenderer.Result) throws(PosterError) in
            first = result.manifest.frames.first?.file
        })
        if open, let first { Viewer.open(output + "/" + first) }
    }
}
