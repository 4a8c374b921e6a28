import Foundation
import LyricPoster

// Two reference pipelines that do the job of `lyricposter lines` (one PNG per lyric line: the cover
// filling the frame, darkened, the previous, current and next lines over it), measured the same
// way, so the benchmark can print them next to LyricPoster:
//
// - the whole-frame C floor (scripts/bench/floor.c): TurboJPEG, Cairo, Pango and libdeflate in a
//   few hundred lines of C, JOBS threads; the least a frame can cost with the same libraries;
// - ffmpeg with libass: the cover looped as a video, scaled and cropped, darkened, the lyrics as an
//   ASS subtitle file, one PNG per line; what one would do without LyricPoster.

/// Compiles scripts/bench/floor.c into `work/floor` unless that is newer than the source, and
/// returns the binary's path.
func buildFloor(work: String) throws -> String {
    try buildC("floor", work: work, flags: "$(pkg-config --cflags --libs pangocairo fontconfig libturbojpeg) -ldeflate",
               needsPkgConfig: true)
}

/// Compiles scripts/bench/write-floor.c into `work/write-floor` the same way.
func buildWriteFloor(work: String) throws -> String {
    try buildC("write-floor", work: work, flags: "", needsPkgConfig: false)
}

/// Compiles scripts/bench/`name`.c into `work/name` unless that is newer than the source, with
/// `flags` (shell words, evaluated), and returns the binary's path.
private func buildC(_ name: String, work: String, flags: String, needsPkgConfig: Bool) throws -> String {
    let source = benchSource(name + ".c")
    guard FileManager.default.fileExists(atPath: source) else {
        throw BenchError("\(name): \(source) not found (run the benchmark from the repository)")
    }
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let binary = work + "/" + name
    if let built = modified(binary), let edited = modified(source), built >= edited { return binary }
    let temporary = binary + ".building"
    // Paths are passed as $1 and $2, so no quoting is needed; pkg-config failing stops the build.
    let script = """
        command -v "${CC:-cc}" >/dev/null 2>&1 || { echo "no C compiler (${CC:-cc}) in PATH" >&2; exit 127; }
        \(needsPkgConfig ? "command -v pkg-config >/dev/null 2>&1 || { echo \"pkg-config not found in PATH\" >&2; exit 127; }" : "")
        flags="\(flags)" || exit 1
        exec "${CC:-cc}" -O2 -pthread "$1" -o "$2" $flags
        """
    let m = try measure("/bin/sh", ["-c", script, "sh", source, temporary])
    guard m.status == 0 else {
        unlink(temporary)
        throw BenchError("\(name): building \(source) failed (exit \(m.status)): \(m.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
    }
    guard rename(temporary, binary) == 0 else { throw BenchError("\(name): cannot move the build to \(binary)") }
    return binary
}

/// Runs the C floor (built into `work/floor` if needed) on `cover` and `song` into a fresh `out`:
/// one `NNNN.png` (from 0001) per lyric line at `width`×`height`, in `jobs` threads.
func runFloor(cover: String, song: String, out: String, width: Int, height: Int, jobs: Int, fontsDir: String,
              work: String) throws -> Measured {
    let floor = try buildFloor(work: work)
    try? FileManager.default.removeItem(atPath: out)
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let m = try measure(floor, [cover, song, out, "\(width)", "\(height)", "\(jobs)", fontsDir])
    guard m.status == 0 else {
        throw BenchError("floor failed (exit \(m.status)): \(m.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
    }
    return m
}

/// Runs ffmpeg (with libass) on `cover` and `song` into a fresh `out`: `frames` PNGs (`NNNN.png`
/// from 0001) at `width`×`height`, frame k showing lyric line k with its neighbours.
///
/// The song is written as an ASS file (`work/libass-WxH.ass`, not timed): one Dialogue event per
/// lyric line over its span (to the next time tag), holding the previous line, the current one
/// (larger, bold, white) and the next, Noto Sans, centred, wrapping at 85% of the width. ffmpeg
/// loops the still cover at one frame per line period, shifted by half a period so that each frame
/// falls in the middle of its line; that needs the first `frames` lines to be evenly timed (the
/// bench songs have a line every 3 s from 0 s), and anything else throws. `pngOptions` go to the
/// PNG encoder (e.g. `["-compression_level", "1", "-pred", "up"]`); by default ffmpeg's own
/// (zlib's default level, no filter).
func runFFmpegLibass(cover: String, song: String, out: String, width: Int, height: Int, frames: Int, fontsDir: String,
                     work: String, pngOptions: [String] = []) throws -> Measured {
    guard let ffmpeg = Executable.find("ffmpeg") else { throw BenchError("ffmpeg not found in PATH (apt install ffmpeg)") }
    let text = try String(contentsOfFile: song, encoding: .utf8)
    let stamps = referenceLines(text)
    let lines = stamps.enumerated().compactMap { i, line -> (start: Int, end: Int, text: String)? in
        guard !line.text.isEmpty else { return nil }
        return (line.ms, i + 1 < stamps.count ? stamps[i + 1].ms : line.ms + 5000, line.text)
    }
    guard frames >= 1, frames <= lines.count else {
        throw BenchError("ffmpeg reference: \(frames) frames asked for, \(song) has \(lines.count) lyric lines")
    }
    // Frame k at first + (k + ½) × period: inside line k's span for evenly timed lines.
    let first = lines[0].start, period = (lines[frames - 1].end - first) / frames
    for k in 0..<frames {
        let t = first + k * period + period / 2
        guard period > 0, lines[k].start <= t, t < lines[k].end else {
            throw BenchError("ffmpeg reference needs evenly timed lines: frame \(k + 1) at \(Double(t) / 1000) s is not "
                + "in line \(k + 1) (\(Double(lines[k].start) / 1000)–\(Double(lines[k].end) / 1000) s)")
        }
    }

    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let ass = work + "/libass-\(width)x\(height).ass"
    try Data(assScript(lines, width: width, height: height).utf8).write(to: URL(fileURLWithPath: ass))
    try? FileManager.default.removeItem(atPath: out)
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)

    let shift = String(format: "%.3f", Double(first + period / 2) / 1000)
    let filters = "scale=\(width):\(height):force_original_aspect_ratio=increase,crop=\(width):\(height),"
        + "drawbox=c=black@0.45:t=fill,setpts=PTS+\(shift)/TB,"
        + "ass=\(filterValue(ass)):fontsdir=\(filterValue(fontsDir))"
    let m = try measure(ffmpeg, ["-nostdin", "-v", "error", "-y", "-loop", "1", "-framerate", "1000/\(period)", "-i", cover,
                                 "-vf", filters, "-frames:v", "\(frames)"] + pngOptions + [out + "/%04d.png"])
    let message = m.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
    if message.contains("No such filter") {
        throw BenchError("ffmpeg reference: this ffmpeg has no ass filter (built without libass): \(message)")
    }
    guard m.status == 0 else { throw BenchError("ffmpeg failed (exit \(m.status)): \(message)") }
    let written = try framesWritten(in: out).count
    guard written == frames else { throw BenchError("ffmpeg reference: \(written) PNGs written, \(frames) expected") }
    return m
}

/// The PNGs in `folder`: how many, and their mean size in bytes.
func framesWritten(in folder: String) throws -> (count: Int, bytesPerFrame: Double) {
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }
    var bytes = 0
    for file in files {
        bytes += ((try FileManager.default.attributesOfItem(atPath: folder + "/" + file))[.size] as? Int) ?? 0
    }
    return (files.count, Double(bytes) / Double(max(1, files.count)))
}

