import Foundation
import Testing
@testable import LyricsCore

/// Bytes written by hand for one encoding, and the text they hold.
struct Sample: Sendable, CustomTestStringConvertible {
    var encoding: String
    var bytes: [UInt8]
    var text: String
    /// Whether encoding `text` back gives exactly `bytes` (false where several byte sequences map to
    /// one character, or where Foundation cannot encode).
    var roundTrips = true
    var testDescription: String { encoding }
}

/// `TextDecoding`: BOM detection, UTF-8 → GB18030 fallback, forced encodings, junk.
@Suite struct DecodingTests {
    static let ascii = Array("[00:01.00]".utf8)

    /// One sample per forced encoding; each must decode on this machine's Foundation.
    static let samples: [Sample] = [
        Sample(encoding: "utf-8", bytes: [0xE9, 0x9B, 0xA8, 0xC3, 0xA9], text: "雨é"),
        Sample(encoding: "utf-16le", bytes: [0xE8, 0x96, 0xE9, 0x00, 0x3D, 0xD8, 0x00, 0xDE], text: "雨é😀"),
        Sample(encoding: "utf-16be", bytes: [0x96, 0xE8, 0x00, 0xE9], text: "雨é"),
        // 你好 in GBK, then a four-byte GB18030 sequence (81 30 81 30 = U+0080).
        Sample(encoding: "gb18030", bytes: [0xC4, 0xE3, 0xBA, 0xC3, 0x81, 0x30, 0x81, 0x30, 0x95, 0x32, 0x82, 0x36], text: "你好\u{80}𠀀"),
        Sample(encoding: "big5", bytes: [0xA7, 0x41, 0xA6, 0x6E, 0xA1, 0x40], text: "你好\u{3000}"),
        Sample(encoding: "big5-hkscs", bytes: [0xA7, 0x41, 0xA6, 0x6E], text: "你好"),
        // CP932 semantics: 81 60 is U+FF5E (not U+301C), 81 5F is U+FF3C, 87 40 (NEC) is ①, FA 40 (IBM) is ⅰ.
        Sample(encoding: "shift_jis", bytes: [0x82, 0xA0, 0x81, 0x60, 0x81, 0x5F, 0x87, 0x40, 0xFA, 0x40, 0xB1], text: "あ～＼①ⅰｱ"),
        // CP949: BE C8 B3 E7 is 안녕 (EUC-KR), 81 41 is 갂 (UHC extension).
        Sample(encoding: "euc-kr", bytes: [0xBE, 0xC8, 0xB3, 0xE7, 0x81, 0x41], text: "안녕갂"),
        Sample(encoding: "iso-2022-jp", bytes: [0x1B, 0x24, 0x42, 0x24, 0x22, 0x1B, 0x28, 0x42, 0x41], text: "あA"),
        Sample(encoding: "iso-8859-1", bytes: [0x63, 0x61, 0x66, 0xE9, 0x80, 0xFF], text: "café\u{80}ÿ"),
        Sample(encoding: "windows-1250", bytes: [0x8A, 0xB9], text: "Šą"),
        Sample(encoding: "windows-1251", bytes: [0xCF, 0xF0, 0xE8], text: "При"),
        Sample(encoding: "windows-1252", bytes: [0x80, 0xE9, 0x93, 0x94], text: "€é“”"),
        Sample(encoding: "windows-1253", bytes: [0xC1, 0xE1], text: "Αα"),
        Sample(encoding: "windows-1254", bytes: [0xD0, 0xF0], text: "Ğğ"),
        Sample(encoding: "windows-1255", bytes: [0xE0, 0xE1], text: "אב"),
        Sample(encoding: "windows-1256", bytes: [0xC7, 0xC8], text: "اب"),
        Sample(encoding: "windows-1257", bytes: [0xC0, 0xE0], text: "Ąą"),
        Sample(encoding: "windows-1258", bytes: [0xC3, 0xE3], text: "Ăă"),
        Sample(encoding: "windows-874", bytes: [0xA1, 0xA2], text: "กข"),
        Sample(encoding: "iso-8859-2", bytes: [0xA1, 0xB1], text: "Ąą"),
        Sample(encoding: "iso-8859-5", bytes: [0xBF, 0xE0], text: "Пр"),
        Sample(encoding: "iso-8859-6", bytes: [0xC7, 0xC8], text: "اب"),
        Sample(encoding: "iso-8859-7", bytes: [0xC1, 0xE1], text: "Αα"),
        Sample(encoding: "iso-8859-8", bytes: [0xE0, 0xE1], text: "אב"),
        Sample(encoding: "iso-8859-9", bytes: [0xD0, 0xF0], text: "Ğğ"),
        Sample(encoding: "iso-8859-15", bytes: [0xA4, 0xBD], text: "€œ"),
        Sample(encoding: "koi8-r", bytes: [0xF0, 0xD2, 0xC9], text: "При"),
        Sample(encoding: "koi8-u", bytes: [0xA4, 0xB4], text: "єЄ"),
    ]

