import ArgumentParser
import Foundation
import LyricPoster
import SongSources
import LyricsCore
import PosterGraphics

struct CardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card",
        abstract: "Render a share card of lyric lines you choose.",
        discussion: """
        Choose up to \(LineChoice.maxLines) lines (--max-lines allows up to \(LineChoice.maxLinesLimit)) by number (as `inspect --text` numbers them), by a quote from their text, or by time. Numbers may skip lines (3,7-8): the card marks each skip with an ellipsis row. Every chosen line is drawn whole, never cut; a choice that cannot fit the canvas is refused.

        Examples: lyricposter card cover.jpg song.lrc --lines 7-9 --preset feed
                  lyricposter card song.flac --lines 3,7-8 --align left --scale 2
                  lyricposter card song.flac --quote "under the bridge" --theme block
                  lyricposter card song.flac --at 1:23 --count 3 -o card.png
        """
    )

    @OptionGroup var song: SongArguments

    @Option(help: ArgumentHelp("Line numbers, e.g. 7, 7-9 or 3,7-8 (see `lyricposter inspect --text`).", valueName: "A-B,..."))
    var lines: String?

    @Option(help: ArgumentHelp("The line(s) whose text contains this (case, width and spacing ignored; may run into the next line).", valueName: "text"))
    var quote: String?

    @Option(help: ArgumentHelp("The line sung at this time (between lines: the next one).", valueName: "time"))
    var at: Timestamp?

    @Option(help: ArgumentHelp("With --at: how many lines from there (default 1).", valueName: "n"))
    var count: Int?

    @Option(help: ArgumentHelp("Most lines the choice may give (default \(LineChoice.maxLines), at most \(LineChoice.maxLinesLimit)).", valueName: "n"))
    var maxLines: Int?

    @Option(help: ArgumentHelp("Align the lines left, center or right (default: the theme's).", valueName: "side"))
    var align: String?

    @Option(help: ArgumentHelp("Draw the card at 2 or 3 times the canvas's pixels each way (a 1080x1080 card at 2 is 2160x2160).", valueName: "n"))
    var scale: Int?

    @Flag(help: "A card of the cover, the title and the artist alone, no lyric line: for a song without lyrics (its lyrics, if it has any, are not shown).")
    var coverOnly = false

    @Option(help: ArgumentHelp("Put a QR code of this text (a URL: the song, your profile) in a corner of the card where no line is; refused when no corner is free.", valueName: "url"))
    var qr: String?

    @OptionGroup var picture: PictureOutputGroup

    @OptionGroup var render: RenderOptionGroup

    @OptionGroup var eink: EInkOptionGroup

    func validate() throws {
        try song.validateOne("card")
        try eink.validate(render: render, output: picture.output, alpha: false)
        if let align, Theme.Alignment(rawValue: align.lowercased()) == nil || align.lowercased() == "auto" {
            throw ValidationError("--align must be left, center or right")
        }
        if let scale, !(1...3).contains(scale) { throw ValidationError("--scale must be 1, 2 or 3") }
        if let qr {
            do throws(QRCodeError) { _ = try QRCode(qr) } catch { throw ValidationError("--qr: \(error)") }
        }
        let given = [lines != nil, quote != nil, at != nil].filter { $0 }.count
        if coverOnly {
            guard given == 0, count == nil, maxLines == nil else {
                throw ValidationError("--cover-only shows no lines: leave out --lines, --quote, --at, --count and --max-lines")
            }
            return
        }
        if given == 0 { throw ValidationError("choose the lines: --lines A-B, --quote TEXT or --at TIME [--count N], or --cover-only for the cover alone") }
        if given > 1 { throw ValidationError("choose the lines one way: --lines, --quote or --at") }
        if count != nil, at == nil { throw ValidationError("--count goes with --at") }
        if let maxLines, !(1...LineChoice.maxLinesLimit).contains(maxLines) {
            throw ValidationError("--max-lines must be from 1 to \(LineChoice.maxLinesLimit)")
        }
        let limit = maxLines ?? LineChoice.maxLines
        if let count, !(1...limit).contains(count) {
            throw ValidationError("--count must be from 1 to \(limit)" + (maxLines == nil ? " (--max-lines allows up to \(LineChoice.maxLinesLimit))" : ""))
        }
        if let lines {
            guard let ranges = LineChoice.parseNumbers(lines) else {
                throw ValidationError("--lines must be line numbers or ranges such as 7, 7-9 or 3,7-8, counting from 1, in ascending order, not overlapping")
            }
            let n = LineChoice.count(ranges)
            if n > limit {
                throw ValidationError("--lines \(lines): \(n) lines; a card takes at most \(limit)" + (maxLines == nil ? " (--max-lines allows up to \(LineChoice.maxLinesLimit))" : ""))
            }
        }
        if let quote, LineChoice.normalise(quote).isEmpty { throw ValidationError("--quote needs some text") }
    }

    var choice: LineChoice {
        if let lines, let ranges = LineChoice.parseNumbers(lines) { return .numbers(ranges) }
        if let quote { return .quote(quote) }
        return .at(at ?? .zero, count: count ?? 1)
    }

    /// The render options with the card's own: its alignment, scale and line cap.
    func options() throws(PosterError) -> RenderOptions {
        var options = try eink.renderOptions(render, karaoke: false)
        if let align, let side = Theme.Alignment(rawValue: align.lowercased()) { options.theme.alignment = side }
        if let scale { options.preset = options.preset.scaled(by: scale) }
        if let maxLines { options.maxCardLines = maxLines }
        options.qr = qr
        return options
    }

    func run() throws {
        let out = picture.output ?? (song.source.stem + "-card.png")
        try picture.checkTargets(out, inputs: song.source.paths + render.inputPaths + [eink.palette].compactMap { $0 })
        let clock = Timings()
        do {
            let options = try options()
            let session: PosterSession
            if coverOnly {
                // The song's cover, title and artist; its lyrics, if found, are not shown.
                var bare = try clock.measure("lyrics") { () throws(PosterError) in
                    try SongResolver.resolve(song.source, options: options, places: song.places, needLyrics: false)
                }
                bare.lyrics.lines = []
                bare.lyrics.isInstrumental = false
                session = try PosterSession(song: bare, options: options, timings: clock, allowUntitled: true, oneFrame: true)
            } else {
                session = try PosterSession(source: song.source, options: options, places: song.places, timings: clock, oneFrame: true)
            }
            session.notes.map(\.withFlagHints).forEach(warn)
            let drawn: PictureOutputGroup.Drawn
            if let palette = try eink.resolvedPalette() {
                drawn = .png(coverOnly ? try session.renderEInk(session.coverCardScene, palette: palette)
                                       : try session.renderEInkCard(choice, palette: palette))
            } else if coverOnly {
                drawn = try picture.draw(png: { () throws(PosterError) in try session.renderCoverCard() },
                                         pixels: { () throws(PosterError) in try session.renderCoverCardPixels() })
            } else {
                drawn = try picture.draw(png: { () throws(PosterError) in try session.renderCard(choice) },
                                         pixels: { () throws(PosterError) in try session.renderCardPixels(choice) })
            }
            try picture.deliver(drawn, to: out, clock: clock, alongside: session.storeBackdrop)
        } catch {
            throw fail(error)
        }
        if picture.open { Viewer.open(out) }
    }
}
