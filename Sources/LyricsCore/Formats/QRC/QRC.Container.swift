extension QRC {
    /// The wrappings around a QRC body: encrypted hex, local cache files, the XML wrapper.
    enum Container {
        /// QQ's 128-byte XOR table for local cache files (QMC1; documented by qmc-decode, LDDC and
        /// Unilyric).
        static let localTable: [UInt8] = [
            0xC3, 0x4A, 0xD6, 0xCA, 0x90, 0x67, 0xF7, 0x52, 0xD8, 0xA1, 0x66, 0x62, 0x9F, 0x5B, 0x09, 0x00,
            0xC3, 0x5E, 0x95, 0x23, 0x9F, 0x13, 0x11, 0x7E, 0xD8, 0x92, 0x3F, 0xBC, 0x90, 0xBB, 0x74, 0x0E,
            0xC3, 0x47, 0x74, 0x3D, 0x90, 0xAA, 0x3F, 0x51, 0xD8, 0xF4, 0x11, 0x84, 0x9F, 0xDE, 0x95, 0x1D,
            0xC3, 0xC6, 0x09, 0xD5, 0x9F, 0xFA, 0x66, 0xF9, 0xD8, 0xF0, 0xF7, 0xA0, 0x90, 0xA1, 0xD6, 0xF3,
            0xC3, 0xF3, 0xD6, 0xA1, 0x90, 0xA0, 0xF7, 0xF0, 0xD8, 0xF9, 0x66, 0xFA, 0x9F, 0xD5, 0x09, 0xC6,
            0xC3, 0x1D, 0x95, 0xDE, 0x9F, 0x84, 0x11, 0xF4, 0xD8, 0x51, 0x3F, 0xAA, 0x90, 0x3D, 0x74, 0x47,
            0xC3, 0x0E, 0x74, 0xBB, 0x90, 0xBC, 0x3F, 0x92, 0xD8, 0x7E, 0x11, 0x13, 0x9F, 0x23, 0x95, 0x5E,
            0xC3, 0x00, 0x09, 0x5B, 0x9F, 0x62, 0x66, 0xA1, 0xD8, 0x52, 0xF7, 0x67, 0x90, 0xCA, 0xD6, 0x4A,
        ]

        /// The key byte for file offset `i`: the table repeats every 128 bytes, and past the first
        /// 32 KiB the offset is taken modulo 0x7FFF (not 0x8000), as QQ's clients write it.
        static func localKey(at i: Int) -> UInt8 {
            localTable[(i > 0x7FFF ? i % 0x7FFF : i) & 0x7F]
        }

        /// Length of the header of a local file, after the XOR: `[offset:0]` and a line break.
        static let localHeaderLength = 11

        static func decodeLocal(_ bytes: [UInt8]) throws(LyricsError) -> String? {
            let marker = Array("[offset:".utf8)
            guard bytes.count >= marker.count,
                  (0..<marker.count).allSatisfy({ bytes[$0] ^ localKey(at: $0) == marker[$0] }) else { return nil }
            guard bytes.count <= Limits.maxEncryptedBytes else {
                throw .tooLarge("QRC cache file larger than the limit of \(Limits.maxEncryptedBytes) bytes")
            }
            let body = bytes.count > localHeaderLength ? (localHeaderLength..<bytes.count).map { bytes[$0] ^ localKey(at: $0) } : []
            guard !body.isEmpty, body.count % 8 == 0 else {
                throw .invalid("not valid QRC: the cache file's encrypted part is \(body.count) bytes, not whole 8-byte blocks")
            }
            return try decryptAndInflate(body)
        }

        /// Whether `text` is encrypted hex: at least 32 hex digits (ASCII whitespace between them
        /// allowed), a whole number of 8-byte blocks, nothing else.
        static func isEncryptedHex(_ text: String) -> Bool {
            var digits = 0
            for byte in text.utf8 {
                if isHexDigit(byte) {
                    digits += 1
                } else if byte != 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
                    return false
                }
            }
            return digits >= 32 && digits % 16 == 0
        }

        static func decryptHex(_ text: String) throws(LyricsError) -> String {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count / 2)
            var high: UInt8?
            for byte in text.utf8 where isHexDigit(byte) {
                let value = byte <= 0x39 ? byte - 0x30 : (byte | 0x20) - 0x61 + 10
                if let first = high {
                    bytes.append(first << 4 | value)
                    high = nil
                } else {
                    high = value
                }
            }
            guard bytes.count <= Limits.maxEncryptedBytes else {
                throw .tooLarge("QRC hex larger than the limit of \(Limits.maxEncryptedBytes) bytes")
            }
            return try decryptAndInflate(bytes)
        }

        /// QQ's triple DES, then zlib (zero padding after the stream ignored), then UTF-8 (BOM dropped).
        static func decryptAndInflate(_ encrypted: [UInt8]) throws(LyricsError) -> String {
            try Inflate.text(Cipher.decrypt(encrypted), limit: Limits.maxBytes, format: "QRC",
                             failure: "the encrypted lyrics do not decrypt", noun: "decrypted")
        }

        private static func isHexDigit(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }

        /// Whether `text` is QQ's XML wrapper (`<QrcInfos>` or a `LyricContent="` attribute).
        static func isWrapped(_ text: some StringProtocol) -> Bool {
            ByteSearch.contains(text, "<QrcInfos", inFirst: 4096) || ByteSearch.contains(text, "LyricContent=\"")
        }

        /// The value of the first `LyricContent` attribute, entities decoded. QQ does not always
        /// escape `"` inside it, so the value runs to the last `"/>` before `</LyricInfo>` (or the
        /// end of the text).
        static func lyricContent(_ text: String) throws(LyricsError) -> String {
            let utf8 = Array(text.utf8)
            guard let open = utf8.firstRange(of: Array("LyricContent=\"".utf8)) else {
                throw .invalid("not valid QRC: the XML wrapper holds no LyricContent")
            }
            let limit = utf8[open.upperBound...].firstRange(of: Array("</LyricInfo>".utf8))?.lowerBound ?? utf8.count
            let window = utf8[open.upperBound..<limit]
            guard let close = window.lastRange(of: Array("\"/>".utf8)) ?? window.lastRange(of: Array("\" />".utf8)) else {
                throw .invalid("not valid QRC: the XML wrapper's LyricContent is not closed")
            }
            return decodeEntities(String(decoding: utf8[open.upperBound..<close.lowerBound], as: UTF8.self))
        }

        /// `&lt; &gt; &quot; &apos; &amp;` and numeric references decoded; anything else kept.
        static func decodeEntities(_ text: String) -> String {
            guard text.contains("&") else { return text }
            var result = String.UnicodeScalarView()
            let scalars = Array(text.unicodeScalars)
            var index = 0
            while index < scalars.count {
                if scalars[index] == "&", let semicolon = scalars[index..<min(scalars.count, index + 12)].firstIndex(of: ";") {
                    let name = String(String.UnicodeScalarView(scalars[(index + 1)..<semicolon]))
                    var decoded: Unicode.Scalar?
                    switch name {
                    case "lt": decoded = "<"
                    case "gt": decoded = ">"
                    case "quot": decoded = "\""
                    case "apos": decoded = "'"
                    case "amp": decoded = "&"
                    default:
                        if name.hasPrefix("#x") || name.hasPrefix("#X") {
                            decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                        } else if name.hasPrefix("#") {
                            decoded = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
                        }
                    }
                    if let decoded {
                        result.append(decoded)
                        index = semicolon + 1
                        continue
                    }
                }
                result.append(scalars[index])
                index += 1
            }
            return String(result)
        }
    }
}
