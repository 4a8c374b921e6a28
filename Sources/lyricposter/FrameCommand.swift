import ArgumentParser
import Foundation
import LyricPoster
import SongSources
import LyricsCore

struct FrameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frame",
        abstract: "Render the poster for one instant of a song.",
        discussion: """
        Times: 83.45, 1:23.45, 01:23.450, 1:02:03.5 or 83450ms.
        Without -o the poster is <song>-01m23.400s.png here (<song>-01m23s.png on a whole second).
        Examples: lyricposter frame cover.jpg song.lrc --at 1:23.4 -o now.png
                  lyricposter frame song.flac --at 1:23.4
        """
    )

    @OptionGroup var song: SongArguments

    @Option(parsing: .unconditional, help: ArgumentHelp("The instant to render.", valueName: "time"), transform: Timestamp.instant)
    var at: Timestamp

    @OptionGroup var picture: PictureOutputGroup

    @OptionGroup var render: RenderOptionGroup
    @OptionGroup var karaoke: KaraokeOptionGroup

    @OptionGroup var alpha: AlphaOptionGroup

    @OptionGroup var eink: EInkOptionGroup

    func validate() throws {
        try song.validateOne("frame")
        try eink.validate(render: render, output: picture.output, alpha: alpha.alpha)
        if alpha.alpha, picture.format == .jpeg { throw ValidationError("--alpha needs .png or .webp: JPEG has no transparency") }
    }

    /// `-o`, or `<song>-MMmSSs.png` here (with milliseconds when the instant has them): a name
    /// that says what it is and is never one of the inputs (a cover and lyrics may share a stem).
    var outputPath: String {
        picture.output ?? Self.defaultName(stem: song.source.stem, at: at)
    }

    static func defaultName(stem: String, at: Timestamp) -> String {
        stem + "-" + FramePlan.timeLabel(ms: max(0, at.milliseconds), shortOnWholeSeconds: true) + ".png"
    }

    func run() throws {
        let out = outputPath
        try picture.checkTargets(out, inputs: song.source.paths + render.inputPaths + [eink.palette].compactMap { $0 })
        let clock = Timings()
        do {
            let palette = try eink.resolvedPalette()
            var options = try eink.renderOptions(render, karaoke: karaoke.karaoke)
            options.textLayer = alpha.alpha
            let session = try PosterSession(source: song.source, options: options, places: song.places, timings: clock, oneFrame: true, firstFrameAt: at)
            session.notes.map(\.withFlagHints).forEach(warn)
            let drawn: PictureOutputGroup.Drawn
            if let palette {
                drawn = .png(try session.renderEInk(at: at, palette: palette))
            } else {
                drawn = try picture.draw(png: { () throws(PosterError) in try session.render(at: at) },
                                         pixels: { () throws(PosterError) in try session.renderPixels(at: at) })
            }
            let frame = drawn.report
            if at > session.scenes.duration {
                note("--at \(at) is after the end of the song (\(session.scenes.duration)): the closing picture is drawn")
            }
            if let message = render.droppedLinesWarning(before: frame.droppedBefore, after: frame.droppedAfter) {
                warn(message)
            }
            try picture.deliver(drawn, to: out, clock: clock, alongside: session.storeBackdrop)
        } catch {
            throw fail(error)
        }
        if picture.open { Viewer.open(out) }
    }
}
