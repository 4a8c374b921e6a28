import ArgumentParser
import Foundation
import LyricPoster
import PosterBatch
import LyricsCore

struct VideoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "video",
        abstract: "Render the song as a lyric video (H.264 MP4 with its audio) through ffmpeg.",
        discussion: """
        By default one frame per line at a variable frame rate: exact line timing, small files. \
        --fps N gives a constant rate (karaoke fill, platforms that refuse VFR). MP3, AAC and Opus \
        audio is copied as it is; other audio (FLAC, Vorbis, WAV…) is encoded to AAC.
        Examples: lyricposter video song.flac -o song.mp4
                  lyricposter video cover.jpg song.lrc --audio song.mp3 --fps 30 -o song.mp4
        """
    )

    @OptionGroup var song: SongArguments

    @Option(name: .shortAndLong, help: ArgumentHelp("The MP4 to write (default: <lyrics or audio name>.mp4 here).", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("The audio track (default: the audio file given as the song).", valueName: "file"))
    var audio: String?

    @Flag(name: .customLong("no-audio"), help: "A silent video.")
    var noAudio = false

    @Option(help: ArgumentHelp("A constant frame rate (default: one frame per line, variable rate).", valueName: "n"))
    var fps: Int?

    @Option(help: ArgumentHelp("Start of the clip (default 0).", valueName: "time"))
    var from: Timestamp?

    @Option(help: ArgumentHelp("End of the clip (default: the end of the audio, or of the lyrics).", valueName: "time"))
    var to: Timestamp?

    @Flag(help: "A quick look: the first 20 s at half size.")
    var preview = false

    @Flag(help: "Open the video when it is written.")
    var open = false

    @OptionGroup var runOptions: RunOptionGroup

    @OptionGroup var render: RenderOptionGroup

    func validate() throws {
        try song.validateOne("video")
        if output == "" || audio == "" { throw ValidationError("-o and --audio need a path") }
        if let output, !["mp4", "m4v", "mov"].contains((output as NSString).pathExtension.lowercased()) {
            throw ValidationError("-o must name an .mp4 file (video writes H.264 in MP4)")
        }
        if audio != nil, noAudio { throw ValidationError("--audio and --no-audio cannot be used together") }
        if let fps, !(1...120).contains(fps) { throw ValidationError("--fps must be from 1 to 120") }
        if let from, let to, to <= from { throw ValidationError("--to must be later than --from") }
        if let from, from.milliseconds < 0 { throw ValidationError("--from must not be negative") }
    }

    var outputPath: String {
        output ?? (song.source.stem + (preview ? ".preview.mp4" : ".mp4"))
    }

    /// The audio under the video: --audio, else the song's own audio file.
    var audioPath: String? {
        if noAudio { return nil }
        if let audio { return audio }
        if case .audio(let path, _, _) = song.source { return path }
        return nil
    }

    func run() throws {
        let out = outputPath
        try checkOutputs([out], inputs: song.source.paths + [audio].compactMap { $0 })
        let clock = Timings()
        let progress = Progress(label: "video", quiet: runOptions.quiet)
        let stop = StopFlag()
        stop.installSignalHandlers()
        let made: Made?
        do throws(PosterError) {
            made = try make(out, clock: clock, progress: progress, stop: stop)
        } catch {
            progress.finish()
            throw fail(error)
        }
        guard let made else {
            progress.finish()
            FileHandle.standardError.write(Data("stopped: \(out) was not written\n".utf8))
            throw ExitCode(130)
        }
        if let message = render.droppedLinesWarning(before: made.result.dropped.before, after: made.result.dropped.after) { warn(message) }
        if made.result.missingGlyphs > 0 {
            warn("\(made.result.missingGlyphs) glyph(s) have no font and show as boxes (try --system-fonts or --fonts-dir)")
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
        let rate = made.plan.fps.map { "\($0) fps" } ?? "one frame per line, variable rate"
        progress.finish(String(format: "%@: %@ at %d×%d, %d frames sent (%@), %.1f MB in %.2f s", out,
                               "\(Timestamp(milliseconds: made.plan.durationMs))", made.width, made.height,
                               made.result.frames, rate, Double(bytes) / 1_000_000, progress.elapsed))
        if runOptions.timings { FileHandle.standardError.write(Data((clock.summary() + "\n").utf8)) }
        print(out)
        if open { Viewer.open(out) }
    }

    struct Made {
        var result: VideoRenderer.Result
        var plan: VideoPlan
        var width: Int
        var height: Int
    }

    /// Prepares the song, starts ffmpeg and sends it the frames; nil when interrupted (nothing
    /// is left at or beside `out`).
    private func make(_ out: String, clock: Timings, progress: Progress, stop: StopFlag) throws(PosterError) -> Made? {
        _ = try FFmpeg.locate("ffmpeg")
        let track = try audioPath.map { (path) throws(PosterError) in try FFmpeg.probeAudio(path) }
        if track == nil, !noAudio, !runOptions.quiet { note("no --audio: the video is silent") }
        var options = try render.renderOptions(timed: fps != nil)
        // The progress bar runs over the audio's length unless told otherwise.
        if options.duration == nil, let track { options.duration = Timestamp(milliseconds: track.durationMs) }
        if preview {
            let p = options.preset
            options.preset = Preset(name: p.name, width: max(64, p.width / 2), height: max(64, p.height / 2),
                                    arrangement: p.arrangement, isLockScreen: p.isLockScreen)
        }
        let session = try PosterSession(source: song.source, options: options, timings: clock)
        session.warnings.forEach(warn)

        let start = from?.milliseconds ?? 0
        var end = to?.milliseconds ?? track?.durationMs ?? session.scenes.timeline.end.milliseconds
        if let track { end = min(end, track.durationMs) }
        if preview { end = min(end, start + 20_000) }
        guard end > start else {
            throw PosterError(path: track?.path ?? session.song.lyricsPath,
                              reason: "ends at \(Timestamp(milliseconds: end)), before --from \(Timestamp(milliseconds: start))")
        }
        let plan = fps.map { VideoPlan.constant(session.scenes, fps: $0, from: start, to: end) }
            ?? VideoPlan.perLine(session.scenes, from: start, to: end)
        let (width, height) = (options.preset.width, options.preset.height)
        if width % 2 != 0 || height % 2 != 0, !runOptions.quiet {
            note("\(width)×\(height) has an odd side; the video is \(width & ~1)×\(height & ~1) (H.264 in yuv420p needs even sides)")
        }
        var settings = VideoEncoder.Settings(width: width, height: height, ptsMs: plan.frames.map(\.ptsMs),
                                             durationMs: plan.durationMs, fps: fps, audio: track)
        settings.audioStartMs = start
        settings.title = session.scenes.title
        settings.artist = session.scenes.artist

        let encoder = try VideoEncoder(settings: settings, output: out)
        let result: VideoRenderer.Result
        do throws(PosterError) {
            result = try VideoRenderer(session: session, plan: plan, jobs: runOptions.jobs).run(into: encoder.pipe, stop: stop, progress: progress.update)
        } catch {
            if stop.isRequested {
                encoder.cancel()
                return nil
            }
            // A frame that could not be sent means ffmpeg stopped: its own error says why.
            progress.finish()
            try finish(encoder)
            throw error
        }
        if result.interrupted || stop.isRequested {
            encoder.cancel()
            return nil
        }
        progress.finish()
        try clock.measure("finish") { () throws(PosterError) in try finish(encoder) }
        return Made(result: result, plan: plan, width: width & ~1, height: height & ~1)
    }

    /// Finishes the encoder; when ffmpeg failed, prints its last lines before the error.
    private func finish(_ encoder: VideoEncoder) throws(PosterError) {
        do {
            try encoder.finish()
        } catch {
            let lines = encoder.lastLines
            if !lines.isEmpty {
                FileHandle.standardError.write(Data(("ffmpeg said:\n" + lines.map { "  " + $0 }.joined(separator: "\n") + "\n").utf8))
            }
            throw error
        }
    }

    private func note(_ message: String) {
        FileHandle.standardError.write(Data("note: \(message)\n".utf8))
    }
}
