import CZlib

/// zlib streams (RFC 1950) inflated with a cap on the output, for the compressed lyric formats.
///
/// QRC and KRC carry their text as a zlib stream. A few hundred bytes of hostile input can inflate
/// to gigabytes, so the output stops at `limit` bytes with an error instead. Bytes after the end
/// of the stream are ignored: encrypted QRC pads the stream with zeros to the cipher's block size.
enum Inflate {
    /// Why a stream could not be inflated.
    enum Failure: Error, Equatable {
        /// The output would pass the limit.
        case tooLarge
        /// Not a zlib stream, a damaged one, a wrong checksum, or one that ends early.
        case corrupt(String)
    }

    /// Inflates the zlib stream at the start of `input`.
    ///
    /// - Parameter limit: the most bytes of output accepted.
    /// - Throws: ``Failure/tooLarge`` past `limit`; ``Failure/corrupt(_:)`` for a stream that is not
    ///   zlib (raw deflate, gzip, a preset dictionary), damaged, or truncated.
    static func zlib(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        guard input.count >= 2 else { throw .corrupt("too short for a zlib stream") }
        var stream = z_stream()
        guard lp_inflate_init(&stream) == Z_OK else { throw .corrupt("zlib could not start") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        let chunk = 64 * 1024
        var buffer = [UInt8](repeating: 0, count: chunk)
        var status: Int32 = Z_OK
        var failure: Failure?
        input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = UInt32(source.count)
            buffer.withUnsafeMutableBufferPointer { target in
                while true {
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(chunk)
                    status = inflate(&stream, Z_NO_FLUSH)
                    let produced = chunk - Int(stream.avail_out)
                    if output.count + produced > limit { failure = .tooLarge; return }
                    output.append(contentsOf: target[0..<produced])
                    switch status {
                    case Z_STREAM_END: return
                    case Z_OK: continue
                    case Z_BUF_ERROR:
                        // No progress possible: the input ended before the stream did.
                        failure = .corrupt("the stream ends early"); return
                    case Z_NEED_DICT:
                        failure = .corrupt("a preset dictionary is needed"); return
                    default:
                        let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                        failure = .corrupt(message); return
                    }
                }
            }
        }
        if let failure { throw failure }
        return output
    }

    /// The UTF-8 text (a leading BOM dropped) of the zlib stream at the start of `input`, with
    /// errors that name the format: `"<format> inflates past the limit of N bytes"`, `"not valid
    /// <format>: <what> (reason)"` for a damaged stream (`what` says what failed, e.g. "the lyrics
    /// do not inflate"), `"not valid <format>: the <noun> lyrics are not UTF-8 text"`.
    static func text(_ input: [UInt8], limit: Int, format: String, failure what: String, noun: String) throws(LyricsError) -> String {
        let inflated: [UInt8]
        do {
            inflated = try zlib(input, limit: limit)
        } catch {
            switch error {
            case .tooLarge: throw .tooLarge("\(format) inflates past the limit of \(limit) bytes")
            case .corrupt(let reason): throw .invalid("not valid \(format): \(what) (\(reason))")
            }
        }
        var utf8 = inflated[...]
        if utf8.starts(with: [0xEF, 0xBB, 0xBF]) { utf8 = utf8.dropFirst(3) }
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw .invalid("not valid \(format): the \(noun) lyrics are not UTF-8 text")
        }
        return text
    }
}
