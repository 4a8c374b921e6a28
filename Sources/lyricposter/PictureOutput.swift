import ArgumentParser
import Foundation
import LyricPoster

/// `-o`, `--report`, `--timings` and `--open` of the commands that write one picture (`frame`,
/// `card`), and how they write it.
struct PictureOutputGroup: ParsableArguments {
    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the PNG (default: named after the lyrics or audio file, here).", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Also write a JSON report of what was drawn where.", valueName: "file"))
    var report: String?

    @Flag(help: "Print the time each stage took to stderr.")
    var timings = false

    @Flag(help: "Open the picture in the desktop's image viewer.")
    var open = false

    func validate() throws {
        if output == "" || report == "" { throw ValidationError("-o and --report need a path") }
    }

    /// Refuses outputs that would overwrite an input, or each other.
    func checkTargets(_ out: String, inputs: [String]) throws {
        for target in [out, report].compactMap({ $0 }) {
            for input in inputs where OutputFile.sameFile(target, input) {
                throw fail(PosterError(path: target, reason: "output would overwrite the input \(input)"))
            }
        }
        if let report, OutputFile.sameFile(report, out) {
            throw fail(PosterError(path: report, reason: "report and image cannot be the same file"))
        }
    }

    /// Writes the picture and its report (together or not at all), warns of glyphs no font has,
    /// prints the stages' times when asked and the path written.
    func deliver(_ frame: RenderedFrame, to out: String, clock: Timings) throws(PosterError) {
        try clock.measure("write") { () throws(PosterError) in
            var files = [(frame.png, out)]
            if let report { files.append((Array(frame.report.json().utf8), report)) }
            try OutputFile.writeAtomically(files)
        }
        if frame.report.missingGlyphs > 0 {
            warn("\(frame.report.missingGlyphs) glyph(s) have no font and show as boxes (try --system-fonts or --fonts-dir)")
        }
        if timings { FileHandle.standardError.write(Data((clock.summary() + "\n").utf8)) }
        print(out)
    }
}
