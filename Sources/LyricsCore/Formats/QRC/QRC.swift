import Foundation

/// QQ Music's word-timed QRC, in every shape it is saved in.
///
/// ```
/// [ti:Paper Kites]
/// [12580,3470]Paper (12580,250)kites (12830,300)climb(13130,200)
/// ```
///
/// - **Body**: `[lineStartMs,lineDurationMs]` then words, each word's text *before* its stamp
///   `(startMs,durationMs)`; word times are absolute. A `(` that does not open a stamp is text
///   (`A(x)B(0,10)` is the one word `A(x)B`). Tags `[ti:]`, `[ar:]`, `[al:]`, `[by:]`,
///   `[offset:]` (applied as ``ReadOptions/offsetSign`` says), `[kana:]` (furigana, not shown).
/// - **XML wrapper**, as QQ's API and clients store it: `<QrcInfos>…<Lyric_1 LyricContent="…"/>`.
///   The value keeps its line breaks, so it is cut out by string search (an XML parser would fold
///   them into spaces), then its entities are decoded.
/// - **Encrypted hex**: the hex of QQ's triple DES (``Cipher``) over a zlib stream of the XML.
/// - **Local cache files** of QQ's clients (`*_qm.qrc`): a 128-byte XOR table over the whole file,
///   then an 11-byte header (`[offset:0]` and a line break) and the encrypted stream
///   (``decodeLocal(_:)``; ``LyricsReader`` recognises them from their bytes).
///
/// Decrypted translation files (`*_qmts.qrc`) hold plain LRC; ``LyricsReader`` sniffs what the
/// decryption gives, so they read as LRC.
///
/// How lines are read (``Parser``): a line covers its header and its words; whitespace settles
/// into the word before; a bracketed line between two unbracketed ones is the backing vocals of
/// the line before it (Lyricify's convention for QRC); lines are sorted stably by start. The
/// facts about QQ's cipher, wrapper and cache files come from the decoders of
/// Lyricify-Lyrics-Helper, LDDC and Unilyric.
public enum QRC {
    /// Bounds on what is read, so that hostile files cost bounded time and memory.
    enum Limits {
        /// Largest text or decrypted stream, in bytes.
        static let maxBytes = 8 * 1024 * 1024
        /// Largest encrypted input, in bytes (hex digits count two per byte).
        static let maxEncryptedBytes = 4 * 1024 * 1024
        /// Longest physical line, in bytes of UTF-8; a longer line is ignored.
        static let maxLineBytes = 64 * 1024
        /// Most lines kept.
        static let maxLines = 20_000
        /// Most words per line; later words fold into the last one.
        static let maxWords = 2_000
    }

    /// Parses QRC text: a plain body, the XML wrapper, or encrypted hex.
    ///
    /// - Throws: ``LyricsError/empty``; ``LyricsError/tooLarge(_:)`` past 8 MiB (of text or of
    ///   inflated stream); ``LyricsError/invalid(_:)`` (`"not valid QRC: …"`) for hex that does not
    ///   decrypt or an XML wrapper without lyrics; ``LyricsError/noTimedLines`` when no line reads.
    public static func parse(_ text: String, encoding: String = "utf-8",
                             options: ReadOptions = .init()) throws(LyricsError) -> Lyrics {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= Limits.maxBytes else {
            throw .tooLarge("QRC larger than the limit of \(Limits.maxBytes) bytes")
        }
        var body = text
        if Container.isEncryptedHex(text) { body = try Container.decryptHex(text) }
        if Container.isWrapped(body) { body = try Container.lyricContent(body) }
        return try Parser.parse(body, encoding: encoding, options: options)
    }

    /// The text inside a QQ Music local cache file (`*.qrc` of QQ's clients), or `nil` when `data`
    /// is not one (its first bytes do not decode to `[offset:`).
    ///
    /// - Throws: ``LyricsError`` when the file is one but is damaged, truncated or too large.
    public static func decodeLocal(_ data: Data) throws(LyricsError) -> String? {
        try Container.decodeLocal([UInt8](data.prefix(Limits.maxEncryptedBytes + 1)))
    }

    /// The text inside QQ's encrypted stream (the bytes the hex form spells): decrypted, inflated
    /// (at most 8 MiB), UTF-8.
    ///
    /// - Throws: ``LyricsError`` for a stream that is not whole blocks, does not decrypt to zlib,
    ///   inflates past the limit, or is not UTF-8.
    public static func decrypt(_ encrypted: Data) throws(LyricsError) -> String {
        guard encrypted.count <= Limits.maxEncryptedBytes else {
            throw .tooLarge("QRC stream larger than the limit of \(Limits.maxEncryptedBytes) bytes")
        }
        guard !encrypted.isEmpty, encrypted.count % 8 == 0 else {
            throw .invalid("not valid QRC: the encrypted stream is \(encrypted.count) bytes, not whole 8-byte blocks")
        }
        return try Container.decryptAndInflate([UInt8](encrypted))
    }

    /// Whether `line` is a QRC lyric line: a `[digits,digits]` header and at least one word stamp
    /// `(digits,digits)` (used by ``LyricsFormat/sniff(_:)``).
    static func isLyricLine(_ line: Substring) -> Bool {
        guard line.utf8.count <= Limits.maxLineBytes else { return false }
        let scalars = Array(line.unicodeScalars)
        guard let header = YRC.LineSyntax.header(scalars, at: YRC.LineSyntax.skipBlanks(scalars, from: 0)) else { return false }
        var index = header.end
        while index < scalars.count {
            if scalars[index] == "(", YRC.LineSyntax.numbers(scalars, from: index + 1, count: 2, close: ")") != nil { return true }
            index += 1
        }
        return false
    }

    /// Whether `text` is QQ's encrypted hex (used by ``LyricsReader``).
    static func isEncryptedHex(_ text: String) -> Bool { Container.isEncryptedHex(text) }

    /// The text inside encrypted hex (used by ``LyricsReader`` to sniff what it holds).
    static func decryptHex(_ text: String) throws(LyricsError) -> String { try Container.decryptHex(text) }
}
