import CCurlShim
import Foundation
import PosterGraphics
import Locks

/// Cover art a player names by `http(s)://` URL (streaming services, browsers), fetched with
/// libcurl: 3 s at most, the cover size limit, http and https only (redirects too), and kept per
/// URL (the last 16), so a song's art is fetched once however often its metadata is re-sent.
/// Failures are kept too (for a minute), so a dead URL does not stall every change.
final class CoverFetcher: Sendable {
    static let shared = CoverFetcher()

    struct Failure: Error, Sendable { let message: String }

    private let cache = Guarded<[(url: String, result: Result<Data, Failure>, at: Date)]>([])
    static let timeoutMs = 3000
    static let entries = 16

    func fetch(_ url: String, maxBytes: Int) -> Result<Data, Failure> {
        if let kept = cache.withLock({ $0.first { $0.url == url } }),
           case .success = kept.result { return kept.result }
        else if let kept = cache.withLock({ $0.first { $0.url == url } }), Date().timeIntervalSince(kept.at) < 60 {
            return kept.result
        }
        let result = Self.get(url, maxBytes: maxBytes)
        cache.withLock { cache in
            cache.removeAll { $0.url == url }
            cache.insert((url, result, Date()), at: 0)
            if cache.count > Self.entries { cache.removeLast() }
        }
        return result
    }

    static func get(_ url: String, maxBytes: Int) -> Result<Data, Failure> {
        guard url.utf8.count <= 8192, !url.utf8.contains(0) else { return .failure(Failure(message: "not a usable URL")) }
        var data: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = [CChar](repeating: 0, count: 256)
        let status = lp_http_get(url, timeoutMs, max(1, maxBytes), &data, &length, &error, error.count)
        guard status == 0, let data else {
            return .failure(Failure(message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        defer { lp_http_free(data) }
        guard length > 0 else { return .failure(Failure(message: "an empty answer")) }
        return .success(Data(bytes: data, count: length))
    }
}
