/// SubRip (`.srt`) and WebVTT (`.vtt`) subtitles read as lyrics: each cue is one line.
///
/// ```
/// 1                                  WEBVTT
/// 00:00:05,200 --> 00:00:08,900
/// Paper kites climb                  00:05.200 --> 00:08.900 align:start
/// 纸风筝飞起                          <v Mira>Paper <00:06.000>kites <00:07.100>climb
/// ```
///
/// What the parser reads (see ``Parser`` for the choices it makes):
///
/// - **Cues**: an optional identifier line (an SRT index, a WebVTT cue id), a timing line
///   `start --> end` and text lines up to a blank line. Times are `[h]h:mm:ss.mmm` or `mm:ss.mmm`,
///   with `.` or `,` before the fraction, in either dialect (``CueTiming``); anything after the end
///   time (WebVTT cue settings, old SubRip `X1:` coordinates) is ignored.
/// - **Text**: the first text line is the line's text, the others its translation (joined with
///   `"\n"`). Markup is removed (``Markup``): `<i> <b> <u> <s> <font> <c> <v> <lang> <ruby>` tags,
///   `<rt>` text, `{\an8}`-style override blocks; `&amp; &lt; &gt; &nbsp; &lrm; &rlm; &quot; &apos;`
///   are decoded. A `<v Name>` voice becomes the line's ``LyricLine/agent`` and an entry in
///   ``Lyrics/agents``. Inline timestamps (`<00:17.500>`) split the first text line into words.
/// - **WebVTT blocks**: the `WEBVTT` header block and `NOTE`, `STYLE` and `REGION` blocks are skipped.
///
/// Bounds (``Limits``) keep hostile files cheap: the whole text is refused past 8 MiB, an
/// over-long line is ignored, extra cues and extra inline timestamps are dropped or folded.
/// Scanning is linear in the input.
public enum Subtitles {
    /// Which subtitle syntax a file is in. The two share one grammar here; the dialect decides the
    /// reported ``LyricsFormat`` and whether WebVTT blocks (`WEBVTT`, `NOTE`, `STYLE`, `REGION`) are
    /// recognised.
    public enum Dialect: Hashable, Sendable {
        /// SubRip: numbered cues, `hh:mm:ss,mmm` times.
        case srt
        /// WebVTT: a `WEBVTT` header, `hh:mm:ss.mmm` times, voices, inline timestamps.
        case webVTT
    }

    /// Bounds on what the parser accepts, so that hostile files cost bounded time and memory.
    enum Limits {
        /// Largest text, in bytes of UTF-8; more is refused with ``LyricsError/tooLarge(_:)``.
        static let maxBytes = 8 * 1024 * 1024
        /// Longest physical line, in bytes of UTF-8; a longer line is ignored as if it were absent.
        static let maxLineBytes = 64 * 1024
        /// Most cues kept (the first ones in file order, after empty ones are dropped).
        static let maxCues = 20_000
        /// Most words per line; later inline timestamps are ignored (their text joins the last word).
        static let maxWords = 2_000
        /// Most agents (distinct voices) listed; later voices leave their lines without an agent.
        static let maxAgents = 64
    }

    /// Whether `line` is a cue timing line: `[h]h:mm:ss[,.]mmm --> …` or `mm:ss[,.]mmm --> …`
    /// (see ``CueTiming``). Used by ``LyricsFormat/sniff(_:)``.
    static func isCueTiming(_ line: Substring) -> Bool {
        guard line.utf8.count <= Limits.maxLineBytes, ByteSearch.contains(line, "-->") else { return false }
        return CueTiming.parse(Array(line.unicodeScalars)) != nil
    }

    /// Parses subtitle text that is already decoded.
    ///
    /// Lines come back sorted stably by start (overlapping cues are kept). A line lasts exactly as
    /// long as its cue: the time up to the next cue stays a gap. A cue whose end is before its start
    /// lasts zero milliseconds.
    ///
    /// - Parameters:
    ///   - text: the whole file. Line ends may be LF, CRLF or CR; a BOM is ignored.
    ///   - dialect: SubRip or WebVTT; decides ``Lyrics/format`` (`.srt` or `.vtt`).
    ///   - encoding: the label to report in ``Lyrics/encoding``; not used for parsing.
    /// - Throws: ``LyricsError/empty`` for empty text, ``LyricsError/tooLarge(_:)`` past 8 MiB,
    ///   ``LyricsError/invalid(_:)`` (`"not valid SRT: line N: …"`) when no cue could be read and a
    ///   timing line was malformed, otherwise ``LyricsError/noTimedLines`` when no cue has text.
    public static func parse(_ text: String, dialect: Dialect, encoding: String = "utf-8") throws(LyricsError) -> Lyrics {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= Limits.maxBytes else {
            throw .tooLarge("\(dialect.name) larger than the limit of \(Limits.maxBytes) bytes")
        }
        return try Parser(dialect: dialect).parse(text, encoding: encoding)
    }
}

extension Subtitles.Dialect {
    /// The name used in error messages.
    var name: String { self == .srt ? "SRT" : "WebVTT" }
}
