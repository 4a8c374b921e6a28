/// Writes ``Lyrics`` in any ``OutputFormat``: the format-neutral entry point of `lyricposter convert`.
///
/// Every writer sits beside its format's reader and round-trips through it: the text written
/// reads back (``LyricsReader/parse(_:format:encoding:options:)`` with ``OutputFormat/readFormat``)
/// as the same lyrics, up to what the format cannot carry — ``losses(of:in:)`` lists what that
/// is for a given song. Writers are deterministic (the same lyrics give the same bytes), write
/// UTF-8 text with `\n` line ends and a final newline, write display times (any offset already
/// applied, negative times as zero) and escape what their syntax needs (see each writer).
///
/// | | LRC | enhanced LRC | TTML | SRT | WebVTT | ASS | Lyricsfile |
/// |---|---|---|---|---|---|---|---|
/// | line start | cs | cs | ms | ms | ms | cs | ms |
/// | line end | before 4 s of silence¹ | end stamp¹ | ✓ | ✓ | ✓ | ✓ | ✓ |
/// | word timing | — | ✓ cs | ✓ | — | starts² | ✓ cs | ✓ |
/// | translation | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | — |
/// | translations by language | chosen one | chosen one | ✓ | chosen one | chosen one | chosen one | — |
/// | romanisation | ✓ | ✓ | ✓ | — | — | ✓ | — |
/// | backing vocals | — | — | ✓ | — | — | ✓ | — |
/// | singers (agents) | — | — | ✓ | — | ids | ids | — |
/// | gap lines | ✓ | ✓ | — | — | — | — | — |
/// | credit lines | as lines³ | as lines³ | — | as cues³ | as cues³ | as lines³ | as lines³ |
/// | title, artist, album, language, length | ✓ | ✓ | ✓ | — | — | title | ✓ |
/// | instrumental | `[au: instrumental]` | — | — | — | — | — | ✓ |
///
/// ¹ a bare stamp after a line followed by 4 s or more of silence, and after the last line; others
/// last until the next stamp (enhanced LRC: word-timed lines end at their own end stamp).
/// ² a word ends where the next begins.
/// ³ read back as credits when they read as credits at the start or the end of the song.
public enum LyricsWriter {
    /// The text of `lyrics` in `format`.
    ///
    /// - Throws: ``LyricsError/invalid(_:)`` when nothing the format carries is left to write (only
    ///   gap lines, or only credits for TTML): such a file would not read back.
    public static func write(_ lyrics: Lyrics, as format: OutputFormat) throws(LyricsError) -> String {
        let writable = lyrics.lines.contains { line in
            switch format {
            case .lrc, .enhancedLRC: true
            case .ttml: line.role == .lyric && !line.text.isEmpty
            case .srt, .vtt, .ass, .lyricsfile: !line.text.isEmpty
            }
        } || (lyrics.isInstrumental && (format == .lyricsfile || format == .lrc))
        guard writable else {
            throw .invalid("nothing to write as \(format.name): \(format == .ttml ? "no sung line" : "no line with text")")
        }
        switch format {
        case .lrc: return LRC.Writer(enhanced: false).write(lyrics)
        case .enhancedLRC: return LRC.Writer(enhanced: true).write(lyrics)
        case .ttml: return TTML.Writer.write(lyrics)
        case .srt: return Subtitles.Writer(dialect: .srt).write(lyrics)
        case .vtt: return Subtitles.Writer(dialect: .webVTT).write(lyrics)
        case .ass: return ASS.Writer.write(lyrics)
        case .lyricsfile: return Lyricsfile.Writer.write(lyrics)
        }
    }
}
