import Foundation

/// Kugou's word-timed KRC.
///
/// A `.krc` file is `krc1`, then a zlib stream XORed with a 16-byte key (``decode(_:)``). Inside
/// is text (with a BOM):
///
/// ```
/// [ti:Paper Kites]
/// [language:eyJjb250ZW50IjpbXSwidmVyc2lvbiI6MX0=]
/// [12580,3470]<0,250,0>Paper <250,300,0>kites <550,200,0>climb
/// ```
///
/// - **Lines**: `[lineStartMs,lineDurationMs]` then syllables `<offsetMs,durationMs,0>text`, the
///   stamp *before* its text and the offset relative to the line's start (the third number is
///   ignored). A `<` that does not open a stamp is text.
/// - **`[language:]`**: base64 of JSON, `{"content":[{"type":1,"lyricContent":[[…],…]},…]}`: type 1
///   holds one translation per lyric line, type 0 one romanisation string per syllable (joined for
///   the line); entries are matched to lyric lines by their order. `//` or blank means none.
/// - Tags `[ti:]`, `[ar:]`, `[al:]`, `[by:]`, `[offset:]` (applied as ``ReadOptions/offsetSign``
///   says), `[total:]` (the song's length).
///
/// A line ends at its last syllable when it has syllables (Kugou's last line often lasts the whole
/// `[total:]`), otherwise at its header's end. The XOR key and layout are documented by
/// Lyricify-Lyrics-Helper, LDDC and Unilyric.
public enum KRC {
    enum Limits {
        /// Largest encrypted file and largest inflated text, in bytes.
        static let maxBytes = 8 * 1024 * 1024
        /// Longest physical line (the `[language:]` tag included), in bytes of UTF-8.
        static let maxLineBytes = 2 * 1024 * 1024
        static let maxLines = 20_000
        static let maxWords = 2_000
    }

    /// The 16-byte key Kugou's clients XOR the stream with.
    static let key: [UInt8] = [0x40, 0x47, 0x61, 0x77, 0x5E, 0x32, 0x74, 0x47, 0x51, 0x36, 0x31, 0x2D, 0xCE, 0xD2, 0x6E, 0x69]

    /// Whether `data` starts with KRC's `krc1` magic.
    public static func isEncrypted(_ data: Data) -> Bool {
        data.starts(with: [0x6B, 0x72, 0x63, 0x31])
    }

    /// The text inside a `.krc` file: the key XORed off, inflated (at most 8 MiB), BOM dropped.
    ///
    /// - Throws: ``LyricsError/invalid(_:)`` for a file that is not KRC or does not inflate,
    ///   ``LyricsError/tooLarge(_:)`` past the limit (a small file can inflate to gigabytes).
    public static func decode(_ data: Data) throws(LyricsError) -> String {
        guard isEncrypted(data) else { throw .invalid("not valid KRC: the file does not start with krc1") }
        guard data.count <= Limits.maxBytes else { throw .tooLarge("KRC larger than the limit of \(Limits.maxBytes) bytes") }
        let stream = data.dropFirst(4).enumerated().map { $0.element ^ key[$0.offset & 15] }
        guard !stream.isEmpty else { throw .invalid("not valid KRC: nothing after the krc1 header") }
        return try Inflate.text(stream, limit: Limits.maxBytes, format: "KRC", failure: "the lyrics do not inflate", noun: "inflated")
    }

    /// Parses decoded KRC text.
    ///
    /// - Throws: ``LyricsError/empty``, ``LyricsError/tooLarge(_:)`` past 8 MiB,
    ///   ``LyricsError/noTimedLines`` when no line reads.
    public static func parse(_ text: String, encoding: String = "utf-8",
                             options: ReadOptions = .init()) throws(LyricsError) -> Lyrics {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= Limits.maxBytes else {
            throw .tooLarge("KRC larger than the limit of \(Limits.maxBytes) bytes")
        }
        return try Parser.parse(text, encoding: encoding, options: options)
    }

    /// Whether `line` starts like a KRC lyric line: `[digits,digits]<digits,digits,digits>`.
    static func isLyricLine(_ line: Substring) -> Bool {
        let scalars = Array(line.unicodeScalars.prefix(200))
        guard let header = YRC.LineSyntax.header(scalars, at: YRC.LineSyntax.skipBlanks(scalars, from: 0)) else { return false }
        return syllableStamp(scalars, at: header.end) != nil
    }

    /// `<offset,duration,n>` at `index`: offset, duration and the index just past `>`.
    static func syllableStamp(_ scalars: [Unicode.Scalar], at index: Int) -> (offset: Int, duration: Int, end: Int)? {
        guard index < scalars.count, scalars[index] == "<",
              let numbers = YRC.LineSyntax.numbers(scalars, from: index + 1, count: 3, close: ">") else { return nil }
        return (numbers.values[0], numbers.values[1], numbers.end)
    }
}
