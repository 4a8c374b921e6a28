import ArgumentParser
import Foundation
import LyricPoster
import SongSources
import LyricsCore

struct CardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card",
        abstract: "Render a share card of lyric lines you choose.",
        discussion: """
        Choose 1 to \(LineChoice.maxLines) consecutive lines by number (as `inspect --text` numbers them), by a quote from their text, or by time. Every chosen line is drawn whole, never cut; a choice that cannot fit the canvas is refused.

        Examples: lyricposter card cover.jpg song.lrc --lines 7-9 --preset feed
                  lyricposter card song.flac --quote "under the bridge" --theme block
                  lyricposter card song.flac --at 1:23 --count 3 -o card.png
        """
    )

    @OptionGroup var song: SongArguments

    @Option(help: ArgumentHelp("Line numbers, e.g. 7 or 7-9 (see `lyricposter inspect --text`).", valueName: "A-B"))
    var lines: String?

    @Option(help: ArgumentHelp("The line(s) whose text contains this (case, width and spacing ignored; may run into the next line).", valueName: "text"))
    var quote: String?

    @Option(help: ArgumentHelp("The line sung at this time (between lines: the next one).", valueName: "time"))
    var at: Timestamp?

    @Option(help: ArgumentHelp("With --at: how many lines from there (default 1).", valueName: "n"))
    var count: Int?

    @OptionGroup var picture: PictureOutputGroup

    @OptionGroup var render: RenderOptionGroup

    func validate() throws {
        try song.validateOne("card")
        let given = [lines != nil, quote != nil, at != nil].filter { $0 }.count
        if given == 0 { throw ValidationError("choose the lines: --lines A-B, --quote TEXT or --at TIME [--count N]") }
        if given > 1 { throw ValidationError("choose the lines one way: --lines, --quote or --at") }
        if count != nil, at == nil { throw ValidationError("--count goes with --at") }
        if let count, !(1...LineChoice.maxLines).contains(count) {
            throw ValidationError("--count must be from 1 to \(LineChoice.maxLines)")
        }
        if let lines {
            guard let range = LineChoice.parseNumbers(lines) else {
                throw ValidationError("--lines must be a line number or a range such as 7-9, counting from 1, the first no larger than the last")
            }
            if range.count > LineChoice.maxLines {
                throw ValidationError("--lines \(lines): \(range.count) lines; a card takes at most \(LineChoice.maxLines)")
            }
        }
        if let quote, LineChoice.normalise(quote).isEmpty { throw ValidationError("--quote needs some text") }
    }

    var choice: LineChoice {
        if let lines, let range = LineChoice.parseNumbers(lines) { return .numbers(range) }
        if let quote { return .quote(quote) }
        return .at(at ?? .zero, count: count ?? 1)
    }

    func run() throws {
        let out = picture.output ?? (song.source.stem + "-card.png")
        try picture.checkTargets(out, inputs: song.source.paths)
        let clock = Timings()
        do {
            let session = try PosterSession(source: song.source, options: try render.renderOptions(), places: song.places, timings: clock, oneFrame: true)
            session.notes.map(\.withFlagHints).forEach(warn)
            let drawn = try picture.draw(png: { () throws(PosterError) in try session.renderCard(choice) },
                                         pixels: { () throws(PosterError) in try session.renderCardPixels(choice) })
            try picture.deliver(drawn, to: out, clock: clock, alongside: session.storeBackdrop)
        } catch {
            throw fail(error)
        }
        if picture.open { Viewer.open(out) }
    }
}
