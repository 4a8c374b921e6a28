/// Lyricify's three formats: Syllable (`.lys`), Lines (`.lyl`) and Quick Export (`.lqe`).
///
/// ```
/// [ti:Paper Kites]                     [type:LyricifyLines]          [Lyricify Quick Export]
/// [4]Paper (1000,300)kites(1300,400)   [1000,1700]Paper kites        [version:1.0]
/// [8](climb(1500,200))                 [1500,1700](climb)            [lyrics: format@Lyricify Syllable]
///                                                                    [4]Paper (1000,300)kites(1300,400)
///                                                                    [translation: format@LRC, language@zh-Hans]
///                                                                    [00:01.000]纸风筝
/// ```
///
/// - **Syllable** (``Syllable``): `[prop]` then words `text(startMs,durationMs)`, absolute times,
///   the text before its stamp. The prop (0–8) says whether the row is backing vocals and which
///   side of a duet sings it.
/// - **Lines** (``Lines``): `[startMs,endMs]text`, the second number an end, not a duration.
/// - **Quick Export** (``QuickExport``): a container with a Syllable body and LRC translation and
///   pronunciation sections, joined to the lyric lines by start time.
///
/// All three take LRC-style tags (`[ti:]`, `[ar:]`, `[al:]`, `[by:]`, `[offset:]`) into
/// ``Lyrics/tags`` and ``Lyrics/metadata``; `[offset:]` moves every time as
/// ``ReadOptions/offsetSign`` says (Lyricify itself subtracts, the default).
///
/// Bounds (``Limits``) keep hostile files cheap: the whole text is refused past 8 MiB, an
/// over-long line is ignored, extra lines and extra words are dropped or folded. Scanning is
/// linear in the input.
public enum Lyricify {
    /// Bounds on what the parsers accept, so that hostile files cost bounded time and memory.
    enum Limits {
        /// Largest text, in bytes of UTF-8; more is refused with ``LyricsError/tooLarge(_:)``.
        static let maxBytes = 8 * 1024 * 1024
        /// Longest physical line, in bytes of UTF-8; a longer line is ignored.
        static let maxLineBytes = 64 * 1024
        /// Most rows kept (main and backing rows together, the first ones in file order).
        static let maxLines = 20_000
        /// Most words per line; later words fold into the last kept word.
        static let maxWords = 2_000
        /// Most digits in one number: larger values are not times (and cannot overflow an `Int`).
        static let maxDigits = 12
        /// Most backing runs attached to one line; a further backing row becomes a line of its own.
        static let maxBackings = 16
        /// Most translation and pronunciation sections of a Quick Export file that are joined.
        static let maxSections = 16
    }

    /// Parses Lyricify Syllable text.
    ///
    /// Lines come back sorted stably by start; each spans its first word's start to its last
    /// word's end. Backing rows are attached to the line before them (``LyricLine/backgrounds``);
    /// duet sides become the agents `v1` (left) and `v2` (right). See ``Syllable`` for the choices
    /// made where files and peer readers disagree.
    ///
    /// - Parameters:
    ///   - text: the whole file. Line ends may be LF, CRLF or CR; a BOM is ignored.
    ///   - encoding: the label to report in ``Lyrics/encoding``; not used for parsing.
    ///   - options: how to apply `[offset:]`.
    /// - Throws: ``LyricsError/empty``, ``LyricsError/tooLarge(_:)`` past 8 MiB,
    ///   ``LyricsError/invalid(_:)`` (`"not valid Lyricify Syllable: line N: …"`) when nothing could
    ///   be read and a row had text but no word stamp, otherwise ``LyricsError/noTimedLines``.
    public static func parseSyllable(_ text: String, encoding: String = "utf-8",
                                     options: ReadOptions = .init()) throws(LyricsError) -> Lyrics {
        try checkSize(text, name: "Lyricify Syllable")
        return try Syllable.parse(text, encoding: encoding, options: options)
    }

