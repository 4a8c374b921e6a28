import Foundation

/// The LRC lyric format: entry points that turn bytes or text into ``Lyrics``.
///
/// The grammar accepted is the union of what real files contain (see `docs/LRC.md` §11):
///
/// - time tags `[mm:ss.xx]` in every common spelling (1–6 fraction digits, `[mm:ss]`, `[mm:ss:xx]`,
///   `[h:mm:ss.xx]`, comma decimals, spaces inside the brackets, long minutes, seconds ≥ 60), several
///   per line (the text repeats at each), in any order (lines are sorted stably);
/// - ID tags `[key:value]` anywhere, also in front of a time tag on the same line; `[:]` and lines
///   starting with `#` are comments; untimed lines are ignored;
/// - word timing: `<mm:ss.xx>` (A2 / enhanced LRC) and `[mm:ss.xx]` after the text has begun
///   (ESLyric), stripped from the display text into ``LyricLine/words``;
/// - translations and romanisations: same-stamp lines sorted out by script (see ``Parser``), an
///   untimed line right after a timed one, and LyricsX LRCX `[tr:lang]`/`[roma]` attachments
///   (`[tt]` and `[fu]` are dropped);
/// - duplicates: a (time tag, text) pair seen before is dropped; a time tag with no text is a gap
///   line, dropped when a line with text has the same tag;
/// - `[offset:ms]` (the last one, wherever it is), applied to every time as chosen by
///   ``Options/offsetSign`` (a result below zero is kept: the line is current from the start).
///
/// The parser never fails on odd input: what it cannot read is left as text or ignored. It only
/// throws when nothing timed is left (``LyricsError/noTimedLines``).
public enum LRC {
    /// Decodes lyric file bytes and parses them.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - forced: an encoding name (see ``TextDecoding/knownEncodings``; case-insensitive, with
    ///     aliases such as `gbk`, `cp932`, `cp949`). `nil` detects: BOM, then strict UTF-8, then GB18030.
    ///   - options: how to apply `[offset:]`.
    /// - Throws: ``LyricsError/empty``, ``LyricsError/unknownEncoding(_:)``,
    ///   ``LyricsError/undecodable(_:)`` or ``LyricsError/noTimedLines``.
    public static func load(_ data: Data, encoding forced: String? = nil, options: Options = .init()) throws(LyricsError) -> Lyrics {
        let decoded = try TextDecoding.decode(data, forcing: forced)
        return try parse(decoded.text, encoding: decoded.encoding, options: options)
    }

    /// Parses LRC text that is already decoded.
    ///
    /// - Parameters:
    ///   - text: the whole file. Line ends may be LF, CRLF, CR alone, mixed, or NUL.
    ///   - encoding: the label to report in ``Lyrics/encoding``; not used for parsing.
    ///   - options: how to apply `[offset:]`.
    /// - Throws: ``LyricsError/empty`` when `text` is empty, ``LyricsError/noTimedLines`` when no line
    ///   has a valid time tag.
    public static func parse(_ text: String, encoding: String = "utf-8", options: Options = .init()) throws(LyricsError) -> Lyrics {
        guard !text.isEmpty else { throw .empty }
        return try Parser(options: options).parse(text, encoding: encoding)
    }
}

extension LRC {
    /// Parses ESLyric's word LRC (foobar2000): `[00:10.82]Test[00:10.97] Word[00:12.62]`.
    ///
    /// Each stamp after a word is that word's end and the next word's start, so every stamp is a
    /// boundary between two words, as in LRC's word stamps: one earlier than the stamp before it (a
    /// zero stamp written for a timed space that had no time of its own) starts a word that follows
    /// on from the time already reached (``Word/place(_:lineStart:lineEnd:)``). Two stamps with
    /// nothing between them (the older `[start]word[end][start]word[end]` form) leave a gap; equal
    /// stamps around a text give it no length. Everything else (tags, translations as same-stamp
    /// lines, offset) is read as LRC.
    public static func parseESLyric(_ text: String, encoding: String = "utf-8", options: Options = .init()) throws(LyricsError) -> Lyrics {
        guard !text.isEmpty else { throw .empty }
        var parser = Parser(options: options)
        parser.eslyric = true
        var lyrics = try parser.parse(text, encoding: encoding)
        lyrics.format = .eslrc
        return lyrics
    }
}

extension LRC {
    /// Whether `line` is written as ESLyric's word LRC: after the line's stamp and some text, at
    /// least two more `[mm:ss.xx]` stamps, and no `<mm:ss.xx>` (A2) stamp. Used by the sniffer.
    static func isESLyricLine(_ line: Substring) -> Bool {
        guard line.utf8.count <= 65_536 else { return false }
        var previous: Character?
        for character in line {
            if previous == "<", character.isASCIIDigit { return false }
            previous = character
        }
        guard case .text(let body) = LineScanner.scan(line).content else { return false }
        return body.words.count >= 2 && !body.leading.trimmingWhitespace().isEmpty
    }
}