    @Test func everyKnownEncodingHasASample() {
        #expect(Set(Self.samples.map(\.encoding)) == Set(TextDecoding.knownEncodings))
    }

    @Test(arguments: samples)
    func forcedEncodingRoundTrips(_ sample: Sample) throws {
        let codec = try #require(TextDecoding.Codec.named(sample.encoding))
        let decoded = try TextDecoding.decode(Data(sample.bytes), forcing: sample.encoding)
        #expect(decoded.text == sample.text)
        #expect(decoded.encoding == sample.encoding)
        if sample.roundTrips {
            #expect(sample.text.data(using: codec.foundationEncoding).map([UInt8].init) == sample.bytes)
        }
        // Through the whole loader, behind an ASCII time tag (ASCII-compatible encodings only).
        if !sample.encoding.hasPrefix("utf-16") {
            let lyrics = try LRC.load(Data(Self.ascii + sample.bytes), encoding: sample.encoding)
            #expect(lyrics.lines.first?.text == sample.text.trimmingWhitespace().description)
            #expect(lyrics.encoding == sample.encoding)
        }
    }

    @Test(arguments: [
        ("UTF8", "utf-8"), ("utf_8", "utf-8"), ("UTF-16", "utf-16le"), ("UTF-16BE", "utf-16be"),
        ("GBK", "gb18030"), ("gb2312", "gb18030"), ("CP936", "gb18030"), ("GB-18030", "gb18030"),
        ("Big5", "big5"), ("cp950", "big5"), ("SJIS", "shift_jis"), ("Shift-JIS", "shift_jis"), ("shift_jis", "shift_jis"),
        ("CP932", "shift_jis"), ("Windows-31J", "shift_jis"), ("EUC-KR", "euc-kr"), ("euc_kr", "euc-kr"), ("CP949", "euc-kr"),
        ("latin1", "iso-8859-1"), ("ISO-8859-1", "iso-8859-1"), ("cp1252", "windows-1252"), (" windows-1252 ", "windows-1252"),
        ("Latin-9", "iso-8859-15"), ("KOI8-R", "koi8-r"),
    ])
    func aliases(name: String, canonical: String) {
        #expect(TextDecoding.canonicalName(for: name) == canonical)
    }

    @Test(arguments: ["euc-jp", "klingon", "", "utf-7", "mac-roman", "shift_jis_2004"])
    func unknownNames(name: String) {
        #expect(TextDecoding.canonicalName(for: name) == nil)
        #expect(throws: LyricsError.unknownEncoding(name)) { try TextDecoding.decode(Data([0x41]), forcing: name) }
    }

    @Test func boms() throws {
        let utf8 = try TextDecoding.decode(Data([0xEF, 0xBB, 0xBF] + Self.ascii + [0xC3, 0xA9]))
        #expect(utf8.text == "[00:01.00]é" && utf8.encoding == "utf-8")
        let le = try TextDecoding.decode(Data([0xFF, 0xFE, 0x5B, 0x00, 0xE9, 0x00, 0xE8, 0x96]))
        #expect(le.text == "[é雨" && le.encoding == "utf-16le")
        let be = try TextDecoding.decode(Data([0xFE, 0xFF, 0x00, 0x5B, 0x00, 0xE9, 0x96, 0xE8]))
        #expect(be.text == "[é雨" && be.encoding == "utf-16be")
        // A forced encoding drops its own BOM.
        #expect(try TextDecoding.decode(Data([0xEF, 0xBB, 0xBF, 0x41]), forcing: "utf-8").text == "A")
        #expect(try TextDecoding.decode(Data([0xFF, 0xFE, 0x41, 0x00]), forcing: "utf-16le").text == "A")
    }

