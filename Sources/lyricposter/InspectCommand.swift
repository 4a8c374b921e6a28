import ArgumentParser
import Foundation
import LyricPoster
import LyricsCore

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print the parsed lyrics as JSON (or a table with --text)."
    )

    @Argument(help: ArgumentHelp("The lyrics (LRC, TTML, YRC, SRT or WebVTT).", valueName: "lyrics"))
    var lyrics: String

    @Option(help: ArgumentHelp("Lyrics format: lrc, ttml, yrc, srt or vtt (detected from the content when omitted).", valueName: "format"))
    var format: String?

    @Option(help: ArgumentHelp("Text encoding of the lyrics file; detected when omitted.", valueName: "name"))
    var encoding: String?

    @Flag(help: "Print a human-readable table instead of JSON.")
    var text = false

    @Option(name: .customLong("offset-sign"), help: ArgumentHelp("How [offset:] applies: subtract (default) or add.", valueName: "sign"))
    var offsetSign: String = "subtract"

    func validate() throws {
        guard ["subtract", "add"].contains(offsetSign) else { throw ValidationError("--offset-sign must be subtract or add") }
        try validateFormat(format)
        if let encoding, TextDecoding.canonicalName(for: encoding) == nil {
            throw ValidationError("unknown encoding '\(encoding)' (known: \(TextDecoding.knownEncodings.joined(separator: ", ")))")
        }
    }

    func run() throws {
        do {
            let parsed = try Inputs.lyrics(lyrics, format: format.flatMap(LyricsFormat.init(rawValue:)), encoding: encoding,
                                           offsetSign: offsetSign == "add" ? .add : .subtract)
            print(text ? parsed.inspectTable() : parsed.inspectJSON(), terminator: text ? "" : "\n")
        } catch {
            throw fail(error)
        }
    }
}
