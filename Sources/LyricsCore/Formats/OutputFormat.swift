/// The lyric formats LyricPoster writes (``LyricsWriter``), each read back by its own reader.
public enum OutputFormat: String, Hashable, Sendable, CaseIterable {
    /// Line-timed LRC: `[mm:ss.xx]` stamps and ID tags; translations and romanisations at their
    /// line's stamp.
    case lrc
    /// Enhanced (A2) LRC: LRC whose lines carry `<mm:ss.xx>` word stamps and an end stamp. It has
    /// no file extension of its own (it is `.lrc` too); ask for it by name, `elrc`.
    case enhancedLRC = "elrc"
    /// TTML as Apple Music and AMLL write it: syllables, backing vocals, translations by language,
    /// romanisations, singers.
    case ttml
    /// SubRip subtitles: one cue per sung line, its translation on the cue's second line.
    case srt
    /// WebVTT subtitles: SubRip's cues plus voices and karaoke timestamps.
    case vtt
    /// ASS (v4+) karaoke subtitles: one `Dialogue` per line with `\kf` syllables.
    case ass
    /// LRCLIB's Lyricsfile (YAML): lines and words with their times, the plain text, the song.
    case lyricsfile

    /// The name people know the format by, for messages (`"SRT"`, `"enhanced LRC"`).
    public var name: String {
        switch self {
        case .lrc: "LRC"
        case .enhancedLRC: "enhanced LRC"
        case .ttml: "TTML"
        case .srt: "SRT"
        case .vtt: "WebVTT"
        case .ass: "ASS"
        case .lyricsfile: "Lyricsfile"
        }
    }

    /// The extension a file in this format usually has, without the dot.
    public var fileExtension: String {
        switch self {
        case .lrc, .enhancedLRC: "lrc"
        case .ttml: "ttml"
        case .srt: "srt"
        case .vtt: "vtt"
        case .ass: "ass"
        case .lyricsfile: "lyricsfile.yaml"
        }
    }

    /// The format the written text is read back in.
    public var readFormat: LyricsFormat {
        switch self {
        case .lrc, .enhancedLRC: .lrc
        case .ttml: .ttml
        case .srt: .srt
        case .vtt: .vtt
        case .ass: .ass
        case .lyricsfile: .lyricsfile
        }
    }

    /// File extensions that name a format, lower case, without the dot, and what each names.
    public static let extensions: [(name: String, format: OutputFormat)] = [
        ("lrc", .lrc), ("ttml", .ttml), ("xml", .ttml), ("srt", .srt), ("vtt", .vtt), ("ass", .ass),
        ("lyricsfile", .lyricsfile), ("yaml", .lyricsfile), ("yml", .lyricsfile),
    ]

    /// The format a file name asks for by its extension (case-insensitive), or `nil` when the
    /// extension names none (or there is none). `.lrc` is line-timed LRC: enhanced LRC is only
    /// chosen by name.
    public static func forPath(_ path: String) -> OutputFormat? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        return extensions.first { $0.name == ext }?.format
    }
}