    @Test func utf16WithoutBOM() throws {
        let text = "[00:01.00]Salt road 一\n[00:02.00]海\n"
        let le = Data(text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let be = Data(text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        #expect(try TextDecoding.decode(le).encoding == "utf-16le")
        #expect(try TextDecoding.decode(be).encoding == "utf-16be")
        #expect(try LRC.load(le).shown == [Shown(1000, "Salt road 一"), Shown(2000, "海")])
        #expect(try LRC.load(be).shown == [Shown(1000, "Salt road 一"), Shown(2000, "海")])
    }

    @Test func gb18030Fallback() throws {
        // "[00:01.00]你好" in GBK: not UTF-8, so detection falls back to GB18030.
        let bytes = Data(Self.ascii + [0xC4, 0xE3, 0xBA, 0xC3])
        let decoded = try TextDecoding.decode(bytes)
        #expect(decoded.encoding == "gb18030" && decoded.text == "[00:01.00]你好")
        let lyrics = try LRC.load(bytes)
        #expect(lyrics.encoding == "gb18030")
        #expect(lyrics.shown == [Shown(1000, "你好")])
    }

    @Test func pureASCIIIsUTF8() throws {
        #expect(try TextDecoding.decode(Data("[00:01.00]x".utf8)).encoding == "utf-8")
        #expect(try LRC.load(Data("[00:01.00]x".utf8)).encoding == "utf-8")
    }

    @Test(arguments: [
        ("random binary", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0xFF, 0xFF, 0x9C], nil, "utf-8, gb18030 or windows-1252"),
        ("GBK forced as UTF-8", [0xC4, 0xE3, 0xBA, 0xC3], "utf-8", "utf-8"),
        ("truncated GB18030", [0x41, 0xC4], "gb18030", "gb18030"),
        ("invalid Shift_JIS", [0x41, 0x85, 0x40], "sjis", "shift_jis"),
        ("odd-length UTF-16", [0x41, 0x00, 0x42], "utf-16le", "utf-16le"),
        ("lone surrogate", [0x00, 0xD8, 0x41, 0x00], "utf-16le", "utf-16le"),
        ("bad UTF-8 after a UTF-8 BOM", [0xEF, 0xBB, 0xBF, 0xFF], nil, "utf-8"),
        ("odd UTF-16 after a BOM", [0xFF, 0xFE, 0x41], nil, "utf-16le"),
        ("undefined windows-1252 byte", [0x41, 0x81], "windows-1252", "windows-1252"),
    ] as [(String, [UInt8], String?, String)])
    func undecodable(name: String, bytes: [UInt8], forced: String?, reported: String) {
        #expect(throws: LyricsError.undecodable(reported)) { try TextDecoding.decode(Data(bytes), forcing: forced) }
        #expect(throws: LyricsError.undecodable(reported)) { try LRC.load(Data(bytes), encoding: forced) }
    }

    @Test func emptyData() {
        #expect(throws: LyricsError.empty) { try TextDecoding.decode(Data()) }
        #expect(throws: LyricsError.empty) { try LRC.load(Data(), encoding: "gbk") }
        // A BOM and nothing else decodes to no text at all.
        #expect(throws: LyricsError.empty) { try LRC.load(Data([0xEF, 0xBB, 0xBF])) }
    }

    @Test func binaryThatDecodesIsStillNotLRC() {
        // Valid UTF-8 but no time tag.
        #expect(throws: LyricsError.noTimedLines) { try LRC.load(Data([0x89, 0x50, 0x4E, 0x47].dropFirst())) }
    }
}

/// Facts about swift-corelibs-foundation on Linux that the decoder relies on or documents.
@Suite struct FoundationDecoderFacts {
    @Test func big5AndCP949AreLenient() throws {
        // Invalid bytes become private-use characters instead of failing, so junk forced as Big5 or
        // EUC-KR "decodes"; the parser then finds no time tag.
        #expect(try TextDecoding.decode(Data([0x41, 0xFF, 0x42]), forcing: "big5").text == "A\u{F8F8}B")
        #expect(try TextDecoding.decode(Data([0x41, 0xFF, 0xFF]), forcing: "euc-kr").encoding == "euc-kr")
    }

    @Test func foundationLacksSomeTables() {
        // Why euc-jp and a separate GBK table are not offered: Foundation returns nil for valid text.
        #expect(String(data: Data([0xA4, 0xA2]), encoding: .japaneseEUC) == nil)
        #expect(String(data: Data([0xC4, 0xE3]), encoding: String.Encoding(rawValue: 0x8000_0631)) == nil)
    }