/// The bytes both free in /dev/shm and available in memory, or nil without a writable /dev/shm.
func memoryRoom() -> Int? {
    var fs = statvfs()
    guard access("/dev/shm", W_OK) == 0, statvfs("/dev/shm", &fs) == 0 else { return nil }
    let free = Int(fs.f_bavail) * Int(fs.f_frsize)
    let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
    let line = meminfo.split(separator: "\n").first { $0.hasPrefix("MemAvailable:") }
    let kilobytes = line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? 0
    return min(free, kilobytes * 1024)
}

// MARK: helpers

private func benchSource(_ file: String) -> String {
    // This file is Sources/lyricposter-bench/References.swift; the sources are in scripts/bench.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let beside = root.appendingPathComponent("scripts/bench/" + file).path
    if FileManager.default.fileExists(atPath: beside) { return beside }
    return FileManager.default.currentDirectoryPath + "/scripts/bench/" + file
}

private func modified(_ path: String) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
}

/// The timed lines of simple LRC, sorted by time: `[mm:ss.xx]text`, word tags `<mm:ss.xx>`
/// removed, ID tags (`[ti:…]`) and untimed lines skipped. Empty lines are kept: they end the line
/// before them.
func referenceLines(_ text: String) -> [(ms: Int, text: String)] {
    var lines: [(ms: Int, text: String)] = []
    for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
        var rest = Substring(raw)
        guard rest.first == "[", let close = rest.firstIndex(of: "]"),
              let ms = stampMilliseconds(rest[rest.index(after: rest.startIndex)..<close]) else { continue }
        rest = rest[rest.index(after: close)...]
        var line = ""
        while let open = rest.firstIndex(of: "<") {
            line += rest[..<open]
            if let end = rest[open...].firstIndex(of: ">"), stampMilliseconds(rest[rest.index(after: open)..<end]) != nil {
                rest = rest[rest.index(after: end)...]
            } else {
                line.append("<")
                rest = rest[rest.index(after: open)...]
            }
        }
        line += rest
        lines.append((ms, line.trimmingCharacters(in: .whitespaces)))
    }
    return lines.enumerated().sorted { ($0.element.ms, $0.offset) < ($1.element.ms, $1.offset) }.map(\.element)
}

