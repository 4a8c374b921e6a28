import ArgumentParser
import Foundation
import LyricPoster
import LyricsCore

struct FrameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frame",
        abstract: "Render the poster for one instant of a song.",
        discussion: """
        Times: 83.45, 1:23.45, 01:23.450, 1:02:03.5 or 83450ms.
        Examples: lyricposter frame cover.jpg song.lrc --at 1:23.4 -o now.png
                  lyricposter frame song.flac --at 1:23.4
        """
    )

    @OptionGroup var song: SongArguments

    @Option(help: ArgumentHelp("The instant to render.", valueName: "time"))
    var at: Timestamp

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the PNG (default: <lyrics or audio name>.png here).", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Also write a JSON report of what was drawn where.", valueName: "file"))
    var report: String?

    @Flag(help: "Print the time each stage took to stderr.")
    var timings = false

    @Flag(help: "Open the frame in the desktop's image viewer.")
    var open = false

    @OptionGroup var render: RenderOptionGroup

    func validate() throws {
        try song.validateOne("frame")
        if output == "" || report == "" { throw ValidationError("-o and --report need a path") }
    }

    var outputPath: String {
        output ?? (song.source.stem + ".png")
    }

    func run() throws {
        let out = outputPath
        for target in [out, report].compactMap({ $0 }) {
            for input in song.source.paths where OutputFile.sameFile(target, input) {
                throw fail(PosterError(path: target, reason: "output would overwrite the input \(input)"))
            }
        }
        if let report, OutputFile.sameFile(report, out) {
            throw fail(PosterError(path: report, reason: "report and image cannot be the same file"))
        }
        let clock = Timings()
        do {
            let session = try PosterSession(source: song.source, options: try render.renderOptions(timed: true), timings: clock)
            session.warnings.forEach(warn)
            let frame = try session.render(at: at)
            try clock.measure("write") { () throws(PosterError) in
                // Image and report land together or not at all.
                var files = [(frame.png, out)]
                if let report { files.append((Array(frame.report.json().utf8), report)) }
                try OutputFile.writeAtomically(files)
            }
            if let message = render.droppedLinesWarning(before: frame.report.droppedBefore, after: frame.report.droppedAfter) {
                warn(message)
            }
            if frame.report.missingGlyphs > 0 {
                warn("\(frame.report.missingGlyphs) glyph(s) have no font and show as boxes (try --system-fonts or --fonts-dir)")
            }
            if timings { FileHandle.standardError.write(Data((clock.summary() + "\n").utf8)) }
            print(out)
        } catch {
            throw fail(error)
        }
        if open { Viewer.open(out) }
    }
}
