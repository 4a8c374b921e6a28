import Foundation
import LyricPoster

/// What `video` writes, chosen by the output's extension: the container and the codecs in it.
package enum VideoFormat: String, CaseIterable, Sendable {
    /// H.264 in MP4 (`.m4v` is the same file under Apple's name).
    case mp4, m4v
    /// H.264 in QuickTime; with alpha, ProRes 4444 (what editors import with transparency).
    case mov
    /// H.264 in Matroska, the audio copied as it is whatever its codec (FLAC stays FLAC).
    case mkv
    /// VP9 and Opus in WebM; with alpha, VP9's alpha channel (browsers, OBS).
    case webm
    /// An animated WebP (looped, no sound): a motion poster.
    case webp
    /// An animated GIF (looped, no sound, 256 colours a frame): a motion poster.
    case gif

    /// The format for `path`'s extension, or nil.
    package init?(path: String) {
        self.init(rawValue: (path as NSString).pathExtension.lowercased())
    }

    /// The extensions `video` writes, for messages.
    package static var extensions: String { allCases.map { "." + $0.rawValue }.joined(separator: ", ") }

    package var carriesAudio: Bool { self != .webp && self != .gif }
    /// Formats whose video can keep an alpha channel (GIF's one-bit transparency cannot carry soft
    /// text edges and shadows; H.264 has none).
    package var carriesAlpha: Bool { self == .mov || self == .webm || self == .webp }
    package var carriesChapters: Bool { self == .mp4 || self == .m4v || self == .mov || self == .mkv }
    /// Animated pictures, which loop and are made at a constant rate.
    package var isAnimation: Bool { self == .webp || self == .gif }

    /// The video encoders, by ffmpeg's names.
    package enum Codec: String, Sendable {
        case h264 = "libx264"
        case vp9 = "libvpx-vp9"
        case prores = "prores_ks"
        case webp = "libwebp_anim"
        case gif
    }

    /// The video codec ffmpeg encodes with.
    package func codec(alpha: Bool) -> Codec {
        switch self {
        case .mp4, .m4v, .mkv: return .h264
        case .mov: return alpha ? .prores : .h264
        case .webm: return .vp9
        case .webp: return .webp
        case .gif: return .gif
        }
    }

    /// The pixel format the encoder is fed (sides of 4:2:0 formats must be even).
    package func pixelFormat(alpha: Bool) -> String {
        switch self {
        case .mp4, .m4v, .mkv: return "yuv420p"
        case .mov: return alpha ? "yuva444p10le" : "yuv420p"
        case .webm, .webp: return alpha ? "yuva420p" : "yuv420p"
        case .gif: return "rgb24"
        }
    }

    package func needsEvenSides(alpha: Bool) -> Bool { pixelFormat(alpha: alpha).contains("420") }

    /// The quality setting's default and range (`--crf`): x264's and VP9's constant rate factor;
    /// for WebP, 100 minus the quality. ProRes and GIF have none.
    package var crf: (default: Int, range: ClosedRange<Int>)? {
        switch self {
        case .mp4, .m4v, .mov, .mkv: return (20, 0...51)
        case .webm: return (30, 0...63)
        case .webp: return (25, 0...100)
        case .gif: return nil
        }
    }

    /// ffmpeg's name for the container.
    var muxer: String {
        switch self {
        case .mp4, .m4v: return "mp4"
        case .mov: return "mov"
        case .mkv: return "matroska"
        case .webm: return "webm"
        case .webp: return "webp"
        case .gif: return "gif"
        }
    }

    /// Whether `audio` goes in as it is; otherwise it is encoded (``audioCodec``).
    func copies(_ audio: FFmpeg.Audio) -> Bool {
        switch self {
        case .mkv: return true
        case .webm: return audio.codec == "opus" || audio.codec == "vorbis"
        case .mp4, .m4v, .mov: return audio.copyable
        case .webp, .gif: return false
        }
    }

    var audioCodec: [String] {
        self == .webm ? ["-c:a", "libopus", "-b:a", "160k"] : ["-c:a", "aac", "-b:a", "192k"]
    }
}

/// A chapter of a video: from `startMs` to `endMs` (ms from the clip's start), named `title`.
package struct VideoChapter: Hashable, Sendable {
    package var startMs: Int
    package var endMs: Int
    package var title: String

    package init(startMs: Int, endMs: Int, title: String) {
        self.startMs = startMs
        self.endMs = endMs
        self.title = title
    }

    /// An ffmetadata file naming the chapters (ffmpeg reads it as an input and maps its chapters).
    static func metadata(_ chapters: [VideoChapter]) -> String {
        func escaped(_ text: String) -> String {
            var out = ""
            for c in text {
                switch c {
                case "=", ";", "#", "\\": out += "\\" + String(c)
                case "\n", "\r", "\u{2028}": out += " "
                default: out.append(c)
                }
            }
            return out
        }
        var text = ";FFMETADATA1\n"
        for c in chapters {
            text += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(c.startMs)\nEND=\(c.endMs)\ntitle=\(escaped(c.title))\n"
        }
        return text
    }
}
