import AsyncHTTPClient
import Foundation
import Locks
import NIOCore
import NIOPosix
import PosterGraphics

/// Cover art a player names by `http(s)://` URL (streaming services, browsers), fetched with
/// AsyncHTTPClient: 3 s at most, the cover size limit, http and https only (redirects too, at most
/// 3), and kept per URL (the last 16), so a song's art is fetched once however often its metadata
/// is re-sent. Failures are kept too (for a minute), so a dead URL does not stall every change.
final class CoverFetcher: Sendable {
    static let shared = CoverFetcher()

    struct Failure: Error, Sendable { let message: String }

    private let cache = Guarded<[(url: String, result: Result<Data, Failure>, at: Date)]>([])
    static let timeoutMs: Int64 = 3000
    static let entries = 16

    /// One client for the process, on NIO's shared event loops (as many threads as cores, started
    /// at the first fetch). It lives as long as the process: `follow` and `serve --follow` end by
    /// exiting, so it is never shut down.
    private static let client = HTTPClient(
        eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
        configuration: HTTPClient.Configuration(
            redirectConfiguration: .follow(max: 3, allowCycles: false),
            timeout: .init(connect: .milliseconds(timeoutMs), read: .milliseconds(timeoutMs))
        )
    )

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

    /// One bounded GET, waited for on the caller's thread (the follower's queue, never an event
    /// loop). The body is refused as soon as it is known to pass `maxBytes`.
    static func get(_ url: String, maxBytes: Int) -> Result<Data, Failure> {
        // (The caller, NowPlayingSong.artwork, passes http and https URLs only.)
        guard url.utf8.count <= 8192, !url.utf8.contains(0) else { return .failure(Failure(message: "not a usable URL")) }
        let limit = min(max(1, maxBytes), Int(UInt32.max))
        do {
            var request = try HTTPClient.Request(url: url, method: .GET)
            request.headers.replaceOrAdd(name: "User-Agent", value: "lyricposter")
            let delegate = ResponseAccumulator(request: request, maxBodySize: limit)
            let response = try client.execute(request: request, delegate: delegate,
                                              deadline: .now() + .milliseconds(timeoutMs)).wait()
            guard response.status == .ok else { return .failure(Failure(message: "HTTP status \(response.status.code)")) }
            guard let body = response.body, body.readableBytes > 0 else { return .failure(Failure(message: "an empty answer")) }
            return .success(Data(body.readableBytesView))
        } catch is ResponseAccumulator.ResponseTooBigError {
            return .failure(Failure(message: "larger than \(limit) bytes"))
        } catch let error as HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .tlsHandshakeTimeout:
                return .failure(Failure(message: "timed out after \(timeoutMs) ms"))
            case .redirectLimitReached: return .failure(Failure(message: "more than 3 redirects"))
            case .redirectCycleDetected: return .failure(Failure(message: "a redirect cycle"))
            case .invalidURL, .emptyHost, .emptyScheme: return .failure(Failure(message: "not a usable URL"))
            default: return .failure(Failure(message: "\(error)"))
            }
        } catch {
            return .failure(Failure(message: "\(error)"))
        }
    }
}
