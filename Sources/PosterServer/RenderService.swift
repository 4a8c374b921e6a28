import Foundation
import LyricPoster
import LyricsCore
import PosterGraphics
import Locks

/// Prepared songs and encoded pictures, bounded, and a bounded number of renders at once.
///
/// A song prepared for some options (cover decoded, backdrop, fonts) is kept in a small LRU; up to
/// `jobs` pictures render at once, of one song or of several. A request waiting for its turn holds
/// no thread, only its parsed request; requests beyond `jobs × queueFactor` waiting are refused
/// (503 with Retry-After). Encoded pictures are kept by their ETag in an LRU bounded in bytes.
final class RenderService: Sendable {
    private let configuration: ServerConfiguration
    private let sessions = Guarded<[(key: String, session: Prepared)]>([])
    private let pictures = Guarded<(entries: [(etag: String, bytes: [UInt8])], total: Int)>(([], 0))
    /// Requests' keys (song, options, picture) → the ETag of the picture they got, bounded.
    private let etags = Guarded<[String: String]>([:])
    private let load = Guarded<(running: Int, waiting: Int)>((0, 0))
    private let slots: WorkLimiter
    let metrics: ServerMetrics

    /// A prepared song; any number of threads render from it at once.
    final class Prepared: Sendable {
        let session: PosterSession
        /// Read once, before any render: the session's font library is not read while another
        /// thread renders with it.
        let renderKey: String
        init(_ session: PosterSession) {
            self.session = session
            renderKey = session.renderKey
        }
    }

    init(configuration: ServerConfiguration, metrics: ServerMetrics) {
        self.configuration = configuration
        self.metrics = metrics
        slots = WorkLimiter(slots: configuration.jobs)
    }

    /// Requests waiting or rendering now.
    var queueDepth: Int { load.withLock { $0.running + $0.waiting } }

    /// Runs `work` on a render thread when a slot is free (the task waits without a thread);
    /// refuses at once when too many wait.
    func render<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let admitted = load.withLock { load -> Bool in
            guard load.waiting < configuration.jobs * configuration.queueFactor else { return false }
            load.waiting += 1
            return true
        }
        metrics.queueDepth.record(queueDepth)
        guard admitted else {
            var error = APIError(.serviceUnavailable, "the render queue is full; try again shortly")
            error.headers[.retryAfter] = "1"
            throw error
        }
        return try await slots.run { [self] () throws -> T in
            load.withLock { $0.waiting -= 1; $0.running += 1 }
            let started = DispatchTime.now().uptimeNanoseconds
            defer {
                load.withLock { $0.running -= 1 }
                metrics.renderSeconds.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - started))
                metrics.queueDepth.record(queueDepth)
            }
            return try work()
        }
    }

    /// The song prepared for `options` (made and kept if new). Call on a render thread.
    func prepared(_ song: LibrarySong, options: RenderOptions) throws -> Prepared {
        try prepared(key: song.id, options: options, make: song.session)
    }

    /// The session `make` prepares for `options`, kept under `key` and the options.
    func prepared(key song: String, options: RenderOptions, make: (RenderOptions) throws -> PosterSession) throws -> Prepared {
        let key = song + "\n" + options.fingerprint.joined(separator: "\n")
        if let found = sessions.withLock({ list -> Prepared? in
            guard let i = list.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = list.remove(at: i)
            list.insert(entry, at: 0)
            return entry.session
        }) { return found }
        let prepared = Prepared(try make(options))
        sessions.withLock { list in
            list.insert((key, prepared), at: 0)
            if list.count > configuration.sessions { list.removeLast() }
        }
        return prepared
    }

    func knownETag(_ requestKey: String) -> String? { etags.withLock { $0[requestKey] } }

    func remember(_ etag: String, for requestKey: String) {
        etags.withLock { etags in
            // Bounded: forgotten wholesale when full (they are relearned on the next render).
            if etags.count >= 65536 { etags.removeAll(keepingCapacity: true) }
            etags[requestKey] = etag
        }
    }

    /// Drops prepared songs and what requests were answered (after a rescan: files may have changed).
    func forget() {
        etags.withLock { $0.removeAll() }
        sessions.withLock { $0.removeAll() }
    }

    func cached(_ etag: String) -> [UInt8]? {
        let found = pictures.withLock { state -> [UInt8]? in
            guard let i = state.entries.firstIndex(where: { $0.etag == etag }) else { return nil }
            let entry = state.entries.remove(at: i)
            state.entries.insert(entry, at: 0)
            return entry.bytes
        }
        (found == nil ? metrics.cacheMisses : metrics.cacheHits).increment()
        return found
    }

    func keep(_ bytes: [UInt8], etag: String) {
        guard bytes.count <= configuration.cacheBytes / 4 else { return }
        pictures.withLock { state in
            guard !state.entries.contains(where: { $0.etag == etag }) else { return }
            state.entries.insert((etag, bytes), at: 0)
            state.total += bytes.count
            while state.total > configuration.cacheBytes, let last = state.entries.popLast() { state.total -= last.bytes.count }
        }
    }
}
