import Foundation
import TestSupport
import XCTest

/// `lyricposter video` with the real ffmpeg: the streams and sizes ffprobe sees, the length
/// against the audio, decoded frames against `frame --at`, the audio copied or encoded, and no
/// file left behind by a failure or an interruption.
final class VideoTests: VideoTestCase {
    func testOneFramePerLineMatchesFramePostersWithTheAudiosLength() throws {
        let lrc = try write(song, to: "reel.lrc")
        let audio = try tone("reel.mp3", seconds: 20)
        let out = temp("reel.mp4")
        // Cuts between lines: a still picture per line (transitions are tested on their own).
        let result = try run(["video", cover, lrc, "--audio", audio, "--size", "360x640", "--transition", "none", "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, out + "\n")

        let info = try probe(out)
        let video = try XCTUnwrap(info.video)
        XCTAssertEqual(video["codec_name"] as? String, "h264")
        XCTAssertEqual(video["pix_fmt"] as? String, "yuv420p")
        XCTAssertEqual(video["width"] as? Int, 360)
        XCTAssertEqual(video["height"] as? Int, 640)
        XCTAssertEqual(try XCTUnwrap(info.audio)["codec_name"] as? String, "mp3", "MP3 is copied, not re-encoded")
        XCTAssertEqual(info.duration, try audioDuration(audio), accuracy: 0.05)
        XCTAssertEqual(Double(video["duration"] as? String ?? "") ?? 0, try audioDuration(audio), accuracy: 0.05,
                       "the picture lasts as long as the sound")
        // Intro, five lines, outro, and the last picture held to the end.
        XCTAssertEqual(video["nb_frames"] as? String, "8")
        XCTAssertTrue(result.stderr.contains("8 frames sent"), result.stderr)

        let decoded = try frames(out, width: 360, height: 640)
        let length = try audioDuration(audio)
        XCTAssertEqual(decoded.map { ($0.time * 1000).rounded() }, [0, 1000, 4000, 7500, 11000, 14500, 18000, (length * 1000).rounded() - 1],
                       "each picture appears exactly when its line starts; the last is sent again 1 ms before the end")
        let references = try midpoints.map { try poster([cover, lrc], at: String($0), extra: ["--size", "360x640", "--no-karaoke"]) }
        for (i, t) in midpoints.enumerated() {
            let picture = try shown(at: t, in: decoded)
            let right = psnr(picture, references[i])
            XCTAssertGreaterThanOrEqual(right, 40, "at \(t) s the video shows `frame --at \(t)`")
            for j in [i - 1, i + 1] where references.indices.contains(j) {
                XCTAssertLessThan(psnr(picture, references[j]), right - 10, "at \(t) s the video does not show the picture at \(midpoints[j]) s")
            }
        }
    }

    func testConstantRateFillsTheSungLineAsItGoes() throws {
        let lrc = try write("""
        [ti:Fill]
        [00:00.50]<00:00.50>Slow <00:01.10>light <00:01.70>on <00:02.30>the <00:02.90>water <00:03.50>
        [00:04.00]<00:04.00>Bright <00:04.40>morning <00:04.80>again <00:05.20>

        """, to: "fill.lrc")
        let out = temp("fill.mp4")
        let result = try run(["video", cover, lrc, "--no-audio", "--fps", "30", "--to", "5", "--size", "270x480", "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        let info = try probe(out)
        let video = try XCTUnwrap(info.video)
        XCTAssertNil(info.audio, "--no-audio")
        XCTAssertEqual(video["r_frame_rate"] as? String, "30/1")
        XCTAssertEqual(video["nb_frames"] as? String, "150", "5 s at 30 fps, ending exactly at --to")
        XCTAssertEqual(info.duration, 5, accuracy: 0.05)

        let decoded = try frames(out, width: 270, height: 480)
        XCTAssertEqual(decoded.count, 150)
        // Ticks inside the first line, and what `frame --at` (karaoke on) draws at their times.
        let ticks = [30, 45, 60, 75, 90]
        let references = try ticks.map { try poster([cover, lrc], at: "\($0 * 1000 / 30)ms", extra: ["--size", "270x480"]) }
        for (n, k) in ticks.enumerated() {
            XCTAssertGreaterThanOrEqual(psnr(decoded[k].rgb, references[n]), 40, "tick \(k)")
        }
        // The fill advances: where consecutive references differ (the words being filled), each
        // tick is nearer its own reference than its neighbour's.
        for n in 0..<(ticks.count - 1) {
            let a = references[n], b = references[n + 1]
            let mask = (0..<a.count).filter { abs(Int(a[$0]) - Int(b[$0])) > 40 }
            XCTAssertGreaterThan(mask.count, 100, "the fill moved between tick \(ticks[n]) and \(ticks[n + 1])")
            func distance(_ x: [UInt8], _ y: [UInt8]) -> Int { mask.reduce(0) { $0 + abs(Int(x[$1]) - Int(y[$1])) } }
            XCTAssertLessThan(distance(decoded[ticks[n]].rgb, a), distance(decoded[ticks[n]].rgb, b) / 3)
            XCTAssertLessThan(distance(decoded[ticks[n + 1]].rgb, b), distance(decoded[ticks[n + 1]].rgb, a) / 3)
        }
    }

    func testAudioIsCopiedWhenMP4TakesItAndEncodedToAACOtherwise() throws {
        for (name, codec) in [("tagged.mp3", "mp3"), ("tagged.opus", "opus"), ("tagged.m4a", "aac"), ("tagged.flac", "aac"), ("tagged.ogg", "aac")] {
            let song = try AudioFixtures.path(name)
            let out = temp(name + ".mp4")
            let result = try run(["video", song, "--size", "240x240", "-o", out])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            let info = try probe(out)
            XCTAssertEqual(try XCTUnwrap(info.video, name)["codec_name"] as? String, "h264", name)
            XCTAssertEqual(try XCTUnwrap(info.audio, name)["codec_name"] as? String, codec, name)
            XCTAssertEqual(info.duration, try audioDuration(song), accuracy: 0.05, name)
        }
        // A 192 kHz master: AAC stops at 96 kHz, so it is resampled to 48 kHz.
        let lrc = try write(song, to: "reel.lrc")
        let hires = temp("hires.flac")
        let made = try tool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-ar", "192000", hires])
        XCTAssertEqual(made.status, 0, made.stderr)
        let out = temp("hires.mp4")
        let result = try run(["video", cover, lrc, "--audio", hires, "--size", "240x240", "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        let audio = try XCTUnwrap(try probe(out).audio)
        XCTAssertEqual(audio["codec_name"] as? String, "aac")
        XCTAssertEqual(try probe(out).duration, 3, accuracy: 0.05)
    }

    func testClipPreviewAndOddSizes() throws {
        let lrc = try write(song, to: "reel.lrc")
        let audio = try tone("reel.flac", seconds: 26)
        // --from/--to: 4.5 s to 10 s of the song.
        let clip = temp("clip.mp4")
        var result = try run(["video", cover, lrc, "--audio", audio, "--from", "4.5", "--to", "10", "--size", "360x640", "-o", clip])
        XCTAssertEqual(result.status, 0, result.stderr)
        var info = try probe(clip)
        XCTAssertEqual(info.duration, 5.5, accuracy: 0.05)
        XCTAssertEqual(try XCTUnwrap(info.audio)["codec_name"] as? String, "aac", "FLAC is encoded to AAC")
        let decoded = try frames(clip, width: 360, height: 640)
        XCTAssertGreaterThanOrEqual(psnr(try shown(at: 0.2, in: decoded), try poster([cover, lrc], at: "4.7", extra: ["--size", "360x640", "--no-karaoke"])), 40)
        XCTAssertGreaterThanOrEqual(psnr(try shown(at: 4.0, in: decoded), try poster([cover, lrc], at: "8.5", extra: ["--size", "360x640", "--no-karaoke"])), 40)

        // --preview: the first 20 s at half size.
        let preview = temp("preview.mp4")
        result = try run(["video", cover, lrc, "--audio", audio, "--preview", "--size", "360x640", "-o", preview])
        XCTAssertEqual(result.status, 0, result.stderr)
        info = try probe(preview)
        XCTAssertEqual(info.video?["width"] as? Int, 180)
        XCTAssertEqual(info.video?["height"] as? Int, 320)
        XCTAssertEqual(info.duration, 20, accuracy: 0.05)

        // An odd side loses its last column (yuv420p), and says so.
        let odd = temp("odd.mp4")
        result = try run(["video", cover, lrc, "--no-audio", "--to", "3", "--size", "241x321", "-o", odd])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("240×320"), result.stderr)
        info = try probe(odd)
        XCTAssertEqual(info.video?["width"] as? Int, 240)
        XCTAssertEqual(info.video?["height"] as? Int, 320)
        XCTAssertEqual(info.duration, 3, accuracy: 0.05)

        // Without audio the video runs to the end of the lyrics.
        let silent = temp("silent.mp4")
        result = try run(["video", cover, lrc, "--size", "240x426", "-o", silent])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("silent"), result.stderr)
        info = try probe(silent)
        XCTAssertNil(info.audio)
        XCTAssertEqual(info.duration, 18, accuracy: 0.05)
    }

    func testSameInputsGiveTheSameFile() throws {
        let lrc = try write(song, to: "reel.lrc")
        let audio = try tone("reel.mp3", seconds: 20)
        var digests: [Data] = []
        for name in ["a.mp4", "b.mp4"] {
            let result = try run(["video", cover, lrc, "--audio", audio, "--size", "360x640", "-o", temp(name)])
            XCTAssertEqual(result.status, 0, result.stderr)
            digests.append(try Data(contentsOf: URL(fileURLWithPath: temp(name))))
        }
        XCTAssertEqual(digests[0], digests[1], "byte-identical videos")
    }

    func testInterruptionLeavesNoVideoAndNoTemporaryFile() throws {
        for signal in [SIGINT, SIGTERM] {
            var long = "[ti:Long]\n"
            for i in 0..<120 { long += String(format: "[%02d:%02d.00]<%02d:%02d.00>Line <%02d:%02d.50>number %d\n", i / 60, i % 60, i / 60, i % 60, i / 60, i % 60, i) }
            let lrc = try write(long, to: "long.lrc")
            let out = temp("long.mp4")
            let (process, _, err) = try start(["video", cover, lrc, "--no-audio", "--fps", "30", "--size", "540x960", "-o", out, "--jobs", "1"])
            // Wait until ffmpeg is writing, then interrupt.
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, process.isRunning {
                let partial = try files().filter { $0.hasPrefix(".long.mp4.tmp-") }
                if let name = partial.first, let size = try? FileManager.default.attributesOfItem(atPath: temp(name))[.size] as? Int, size > 0 { break }
                usleep(20_000)
            }
            XCTAssertTrue(process.isRunning, "still rendering when interrupted")
            kill(process.processIdentifier, signal)
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 130, stderr)
            XCTAssertTrue(stderr.contains("stopped: \(out) was not written"), stderr)
            usleep(300_000)
            XCTAssertEqual(try files().filter { $0.contains("long.mp4") }, [], "no video and no temporary file after signal \(signal)")
        }
    }

    func testMissingOrFailingFFmpegIsOneClearErrorAndNoFile() throws {
        let lrc = try write(song, to: "reel.lrc")
        let out = temp("none.mp4")
        // No ffmpeg on PATH.
        var result = try run(["video", cover, lrc, "--no-audio", "-o", out], environment: ["PATH": work.path + "/empty"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("ffmpeg") && result.stderr.contains("apt-get install ffmpeg"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))

        // ffmpeg fails mid-way: the real ffmpeg, started through a PATH entry that lets it write
        // no file larger than 64 KiB (as on a full disk). Only ffmpeg gets the limit.
        let audio = try tone("reel.mp3", seconds: 20)
        let wrappers = temp("limited")
        try FileManager.default.createDirectory(atPath: wrappers, withIntermediateDirectories: true)
        let wrapper = try write("#!/bin/sh\ntrap '' XFSZ\nulimit -f 64\nexec /usr/bin/ffmpeg \"$@\"\n", to: "limited/ffmpeg")
        chmod(wrapper, 0o755)
        let path = wrappers + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        result = try run(["video", cover, lrc, "--audio", audio, "--size", "720x1280", "-o", out], environment: ["PATH": path])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("ffmpeg said:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("File too large"), result.stderr)
        XCTAssertTrue(result.stderr.contains("error: \(out): ffmpeg failed (exit status"), result.stderr)
        XCTAssertEqual(try files().filter { $0.contains("none.mp4") }, [], "no video and no temporary file")
        try FileManager.default.removeItem(atPath: wrappers)

        // An audio file that is not audio.
        let text = try write("not audio at all\n", to: "fake.mp3")
        result = try run(["video", cover, lrc, "--audio", text, "-o", out])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("error: \(text): "), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testOptionsAreChecked() throws {
        let lrc = try write(song, to: "reel.lrc")
        for (arguments, message) in [
            (["-o", temp("x.avi")], "-o must end in one of .mp4, .m4v, .mov, .mkv, .webm, .webp, .gif"),
            (["--alpha", "-o", temp("x.mp4")], "--alpha needs .webm (VP9), .mov (ProRes 4444) or .webp: .mp4 cannot carry transparency"),
            (["--alpha", "-o", temp("x.gif")], ".gif cannot carry transparency"),
            (["--chapters", "lines", "-o", temp("x.webm")], "--chapters needs .mp4, .m4v, .mov or .mkv"),
            (["--chapters", "pages"], "--chapters must be sections or lines"),
            (["--crf", "52"], "--crf for .mp4 must be from 0 to 51"),
            (["--crf", "10", "-o", temp("x.gif")], "--crf does not apply to .gif"),
            (["--audio", "a.mp3", "-o", temp("x.webp")], "--audio: a .webp has no sound"),
            (["--transition", "wipe"], "--transition must be none, fade, scroll"),
            (["--transition-ms", "5"], "--transition-ms must be from 60 to 3000"),
            (["--audio", "a.mp3", "--no-audio"], "--audio and --no-audio cannot be used together"),
            (["--fps", "0"], "--fps must be from 1 to 120"),
            (["--from", "10", "--to", "5"], "--to must be later than --from"),
            (["--audio", temp("in.mp4"), "-o", temp("in.mp4")], "output would overwrite the input"),
        ] {
            let result = try run(["video", cover, lrc] + arguments)
            XCTAssertNotEqual(result.status, 0, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
        }
        XCTAssertEqual(try String(contentsOfFile: lrc, encoding: .utf8), song, "the input is untouched")
    }

    func testOpenHandsTheVideoToTheViewer() throws {
        let lrc = try write(song, to: "reel.lrc")
        let out = temp("open.mp4"), seen = temp("seen.txt")
        let viewer = try write("#!/bin/sh\nprintf '%s' \"$1\" > '\(seen)'\n", to: "viewer.sh")
        chmod(viewer, 0o755)
        let result = try run(["video", cover, lrc, "--no-audio", "--to", "2", "--size", "240x426", "-o", out, "--open"],
                             environment: ["LYRICPOSTER_VIEWER": viewer])
        XCTAssertEqual(result.status, 0, result.stderr)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !FileManager.default.fileExists(atPath: seen) { usleep(20_000) }
        XCTAssertEqual(try String(contentsOfFile: seen, encoding: .utf8), out)
    }
}
