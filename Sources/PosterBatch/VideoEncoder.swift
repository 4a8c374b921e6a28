import Foundation
import LyricPoster

/// An ffmpeg child that reads raw RGB frames from a pipe and encodes them, with the song's audio,
/// into an H.264 MP4: written to a temporary file beside the output, renamed into place by
/// ``finish()``, removed by ``cancel()``. Frames are sent only when the picture changes; each is
/// stamped with its own time (`setpts`), so a frame per line gives a variable frame rate with
/// exact line timing, and `fps` turns the same frames into a constant rate.
public final class VideoEncoder {
    public struct Settings: Sendable {
        public var width: Int
        public var height: Int
        /// When each frame appears, in milliseconds from the start; strictly increasing, the first 0.
        public var ptsMs: [Int]
        public var durationMs: Int
        /// A constant frame rate, or nil: one encoded frame per frame sent.
        public var fps: Int?
        public var audio: FFmpeg.Audio?
        /// Where in the audio the video starts (`--from`).
        public var audioStartMs = 0
        public var title: String?
        public var artist: String?
        public var crf = 20
        public var preset = "veryfast"

        public init(width: Int, height: Int, ptsMs: [Int], durationMs: Int, fps: Int?, audio: FFmpeg.Audio?) {
            self.width = width
            self.height = height
            self.ptsMs = ptsMs
            self.durationMs = durationMs
            self.fps = fps
            self.audio = audio
        }

        /// Bytes in one raw frame.
        public var frameBytes: Int { width * height * 3 }
    }

    public let settings: Settings
    /// Where the frames go, in order: `frameBytes` each.
    public let pipe: FramePipe
    private let process: Process
    private let log: LogFile
    private let script: String
    private let staged: OutputFile.StagedFile
    private var ended = false

    /// Starts ffmpeg writing into a temporary file beside `output`.
    public init(settings: Settings, output: String) throws(PosterError) {
        precondition(!settings.ptsMs.isEmpty && settings.durationMs > 0)
        self.settings = settings
        let ffmpeg = try FFmpeg.locate("ffmpeg")
        staged = try OutputFile.reserve(output)
        log = try LogFile()
        let folder = FileManager.default.temporaryDirectory.path
        script = folder + "/lyricposter-filter-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).txt"
        do {
            try OutputFile.writeAtomically(Self.filterGraph(settings), to: script)
        } catch {
            staged.discard()
            throw error
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = Self.arguments(settings, script: script, output: staged.temporary)
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = log.handle
        do {
            try process.run()
        } catch {
            unlink(script)
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
    public var lastLines: [String] { log.lastLines() }

    /// Ends the input, waits for ffmpeg and renames the video into place; on failure the
    /// temporary file is removed and the error gives ffmpeg's exit status and last line.
    public func finish() throws(PosterError) {
        guard !ended else { return }
        ended = true
        pipe.close()
        process.waitUntilExit()
        unlink(script)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            staged.discard()
            let how = process.terminationReason == .exit ? "exit status \(process.terminationStatus)" : "signal \(process.terminationStatus)"
            throw PosterError(path: pipe.output, reason: "ffmpeg failed (\(how))" + (lastLines.last.map { ": " + $0 } ?? ""))
        }
        try staged.commit()
    }

    /// Stops ffmpeg and removes what it wrote: nothing is left at or beside the output.
    public func cancel() {
        guard !ended else { return }
        ended = true
        pipe.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        unlink(script)
        staged.discard()
    }

    /// The command line: raw RGB frames on stdin at a millisecond time base, restamped by the
    /// filter script; the audio trimmed to the clip; H.264 in yuv420p tagged BT.709.
    static func arguments(_ s: Settings, script: String, output: String) -> [String] {
        let seconds = { (ms: Int) in String(format: "%.3f", Double(ms) / 1000) }
        var args = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y",
                    "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(s.width)x\(s.height)", "-framerate", "1000", "-i", "pipe:0"]
        if let audio = s.audio {
            if s.audioStartMs > 0 { args += ["-ss", seconds(s.audioStartMs)] }
            args += ["-t", seconds(s.durationMs), "-i", "file:" + audio.path]
        }
        args += ["-map", "0:v:0"]
        if s.audio != nil { args += ["-map", "1:a:0"] }
        args += ["-filter_script:v", script,
                 "-c:v", "libx264", "-preset", s.preset, "-tune", "stillimage", "-crf", "\(s.crf)", "-pix_fmt", "yuv420p",
                 "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
        if s.fps == nil {
            // No B-frames: with a frame per line they save nothing, and their reordering delay
            // would shift the stream's start by a line's length.
            args += ["-bf", "0", "-fps_mode", "vfr"]
        } else {
            args += ["-fps_mode", "cfr"]
        }
        if let audio = s.audio {
            if audio.copyable {
                args += ["-c:a", "copy"]
            } else {
                args += ["-c:a", "aac", "-b:a", "192k"]
                // AAC stops at 96 kHz and 8 channels: hi-res and many-channel masters are converted.
                if audio.sampleRate > 96_000 { args += ["-ar", "48000"] }
                if audio.channels > 8 { args += ["-ac", "2"] }
            }
        }
        args += ["-map_metadata", "-1", "-map_chapters", "-1"]
        if let title = s.title, !title.isEmpty { args += ["-metadata", "title=" + title] }
        if let artist = s.artist, !artist.isEmpty { args += ["-metadata", "artist=" + artist] }
        args += ["-t", seconds(s.durationMs), "-movflags", "+faststart", "-f", "mp4", "file:" + output]
        return args
    }

    /// `setpts` gives frame N its time (a balanced tree of comparisons, so a song of thousands of
    /// frames stays shallow); an odd side loses its last pixel row or column (yuv420p needs even
    /// sides); `fps` repeats the converted frames at a constant rate, a frame counting from the
    /// first tick at or after its time (as `sequence` samples).
    static func filterGraph(_ s: Settings) -> String {
        func tree(_ range: Range<Int>) -> String {
            if range.count == 1 { return String(s.ptsMs[range.lowerBound]) }
            let middle = (range.lowerBound + range.upperBound) / 2
            return "if(lt(N,\(middle)),\(tree(range.lowerBound..<middle)),\(tree(middle..<range.upperBound)))"
        }
        var filters = ["setpts='\(tree(0..<s.ptsMs.count))'"]
        if s.width % 2 != 0 || s.height % 2 != 0 {
            filters.append("crop=\(s.width & ~1):\(s.height & ~1):0:0")
        }
        filters.append("scale=out_color_matrix=bt709:out_range=tv")
        filters.append("format=yuv420p")
        // Repeat after converting: each distinct picture is converted once.
        if let fps = s.fps { filters.append("fps=\(fps):round=up") }
        return filters.joined(separator: ",") + "\n"
    }
}

/// The write end of the pipe into ffmpeg. Writes block while ffmpeg is busy; a write after
/// ffmpeg has gone fails (SIGPIPE is ignored by the commands) instead of hanging.
public final class FramePipe: Sendable {
    private let handle: FileHandle
    let output: String

    init(handle: FileHandle, output: String) {
        self.handle = handle
        self.output = output
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(PosterError) {
        let failure = OutputFile.writeAll(bytes, to: handle.fileDescriptor)
        guard failure == 0 else {
            throw PosterError(path: output, reason: failure == EPIPE ? "ffmpeg stopped reading frames" : "cannot send a frame to ffmpeg: " + OutputFile.errnoReason(failure))
        }
    }

    func close() {
        try? handle.close()
    }
}
