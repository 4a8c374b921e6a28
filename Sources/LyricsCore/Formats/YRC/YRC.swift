/// NetEase Cloud Music's word-timed YRC lyrics.
///
/// ```
/// [ti:Paper Kites]
/// {"t":0,"c":[{"tx":"作词: "},{"tx":"Somebody"}]}
/// [12580,3470](12580,250,0)Paper (12830,300,0)kites (13130,200,0)climb
/// ```
///
/// What the parser reads (see ``Parser`` for where files and peer parsers disagree):
///
/// - **Lines**: `[startMs,durationMs]` then word groups `(startMs,durationMs,flag)text`, all
///   times absolute milliseconds; a word's text runs up to the next group. The flag is ignored.
///   Spaces and tabs are allowed around the numbers. A header with no groups gives a line with no
///   word timing; a header with no text gives nothing.
/// - **Credits**: lines starting with `{` are JSON (`{"t": ms, "c": [{"tx": "…"}, …]}`): one line at
///   `t`, the `tx` fragments joined, role ``LyricLine/Role/credit``. JSON that does not read is skipped.
/// - **Tags**: `[key:value]` (`ti`, `ar`, `al`, `by`, …) into ``Lyrics/tags``, keys lower-cased, last
///   one wins; `ti`/`ar`/`al`/`la`/`length` also into ``Lyrics/metadata``.
/// - Anything else (plain text, LRC lines, broken headers) is skipped; a broken header is reported
///   only when nothing in the file could be read.
///
/// Bounds (``Limits``) keep hostile files cheap: the whole text is refused past 8 MiB, an
/// over-long line is ignored, extra lines and extra word groups are dropped or folded. Scanning is
/// linear in the input.
public enum YRC {
    /// Bounds on what the parser accepts, so that hostile files cost bounded time and memory.
    enum Limits {
        /// Largest text, in bytes of UTF-8; more is refused with ``LyricsError/tooLarge(_:)``.
        static let maxBytes = 8 * 1024 * 1024
        /// Longest physical line, in bytes of UTF-8; a longer line is ignored.
        static let maxLineBytes = 64 * 1024
        /// Most lines kept (the first ones in file order).
        static let maxLines = 20_000
        /// Most words per line; later word groups fold into the last word.
        static let maxWords = 2_000
        /// Most digits in one number: larger values are not times (and cannot overflow an `Int`).
        static let maxDigits = 12
    }

    /// Whether `line` reads as YRC: a `[digits,digits]` header (spaces allowed inside) followed
    /// somewhere by a `(digits,digits,digits)` word group, or a JSON credit line opening with
    /// `{"t":`. Leading whitespace is skipped. Used by ``LyricsFormat/sniff(_:)``.
    static func isLineHeader(_ line: Substring) -> Bool {
        guard line.utf8.count <= Limits.maxLineBytes else { return false }
        let scalars = Array(line.unicodeScalars)
        var index = LineSyntax.skipBlanks(scalars, from: 0)
        guard index < scalars.count else { return false }
        if scalars[index] == "{" {
            index = LineSyntax.skipBlanks(scalars, from: index + 1)
            let key: [Unicode.Scalar] = ["\"", "t", "\""]
            guard scalars.count - index >= key.count, Array(scalars[index..<(index + key.count)]) == key else { return false }
            index = LineSyntax.skipBlanks(scalars, from: index + key.count)
            return index < scalars.count && scalars[index] == ":"
        }
        guard let header = LineSyntax.header(scalars, at: index) else { return false }
        var position = header.end
        while position < scalars.count {
            if scalars[position] == "(", LineSyntax.wordGroup(scalars, at: position) != nil { return true }
            position += 1
        }
        return false
    }

    /// Parses YRC text that is already decoded.
    ///
    /// Lines come back sorted stably by start. A line lasts from its header's start to start +
    /// duration, widened to cover its words when the header disagrees with them; the time up to
    /// the next line stays a gap. Credit lines last until the next line that starts later.
    ///
    /// - Parameters:
    ///   - text: the whole file. Line ends may be LF, CRLF or CR; a BOM is ignored.
    ///   - encoding: the label to report in ``Lyrics/encoding``; not used for parsing.
    /// - Throws: ``LyricsError/empty`` for empty text, ``LyricsError/tooLarge(_:)`` past 8 MiB,
    ///   ``LyricsError/invalid(_:)`` (`"not valid YRC: line N: …"`) when nothing could be read and a
    ///   line had a broken header, otherwise ``LyricsError/noTimedLines`` when nothing could be read.
    public static func parse(_ text: String, encoding: String = "utf-8") throws(LyricsError) -> Lyrics {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= Limits.maxBytes else {
            throw .tooLarge("YRC larger than the limit of \(Limits.maxBytes) bytes")
        }
        return try Parser.parse(text, encoding: encoding)
    }
}
