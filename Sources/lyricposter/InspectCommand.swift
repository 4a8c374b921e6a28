import ArgumentParser
import Foundation
import LyricPoster
import LyricsCore

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print the parsed lyrics as JSON (or a table with --text)."
    )

    @Argument(help: ArgumentHelp("The lyrics (LRC).", valueName: "lyrics"))
    var lyrics: String

    @Option(help: ArgumentHelp("Text encoding of the lyrics file; detected when omitted.", valueName: "name"))
    var encoding: String?

    @Flag(help: "Print a human-readable table instead of JSON.")
    var text = false

    func run() throws {
        do {
            let parsed = try Inputs.lyrics(lyrics, encoding: encoding)
            print(text ? parsed.inspectTable() : parsed.inspectJSON(), terminator: text ? "" : "\n")
        } catch {
            throw fail(error)
        }
    }
}