    @Test func shiftJISIsCP932() throws {
        // The wave-dash trap: 0x8160 must become U+FF5E (CP932), not U+301C (JIS).
        #expect(try TextDecoding.decode(Data([0x81, 0x60]), forcing: "shift_jis").text == "\u{FF5E}")
        #expect(try TextDecoding.decode(Data([0x81, 0x60]), forcing: "sjis").text == "\u{FF5E}")
    }

    @Test func damagedUTF8StaysUTF8() throws {
        // 晴天 and 你好 in UTF-8, then a line cut in the middle of a character.
        var bytes = Array("[ti:晴天]\n[00:01.00]你好\n[00:05.00]bad ".utf8)
        bytes += [0xE4, 0xBD, 0x0A]
        let (text, encoding) = try TextDecoding.decode(Data(bytes))
        #expect(encoding == "utf-8")
        #expect(text.hasPrefix("[ti:晴天]"))
        #expect(text.contains("\u{FFFD}"))
    }

    @Test func latin1ReadsAsWindows1252() throws {
        let bytes: [UInt8] = Array("[ti:Caf".utf8) + [0xE9] + Array("]\n[00:01.00]D".utf8) + [0xE9] + Array("j".utf8) + [0xE0]
        let decoded = try TextDecoding.decodeNoting(Data(bytes))
        #expect(decoded.encoding == "windows-1252")
        #expect(decoded.text == "[ti:Café]\n[00:01.00]Déjà")
        // The library's reason names no flag; the command adds "name it with --encoding" (CLITests).
        #expect(LyricsError.undecodable("utf-8, gb18030 or windows-1252").description
            == "not valid utf-8, gb18030 or windows-1252 text (binary data, or another encoding)")
    }
}

/// Legacy Western European files (ISO 8859-1 and Windows-1252) against GB18030: each kind reads
/// as itself, and a file that reads both ways gets a note.
@Suite struct WesternDecodingTests {
    static func bytes(_ text: String, _ encoding: String.Encoding) -> Data { text.data(using: encoding)! }

    @Test(arguments: [
        ("French", "[00:01.00]Été, café crème à côté\n[00:03.00]Où est-elle ?"),
        ("Portuguese", "[00:01.00]Canção do coração\n[00:02.00]Não, irmã"),
        ("German", "[00:01.00]Grüße aus Köln, schöne Straße"),
        ("Spanish with inverted marks", "[00:01.00]¿Dónde estás? ¡Mañana!"),
        ("curly quotes and dashes", "[00:01.00]“Rain” — it’s… fine"),
        ("one accented letter", "[ti:Naïve]\n[00:01.00]plain words"),
    ])
    func westernReadsAsItself(name: String, text: String) throws {
        let data = Self.bytes(text, .windowsCP1252)
        let decoded = try TextDecoding.decodeNoting(data)
        #expect(decoded.encoding == "windows-1252", "\(name)")
        #expect(decoded.text == text)
        let lyrics = try LyricsReader.load(data)
        #expect(lyrics.encoding == "windows-1252")
    }

    @Test(arguments: ["[00:01.00]晴天的雨声\n[00:02.00]你好，世界", "[ti:纸风筝]\n[00:01.00]一二三四五六七八九十"])
    func chineseStaysGB18030(text: String) throws {
        let data = text.data(using: String.Encoding(rawValue: 0x8000_0632))!
        let decoded = try TextDecoding.decodeNoting(data)
        #expect(decoded.encoding == "gb18030")
        #expect(decoded.text == text)
        #expect(decoded.alternative == nil)
    }

    @Test func ambiguousFileGetsANote() throws {
        // "Äã" in Windows-1252 is the GB18030 pair for 你: both readings work.
        let data = Data(Array("[00:01.00]x ".utf8) + [0xC4, 0xE3] + Array(" y".utf8))
        let decoded = try TextDecoding.decodeNoting(data)
        #expect(decoded.alternative != nil)
        let lyrics = try LyricsReader.load(data)
        #expect(lyrics.notes.count == 1)
        #expect(lyrics.notes[0].contains("--encoding"))
        #expect(lyrics.notes[0].contains(decoded.encoding))
        // Forcing an encoding says nothing.
        #expect(try LyricsReader.load(data, encoding: "gb18030").notes.isEmpty)
    }
}
