import ArgumentParser
import Foundation
import LyricPoster
import SongSources
import PosterBatch

struct SheetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sheet",
        abstract: "Render a contact sheet: every line's frame as a thumbnail with its index and time."
    )

    @OptionGroup var song: SongArguments
    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("The sheet PNG to write, or with several songs the folder for one sheet each (default: <song>-sheet.png, or sheets, here).", valueName: "file"))
    var outputPath: String?
    @Option(help: ArgumentHelp("Thumbnails per row (default 6, 4 for landscape canvases).", valueName: "n")) var columns: Int?
    @Flag(help: "Open the sheet in the desktop's image viewer.") var open = false
    @OptionGroup var render: RenderOptionGroup
    @OptionGroup var batch: BatchOptionGroup

    func validate() throws {
        if outputPath?.isEmpty == true { throw ValidationError("-o needs a path") }
        if let columns, !(1...50).contains(columns) { throw ValidationError("--columns must be from 1 to 50") }
    }

    /// `-o`, or `<song>-sheet.png` here (`sheets` for several songs).
    var output: String { outputPath ?? (song.isMany ? "sheets" : song.source.stem + "-sheet.png") }

    func run() throws {
        if song.isMany {
            // One sheet per song in the -o folder, named after the audio file.
            do { try OutputFile.makeFolder(output) } catch { throw fail(error) }
            try eachSong(song, batch: batch) { (path: String, name: String) throws in
                let sheet = (output as NSString).appendingPathComponent(name + ".png")
                try renderSheet(.audio(path, cover: nil, lyrics: nil), to: sheet)
            }
            return
        }
        try renderSheet(song.source, to: output)
        if open { Viewer.open(output) }
    }

    func renderSheet(_ source: SongSource, to output: String) throws {
        try checkOutputs([output], inputs: source.paths + render.inputPaths)
        let stop = StopFlag()
        stop.installSignalHandlers()
        let clock = Timings()
        let progress = Progress(label: "sheet", quiet: batch.quiet)
        do throws(PosterError) {
            let options = try render.renderOptions()
            let session = try PosterSession(source: source, options: options, places: song.places, timings: clock)
            session.notes.map(\.withFlagHints).forEach(warn)
            let frames = FramePlan.perLine(session.scenes)
            let wide = options.preset.width > options.preset.height
            let sheet = ContactSheet(session: session, columns: columns ?? (wide ? 4 : 6), jobs: batch.jobs)
            let png = try sheet.render(frames: frames, stop: stop, progress: progress.update)
            try OutputFile.writeAtomically(png, to: output)
            progress.finish(String(format: "%d frames on %@ in %.2f s", frames.count, output, progress.elapsed))
            if batch.timings { FileHandle.standardError.write(Data((clock.summary() + "\n").utf8)) }
            if !Quiet.isOn { print(output) }
        } catch {
            progress.finish()
            throw fail(error)
        }
    }
}
