import Foundation
import TestSupport
import XCTest

/// Videos that move, checked by decoding what ffmpeg wrote: every change of lines is a run of
/// changing frames of a transition's length and the frames between are still; a frame at rest is
/// the still `frame --at` draws; alpha survives in WebM, MOV and PNG; MKV keeps FLAC bit for bit;
/// WebP and GIF loop with the frames asked for; chapters sit where the sections start.
final class MotionTests: VideoTestCase {
    /// When the picture changes in ``song``: the five lines and the closing picture.
    let changes = [1.0, 4.0, 7.5, 11.0, 14.5, 18.0]

    /// Mean absolute difference of two RGB frames, per byte. (Through pointers: indexing the
    /// arrays took 40 ms a frame in a debug build, most of a 600-frame video's check.)
    func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count)
        var sum = 0
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                guard var p = pa.baseAddress, var q = pb.baseAddress else { return }
                let end = p + pa.count
                while p < end {
                    let x = Int(p.pointee), y = Int(q.pointee)
                    sum += x > y ? x - y : y - x
                    p += 1
                    q += 1
                }
            }
        }
        return Double(sum) / Double(max(1, a.count))
    }

    /// Times of the key frames of a video (the encoder draws them afresh, which changes a still
    /// picture a little: not motion).
    func keyFrames(_ video: String) throws -> Set<Double> {
        let r = try tool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time,pict_type", "-of", "csv=p=0", video])
        return Set(String(decoding: r.stdout, as: UTF8.self).split(separator: "\n").compactMap { line -> Double? in
            let parts = line.split(separator: ",")
            return parts.count >= 2 && parts[1].hasPrefix("I") ? Double(parts[0]) : nil
        })
    }

    /// Runs of frames that differ visibly from the one before (more than `threshold` a byte on
    /// average; encoding noise on a still picture stays under a tenth of that), as (start, end)
    /// in seconds; runs apart by two frames or less are one (a fade's gentle ends).
    func movingRuns(_ frames: [(time: Double, rgb: [UInt8])], keys: Set<Double>, threshold: Double = 0.15) -> [(start: Double, end: Double)] {
        var runs: [(start: Double, end: Double)] = []
        for k in 1..<frames.count where !keys.contains(frames[k].time) {
            guard difference(frames[k - 1].rgb, frames[k].rgb) > threshold else { continue }
            let time = frames[k].time, step = frames[k].time - frames[k - 1].time
            if let last = runs.last, time - last.end <= 3 * step + 1e-6 {
                runs[runs.count - 1].end = time + step
            } else {
                runs.append((time, time + step))
            }
        }
        return runs
    }

    func testEveryChangeOfLinesMovesAndTheFramesBetweenAreStill() throws {
        let lrc = try write(song, to: "reel.lrc")
        let audio = try tone("reel.mp3", seconds: 20)
        // Under the sanitizers one style runs the code (each video is 600 frames checked pixel by
        // pixel); make test runs both and the cuts.
        let styles = Sanitizers.active ? [("scroll", 450)] : [("scroll", 450), ("fade", 300)]
        for (style, length) in styles {
            let out = temp("\(style).mp4")
            let result = try run(["video", cover, lrc, "--audio", audio, "--size", "360x640", "--fps", "30",
                                  "--transition", style, "--transition-ms", String(length), "-o", out])
            XCTAssertEqual(result.status, 0, result.stderr)
            let decoded = try frames(out, width: 360, height: 640)
            XCTAssertEqual(Double(decoded.count), 20 * 30, accuracy: 2, "20 s at 30 fps")
            let runs = movingRuns(decoded, keys: try keyFrames(out))
            XCTAssertEqual(runs.count, changes.count, "\(style): one moving run per change, none elsewhere: \(runs)")
            for (run, change) in zip(runs, changes) {
                XCTAssertTrue(run.start >= change && run.start <= change + 0.1, "\(style): the move at \(run.start) s starts with its line at \(change) s")
                let ms = (run.end - run.start) * 1000
                XCTAssertTrue((150...1000).contains(ms), "\(style): a change at \(change) s moves for \(ms) ms")
                XCTAssertLessThanOrEqual(ms, Double(length) + 40, "\(style): and is over within --transition-ms")
            }
            // At rest, each picture is the still of its instant.
            let references = try midpoints.map { try poster([cover, lrc], at: String($0), extra: ["--size", "360x640"]) }
            for (i, t) in midpoints.enumerated() {
                XCTAssertGreaterThanOrEqual(psnr(try shown(at: t, in: decoded), references[i]), 40, "\(style): at rest at \(t) s")
            }
        }
        // --transition none: cuts, each a single changed frame.
        if Sanitizers.active { return }
        let cut = temp("cut.mp4")
        let result = try run(["video", cover, lrc, "--audio", audio, "--size", "360x640", "--fps", "30", "--transition", "none", "-o", cut])
        XCTAssertEqual(result.status, 0, result.stderr)
        let cuts = movingRuns(try frames(cut, width: 360, height: 640), keys: try keyFrames(cut))
        XCTAssertEqual(cuts.count, changes.count, "\(cuts)")
        for run in cuts {
            XCTAssertLessThanOrEqual(run.end - run.start, 0.034, "a cut changes one frame")
        }
    }

    func testVariableRateVideosMoveToo() throws {
        let lrc = try write(song, to: "reel.lrc")
        let out = temp("vfr.mp4")
        let result = try run(["video", cover, lrc, "--no-audio", "--size", "360x640", "--to", "9", "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        let decoded = try frames(out, width: 360, height: 640)
        let times = decoded.map { ($0.time * 1000).rounded() }
        // The intro, the first change in 30-fps steps, its line at rest from where it settles, …
        XCTAssertEqual(Array(times.prefix(3)), [0, 1000, 1033])
        XCTAssertTrue(times.contains(1450), "the line at rest once the 450 ms move is over: \(times)")
        XCTAssertFalse(times.contains { $0 > 1450 && $0 < 4000 }, "nothing is sent while the picture stands still")
        XCTAssertEqual(movingRuns(decoded, keys: try keyFrames(out)).count, 3, "the first line, the second, the third")
    }

    func testSameInputsGiveTheSameBytesInEveryFormat() throws {
        let lrc = try write(song, to: "reel.lrc")
        let audio = try tone("reel.flac", seconds: 8)
        // Under ThreadSanitizer an opaque video, an alpha one and an animated picture: the
        // containers differ only in ffmpeg's arguments, not in how frames reach it.
        let names = Sanitizers.thread ? ["a.mp4", "b.webm", "a.gif"] : ["a.mp4", "a.mkv", "a.webm", "b.webm", "a.mov", "a.webp", "a.gif"]
        for name in names {
            let alpha = name.hasPrefix("b.") || name == "a.mov"
            var arguments = ["video", cover, lrc, "--size", "240x426", "--to", "6"]
            if !name.hasSuffix(".webp"), !name.hasSuffix(".gif") { arguments += ["--audio", audio] }
            if alpha { arguments.append("--alpha") }
            let first = temp("1-" + name), second = temp("2-" + name)
            for out in [first, second] {
                let result = try run(arguments + ["-o", out])
                XCTAssertEqual(result.status, 0, name + ": " + result.stderr)
            }
            XCTAssertEqual(try sha256(first), try sha256(second), "\(name): the same video twice")
        }
    }

    func testAlphaVideosKeepTheirTransparency() throws {
        let lrc = try write(song, to: "reel.lrc")
        let audio = try tone("reel.flac", seconds: 6)
        for (name, decoder) in [("alpha.webm", ["-c:v", "libvpx-vp9"]), ("alpha.mov", [])] {
            let out = temp(name)
            let result = try run(["video", cover, lrc, "--audio", audio, "--size", "360x640", "--alpha", "-o", out])
            XCTAssertEqual(result.status, 0, result.stderr)
            let streams = try tool("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,pix_fmt:stream_tags=alpha_mode",
                                               "-of", "compact", out])
            let text = String(decoding: streams.stdout, as: UTF8.self)
            if name.hasSuffix(".webm") {
                XCTAssertTrue(text.contains("codec_name=vp9") && text.contains("alpha_mode=1"), text)
                XCTAssertTrue(text.contains("codec_name=opus"), text)
            } else {
                XCTAssertTrue(text.contains("codec_name=prores") && text.contains("pix_fmt=yuva444p"), text)
                XCTAssertTrue(text.contains("codec_name=pcm_s16le"), text)
            }
            // A frame of the first line: transparent around the text, opaque in it.
            let raw = try tool("ffmpeg", ["-v", "error"] + decoder + ["-ss", "2.5", "-i", out, "-frames:v", "1",
                                                                     "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"])
            XCTAssertEqual(raw.status, 0, raw.stderr)
            let rgba = [UInt8](raw.stdout)
            XCTAssertEqual(rgba.count, 360 * 640 * 4)
            let alphas = stride(from: 3, to: rgba.count, by: 4).map { rgba[$0] }
            XCTAssertEqual(alphas[0], 0, "\(name): the corner is transparent")
            XCTAssertGreaterThan(Double(alphas.filter { $0 == 0 }.count) / Double(alphas.count), 0.8, "\(name): mostly transparent")
            XCTAssertGreaterThan(alphas.filter { $0 == 255 }.count, 500, "\(name): the text is opaque")
        }
        // `frame --alpha`: an RGBA PNG, transparent where no text is.
        let png = temp("alpha.png")
        let result = try run(["frame", cover, lrc, "--at", "2.5", "--size", "360x640", "--alpha", "-o", png])
        XCTAssertEqual(result.status, 0, result.stderr)
        let raw = try tool("ffmpeg", ["-v", "error", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"])
        let pixels = [UInt8](raw.stdout)
        let alphas = stride(from: 3, to: pixels.count, by: 4).map { pixels[$0] }
        XCTAssertEqual(alphas.first, 0)
        XCTAssertGreaterThan(alphas.filter { $0 == 255 }.count, 500)
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)).prefix(26))
        XCTAssertEqual(header[25], 6, "PNG colour type 6: RGB with alpha")
        // `lines --alpha`: every frame an RGBA PNG.
        let dir = temp("lines")
        let lines = try run(["lines", cover, lrc, "--size", "240x426", "--alpha", "-o", dir])
        XCTAssertEqual(lines.status, 0, lines.stderr)
        let pngs = try files(dir).filter { $0.hasSuffix(".png") }
        XCTAssertEqual(pngs.count, 6, "the intro and five lines")
        for name in pngs {
            XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)).prefix(26))[25], 6, name)
        }
    }

    func testMatroskaKeepsTheFLACBitForBit() throws {
        let lrc = try write(song, to: "reel.lrc")
        let flac = try tone("reel.flac", seconds: 20)
        let out = temp("reel.mkv")
        let result = try run(["video", cover, lrc, "--audio", flac, "--size", "240x426", "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        let probe = try tool("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", out])
        XCTAssertEqual(String(decoding: probe.stdout, as: UTF8.self).split(separator: "\n"), ["h264", "flac"])
        func md5(_ path: String) throws -> String {
            let r = try tool("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-f", "md5", "-"])
            XCTAssertEqual(r.status, 0, r.stderr)
            return String(decoding: r.stdout, as: UTF8.self)
        }
        XCTAssertEqual(try md5(out), try md5(flac), "the decoded audio is the FLAC's, sample for sample")
    }

    /// Parses an animated WebP: its loop count and each frame's duration in ms.
    func webpAnimation(_ path: String) throws -> (loop: Int, durations: [Int]) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(Array(bytes[0..<4]), Array("RIFF".utf8))
        XCTAssertEqual(Array(bytes[8..<12]), Array("WEBP".utf8))
        var loop = -1, durations: [Int] = []
        var at = 12
        while at + 8 <= bytes.count {
            let tag = String(decoding: bytes[at..<at + 4], as: UTF8.self)
            let size = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16 | Int(bytes[at + 7]) << 24
            let body = at + 8
            if tag == "ANIM" { loop = Int(bytes[body + 4]) | Int(bytes[body + 5]) << 8 }
            if tag == "ANMF" { durations.append(Int(bytes[body + 12]) | Int(bytes[body + 13]) << 8 | Int(bytes[body + 14]) << 16) }
            at = body + size + (size & 1)
        }
        return (loop, durations)
    }

    func testMotionPostersLoopWithTheFramesAskedFor() throws {
        let lrc = try write(song, to: "reel.lrc")
        let webp = temp("poster.webp"), gif = temp("poster.gif")
        for out in [webp, gif] {
            let result = try run(["video", cover, lrc, "--from", "3.5", "--to", "5.5", "--size", "180x320", "--fps", "20", "-o", out])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        let animation = try webpAnimation(webp)
        XCTAssertEqual(animation.loop, 0, "loops forever")
        XCTAssertEqual(animation.durations.reduce(0, +), 2000, "2 s of frames")
        XCTAssertGreaterThan(animation.durations.count, 5, "the change at 4 s moves over several frames")
        let count = try tool("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", gif])
        XCTAssertEqual(String(decoding: count.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), "40",
                       "2 s at 20 fps")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: gif)))
        let netscape = Array("NETSCAPE2.0".utf8)
        let at = try XCTUnwrap((0..<(bytes.count - netscape.count)).first { Array(bytes[$0..<$0 + netscape.count]) == netscape },
                               "the looping extension")
        XCTAssertEqual(Array(bytes[at + 11..<at + 15]), [3, 1, 0, 0], "loop count 0: forever")
    }

    func testChaptersMarkSectionsOrLines() throws {
        let lrc = try write("""
        [ti:Chapters]
        [00:02.00]Verse one begins
        [00:04.00]Verse one ends
        [00:06.00]
        [00:12.00]Chorus = one; #two
        [00:14.00]Chorus goes on
        [00:16.00]

        """, to: "chapters.lrc")
        for (name, mode, expected) in [
            ("sections.mp4", "sections", [(0.0, "Intro"), (2.0, "Verse one begins"), (12.0, "Chorus = one; #two")]),
            ("lines.mkv", "lines", [(0.0, "Intro"), (2.0, "Verse one begins"), (4.0, "Verse one ends"), (12.0, "Chorus = one; #two"),
                                    (14.0, "Chorus goes on")]),
        ] {
            let out = temp(name)
            let result = try run(["video", cover, lrc, "--no-audio", "--size", "240x426", "--to", "18", "--chapters", mode, "-o", out])
            XCTAssertEqual(result.status, 0, result.stderr)
            let probe = try tool("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", out])
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any])
            let chapters = try XCTUnwrap(object["chapters"] as? [[String: Any]])
            XCTAssertEqual(chapters.count, expected.count, "\(name): \(chapters)")
            for (chapter, (start, title)) in zip(chapters, expected) {
                XCTAssertEqual(Double(chapter["start_time"] as? String ?? "") ?? -1, start, accuracy: 0.001, name)
                XCTAssertEqual((chapter["tags"] as? [String: Any])?["title"] as? String, title, name)
            }
            XCTAssertEqual(Double(chapters.last?["end_time"] as? String ?? "") ?? -1, 18, accuracy: 0.001, "\(name): to the end")
        }
    }

    func testSequenceMovesAndItsStillsAreTheFrameCommandsBytes() throws {
        let lrc = try write(song, to: "reel.lrc")
        let dir = temp("seq")
        let result = try run(["sequence", cover, lrc, "--fps", "30", "--from", "3", "--to", "5", "--size", "240x426", "-o", dir])
        XCTAssertEqual(result.status, 0, result.stderr)
        let manifest = try json(dir + "/manifest.json")
        let frames = try XCTUnwrap(manifest["frames"] as? [[String: Any]])
        let ticks = try XCTUnwrap(manifest["ticks"] as? [[String: Any]])
        XCTAssertEqual(ticks.count, 60)
        // Before 4 s one still; from 4 s a frame per tick while the lines move; then one still.
        let moving = ticks.filter { ($0["time_ms"] as? Int ?? 0) >= 4000 && ($0["time_ms"] as? Int ?? 0) < 4450 }
        XCTAssertEqual(Set(moving.compactMap { $0["frame"] as? Int }).count, moving.count, "each tick of the move is a picture of its own")
        XCTAssertEqual(frames.count, 1 + moving.count + 1)
        // The stills are `frame --at`'s bytes.
        for (tick, time) in [(15, "3.5"), (59, "4.966")] {
            let frame = try XCTUnwrap(ticks[tick]["frame"] as? Int)
            let file = try XCTUnwrap(frames.first { $0["index"] as? Int == frame }?["file"] as? String)
            let png = temp("at-\(time).png")
            let still = try run(["frame", cover, lrc, "--at", time, "--size", "240x426", "-o", png])
            XCTAssertEqual(still.status, 0, still.stderr)
            XCTAssertEqual(try sha256(dir + "/" + file), try sha256(png), "the still at \(time) s")
        }
        // Resumed, nothing is drawn again; --transition none plans fewer frames.
        let again = try run(["sequence", cover, lrc, "--fps", "30", "--from", "3", "--to", "5", "--size", "240x426", "-o", dir])
        XCTAssertTrue(again.stderr.contains("0 rendered"), again.stderr)
        let cut = try run(["sequence", cover, lrc, "--fps", "30", "--from", "3", "--to", "5", "--size", "240x426", "--transition", "none",
                           "-o", temp("cut")])
        XCTAssertEqual(cut.status, 0, cut.stderr)
        XCTAssertEqual((try json(temp("cut") + "/manifest.json")["frames"] as? [[String: Any]])?.count, 2)
    }
}
