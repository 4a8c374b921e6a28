import Foundation
import LyricPoster

/// ffmpeg and ffprobe (Debian's `ffmpeg` package), run as child processes.
package enum FFmpeg {
    /// `tool`'s full path on $PATH, or an error that names the package to install.
    package static func locate(_ tool: String) throws(PosterError) -> String {
        if let found = Executable.find(tool) { return found }
        throw PosterError(path: tool, reason: "not found on PATH; video needs ffmpeg (Debian/Ubuntu: apt-get install ffmpeg)")
    }

    /// An audio track to put under the video.
    package struct Audio: Sendable {
        package var path: String
        /// ffprobe's codec name: mp3, aac, opus, flac, vorbis, alac, pcm_s16le, …
        package var codec: String
        package var durationMs: Int
        package var sampleRate = 0
        package var channels = 0

        /// MP4 carries these as they are; anything else (FLAC, Vorbis, PCM, ALAC…) becomes AAC.
        package var copyable: Bool { ["mp3", "aac", "opus"].contains(codec) }
    }

    /// The first audio stream of `path`: its codec and length.
    package static func probeAudio(_ path: String) throws(PosterError) -> Audio {
        guard Inputs.exists(path) else { throw PosterError(path: path, reason: "no such file") }
        let ffprobe = try locate("ffprobe")
        let result = try run(ffprobe, ["-v", "error", "-select_streams", "a:0",
                                       "-show_entries", "stream=codec_name,duration,sample_rate,channels:format=duration",
                                       "-of", "json", "file:" + path])
        guard result.status == 0 else {
            throw PosterError(path: path, reason: "ffprobe cannot read it: " + (result.log.last ?? "exit status \(result.status)"))
        }
        struct Probe: Decodable {
            struct Stream: Decodable { var codec_name: String?; var duration: String?; var sample_rate: String?; var channels: Int? }
            struct Format: Decodable { var duration: String? }
            var streams: [Stream]?
            var format: Format?
        }
        guard let probe = try? JSONDecoder().decode(Probe.self, from: result.output) else {
            throw PosterError(path: path, reason: "ffprobe gave no readable answer")
        }
        guard let stream = probe.streams?.first, let codec = stream.codec_name else {
            throw PosterError(path: path, reason: "has no audio stream")
        }
        let seconds = [stream.duration, probe.format?.duration].compactMap { $0.flatMap(Double.init) }.first { $0 > 0 }
        guard let seconds, seconds.isFinite, seconds < 24 * 3600 else {
            throw PosterError(path: path, reason: "the length of its audio is unknown")
        }
        return Audio(path: path, codec: codec, durationMs: Int((seconds * 1000).rounded()),
                     sampleRate: stream.sample_rate.flatMap { Int($0) } ?? 0, channels: stream.channels ?? 0)
    }

    /// Runs `executable` to the end: its exit status, standard output and last lines of stderr.
    static func run(_ executable: String, _ arguments: [String]) throws(PosterError) -> (status: Int32, output: Data, log: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdout = Pipe()
        let log = try LogFile()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = log.handle
        do { try process.run() } catch {
            throw PosterError(path: executable, reason: "cannot start: \(error.localizedDescription)")
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output, log.lastLines())
    }
}

/// Where a child's stderr goes: an unlinked temporary file (nothing is left behind even if the
/// process dies), read back for its last lines.
final class LogFile {
    let handle: FileHandle

    init() throws(PosterError) {
        let folder = FileManager.default.temporaryDirectory.path
        let path = folder + "/lyricposter-log-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PosterError(path: folder, reason: "cannot create a temporary file: " + OutputFile.errnoReason(errno)) }
        unlink(path)
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// The last `count` non-empty lines written (from the last 16 KiB).
    func lastLines(_ count: Int = 12) -> [String] {
        let fd = handle.fileDescriptor
        let end = lseek(fd, 0, SEEK_END)
        guard end > 0 else { return [] }
        let start = max(0, end - 16 * 1024)
        var bytes = [UInt8](repeating: 0, count: Int(end - start))
        let n = pread(fd, &bytes, bytes.count, start)
        guard n > 0 else { return [] }
        let text = String(decoding: bytes[0..<n], as: UTF8.self)
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return Array(lines.suffix(count))
    }
}