/// `mm:ss`, `mm:ss.x`, `mm:ss.xx` or `mm:ss.xxx` in milliseconds, or nil.
private func stampMilliseconds(_ s: Substring) -> Int? {
    let parts = s.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, let minutes = Int(parts[0]), minutes >= 0 else { return nil }
    let secondsAndFraction = parts[1].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let seconds = Int(secondsAndFraction[0]), seconds >= 0 else { return nil }
    var fraction = 0
    if secondsAndFraction.count == 2 {
        let digits = secondsAndFraction[1]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(digits.prefix(3)) else { return nil }
        fraction = value * [1, 100, 10, 1][min(3, digits.count)]
    }
    return minutes * 60_000 + seconds * 1000 + fraction
}

/// The ASS script: sizes as `lines`'s default theme (current 64 px, neighbours 46 px on a 1080-pixel
/// side; libass sizes a font by its ascender + descender, 1.36 em for Noto Sans), neighbours at 55%.
private func assScript(_ lines: [(start: Int, end: Int, text: String)], width: Int, height: Int) -> String {
    let scale = Double(min(width, height)) / 1080
    let current = Int((64 * scale * 1.36).rounded()), neighbour = Int((46 * scale * 1.36).rounded())
    let margin = (width - Int(Double(width) * 0.85)) / 2
    func time(_ ms: Int) -> String {
        let cs = ms / 10
        return String(format: "%d:%02d:%02d.%02d", cs / 360_000, cs / 6000 % 60, cs / 100 % 60, cs % 100)
    }
    // Override blocks and line breaks are the only markup: braces and backslashes in a lyric are
    // replaced by look-alikes.
    func plain(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\u{2216}").replacingOccurrences(of: "{", with: "(")
            .replacingOccurrences(of: "}", with: ")").replacingOccurrences(of: "\t", with: " ")
    }
    let dim = "{\\alpha&H73&\\b0\\fs\(neighbour)}", bright = "{\\alpha&H00&\\b1\\fs\(current)}"
    var script = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: \(width)
        PlayResY: \(height)
        WrapStyle: 0
        ScaledBorderAndShadow: yes

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, \
        Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, \
        MarginV, Encoding
        Style: Lyrics,Noto Sans,\(neighbour),&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,0,0,5,\
        \(margin),\(margin),0,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

        """
    for (i, line) in lines.enumerated() {
        var parts: [String] = []
        if i > 0 { parts.append(dim + plain(lines[i - 1].text)) }
        parts.append(bright + plain(line.text))
        if i + 1 < lines.count { parts.append(dim + plain(lines[i + 1].text)) }
        script += "Dialogue: 0,\(time(line.start)),\(time(line.end)),Lyrics,,0,0,0,,\(parts.joined(separator: "\\N"))\n"
    }
    return script
}

/// A value for a filter option inside an ffmpeg filtergraph: escaped for the option list, then
/// for the graph.
private func filterValue(_ value: String) -> String {
    var option = ""
    for c in value {
        if "\\':".contains(c) { option.append("\\") }
        option.append(c)
    }
    var graph = ""
    for c in option {
        if "\\'[],;".contains(c) { graph.append("\\") }
        graph.append(c)
    }
    return graph
}
