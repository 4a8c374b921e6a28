import Foundation

extension TextDecoding {
    /// One supported encoding: its canonical name, the aliases users type, and how to decode it.
    ///
    /// Every non-Unicode entry is decoded by swift-corelibs-foundation (`String(data:encoding:)` with
    /// a CoreFoundation encoding converted to `NSStringEncoding`), and each has a round-trip test on
    /// hand-written bytes. Not available from Foundation on Linux, hence absent: EUC-JP (decodes
    /// nothing), GBK as its own table (`0x80000631` decodes nothing; GBK text decodes as GB18030,
    /// which is a superset), Shift_JIS-2004, Mac Roman (wrong mapping).
    struct Codec: Hashable, Sendable {
        /// The name reported in ``Lyrics/encoding``.
        var name: String
        /// Other spellings accepted when forcing (compared after ``normalized(_:)``).
        var aliases: [String]
        var method: Method

        enum Method: Hashable, Sendable {
            case utf8
            case utf16(bigEndian: Bool)
            /// A `String.Encoding` raw value (`CFStringConvertEncodingToNSStringEncoding` result).
            case foundation(UInt)
        }

        /// Decodes `bytes` (BOM already removed), or `nil` when they are not valid in this encoding.
        func decode(_ bytes: Data) -> String? {
            switch method {
            case .utf8:
                return String(validating: bytes, as: UTF8.self)
            case .utf16(let bigEndian):
                guard bytes.count % 2 == 0 else { return nil }
                var units: [UInt16] = []
                units.reserveCapacity(bytes.count / 2)
                var iterator = bytes.makeIterator()
                while let first = iterator.next(), let second = iterator.next() {
                    units.append(bigEndian ? UInt16(first) << 8 | UInt16(second) : UInt16(second) << 8 | UInt16(first))
                }
                return String(validating: units, as: UTF16.self)
            case .foundation(let raw):
                return String(data: bytes, encoding: String.Encoding(rawValue: raw))
            }
        }

        /// The Foundation encoding, for tests that encode text back to bytes.
        var foundationEncoding: String.Encoding {
            switch method {
            case .utf8: return .utf8
            case .utf16(let bigEndian): return bigEndian ? .utf16BigEndian : .utf16LittleEndian
            case .foundation(let raw): return String.Encoding(rawValue: raw)
            }
        }

        static let utf8 = Codec(name: "utf-8", aliases: ["utf8", "unicode-1-1-utf-8"], method: .utf8)
        static let utf16LE = Codec(name: "utf-16le", aliases: ["utf16le", "utf-16", "utf16", "unicode", "ucs-2", "ucs-2le"], method: .utf16(bigEndian: false))
        static let utf16BE = Codec(name: "utf-16be", aliases: ["utf16be", "unicodefffe", "ucs-2be"], method: .utf16(bigEndian: true))
        // GB18030 is a superset of GBK/CP936 and GB2312 (EUC-CN), so all of them decode with it.
        static let gb18030 = Codec(name: "gb18030", aliases: ["gbk", "gb2312", "cp936", "windows-936", "ms936", "euc-cn", "x-gbk", "chinese", "csgb2312"], method: .foundation(0x8000_0632))
        static let big5 = Codec(name: "big5", aliases: ["cp950", "windows-950", "x-big5", "csbig5", "big5-tw"], method: .foundation(0x8000_0A03))
        static let big5HKSCS = Codec(name: "big5-hkscs", aliases: ["big5hkscs"], method: .foundation(0x8000_0A06))
        // Windows code page 932 (kCFStringEncodingDOSJapanese): 0x8160 → U+FF5E, 0x815F → U+FF3C,
        // NEC and IBM extensions. Plain "shift_jis" means this too, as it does in every Windows-made file.
        static let shiftJIS = Codec(name: "shift_jis", aliases: ["shift-jis", "sjis", "cp932", "windows-932", "windows-31j", "ms932", "ms_kanji", "x-sjis", "csshiftjis"], method: .foundation(0x8000_0420))
        // Windows code page 949 (Unified Hangul Code), a superset of EUC-KR (kCFStringEncodingDOSKorean).
        static let eucKR = Codec(name: "euc-kr", aliases: ["cp949", "windows-949", "uhc", "ks_c_5601-1987", "ksc5601", "ks_c_5601", "korean", "cseuckr"], method: .foundation(0x8000_0422))
        static let iso2022JP = Codec(name: "iso-2022-jp", aliases: ["csiso2022jp", "jis"], method: .foundation(String.Encoding.iso2022JP.rawValue))
        static let latin1 = Codec(name: "iso-8859-1", aliases: ["latin1", "latin-1", "l1", "iso8859-1", "iso_8859-1", "cp819", "ibm819"], method: .foundation(String.Encoding.isoLatin1.rawValue))

