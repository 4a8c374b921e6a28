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
        Examples: lyricposter frame cover.jpg song.lrc --at 1:23.4 -o now.png
                  lyricposter frame song.flac --at 1:23.4
        """
    )

    @OptionGroup var song: SongArguments

    @Option(help: ArgumentHelp("The instant to render.", valueName: "time"))
    var at: Timestamp

    @OptionGroup var picture: PictureOutputGroup

    @OptionGroup var render: RenderOptionGroup
    @OptionGroup var karaoke: KaraokeOptionGroup

    @OptionGroup var alpha: AlphaOptionGroup

    func validate() throws {
        try song.validateOne("frame")
        if alpha.alpha, picture.format == .jpeg { throw ValidationError("--alpha needs .png or .webp: JPEG has no transparency") }
    }

    var outputPath: String {
        picture.output ?? (song.source.stem + ".png")
    }

    func run() throws {
        let out = outputPath
        try picture.checkTargets(out, inputs: song.source.paths)
        let clock = Timings()
        do {
            var options = try render.renderOptions(karaoke: karaoke.karaoke)
            options.textLayer = alpha.alpha
            let session = try PosterSession(source: song.source, options: options, timings: clock, oneFrame: true, firstFrameAt: at)
            session.notes.map(\.withFlagHints).forEach(warn)
            let drawn = try picture.draw(png: { () throws(PosterError) in try session.render(at: at) },
                                         pixels: { () throws(PosterError) in try session.renderPixels(at: at) })
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