    /// Parses Lyricify Lines text.
    ///
    /// Each row `[start,end]text` is a line without word timing, lasting from start to end (an end
    /// before the start is taken as the start). A row wholly in brackets is the backing vocals of
    /// the row before it. See ``Lines``.
    ///
    /// - Throws: ``LyricsError/empty``, ``LyricsError/tooLarge(_:)`` past 8 MiB,
    ///   ``LyricsError/invalid(_:)`` (`"not valid Lyricify Lines: line N: …"`) when nothing could be
    ///   read and a row header was malformed, otherwise ``LyricsError/noTimedLines``.
    public static func parseLines(_ text: String, encoding: String = "utf-8",
                                  options: ReadOptions = .init()) throws(LyricsError) -> Lyrics {
        try checkSize(text, name: "Lyricify Lines")
        return try Lines.parse(text, encoding: encoding, options: options)
    }

    /// Parses Lyricify Quick Export text.
    ///
    /// The lyrics section gives the lines; translation rows become ``LyricLine/translation`` and
    /// ``LyricLine/translations`` (with the section's language), pronunciation rows
    /// ``LyricLine/romanisation``, each joined to the line (or backing run) starting at the same
    /// time, within ±10 ms. See ``QuickExport``.
    ///
    /// - Throws: ``LyricsError/empty``, ``LyricsError/tooLarge(_:)`` past 8 MiB,
    ///   ``LyricsError/invalid(_:)`` (`"not valid Lyricify Quick Export: …"`) without the
    ///   `[Lyricify Quick Export]` mark or a lyrics section, or with a lyrics section in a format
    ///   that is not read; ``LyricsError/noTimedLines`` when the lyrics section holds no line.
    public static func parseQuickExport(_ text: String, encoding: String = "utf-8",
                                        options: ReadOptions = .init()) throws(LyricsError) -> Lyrics {
        try checkSize(text, name: "Lyricify Quick Export")
        return try QuickExport.parse(text, encoding: encoding, options: options)
    }

    /// Which Lyricify format `lines` (the first lines of a text) are in, or `nil`.
    ///
    /// - `.lqe`: the first non-blank line is `[Lyricify Quick Export]`.
    /// - `.lyl`: a `[type:LyricifyLines]` line; or, without it, rows `[digits,digits]text` none of
    ///   which holds a `(digits,digits)` word stamp (Lyricify's own heuristic, stricter). Callers
    ///   must have ruled out YRC and QRC first: their line headers look the same.
    /// - `.lys`: a row `[digits]` whose body holds a `(digits,digits)` word stamp.
    ///
    /// Used by ``LyricsFormat/sniff(_:)``.
    static func sniff(_ lines: [Substring]) -> LyricsFormat? {
        var sawLinesRow = false
        var sawStampedPair = false
        var sawSyllableRow = false
        var firstContent = true
        for line in lines.prefix(400) where line.utf8.count <= Limits.maxLineBytes {
            let scalars = Array(line.unicodeScalars.drop { $0 == "\u{FEFF}" || $0.properties.isWhitespace })
            guard !scalars.isEmpty else { continue }
            defer { firstContent = false }
            if firstContent, String(String.UnicodeScalarView(scalars)).trimmingWhitespace() == QuickExport.mark { return .lqe }
            if let tag = MetadataTag.parse(scalars), tag.key == "type", tag.value.lowercased() == "lyricifylines" { return .lyl }
            if let row = SyllableSyntax.prop(scalars), row.value != nil {
                if SyllableSyntax.scanWords(scalars, from: row.end).stamps > 0 { sawSyllableRow = true }
            } else if let row = Lines.header(scalars) {
                sawLinesRow = true
                if SyllableSyntax.scanWords(scalars, from: row.index).stamps > 0 { sawStampedPair = true }
            }
        }
        if sawSyllableRow { return .lys }
        if sawLinesRow, !sawStampedPair { return .lyl }
        return nil
    }

    private static func checkSize(_ text: String, name: String) throws(LyricsError) {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= Limits.maxBytes else {
            throw .tooLarge("\(name) larger than the limit of \(Limits.maxBytes) bytes")
        }
    }
}
