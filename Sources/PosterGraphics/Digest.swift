import CCrypto
import CPNG
import Foundation

/// SHA-256 through OpenSSL's libcrypto.
package enum Digest {
    /// The lowercase hex SHA-256 of `bytes`.
    package static func sha256<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1 && length == 32, "SHA-256 through libcrypto failed")
        return hex(digest.prefix(32))
    }

    package static func sha256(_ text: String) -> String { sha256(Array(text.utf8)) }

    /// The lowercase hex MD5 of `text`'s UTF-8: only for protocols that ask for it (the Subsonic
    /// API's salted token), never to tell files apart.
    package static func md5(_ text: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let bytes = Array(text.utf8)
        let ok = bytes.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_md5(), nil)
        }
        precondition(ok == 1 && length == 16, "MD5 through libcrypto failed")
        return hex(digest.prefix(16))
    }

    /// Lowercase hex of `bytes`.
    static func hex<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A SHA-256 fed piece by piece, which can be copied part way: files that begin with the
    /// same bytes hash those bytes once (see `PNG.RowsEncoder`, which keeps them under a lock).
    /// Not thread-safe.
    package final class SHA256 {
        private let context: OpaquePointer

        package init() {
            guard let context = EVP_MD_CTX_new() else { fatalError("SHA-256 through libcrypto: out of memory") }
            precondition(EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1, "SHA-256 through libcrypto failed")
            self.context = context
        }

        private init(copying other: SHA256) {
            guard let context = EVP_MD_CTX_new() else { fatalError("SHA-256 through libcrypto: out of memory") }
            precondition(EVP_MD_CTX_copy_ex(context, other.context) == 1, "SHA-256 through libcrypto failed")
            self.context = context
        }

        deinit { EVP_MD_CTX_free(context) }

        /// A hash fed the same bytes so far, to be fed on its own.
        package func copy() -> SHA256 { SHA256(copying: self) }

        package func update(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count > 0 else { return }
            precondition(EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1, "SHA-256 through libcrypto failed")
        }

        /// The lowercase hex digest of the bytes fed; the hash is spent.
        package func finish() -> String {
            var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            precondition(EVP_DigestFinal_ex(context, &digest, &length) == 1 && length == 32, "SHA-256 through libcrypto failed")
            return hex(digest.prefix(32))
        }
    }
}

/// CRC-32 (libdeflate): a fast check that cached bytes are the bytes written.
package enum Checksum {
    package static func crc32<Bytes: ContiguousBytes>(_ bytes: Bytes) -> UInt32 {
        bytes.withUnsafeBytes { raw in lp_crc32(0, raw.bindMemory(to: UInt8.self).baseAddress, raw.count) }
    }

    /// The CRC-32 of what `crc` is the CRC-32 of, followed by `bytes`.
    package static func crc32(continuing crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        lp_crc32(crc, bytes.baseAddress, bytes.count)
    }

    /// The CRC-32 of `pieces` one after the other, as if joined.
    package static func crc32(_ pieces: [ArraySlice<UInt8>]) -> UInt32 {
        pieces.reduce(UInt32(0)) { crc, piece in piece.withUnsafeBufferPointer { crc32(continuing: crc, $0) } }
    }
}
