import ArgumentParser
import Foundation
import LyricPoster
import SongSources
import PosterBatch
import LyricsCore

struct VideoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "video",
        abstract: "Render the song as a lyric video (H.264 MP4 with its audio, or by extension MKV, WebM, MOV, animated WebP or GIF) through ffmpeg.",
        discussion: """
        By default a still picture per line at a variable frame rate (exact line timing, small \
        files), each change of lines moving at 30 fps over --transition-ms. --fps N gives a \
        constant rate (karaoke fill, platforms that refuse VFR).
        Formats by -o's extension: .mp4/.m4v/.mov H.264 (MP3, AAC, Opus audio copied, other audio \
        to AAC); .mkv H.264 with the audio copied whatever it is; .webm VP9 + Opus; .webp and .gif \
        looped motion posters without sound (25 fps unless --fps). --alpha: the text alone with \
        transparency, in .webm (VP9 alpha), .mov (ProRes 4444) or .webp.
        Examples: lyricposter video song.flac -o song.mp4
                  lyricposter video cover.jpg song.lrc --audio song.mp3 -o song.mp4
                  lyricposter video song.flac --alpha -o lyrics.mov
                  lyricposter video song.flac --from 1:02 --to 1:08 -o poster.webp
        """
    )

    @OptionGroup var song: SongArguments

    @Option(name: .shortAndLong, help: ArgumentHelp("The video to write, its format by extension: .mp4, .m4v, .mov, .mkv, .webm, .webp, .gif (default: <lyrics or audio name>.mp4 here).", valueName: "file"),
            completion: .file(extensions: Completions.videos))
    var output: String?

    @Option(help: ArgumentHelp("The audio track (default: the audio file given as the song).", valueName: "file"),
            completion: .file(extensions: Completions.audio))
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

    @Option(help: ArgumentHelp("Quality: the constant rate factor, lower is better (default: 20 for H.264, 30 for VP9; for WebP, 100 minus the quality: 25).", valueName: "n"))
    var crf: Int?

    @Option(help: ArgumentHelp("Chapters in .mp4/.m4v/.mov/.mkv: sections (lines between interludes) or lines.", valueName: "mode"),
            completion: .list(VideoChapter.Mode.allCases.map(\.rawValue)))
    var chapters: String?

    @OptionGroup var motion: MotionOptionGroup

    @OptionGroup var alpha: AlphaOptionGroup

    @Flag(help: "Open the video when it is written.")
    var open = false

    @OptionGroup var runOptions: RunOptionGroup

    @OptionGroup var render: RenderOptionGroup
    @OptionGroup var karaoke: KaraokeOptionGroup

    func validate() throws {
        try song.validateOne("video")
        if output == "" || audio == "" { throw ValidationError("-o and --audio need a path") }
        if let output, VideoFormat(path: output) == nil {
            throw ValidationError("-o must end in one of \(VideoFormat.extensions) (the extension picks the format)")
        }
        let format = self.format
        if alpha.alpha, !format.carriesAlpha {
            throw ValidationError("--alpha needs .webm (VP9), .mov (ProRes 4444) or .webp: .\(format.rawValue) cannot carry transparency")
        }
        if let chapters {
            guard VideoChapter.Mode(rawValue: chapters) != nil else { throw ValidationError("--chapters must be sections or lines") }
            guard format.carriesChapters else { throw ValidationError("--chapters needs .mp4, .m4v, .mov or .mkv: .\(format.rawValue) has no chapters") }
        }
        if let crf {
            guard let range = format.crf?.range else { throw ValidationError("--crf does not apply to .\(format.rawValue)") }
            guard range.contains(crf) else { throw ValidationError("--crf for .\(format.rawValue) must be from \(range.lowerBound) to \(range.upperBound)") }
        }
        if audio != nil, !format.carriesAudio { throw ValidationError("--audio: a .\(format.rawValue) has no sound") }
        if audio != nil, noAudio { throw ValidationError("--audio and --no-audio cannot be used together") }
        if let fps, !(1...120).contains(fps) { throw ValidationError("--fps must be from 1 to 120") }
        if let from, let to, to <= from { throw ValidationError("--to must be later than --from") }
        if let from, from.milliseconds < 0 { throw ValidationError("--from must not be negative") }
    }

    var outputPath: String {
        output ?? (song.source.stem + (preview ? ".preview.mp4" : ".mp4"))
    }

    var format: VideoFormat { output.flatMap(VideoFormat.init(path:)) ?? .mp4 }

    /// The frame rate: --fps, else 25 for animated pictures (GIF counts in hundredths of a
    /// second), else none (variable).
    var rate: Int? { fps ?? (format.isAnimation ? 25 : nil) }

    /// The audio under the video: --audio, else the song's own audio file.
    var audioPath: String? {
        if noAudio || !format.carriesAudio { return nil }
        if let audio { return audio }
        if case .audio(let path, _, _) = song.source { return path }
        return nil
    }

    func run() throws {
        let out = outputPath
        try checkOutputs([out], inputs: song.source.paths + [audio].compactMap { $0 } + render.inputPaths)
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
        if !Quiet.isOn { print(out) }
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
        if track == nil, !noAudio, format.carriesAudio, !runOptions.quiet { note("no --audio: the video is silent") }
        var options = try render.renderOptions(karaoke: rate != nil && karaoke.karaoke)
        options.textLayer = alpha.alpha
        // The progress bar runs over the audio's length unless told otherwise.
        if options.duration == nil, let track { options.duration = Timestamp(milliseconds: track.durationMs) }
        if preview {
            let p = options.preset
            options.preset = Preset(name: p.name, width: max(64, p.width / 2), height: max(64, p.height / 2),
                                    arrangement: p.arrangement, isLockScreen: p.isLockScreen, safeArea: p.safeArea)
        }
        let session = try PosterSession(source: song.source, options: options, places: song.places, timings: clock)
        session.notes.map(\.withFlagHints).forEach(warn)

        let start = from?.milliseconds ?? 0
        var end = to?.milliseconds ?? track?.durationMs ?? session.scenes.timeline.end.milliseconds
        if let track { end = min(end, track.durationMs) }
        if preview { end = min(end, start + 20_000) }
        guard end > start else {
            throw PosterError(path: track?.path ?? session.song.lyricsPath,
                              reason: "ends at \(Timestamp(milliseconds: end)), before --from \(Timestamp(milliseconds: start))")
        }
        let moves = MotionPlan(session.scenes, transition: motion.value)
        let plan = rate.map { VideoPlan.constant(session.scenes, fps: $0, from: start, to: end, motion: moves) }
            ?? VideoPlan.perLine(session.scenes, from: start, to: end, motion: moves)
        let (width, height) = (options.preset.width, options.preset.height)
        let even = format.needsEvenSides(alpha: alpha.alpha)
        if even, width % 2 != 0 || height % 2 != 0, !runOptions.quiet {
            note("\(width)×\(height) has an odd side; the video is \(width & ~1)×\(height & ~1) (\(format.pixelFormat(alpha: alpha.alpha)) needs even sides)")
        }
        var settings = VideoEncoder.Settings(width: width, height: height, ptsMs: plan.frames.map(\.ptsMs),
                                             durationMs: plan.durationMs, fps: rate, audio: track)
        settings.audioStartMs = start
        settings.title = session.scenes.title
        settings.artist = session.scenes.artist
        settings.format = format
        settings.alpha = alpha.alpha
        settings.crf = crf
        if let chapters, let mode = VideoChapter.Mode(rawValue: chapters) {
            settings.chapters = VideoChapter.plan(session.scenes, mode: mode, from: start, to: end)
        }

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
        return Made(result: result, plan: plan, width: even ? width & ~1 : width, height: even ? height & ~1 : height)
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

}
