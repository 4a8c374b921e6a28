import Foundation

/// Turns lyric file bytes into text.
///
/// Detection order when no encoding is forced (LRC.md §1, §11):
/// 1. a byte order mark: `EF BB BF` UTF-8, `FF FE` UTF-16 LE, `FE FF` UTF-16 BE (removed);
/// 2. UTF-16 without a BOM, when at least 40 % of the high bytes of its first 256 code units are
///    zero and few low bytes are (mostly ASCII-range text, which would otherwise pass as UTF-8 full
///    of NULs), and the bytes are valid UTF-16;
/// 3. strict UTF-8;
/// 4. GB18030 (covers GBK and GB2312, the usual legacy Chinese files) or Windows-1252 (a superset
///    of ISO 8859-1's letters: Western European files), whichever reads as its kind of text: GB18030
///    text has its non-ASCII bytes in runs of pairs reading as CJK, Western text has lone accented
///    letters among ASCII. When both read, the longer runs decide, and ``Decoded/alternative``
///    names the other so that a note can point at `--encoding`.
///
/// Big5, Shift_JIS (CP932), EUC-KR (CP949) and the rest can only be forced: they cannot be told
/// apart from GB18030 reliably. See ``knownEncodings``.
public enum TextDecoding {
    /// Decodes `data` as text.
    ///
    /// - Parameters:
    ///   - data: the raw file.
    ///   - name: an encoding name or alias to use instead of detection (case-insensitive; `-`, `_`
    ///     and spaces ignored, so `Shift_JIS`, `sjis` and `cp932` are the same). A leading BOM of the
    ///     forced encoding is removed.
    /// - Returns: the text and the canonical name of the encoding used (one of ``knownEncodings``).
    /// - Throws: ``LyricsError/empty`` for no bytes, ``LyricsError/unknownEncoding(_:)`` for a name
    ///   not in the table, ``LyricsError/undecodable(_:)`` when the bytes are not valid text in the
    ///   forced encoding (or in UTF-8 nor GB18030, when detecting). Big5 and CP949 decoding in
    ///   Foundation is lenient: it maps invalid bytes to private-use characters instead of failing.
    public static func decode(_ data: Data, forcing name: String? = nil) throws(LyricsError) -> (text: String, encoding: String) {
        let decoded = try decodeNoting(data, forcing: name)
        return (decoded.text, decoded.encoding)
    }

    /// What ``decodeNoting(_:forcing:)`` found: the text, the encoding used, and another encoding
    /// the bytes read as just as well, when there was one.
    public struct Decoded: Sendable {
        public var text: String
        public var encoding: String
        /// A second plausible encoding (detection only), or `nil` when the choice was clear.
        public var alternative: String?
    }

    /// ``decode(_:forcing:)``, also saying when detection had two plausible readings.
    public static func decodeNoting(_ data: Data, forcing name: String? = nil) throws(LyricsError) -> Decoded {
        let (text, encoding, alternative) = try detect(data, forcing: name)
        return Decoded(text: text, encoding: encoding, alternative: alternative)
    }

    private static func detect(_ data: Data, forcing name: String?) throws(LyricsError) -> (String, String, String?) {
        guard !data.isEmpty else { throw .empty }
        if let name {
            guard let codec = Codec.named(name) else { throw .unknownEncoding(name) }
            let body = data.dropFirst(bomLength(of: data, for: codec))
            guard let text = codec.decode(Data(body)) else { throw .undecodable(codec.name) }
            return (dropLeadingBOM(text), codec.name, nil)
        }
        if let codec = codecFromBOM(data) {
            let body = Data(data.dropFirst(bomLength(of: data, for: codec)))
            guard let text = codec.decode(body) else { throw .undecodable(codec.name) }
            return (text, codec.name, nil)
        }
        if let codec = sniffUTF16(data), let text = codec.decode(data) {
            return (text, codec.name, nil)
        }
        if let text = Codec.utf8.decode(data) {
            return (text, Codec.utf8.name, nil)
        }
        // A UTF-8 file with a few damaged bytes stays UTF-8 (those bytes become U+FFFD) rather
        // than being misread whole as GB18030.
        if isMostlyUTF8(data) {
            return (String(decoding: data, as: UTF8.self), Codec.utf8.name, nil)
        }
        let chinese = Codec.gb18030.decode(data).flatMap { looksLikeChinese($0) ? $0 : nil }
        let western = looksWestern(data) ? Codec.windows1252.decode(data) : nil
        switch (chinese, western) {
        case let (chinese?, western?):
            // Both read: Chinese text runs its bytes in long runs of pairs, Western text has lone
            // accented letters.
            return averageRun(data) >= 2.5 ? (chinese, Codec.gb18030.name, Codec.windows1252.name)
                                           : (western, Codec.windows1252.name, Codec.gb18030.name)
        case let (chinese?, nil): return (chinese, Codec.gb18030.name, nil)
        case let (nil, western?): return (western, Codec.windows1252.name, nil)
        case (nil, nil): throw .undecodable("utf-8, gb18030 or windows-1252")
        }
    }

