import Foundation
import LyricPoster

/// `<dir>/manifest.json`: what a batch wrote, for players, video tools and the next run.
package struct Manifest: Codable, Equatable, Sendable {
    package struct Frame: Codable, Equatable, Sendable {
        package var index: Int
        package var file: String
        package var startMs: Int
        package var endMs: Int
        /// Index into `inspect`'s lines of the current line; nil for interludes.
        package var lineIndex: Int?
        package var text: String
        package var translation: String?
        /// SHA-256 of the PNG file.
        package var sha256: String
        /// SHA-256 of everything the frame was rendered from; unchanged means up to date.
        package var inputSha256: String
        package var missingGlyphs: Int
        package var boxes: [FrameReport.Box]

        enum CodingKeys: String, CodingKey {
            case index, file
            case startMs = "start_ms"
            case endMs = "end_ms"
            case lineIndex = "line_index"
            case text, translation, sha256
            case inputSha256 = "input_sha256"
            case missingGlyphs = "missing_glyphs"
            case boxes
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(index, forKey: .index)
            try c.encode(file, forKey: .file)
            try c.encode(startMs, forKey: .startMs)
            try c.encode(endMs, forKey: .endMs)
            try c.encode(lineIndex, forKey: .lineIndex)  // null, not omitted
            try c.encode(text, forKey: .text)
            try c.encode(translation, forKey: .translation)
            try c.encode(sha256, forKey: .sha256)
            try c.encode(inputSha256, forKey: .inputSha256)
            try c.encode(missingGlyphs, forKey: .missingGlyphs)
            try c.encode(boxes, forKey: .boxes)
        }
    }

    package var version = 1
    /// "lines" or "sequence".
    package var kind: String
    package var width: Int
    package var height: Int
    package var cover: String
    package var lyrics: String
    package var tags: [String: String]
    /// Frames per second, for `sequence`.
    package var fps: Int?
    package var frames: [Frame]
    /// For `sequence`: every tick and the frame it shows.
    package var ticks: [Tick]?
    /// False when the run was interrupted: `frames` lists only what was finished.
    package var complete: Bool

    package init(kind: String, width: Int, height: Int, cover: String, lyrics: String, tags: [String: String],
                fps: Int? = nil, frames: [Frame], ticks: [Tick]? = nil, complete: Bool) {
        self.kind = kind
        self.width = width
        self.height = height
        self.cover = cover
        self.lyrics = lyrics
        self.tags = tags
        self.fps = fps
        self.frames = frames
        self.ticks = ticks
        self.complete = complete
    }

    /// Pretty JSON with sorted keys: the same run writes the same bytes.
    package func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads a manifest a previous run wrote, or nil if there is none or it is not ours.
    package static func read(from path: String) -> Manifest? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }

    /// An ffmpeg concat-demuxer script showing each frame for its duration:
    /// `ffmpeg -f concat -i frames.ffconcat -i song.mp3 -c:v libx264 -pix_fmt yuv420p -shortest out.mp4`.
    package func ffconcat() -> String {
        // Runs of (file, duration in ms) in time order.
        var runs: [(String, Int)] = []
        if let ticks, let fps, !ticks.isEmpty {
            let byIndex = Dictionary(frames.map { ($0.index, $0.file) }, uniquingKeysWith: { a, _ in a })
            for (i, tick) in ticks.enumerated() {
                guard let file = byIndex[tick.frame] else { break }
                let next = i + 1 < ticks.count ? ticks[i + 1].timeMs : tick.timeMs + 1000 / fps
                if let last = runs.last, last.0 == file {
                    runs[runs.count - 1].1 += next - tick.timeMs
                } else {
                    runs.append((file, next - tick.timeMs))
                }
            }
        } else {
            runs = frames.sorted { $0.startMs < $1.startMs }.map { ($0.file, $0.endMs - $0.startMs) }
        }
        var text = "ffconcat version 1.0\n"
        for (file, ms) in runs {
            text += "file '\(file)'\nduration \(ms / 1000).\(String(format: "%03d", ms % 1000))\n"
        }
        // The concat demuxer ignores the last entry's duration unless the file is listed once more.
        if let last = runs.last { text += "file '\(last.0)'\n" }
        return text
    }
}
