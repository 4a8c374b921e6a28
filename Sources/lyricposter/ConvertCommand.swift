import ArgumentParser
import Foundation
import LyricPoster
import SongSources
import LyricsCore
import MediaTags

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Write lyrics in another format: LRC, enhanced LRC, TTML, SRT, WebVTT, ASS or Lyricsfile.",
        discussion: """
            The format comes from the output's extension (.lrc, .ttml or .xml, .srt, .vtt, .ass, .yaml for \
            LRCLIB's Lyricsfile) or from \
            --to, which also names enhanced LRC (elrc: LRC with word timing). What the format cannot carry \
            (word timing in LRC, backing vocals in SRT, ...) is dropped, with a note on stderr saying what \
            and how much. The output is written whole or not at all, never over the input.
            """
    )

    @OptionGroup var quietOption: QuietOptionGroup

    @Argument(help: ArgumentHelp("The lyrics (any format inspect reads; - for standard input), or an audio file (its sidecar or embedded lyrics).", valueName: "lyrics | audio"),
              completion: .file(extensions: Completions.lyrics + Completions.audio))
    var input: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the converted lyrics; - for standard output.", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("The format to write: \(ConvertCommand.formatNames) (default: from the output's extension).", valueName: "format"),
            completion: .list(OutputFormat.allCases.map(\.rawValue)))
    var to: String?

    @Option(name: .customLong("lyrics"), help: ArgumentHelp("With an audio file: the lyrics file to use instead of its sidecar or tags.", valueName: "file"))
    var lyricsOverride: String?

    @OptionGroup var lookup: LyricsPlacesOptions

    @Option(help: ArgumentHelp("Format of the input: \(LyricsFormat.fileFormats.map(\.rawValue).joined(separator: ", ")) (detected from the content when omitted).", valueName: "format"))
    var format: String?

    @Option(help: ArgumentHelp("Text encoding of the lyrics file; detected when omitted.", valueName: "name"))
    var encoding: String?

    @Option(name: .customLong("offset-sign"), help: ArgumentHelp("How [offset:] applies: subtract or add. The output has the offset applied.", valueName: "sign"))
    var offsetSign: String = "subtract"

    @Option(name: .customLong("translation-lang"), help: ArgumentHelp("Which translation a format with room for one keeps when the lyrics carry several languages; default: your locale's, else the file's first.", valueName: "tag"))
    var translationLang: String?

    static let formatNames = OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")

    func validate() throws {
        try lookup.checkFolders()
        if output.isEmpty { throw ValidationError("-o needs a path (or - for standard output)") }
        if let to, OutputFormat(rawValue: to) == nil { throw ValidationError("--to must be one of \(Self.formatNames)") }
        guard ["subtract", "add"].contains(offsetSign) else { throw ValidationError("--offset-sign must be subtract or add") }
        try validateFormat(format)
        if let encoding, TextDecoding.canonicalName(for: encoding) == nil {
            throw ValidationError("unknown encoding '\(encoding)' (known: \(TextDecoding.knownEncodings.joined(separator: ", ")))")
        }
    }

    func run() throws {
        let target = try targetFormat()
        let toStdout = output == "-"
        if !toStdout, input != "-", OutputFile.sameFile(output, input) {
            throw fail(PosterError(path: output, reason: "output would overwrite the input \(input)"))
        }
        let lyrics: Lyrics, path: String
        do {
            (lyrics, path) = try read()
        } catch {
            throw fail(error)
        }
        lyrics.notes.forEach { warn("\(path): \($0)") }
        let text: String
        do {
            text = try LyricsWriter.write(lyrics, as: target)
        } catch {
            throw fail(PosterError(path: path, reason: error.description))
        }
        if toStdout {
            FileHandle.standardOutput.write(Data(text.utf8))
        } else {
            do {
                try OutputFile.writeAtomically(text, to: output)
            } catch {
                throw fail(error)
            }
        }
        for loss in LyricsWriter.losses(of: lyrics, in: target) {
            let hint = loss.kind == .words && target == .lrc ? " (--to elrc keeps them)" : ""
            FileHandle.standardError.write(Data("note: \(loss)\(hint)\n".utf8))
        }
    }

    /// `--to`, else the output's extension; a usage error (one line, exit 64) when neither names a format.
    private func targetFormat() throws -> OutputFormat {
        if let to, let format = OutputFormat(rawValue: to) { return format }
        if output != "-", let format = OutputFormat.forPath(output) { return format }
        let choices = OutputFormat.extensions.map { "." + $0.name }.joined(separator: ", ")
        let reason = output == "-"
            ? "standard output has no extension: name the format with --to (\(Self.formatNames))"
            : "no lyrics format has this extension (choose \(choices), or name the format with --to: \(Self.formatNames))"
        FileHandle.standardError.write(Data("error: \(output): \(reason)\n".utf8))
        throw ExitCode(64)
    }

    /// The lyrics and the file errors about them name; an audio file's sidecar or embedded lyrics,
    /// refusing an output that is that sidecar.
    private func read() throws(PosterError) -> (lyrics: Lyrics, path: String) {
        let sign: OffsetSign = offsetSign == "add" ? .add : .subtract
        let forced = format.flatMap(LyricsFormat.init(rawValue:))
        guard MediaTags.isAudioFile(input) else {
            if lyricsOverride != nil { throw PosterError(path: input, reason: "--lyrics goes with an audio file") }
            return (try Inputs.lyrics(input, format: forced, encoding: encoding, offsetSign: sign,
                                      translationLanguage: translationLang ?? ReadOptions.localeLanguage), input)
        }
        var options = RenderOptions()
        options.format = forced
        options.encoding = encoding
        options.offsetSign = sign
        options.translationLanguage = translationLang
        let song = try SongResolver.resolve(.audio(input, cover: nil, lyrics: lyricsOverride), options: options,
                                            places: lookup.places, needCover: false)
        if output != "-", song.lyricsPath != input, OutputFile.sameFile(output, song.lyricsPath) {
            throw PosterError(path: output, reason: "output would overwrite the input \(song.lyricsPath)")
        }
        return (song.lyrics, song.lyricsPath)
    }
}
