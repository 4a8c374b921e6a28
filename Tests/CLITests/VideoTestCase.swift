import Foundation
import TestSupport
import XCTest

/// What the video tests share: a short song, ffmpeg and ffprobe run directly, decoded frames,
/// `frame --at` as pixels, and the PSNR they are compared by.
class VideoTestCase: CLITestCase {
    /// Six lines over 20 s (a short intro, an outro after 18 s), written for these tests.
    let song = """
    [ti:Test Reel]
    [ar:LyricPoster]
    [00:01.00]Lanterns drift along the quay
    [00:04.00]Every window hums a different key
    [00:07.50]We count the bridges one by one
    [00:11.00]Until the river meets the sun
    [00:14.50]Hold the evening, hold it still
    [00:18.00]

    """
    /// The middle of each stretch with one picture: intro, five lines, outro.
    let midpoints = [0.5, 2.5, 5.75, 9.25, 12.75, 16.25, 19.0]

    /// A sine tone of `seconds` in `name` (MP3 unless the name says otherwise).
    func tone(_ name: String, seconds: Double) throws -> String {
        let path = temp(name)
        let result = try tool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)", path])
        XCTAssertEqual(result.status, 0, result.stderr)
        return path
    }

    /// ffprobe's streams and format of `path`.
    func probe(_ path: String) throws -> (video: [String: Any]?, audio: [String: Any]?, duration: Double) {
        let result = try tool("ffprobe", ["-v", "error", "-show_entries",
                                          "stream=codec_type,codec_name,width,height,nb_frames,r_frame_rate,pix_fmt,duration:format=duration",
                                          "-of", "json", path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let streams = object["streams"] as? [[String: Any]] ?? []
        let format = object["format"] as? [String: Any]
        return (streams.first { $0["codec_type"] as? String == "video" }, streams.first { $0["codec_type"] as? String == "audio" },
                Double(format?["duration"] as? String ?? "") ?? -1)
    }

    func audioDuration(_ path: String) throws -> Double {
        let result = try tool("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=duration:format=duration",
                                          "-of", "default=noprint_wrappers=1:nokey=1", path])
        return try XCTUnwrap(String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }.first)
    }

    /// Every frame of a video as RGB, with its time.
    func frames(_ video: String, width: Int, height: Int) throws -> [(time: Double, rgb: [UInt8])] {
        let times = try tool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time",
                                         "-of", "csv=p=0", video])
        let pts = String(decoding: times.stdout, as: UTF8.self).split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: " ,\r"))) }
        let raw = try tool("ffmpeg", ["-v", "error", "-i", video, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"])
        XCTAssertEqual(raw.status, 0, raw.stderr)
        let size = width * height * 3
        XCTAssertEqual(raw.stdout.count % size, 0)
        let count = raw.stdout.count / size
        XCTAssertEqual(count, pts.count, "one time per decoded frame")
        let bytes = [UInt8](raw.stdout)
        return (0..<min(count, pts.count)).map { (pts[$0], Array(bytes[$0 * size ..< ($0 + 1) * size])) }
    }

    /// The frame on screen at `time`: the last one that started at or before it.
    func shown(at time: Double, in frames: [(time: Double, rgb: [UInt8])]) throws -> [UInt8] {
        try XCTUnwrap(frames.last { $0.time <= time + 1e-6 }?.rgb, "a frame on screen at \(time) s")
    }

    /// `frame --at` as RGB pixels.
    func poster(_ inputs: [String], at time: String, extra: [String]) throws -> [UInt8] {
        let png = temp("ref-\(time).png")
        let result = try run(["frame"] + inputs + ["--at", time, "-o", png] + extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        let raw = try tool("ffmpeg", ["-v", "error", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"])
        XCTAssertEqual(raw.status, 0, raw.stderr)
        return [UInt8](raw.stdout)
    }

    /// PSNR of the luma (BT.709 weights), as video quality is usually measured: the chroma of
    /// yuv420p is subsampled by design.
    func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count)
        var sum = 0.0
        for i in stride(from: 0, to: a.count, by: 3) {
            let ya = 0.2126 * Double(a[i]) + 0.7152 * Double(a[i + 1]) + 0.0722 * Double(a[i + 2])
            let yb = 0.2126 * Double(b[i]) + 0.7152 * Double(b[i + 1]) + 0.0722 * Double(b[i + 2])
            sum += (ya - yb) * (ya - yb)
        }
        let mse = sum / Double(a.count / 3)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }
}
