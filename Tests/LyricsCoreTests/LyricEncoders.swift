import CZlib
import Foundation
@testable import LyricsCore

/// Encoders for the binary lyric forms, so that tests make their own fixtures. They live only in
/// the tests: LyricPoster reads these forms and never writes them.
enum LyricEncoders {
    /// zlib stream of `bytes` (level 9, as the clients write).
    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = compress2(&output, &length, bytes, uLong(bytes.count), 9)
        precondition(status == Z_OK, "compress2 failed")
        return Array(output[0..<Int(length)])
    }

    /// QQ's triple DES in the encrypting direction: E(K1), D(K2), E(K3).
    static func qqEncrypt(_ plain: [UInt8]) -> [UInt8] {
        let key = Array("!@#)(*$%123ZXC!@!@#)(NHL".utf8)
        let k1 = QRC.Cipher.schedule(Array(key[0..<8])), k2 = QRC.Cipher.schedule(Array(key[8..<16]))
        let k3 = QRC.Cipher.schedule(Array(key[16..<24]))
        return QRC.Cipher.process(plain, passes: [k1, k2.reversed(), k3])
    }

    /// Encrypted QRC stream: zlib, zero-padded to 8 bytes, encrypted.
    static func qrcStream(_ text: String, padding: Bool = true) -> [UInt8] {
        var stream = deflate(Array(text.utf8))
        if padding { while stream.count % 8 != 0 { stream.append(0) } }
        return qqEncrypt(stream)
    }

    /// QQ's hex form of `text` (upper-case, as the API returns it).
    static func qrcHex(_ text: String) -> String {
        qrcStream(text).map { String(format: "%02X", $0) }.joined()
    }

    /// A QQ client cache file of `text`: header and encrypted stream, XORed with the table.
    static func qrcLocal(_ text: String, header: String = "[offset:0]\n") -> Data {
        let plain = Array(header.utf8) + qrcStream(text)
        return Data(plain.enumerated().map { $0.element ^ QRC.Container.localKey(at: $0.offset) })
    }

    /// A `.krc` file of `text` (BOM added, as Kugou writes it).
    static func krc(_ text: String, bom: Bool = true) -> Data {
        krc(bytes: (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8))
    }

    /// A `.krc` file around any bytes.
    static func krc(bytes: [UInt8]) -> Data {
        let stream = deflate(bytes)
        return Data(Array("krc1".utf8) + stream.enumerated().map { $0.element ^ KRC.key[$0.offset & 15] })
    }

    /// A `[language:]` value: base64 of Kugou's JSON with translation and romanisation rows.
    static func krcLanguage(translations: [[String]]? = nil, romanisations: [[String]]? = nil) -> String {
        var content: [[String: Any]] = []
        if let romanisations { content.append(["language": 0, "type": 0, "lyricContent": romanisations]) }
        if let translations { content.append(["language": 0, "type": 1, "lyricContent": translations]) }
        let data = try! JSONSerialization.data(withJSONObject: ["content": content, "version": 1], options: [.sortedKeys])
        return data.base64EncodedString()
    }
}
