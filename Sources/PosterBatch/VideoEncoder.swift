import Foundation
import LyricPoster

/// An ffmpeg child that reads raw RGB (or RGBA) frames from a pipe and encodes them, with the
/// song's audio, into the video ``VideoFormat`` names (H.264 MP4 by default): written to a
/// temporary file beside the output, renamed into place by ``finish()``, removed by
/// ``cancel()``. Frames are sent only when the picture changes; each is stamped with its own time
/// (`setpts`), so a frame per line gives a variable frame rate with exact line timing, and `fps`
/// turns the same frames into a constant rate.
package final class VideoEncoder {
    package struct Settings: Sendable {
        package var width: Int
        package var height: Int
        /// When each frame appears, in milliseconds from the start; strictly increasing, the first 0.
        package var ptsMs: [Int]
        package var durationMs: Int
        /// A constant frame rate, or nil: one encoded frame per frame sent.
        package var fps: Int?
        package var audio: FFmpeg.Audio?
        /// Where in the audio the video starts (`--from`).
        package var audioStartMs = 0
        package var title: String?
        package var artist: String?
        /// The quality (see ``VideoFormat/crf``); nil: the format's default.
        package var crf: Int?
        package var preset = "veryfast"
        package var format = VideoFormat.mp4
        /// Frames are straight RGBA and the video keeps their alpha.
        package var alpha = false
        package var chapters: [VideoChapter] = []

        package init(width: Int, height: Int, ptsMs: [Int], durationMs: Int, fps: Int?, audio: FFmpeg.Audio?) {
            self.width = width
            self.height = height
            self.ptsMs = ptsMs
            self.durationMs = durationMs
            self.fps = fps
            self.audio = audio
        }

        /// Bytes in one raw frame.
        package var frameBytes: Int { width * height * (alpha ? 4 : 3) }
    }

    package let settings: Settings
    /// Where the frames go, in order: `frameBytes` each.
    package let pipe: FramePipe
    private let process: Process
    private let log: LogFile
    private let script: String
    private let chaptersFile: String?
    private let staged: OutputFile.StagedFile
    private var ended = false

    /// Starts ffmpeg writing into a temporary file beside `output`.
    package init(settings: Settings, output: String) throws(PosterError) {
        precondition(!settings.ptsMs.isEmpty && settings.durationMs > 0)
        self.settings = settings
        let ffmpeg = try FFmpeg.locate("ffmpeg")
        staged = try OutputFile.reserve(output)
        log = try LogFile()
        let folder = FileManager.default.temporaryDirectory.path
        let tag = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        script = folder + "/lyricposter-filter-\(tag).txt"
        chaptersFile = settings.chapters.isEmpty ? nil : folder + "/lyricposter-chapters-\(tag).txt"
        do {
            try OutputFile.writeAtomically(Self.filterGraph(settings), to: script)
            if let chaptersFile { try OutputFile.writeAtomically(VideoChapter.metadata(settings.chapters), to: chaptersFile) }
        } catch {
            unlink(script)
            staged.discard()
            throw error
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = Self.arguments(settings, script: script, chapters: chaptersFile, output: staged.temporary)
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = log.handle
        do {
            try process.run()
        } catch {
            unlink(script)
            if let chaptersFile { unlink(chaptersFile) }
            staged.discard()
            throw PosterError(path: ffmpeg, reason: "cannot start: \(error.localizedDescription)")
        }
        // A bigger pipe lets a frame go over in fewer wake-ups (best effort: capped by the system).
        _ = fcntl(input.fileHandleForWriting.fileDescriptor, 1031 /* F_SETPIPE_SZ */, 1 << 20)
        pipe = FramePipe(handle: input.fileHandleForWriting, output: output)
    }

    deinit {
        if !ended { cancel() }
    }

    /// ffmpeg's last lines on stderr (shown when it fails).
    package var lastLines: [String] { log.lastLines() }

    /// Ends the input, waits for ffmpeg and renames the video into place; on failure the
    /// temporary file is removed and the error gives ffmpeg's exit status and last line.
    package func finish() throws(PosterError) {
        guard !ended else { return }
        ended = true
        pipe.close()
        process.waitUntilExit()
        unlink(script)
        if let chaptersFile { unlink(chaptersFile) }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            staged.discard()
            let how = process.terminationReason == .exit ? "exit status \(process.terminationStatus)" : "signal \(process.terminationStatus)"
            throw PosterError(path: pipe.output, reason: "ffmpeg failed (\(how))" + (lastLines.last.map { ": " + $0 } ?? ""))
        }
        try staged.commit()
    }

    /// Stops ffmpeg and removes what it wrote: nothing is left at or beside the output.
    package func cancel() {
        guard !ended else { return }
        ended = true
        pipe.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        unlink(script)
        if let chaptersFile { unlink(chaptersFile) }
        staged.discard()
    }

    /// The command line: raw frames on stdin at a millisecond time base, restamped by the filter
    /// script; the audio trimmed to the clip; the chapters from an ffmetadata input; the codecs
    /// of the format; muxed without anything that varies from run to run (same frames, same bytes).
    static func arguments(_ s: Settings, script: String, chapters: String? = nil, output: String) -> [String] {
        let seconds = { (ms: Int) in String(format: "%.3f", Double(ms) / 1000) }
        let format = s.format
        var args = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y",
                    "-f", "rawvideo", "-pix_fmt", s.alpha ? "rgba" : "rgb24", "-s", "\(s.width)x\(s.height)", "-framerate", "1000",
                    "-i", "pipe:0"]
        let audio = format.carriesAudio ? s.audio : nil
        if let audio {
            if s.audioStartMs > 0 { args += ["-ss", seconds(s.audioStartMs)] }
            args += ["-t", seconds(s.durationMs), "-i", "file:" + audio.path]
        }
        if let chapters, format.carriesChapters {
            args += ["-f", "ffmetadata", "-i", "file:" + chapters]
        }
        args += ["-map", "0:v:0"]
        if audio != nil { args += ["-map", "1:a:0"] }
        let codec = format.codec(alpha: s.alpha)
        args += ["-filter_script:v", script, "-c:v", codec.rawValue]
        let crf = s.crf ?? format.crf?.default
        switch codec {
        case .h264:
            args += ["-preset", s.preset, "-tune", "stillimage", "-crf", "\(crf ?? 20)", "-pix_fmt", "yuv420p",
                     "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
            // No B-frames with a frame per line: they save nothing, and their reordering delay
            // would shift the stream's start by a line's length.
            if s.fps == nil { args += ["-bf", "0"] }
        case .vp9:
            // Constant quality (-b:v 0) at libvpx's real-time speed 6, rows in parallel: three times
            // the speed of its "good" speed 4 for the same picture at a slightly larger file.
            args += ["-b:v", "0", "-crf", "\(crf ?? 30)", "-deadline", "realtime", "-cpu-used", "6", "-row-mt", "1",
                     "-pix_fmt", format.pixelFormat(alpha: s.alpha),
                     "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
            if s.alpha { args += ["-auto-alt-ref", "0"] }
        case .prores:
            args += ["-profile:v", "4444", "-pix_fmt", "yuva444p10le", "-vendor", "apl0",
                     "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
        case .webp:
            args += ["-quality", "\(100 - (crf ?? 25))", "-compression_level", "4", "-pix_fmt", format.pixelFormat(alpha: s.alpha),
                     "-loop", "0"]
        case .gif:
            args += ["-loop", "0"]
        }
        args += ["-fps_mode", s.fps == nil ? "vfr" : "cfr"]
        if let audio {
            if format.copies(audio) {
                args += ["-c:a", "copy"]
            } else if format == .mov, s.alpha {
                // Beside ProRes, editors take PCM.
                args += ["-c:a", "pcm_s16le"]
            } else {
                args += format.audioCodec
                // AAC stops at 96 kHz and 8 channels: hi-res and many-channel masters are converted.
                if format != .webm, audio.sampleRate > 96_000 { args += ["-ar", "48000"] }
                if audio.channels > 8 { args += ["-ac", "2"] }
            }
        }
        // No tags from the inputs (the song's own title and artist are set below); chapter titles
        // are chapter metadata, which a plain "-map_metadata -1" would drop too.
        args += ["-map_metadata:g", "-1", "-map_metadata:s", "-1",
                 "-map_chapters", chapters != nil && format.carriesChapters ? (audio != nil ? "2" : "1") : "-1"]
        if let title = s.title, !title.isEmpty { args += ["-metadata", "title=" + title] }
        if let artist = s.artist, !artist.isEmpty { args += ["-metadata", "artist=" + artist] }
        args += ["-t", seconds(s.durationMs)]
        switch format {
        case .mp4, .m4v, .mov: args += ["-movflags", "+faststart"]
        // Matroska's muxer draws random identifiers unless told to be bit-exact.
        case .mkv, .webm: args += ["-fflags", "+bitexact"]
        case .webp, .gif: break
        }
        args += ["-f", format.muxer, "file:" + output]
        return args
    }

    /// `setpts` gives frame N its time (a balanced tree of comparisons, so a song of thousands of
    /// frames stays shallow); an odd side loses its last pixel row or column where the format
    /// needs even sides; `fps` repeats the converted frames at a constant rate, a frame counting
    /// from the first tick at or after its time (as `sequence` samples). A GIF gets 256 colours
    /// chosen for the whole clip (or for each frame, past ``gifPaletteBudget``).
    /// The most frame bytes a GIF may hold for one palette over the whole clip (ffmpeg keeps
    /// them all until it has seen the last).
    static let gifPaletteBudget = 256.0 * 1024 * 1024

    static func filterGraph(_ s: Settings) -> String {
        func tree(_ range: Range<Int>) -> String {
            if range.count == 1 { return String(s.ptsMs[range.lowerBound]) }
            let middle = (range.lowerBound + range.upperBound) / 2
            return "if(lt(N,\(middle)),\(tree(range.lowerBound..<middle)),\(tree(middle..<range.upperBound)))"
        }
        var filters = ["setpts='\(tree(0..<s.ptsMs.count))'"]
        if s.format.needsEvenSides(alpha: s.alpha), s.width % 2 != 0 || s.height % 2 != 0 {
            filters.append("crop=\(s.width & ~1):\(s.height & ~1):0:0")
        }
        if s.format == .gif {
            if let fps = s.fps { filters.append("fps=\(fps):round=up") }
            // One palette for the whole clip (smaller files: unchanged pixels are not sent again)
            // needs every frame held until the end; past a budget, each frame gets its own.
            let held = Double(s.durationMs) / 1000 * Double(s.fps ?? 25) * Double(s.width * s.height * 3)
            let palette = held <= Self.gifPaletteBudget
                ? "palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=4:diff_mode=rectangle"
                : "palettegen=stats_mode=single[p];[b][p]paletteuse=new=1:dither=bayer:bayer_scale=4"
            return filters.joined(separator: ",") + ",split[a][b];[a]" + palette + "\n"
        }
        let pixels = s.format.pixelFormat(alpha: s.alpha)
        if pixels.hasPrefix("yuv") { filters.append("scale=out_color_matrix=bt709:out_range=tv") }
        filters.append("format=\(pixels)")
        // ProRes writes the colour description into each frame only when the frames carry one.
        if s.format == .mov, s.alpha { filters.append("setparams=range=tv:color_primaries=bt709:color_trc=bt709:colorspace=bt709") }
        // Repeat after converting: each distinct picture is converted once.
        if let fps = s.fps { filters.append("fps=\(fps):round=up") }
        return filters.joined(separator: ",") + "\n"
    }
}

/// The write end of the pipe into ffmpeg. Writes block while ffmpeg is busy; a write after
/// ffmpeg has gone fails (SIGPIPE is ignored by the commands) instead of hanging.
package final class FramePipe: Sendable {
    private let handle: FileHandle
    let output: String

    init(handle: FileHandle, output: String) {
        self.handle = handle
        self.output = output
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws(PosterError) {
        let failure = OutputFile.writeAll(bytes, to: handle.fileDescriptor)
        guard failure == 0 else {
            throw PosterError(path: output, reason: failure == EPIPE ? "ffmpeg stopped reading frames" : "cannot send a frame to ffmpeg: " + OutputFile.errnoReason(failure))
        }
    }

    func close() {
        try? handle.close()
    }
}