    /// Whether every non-ASCII byte of `data` is a letter or common punctuation in Windows-1252
    /// (accented Latin letters, quotes, dashes, ellipsis, guillemets, inverted marks, degree, NBSP)
    /// and the bytes come in short runs, as in Western European text.
    static func looksWestern(_ data: Data) -> Bool {
        var high = 0
        for byte in data where byte >= 0x80 {
            high += 1
            switch byte {
            case 0x8A, 0x8C, 0x8E, 0x9A, 0x9C, 0x9E, 0x9F, 0x83,    // Š Œ Ž š œ ž Ÿ ƒ
                 0x91...0x94, 0x96, 0x97, 0x85, 0x80, 0x99,         // ‘ ’ “ ” – — … € ™
                 0xA0, 0xA1, 0xA9, 0xAB, 0xB0, 0xB4, 0xB7, 0xBB, 0xBF, // NBSP ¡ © « ° ´ · » ¿
                 0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF:             // letters, × and ÷ left out
                continue
            default:
                return false
            }
        }
        return high > 0 && averageRun(data) < 3
    }

    /// The average length of the runs of non-ASCII bytes in `data` (0 when there are none).
    static func averageRun(_ data: Data) -> Double {
        var runs = 0, bytes = 0, inRun = false
        for byte in data {
            if byte >= 0x80 {
                bytes += 1
                if !inRun { runs += 1 }
                inRun = true
            } else {
                inRun = false
            }
        }
        return runs == 0 ? 0 : Double(bytes) / Double(runs)
    }

    /// True when `data` holds valid multi-byte UTF-8 sequences and only a few invalid bytes (at
    /// most three, or eight valid sequences per invalid byte). Legacy double-byte text (GBK, Big5,
    /// Shift_JIS) has invalid bytes in almost every character.
    static func isMostlyUTF8(_ data: Data) -> Bool {
        var valid = 0, invalid = 0
        var i = data.startIndex
        while i < data.endIndex {
            let byte = data[i]
            if byte < 0x80 { i += 1; continue }
            let length = byte >= 0xF0 && byte <= 0xF4 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 && byte <= 0xDF ? 2 : 0
            if length > 0, i + length <= data.endIndex,
               String(validating: data[i..<(i + length)], as: UTF8.self) != nil {
                valid += 1
                i += length
            } else {
                invalid += 1
                i += 1
            }
        }
        return invalid > 0 && valid > 0 && (invalid <= 3 || valid >= 8 * invalid)
    }

    /// True when most non-ASCII characters of a GB18030 reading are CJK text (ideographs, CJK and
    /// full-width punctuation, kana, box drawing), as real GBK/GB18030 lyrics are. Other legacy
    /// single-byte text read as GB18030 turns into rare characters from all over Unicode.
    static func looksLikeChinese(_ text: String) -> Bool {
        var nonASCII = 0, cjk = 0
        for scalar in text.unicodeScalars where scalar.value >= 0x80 {
            nonASCII += 1
            switch scalar.value {
            case 0x2000...0x206F, 0x2460...0x27BF, 0x3000...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFFEF, 0x00B7, 0x00D7, 0x00F7, 0x00A4, 0x00A7, 0x00A8, 0x00B0, 0x00B1:
                cjk += 1
            default: break
            }
        }
        return nonASCII == 0 || Double(cjk) >= 0.9 * Double(nonASCII)
    }

    /// Canonical names of every encoding that can be forced, in a stable order.
    public static var knownEncodings: [String] { Codec.all.map(\.name) }

    /// The canonical name for an encoding name or alias (`"SJIS"` → `"shift_jis"`, `"gbk"` →
    /// `"gb18030"`), or `nil` when unknown.
    public static func canonicalName(for name: String) -> String? {
        Codec.named(name)?.name
    }

    private static func codecFromBOM(_ data: Data) -> Codec? {
        let bytes = [UInt8](data.prefix(3))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return .utf8 }
        if bytes.starts(with: [0xFF, 0xFE]) { return .utf16LE }
        if bytes.starts(with: [0xFE, 0xFF]) { return .utf16BE }
        return nil
    }

    /// The length of `codec`'s own byte order mark at the start of `data`, or 0.
    private static func bomLength(of data: Data, for codec: Codec) -> Int {
        let bytes = [UInt8](data.prefix(3))
        switch codec.method {
        case .utf8: return bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        case .utf16(bigEndian: false): return bytes.starts(with: [0xFF, 0xFE]) ? 2 : 0
        case .utf16(bigEndian: true): return bytes.starts(with: [0xFE, 0xFF]) ? 2 : 0
        case .foundation: return 0
        }
    }

    private static func dropLeadingBOM(_ text: String) -> String {
        text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
    }

    /// BOM-less UTF-16 holding mostly ASCII-range text: one byte of each pair is usually zero.
    private static func sniffUTF16(_ data: Data) -> Codec? {
        guard data.count >= 4, data.count % 2 == 0 else { return nil }
        let bytes = [UInt8](data.prefix(512))
        let pairs = bytes.count / 2
        var zeroEven = 0
        var zeroOdd = 0
        for pair in 0..<pairs {
            if bytes[2 * pair] == 0 { zeroEven += 1 }
            if bytes[2 * pair + 1] == 0 { zeroOdd += 1 }
        }
        let threshold = pairs * 2 / 5
        // CJK code units such as U+4E00 have a zero low byte now and then, so allow a few.
        if zeroOdd > 0, zeroOdd >= threshold, zeroEven * 4 < zeroOdd { return .utf16LE }
        if zeroEven > 0, zeroEven >= threshold, zeroOdd * 4 < zeroEven { return .utf16BE }
        return nil
    }
}
