import CCrypto
import CPNGShim
import Foundation

/// SHA-256 through OpenSSL's libcrypto.
public enum Digest {
    /// The lowercase hex SHA-256 of `bytes`.
    public static func sha256<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1 && length == 32, "SHA-256 through libcrypto failed")
        let hex = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in digest.prefix(32) {
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xf)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func sha256(_ text: String) -> String { sha256(Array(text.utf8)) }
}

/// CRC-32 (libdeflate): a fast check that cached bytes are the bytes written.
public enum Checksum {
    public static func crc32<Bytes: ContiguousBytes>(_ bytes: Bytes) -> UInt32 {
        bytes.withUnsafeBytes { raw in lp_crc32(0, raw.bindMemory(to: UInt8.self).baseAddress, raw.count) }
    }
}