        static let windows1252 = Codec(name: "windows-1252", aliases: ["cp1252", "x-cp1252"], method: .foundation(0x8000_0500))

        /// Windows and ISO single-byte code pages that Foundation decodes on Linux.
        static let singleByte: [Codec] = [
            Codec(name: "windows-1250", aliases: ["cp1250", "x-cp1250"], method: .foundation(0x8000_0501)),
            Codec(name: "windows-1251", aliases: ["cp1251", "x-cp1251"], method: .foundation(0x8000_0502)),
            windows1252,
            Codec(name: "windows-1253", aliases: ["cp1253"], method: .foundation(0x8000_0503)),
            Codec(name: "windows-1254", aliases: ["cp1254"], method: .foundation(0x8000_0504)),
            Codec(name: "windows-1255", aliases: ["cp1255"], method: .foundation(0x8000_0505)),
            Codec(name: "windows-1256", aliases: ["cp1256"], method: .foundation(0x8000_0506)),
            Codec(name: "windows-1257", aliases: ["cp1257"], method: .foundation(0x8000_0507)),
            Codec(name: "windows-1258", aliases: ["cp1258"], method: .foundation(0x8000_0508)),
            Codec(name: "windows-874", aliases: ["cp874", "tis-620", "iso-8859-11"], method: .foundation(0x8000_041D)),
            Codec(name: "iso-8859-2", aliases: ["latin2", "l2"], method: .foundation(0x8000_0202)),
            Codec(name: "iso-8859-5", aliases: ["cyrillic"], method: .foundation(0x8000_0205)),
            Codec(name: "iso-8859-6", aliases: ["arabic"], method: .foundation(0x8000_0206)),
            Codec(name: "iso-8859-7", aliases: ["greek"], method: .foundation(0x8000_0207)),
            Codec(name: "iso-8859-8", aliases: ["hebrew"], method: .foundation(0x8000_0208)),
            Codec(name: "iso-8859-9", aliases: ["latin5", "l5"], method: .foundation(0x8000_0209)),
            Codec(name: "iso-8859-15", aliases: ["latin9", "latin-9", "l9"], method: .foundation(0x8000_020F)),
            Codec(name: "koi8-r", aliases: ["koi8"], method: .foundation(0x8000_0A02)),
            Codec(name: "koi8-u", aliases: [], method: .foundation(0x8000_0A08)),
        ]

        /// Every codec, in the order listed to users.
        static let all: [Codec] = [utf8, utf16LE, utf16BE, gb18030, big5, big5HKSCS, shiftJIS, eucKR, iso2022JP, latin1] + singleByte

        /// Lower-cased, with `-`, `_`, `.` and spaces removed: `Shift_JIS`, `shift-jis` and `SJIS` compare
        /// by their letters and digits only.
        static func normalized(_ name: String) -> String {
            String(name.lowercased().unicodeScalars.filter { !"-_. ".unicodeScalars.contains($0) })
        }

        private static let byName: [String: Codec] = {
            var table: [String: Codec] = [:]
            for codec in all {
                for name in [codec.name] + codec.aliases { table[normalized(name)] = codec }
            }
            return table
        }()

        /// The codec for a user-supplied name or alias (case, `-`, `_` and spaces ignored).
        static func named(_ name: String) -> Codec? {
            byName[normalized(name)]
        }
    }
}
