import Foundation
import LyricPoster

/// `lyricposter video` against the PNG route it replaces (`lines`/`sequence` writing PNGs, then
/// ffmpeg's concat demuxer decoding them), with the same x264 settings, on 3-minute songs at
/// 1080×1920: the night-drive sample (line timing) and the word-timed bench song on the
/// photographic cover. Audio is a generated tone as long as the song (MP3, copied).
enum VideoBench {
    static let x264 = ["-c:v", "libx264", "-preset", "veryfast", "-tune", "stillimage", "-crf", "20", "-pix_fmt", "yuv420p",
                       "-movflags", "+faststart"]

    static func run(inputs: (photo: String, songWords: String), work: String, runs: Int, cores: Int) throws {
        let folder = work + "/video"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard let ffmpeg = Executable.find("ffmpeg") else {
            print("## video: skipped (no ffmpeg on PATH)\n")
            return
        }
        let toneND = folder + "/tone-178s.mp3", tone180 = folder + "/tone-180s.mp3"
        for (path, seconds) in [(toneND, 178), (tone180, 180)] where !FileManager.default.fileExists(atPath: path) {
            let m = try measure(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)",
                                         "-c:a", "libmp3lame", "-b:a", "128k", path])
            guard m.status == 0 else { throw BenchError("ffmpeg could not make \(path): \(m.stderr)") }
        }
        let nightCover = "samples/night-drive/cover.jpg", nightLyrics = "samples/night-drive/night-drive.lrc"
        let out = folder + "/out.mp4"

        print("## video: 3-minute songs at 1080×1920, \(cores) jobs (raw frames on a pipe vs PNGs through the concat demuxer)")
        print("| song | mode | route | wall s | × song | CPU s | peak RSS MB (largest process) | frames sent | MB |")
        print("|---|---|---|---|---|---|---|---|---|")

        func video(_ label: String, _ mode: String, _ args: [String], repeats: Int, seconds: Double = 180, output: String? = nil) throws {
            var walls: [Double] = [], cpus: [Double] = [], rss: [Double] = [], sent = ""
            let out = output.map { folder + "/" + $0 } ?? out
            defer { if output != nil { unlink(out) } }
            for _ in 0..<repeats {
                unlink(out)
                let size = args.contains("--size") ? [] : ["--size", "1080x1920"]
                let m = try measure(binary, ["video"] + args + ["-o", out, "--jobs", "\(cores)"] + size)
                guard m.status == 0 else { throw BenchError("video failed (\(m.status)): \(m.stderr)") }
                walls.append(m.wall); cpus.append(m.cpu); rss.append(m.peakRSSMB)
                if let range = m.stderr.range(of: "[0-9]+ frames sent", options: .regularExpression) {
                    sent = String(m.stderr[range].split(separator: " ")[0])
                }
            }
            let route = "`video`" + (output.map { " → " + ($0 as NSString).pathExtension } ?? "") + " (raw pipe)"
            print("| \(label) | \(mode) | \(route) | \(f(median(walls))) | \(f(median(walls) / seconds)) | \(f(median(cpus))) | \(f(rss.max() ?? 0, 0)) | \(sent) | \(f(megabytes(out), 1)) |")
        }

        func viaPNGs(_ label: String, _ mode: String, command: [String], filter: [String], audio: String, clip: Double?, repeats: Int) throws {
            var walls: [Double] = [], cpus: [Double] = [], rss: [Double] = [], written = 0
            let dir = folder + "/pngs"
            for _ in 0..<repeats {
                try? FileManager.default.removeItem(atPath: dir)
                unlink(out)
                let render = try measure(binary, command + ["-o", dir, "--size", "1080x1920", "--jobs", "\(cores)", "--quiet"])
                guard render.status == 0 else { throw BenchError("\(command[0]) failed (\(render.status)): \(render.stderr)") }
                written = try framesWritten(in: dir).count
                var args = ["-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", dir + "/frames.ffconcat", "-i", audio,
                            "-map", "0:v", "-map", "1:a", "-c:a", "copy"] + filter + x264
                if let clip { args += ["-t", String(clip)] }
                let encode = try measure(ffmpeg, args + [out])
                guard encode.status == 0 else { throw BenchError("ffmpeg concat failed (\(encode.status)): \(encode.stderr)") }
                walls.append(render.wall + encode.wall); cpus.append(render.cpu + encode.cpu)
                rss.append(max(render.peakRSSMB, encode.peakRSSMB))
            }
            let route = "`\(command[0])` + concat"
            print("| \(label) | \(mode) | \(route) | \(f(median(walls))) | \(f(median(walls) / (clip ?? 180))) | \(f(median(cpus))) | \(f(rss.max() ?? 0, 0)) | \(written) PNGs | \(f(megabytes(out), 1)) |")
            try? FileManager.default.removeItem(atPath: dir)
        }

        let night = "night-drive (2:58, 29 lines)", words = "word-timed (3:00, 60 lines), photo cover"
        let cut = ["--transition", "none"]
        try video(night, "VFR, scrolling", [nightCover, nightLyrics, "--audio", toneND], repeats: runs, seconds: 178)
        try video(night, "VFR, cuts", [nightCover, nightLyrics, "--audio", toneND] + cut, repeats: runs, seconds: 178)
        try viaPNGs(night, "VFR, cuts", command: ["lines", nightCover, nightLyrics], filter: ["-bf", "0", "-fps_mode", "vfr"],
                    audio: toneND, clip: nil, repeats: runs)
        try video(words, "VFR, scrolling", [inputs.photo, inputs.songWords, "--audio", tone180], repeats: runs)
        try video(night, "30 fps, scrolling", [nightCover, nightLyrics, "--audio", toneND, "--fps", "30"], repeats: 1, seconds: 178)
        try video(words, "30 fps, scrolling, karaoke", [inputs.photo, inputs.songWords, "--audio", tone180, "--fps", "30"], repeats: runs)
        try video(words, "30 fps, scrolling, no karaoke", [inputs.photo, inputs.songWords, "--audio", tone180, "--fps", "30", "--no-karaoke"],
                  repeats: runs)
        try video(words, "30 fps, cuts, karaoke", [inputs.photo, inputs.songWords, "--audio", tone180, "--fps", "30"] + cut, repeats: 1)
        try video(words, "30 fps, scrolling, karaoke", [inputs.photo, inputs.songWords, "--audio", tone180, "--fps", "30"], repeats: 1,
                  output: "out.webm")
        try video(words, "30 fps, scrolling, karaoke", [inputs.photo, inputs.songWords, "--audio", tone180, "--fps", "30"], repeats: 1,
                  output: "out.mkv")
        let clip = "word-timed, first 60 s"
        try video(clip, "30 fps", [inputs.photo, inputs.songWords, "--audio", tone180, "--fps", "30", "--to", "60"], repeats: 1, seconds: 60)
        try viaPNGs(clip, "30 fps", command: ["sequence", inputs.photo, inputs.songWords, "--fps", "30", "--to", "60"],
                    filter: ["-vf", "fps=30"], audio: tone180, clip: 60, repeats: 1)
        try video(clip, "30 fps, alpha", [inputs.photo, inputs.songWords, "--audio", tone180, "--fps", "30", "--to", "60", "--alpha"],
                  repeats: 1, seconds: 60, output: "alpha.webm")
        try video(clip, "30 fps, alpha", [inputs.photo, inputs.songWords, "--audio", tone180, "--fps", "30", "--to", "60", "--alpha"],
                  repeats: 1, seconds: 60, output: "alpha.mov")
        let poster = "word-timed, 6 s at 540×960"
        try video(poster, "25 fps, looped", [inputs.photo, inputs.songWords, "--from", "30", "--to", "36", "--size", "540x960"], repeats: 1,
                  seconds: 6, output: "poster.webp")
        try video(poster, "25 fps, looped", [inputs.photo, inputs.songWords, "--from", "30", "--to", "36", "--size", "540x960"], repeats: 1,
                  seconds: 6, output: "poster.gif")
        print("")
        unlink(out)
    }

    static func megabytes(_ path: String) -> Double {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return Double(size) / 1_000_000
    }
}
