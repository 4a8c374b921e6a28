import ArgumentParser
import Foundation
import Locks
import LyricPoster
import PosterGraphics

/// `-o`, `--report`, `--timings` and `--open` of the commands that write one picture (`frame`,
/// `card`), and how they write it.
struct PictureOutputGroup: ParsableArguments {
    @Flag(name: [.customShort("q"), .long], help: "Print only errors and warnings (no notes, no output path).")
    var quiet = false

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the picture, its format by extension: .png, .jpg/.jpeg, .webp; - for standard output (PNG) (default: a PNG named after the lyrics or audio file, here).", valueName: "file"),
            completion: .file(extensions: ["png", "jpg", "jpeg", "webp"]))
    var output: String?

    @Option(help: ArgumentHelp("Also write a JSON report of what was drawn where (- for standard output).", valueName: "file"),
            completion: .file(extensions: ["json"]))
    var report: String?

    @Option(help: ArgumentHelp("JPEG or WebP quality, 1 to 100 (default 90).", valueName: "n"))
    var quality: Int?

    @Flag(help: "Print the time each stage took to stderr.")
    var timings = false

    @Flag(help: "Open the picture in the desktop's image viewer.")
    var open = false

    func validate() throws {
        if output == "" || report == "" { throw ValidationError("-o and --report need a path") }
        if let output, output != "-", PictureFormat(path: output) == nil {
            throw ValidationError("-o: .\((output as NSString).pathExtension) is not a picture format this tool writes (use \(PictureFormat.extensions), or - for standard output)")
        }
        if output == "-", report == "-" { throw ValidationError("-o - and --report - cannot both go to standard output") }
        if output == "-", open { throw ValidationError("--open needs a file: -o - writes to standard output") }
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be from 1 to 100") }
        if quality != nil, (output.flatMap(PictureFormat.init(path:)) ?? .png) == .png {
            throw ValidationError("--quality applies to .jpg and .webp (PNG is lossless)")
        }
    }

    /// The format written: by `-o`'s extension; PNG on standard output.
    var format: PictureFormat { output.flatMap(PictureFormat.init(path:)) ?? .png }

    /// Refuses outputs that would overwrite an input, or each other.
    func checkTargets(_ out: String, inputs: [String]) throws {
        for target in [out, report].compactMap({ $0 }) where target != "-" {
            for input in inputs where OutputFile.sameFile(target, input) {
                throw fail(PosterError(path: target, reason: "output would overwrite the input \(input)"))
            }
        }
        if let report, report != "-", OutputFile.sameFile(report, out) {
            throw fail(PosterError(path: report, reason: "report and image cannot be the same file"))
        }
    }

    /// Writes the picture and its report (together or not at all), warns of glyphs no font has,
    /// prints the stages' times when asked and the path written.
    /// `-` for `-o` or `--report` is standard output; then no path is printed there.
    /// A picture as the session drew it: PNG bytes already encoded (with the song's reused
    /// segments), or pixels to encode in another format.
    enum Drawn {
        case png(RenderedFrame)
        case pixels(PixelBuffer, FrameReport)

        var report: FrameReport {
            switch self {
            case .png(let frame): frame.report
            case .pixels(_, let report): report
            }
        }
    }

    /// Draws the picture the way its format wants it: `png` for PNG, else `pixels`.
    func draw(png: () throws(PosterError) -> RenderedFrame,
              pixels: () throws(PosterError) -> (PixelBuffer, FrameReport)) throws(PosterError) -> Drawn {
        if format == .png { return .png(try png()) }
        let (buffer, report) = try pixels()
        return .pixels(buffer, report)
    }

    /// `alongside`: work to do while the files are written (the session's backdrop stored).
    func deliver(_ drawn: Drawn, to out: String, clock: Timings, alongside: () -> Void = {}) throws(PosterError) {
        let picture: [UInt8]
        do {
            picture = try clock.measure("encode") { () throws(GraphicsError) in
                switch drawn {
                case .png(let frame): return frame.png
                case .pixels(let pixels, _): return try format.encode(pixels: pixels, quality: quality ?? PictureFormat.defaultQuality)
                }
            }
        } catch {
            throw PosterError(path: out, reason: "\(error)")
        }
        let frameReport = drawn.report
        let json = Array(frameReport.json().utf8)
        let report = self.report
        let (written, _) = Fork.both({ () -> Result<Void, PosterError> in
            Result { () throws(PosterError) in
                try clock.measure("write") { () throws(PosterError) in
                    var files: [([UInt8], String)] = []
                    if out != "-" { files.append((picture, out)) }
                    if let report, report != "-" { files.append((json, report)) }
                    try OutputFile.writeAtomically(files)
                    if out == "-" { try Self.standardOutput(picture) }
                    if report == "-" { try Self.standardOutput(json) }
                }
            }
        }, alongside)
        try written.get()
        if frameReport.missingGlyphs > 0 {
            warn("\(frameReport.missingGlyphs) glyph(s) have no font and show as boxes (try --system-fonts or --fonts-dir)")
        }
        if timings { FileHandle.standardError.write(Data((clock.summary() + "\n").utf8)) }
        if out != "-", report != "-", !Quiet.isOn { print(out) }
    }

    /// Writes `bytes` to standard output, whole (a closed pipe is an error, not a crash).
    static func standardOutput(_ bytes: [UInt8]) throws(PosterError) {
        let failure = bytes.withUnsafeBytes { OutputFile.writeAll($0, to: STDOUT_FILENO) }
        guard failure == 0 else { throw PosterError(path: "standard output", reason: OutputFile.errnoReason(failure)) }
    }
}
