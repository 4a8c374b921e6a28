import Foundation
import HTTPTypes
import Hummingbird
import LyricPoster
import LyricsCore
import NIOCore
import NowPlaying
import PosterGraphics
import PosterLive
import ServiceLifecycle
import Locks

/// `serve --follow`: the follow loop's song, poster and player status, kept for the live routes
/// and fanned out to Server-Sent Events clients. The loop itself renders nothing here; posters are
/// rendered on request, with the requester's options, through the server's render pool.
final class LiveHub: Sendable {
    struct State: Sendable {
        var song: LiveSong?
        var poster: LivePoster?
        var player: PlayerState?
    }

    private let state = Guarded(State())
    private let clients = Guarded<(next: Int, streams: [Int: AsyncStream<LiveEvent>.Continuation])>((0, [:]))
    let maxClients: Int
    let metrics: ServerMetrics

    init(maxClients: Int, metrics: ServerMetrics) {
        self.maxClients = maxClients
        self.metrics = metrics
    }

    var now: State { state.withLock { $0 } }

    /// From the follow loop: keep it, then tell every client.
    func receive(_ event: LiveEvent) {
        state.withLock { state in
            switch event {
            case .song(let song):
                state.song = song
                state.poster = nil
            case .poster(let poster):
                if poster.generation == state.song?.generation { state.poster = poster }
            case .status(let player):
                state.player = player
            }
        }
        let streams = clients.withLock { Array($0.streams.values) }
        for stream in streams { stream.yield(event) }
    }

    /// A new client's stream (the latest 16 events kept when it reads slowly), or nil when full.
    func subscribe() -> (id: Int, events: AsyncStream<LiveEvent>)? {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self, bufferingPolicy: .bufferingNewest(16))
        let id = clients.withLock { clients -> Int? in
            guard clients.streams.count < maxClients else { return nil }
            clients.next += 1
            clients.streams[clients.next] = continuation
            return clients.next
        }
        guard let id else { return nil }
        metrics.eventClients.record(clientCount)
        return (id, stream)
    }

    func unsubscribe(_ id: Int) {
        let stream = clients.withLock { $0.streams.removeValue(forKey: id) }
        stream?.finish()
        metrics.eventClients.record(clientCount)
    }

    var clientCount: Int { clients.withLock { $0.streams.count } }
}

/// The live routes: `/now.json`, `/now.png`, `/now/{song}/{start}.png` (immutable) and `/events`.
struct LiveRoutes: Sendable {
    let hub: LiveHub
    let routes: Routes
    /// The player controls, for telling pages which to show.
    let controls: PlayerControlRoutes

    /// Rendering parameters a live request may give (those of frames, and `layer`).
    static let parameters = Routes.renderParameters + ["layer"]

    func register(on router: Router<BasicRequestContext>) {
        router.get("/now.json") { request, _ in try nowJSON(request) }
        router.get("/now.png") { request, _ in try await nowPicture(request) }
        router.get("/now/:song/:frame") { request, context in try await poster(request, context) }
        router.get("/events") { request, _ in try events(request) }
    }

    /// Without `--follow`: the live routes answer 404 with how to start the server so that they
    /// answer (what `/overlay` shows, and what a script is told).
    static func registerNotFollowing(on router: Router<BasicRequestContext>) {
        for path in ["/now.json", "/now.png", "/now/:song/:frame", "/events"] {
            router.get(RouterPath(path)) { _, _ -> Response in throw APIError(.notFound, notFollowing) }
        }
    }

    static let notFollowing = "nothing is following a player: start the server with `lyricposter serve --follow`"

    /// `POST /api/now-playing` (`--source push`): a device's report, JSON, at most 1 MiB. 204 when
    /// taken; 400 for a body that is not a JSON object of the known fields, 422 for a known field
    /// with a bad value, 413 for a larger body, 415 for another content type.
    static func registerPush(on router: Router<BasicRequestContext>, source: PushSource, maxLyricsBytes: Int) {
        router.post("/api/now-playing") { request, _ -> Response in
            guard let type = request.headers[.contentType], type.lowercased().hasPrefix("application/json") else {
                throw APIError(.unsupportedMediaType, "send application/json")
            }
            let limit = PushSource.maxBodyBytes
            let body = try await Routes.readBody(request, limit: limit, tooLarge: "the body is larger than \(limit >> 10) KiB")
            do throws(PushSource.Refusal) {
                try source.receive(try PushSource.parse(Data(body), maxLyricsBytes: maxLyricsBytes))
            } catch {
                if case .invalid = error { throw APIError(.unprocessableContent, error.description) }
                throw APIError(.badRequest, error.description)
            }
            return Response(status: .noContent)
        }
    }

    /// Without `--source push`, a push is answered 409 with how to take pushes.
    static func registerNoPush(on router: Router<BasicRequestContext>) {
        router.post("/api/now-playing") { _, _ -> Response in
            throw APIError(.conflict, "this server does not take pushes: start it with `lyricposter serve --source push`")
        }
    }

    /// The request's rendering parameters, checked, in a fixed order (they make poster addresses).
    func parameters(_ request: Request) throws -> [(String, String)] {
        var parameters = try routes.renderParameters(request)
        if let layer = request.uri.queryParameters.get("layer") {
            guard layer == "full" || layer == "text" else { throw APIError(.badRequest, "layer: full or text") }
            if layer == "text" { parameters.append(("layer", "text")) }
        }
        return parameters
    }

    /// `/now/{song}/{start_ms}.png` with the parameters: the poster's address, the same bytes for
    /// as long as the song is followed.
    static func posterPath(generation: Int, startMs: Int, parameters: [(String, String)]) -> String {
        let query = parameters.map { "\($0.0)=\(Self.escape($0.1))" }.joined(separator: "&")
        return "/now/\(generation)/\(startMs).png" + (query.isEmpty ? "" : "?" + query)
    }

    static func escape(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
    }

    // MARK: State

    func nowJSON(_ request: Request) throws -> Response {
        let parameters = try self.parameters(request)
        let now = hub.now
        var value = API.Now(status: Self.status(now.player), player: .init(now.player?.name), playing: now.player?.status == .playing,
                            controls: .init(Self.offered(now.player, allowed: controls.allowed(request))),
                            durationMs: .init(now.player?.metadata.length.map { Int($0 / 1000) }), poster: .init(nil))
        if let song = now.song {
            value.track = song.title
            value.artist = .init(song.song.lyrics.metadata.artist)
        }
        if let song = now.song, let poster = now.poster {
            let line = poster.frame.scene.lineIndex.flatMap { $0 < song.song.lyrics.lines.count ? song.song.lyrics.lines[$0] : nil }
            let next = poster.index + 1 < song.frames.count ? song.frames[poster.index + 1].startMs : nil
            value.line = .init(song.lineNumber(poster.frame))
            value.text = .init(poster.text)
            value.translation = .init(line?.translation)
            value.startMs = poster.frame.startMs
            value.endMs = poster.frame.endMs
            value.positionMs = .init(now.player.map { Int($0.clock.position() / 1000) })
            value.nextChangeMs = .init(next)
            value.poster = .init(Self.posterPath(generation: poster.generation, startMs: poster.frame.startMs, parameters: parameters))
        }
        var response = Routes.json(value)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The controls a page may show for `player`: nil when the request may not control.
    static func offered(_ player: PlayerState?, allowed: Bool) -> [String]? {
        allowed ? (player?.controls ?? []).names : nil
    }

    static func status(_ player: PlayerState?) -> String {
        guard let player else { return "waiting" }
        switch player.status {
        case .playing: return "playing"
        case .paused: return "paused"
        case .stopped: return "stopped"
        }
    }

    // MARK: Posters

    /// The poster on screen now (`Cache-Control: no-store`; its ETag names the poster).
    func nowPicture(_ request: Request) async throws -> Response {
        let now = hub.now
        guard let song = now.song, let poster = now.poster else { throw APIError(.notFound, "nothing is playing") }
        var response = try await render(request, song: song, startMs: poster.frame.startMs)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// A poster by its address: the current song's frame starting at `start_ms`.
    func poster(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        guard let generation = context.parameters.get("song").flatMap({ Int($0) }),
              let name = context.parameters.get("frame"), name.hasSuffix(".png"),
              let start = Int(name.dropLast(4)) else { throw APIError(.notFound, "no such poster") }
        guard let song = hub.now.song, song.generation == generation,
              song.frames.contains(where: { $0.startMs == start }) else {
            throw APIError(.notFound, "no such poster (the song is no longer playing)")
        }
        var response = try await render(request, song: song, startMs: start)
        response.headers[.cacheControl] = "public, max-age=31536000, immutable"
        return response
    }

    func render(_ request: Request, song: LiveSong, startMs: Int) async throws -> Response {
        let parameters = try self.parameters(request)
        var options = try routes.makeOptions(parameters.filter { $0.0 != "layer" }, timed: false)
        // As `follow` renders: a poster per line, no word-by-word fill.
        options.karaoke = false
        options.textLayer = parameters.contains { $0.0 == "layer" }
        let key = "live\n\(song.generation)"
        let session = song.song
        return try await routes.picture(request, key: key, options: options, kind: "live\n\(startMs)", make: { options in
            try PosterSession(song: session, options: options, allowUntitled: true)
        }) { prepared in
            try prepared.session.render(at: Timestamp(milliseconds: startMs)).png
        }
    }

    // MARK: Events

    /// Server-Sent Events: `status`, `song` and `poster` now, then each as it happens; a comment
    /// every 15 s keeps proxies from closing a quiet stream. Ends when the server stops.
    func events(_ request: Request) throws -> Response {
        let parameters = try self.parameters(request)
        let allowed = controls.allowed(request)
        guard let (id, stream) = hub.subscribe() else {
            var error = APIError(.serviceUnavailable, "too many event clients")
            error.headers[.retryAfter] = "5"
            throw error
        }
        let hub = self.hub
        let first = hub.now
        let headers: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
                                   HTTPField.Name("X-Accel-Buffering")!: "no"]
        return Response(status: .ok, headers: headers, body: .init { writer in
            defer { hub.unsubscribe(id) }
            var opening = "retry: 2000\n\n" + Self.message(.status(first.player), state: first, parameters: parameters, allowed: allowed)
            if first.song != nil { opening += Self.message(.song(first.song), state: first, parameters: parameters, allowed: allowed) }
            if let poster = first.poster { opening += Self.message(.poster(poster), state: first, parameters: parameters, allowed: allowed) }
            try await writer.write(ByteBuffer(string: opening))
            let heartbeat = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(15))
                    hub.ping(id)
                }
            }
            defer { heartbeat.cancel() }
            try await withGracefulShutdownHandler {
                for await event in stream {
                    let text = Self.message(event, state: hub.now, parameters: parameters, allowed: allowed)
                    try await writer.write(ByteBuffer(string: text.isEmpty ? ": ping\n\n" : text))
                }
            } onGracefulShutdown: {
                hub.unsubscribe(id)
            }
            try await writer.finish(nil)
        })
    }

    /// One event as SSE text (empty for an event clients are not told about).
    static func message(_ event: LiveEvent, state: LiveHub.State, parameters: [(String, String)], allowed: Bool) -> String {
        let (name, data): (String, String)
        switch event {
        case .status(let player):
            name = "status"
            let playing = player?.status == .playing
            data = API.encoded(API.StatusEvent(
                controls: .init(offered(player, allowed: allowed)), durationMs: .init(player?.metadata.length.map { Int($0 / 1000) }),
                player: .init(player?.name), positionMs: .init(player.map { Int($0.clock.position() / 1000) }),
                rate: playing ? player?.clock.rate ?? 1 : 0, status: status(player)))
        case .song(let song):
            name = "song"
            data = API.encoded(API.SongEvent(artist: .init(song?.song.lyrics.metadata.artist), frames: song?.frames.count ?? 0,
                                             track: .init(song?.title)))
        case .poster(let poster):
            guard let song = state.song, song.generation == poster.generation else { return "" }
            let number = song.lineNumber(poster.frame)
            name = "poster"
            // The next line's poster, for clients to fetch ahead.
            let next = poster.index + 1 < song.frames.count
                ? posterPath(generation: poster.generation, startMs: song.frames[poster.index + 1].startMs, parameters: parameters)
                : nil
            data = API.encoded(API.PosterEvent(
                line: .init(number), next: .init(next),
                poster: posterPath(generation: poster.generation, startMs: poster.frame.startMs, parameters: parameters),
                startMs: poster.frame.startMs, text: .init(poster.text), track: song.title))
        }
        return "event: \(name)\ndata: \(data)\n\n"
    }
}

extension LiveHub {
    /// Wakes one client's stream with a status event (the heartbeat: the client sees it as a
    /// repeated status, harmless).
    func ping(_ id: Int) {
        let player = state.withLock { $0.player }
        _ = clients.withLock { $0.streams[id] }?.yield(.status(player))
    }
}

extension LiveSong {
    /// The sung line's number (as `card` and the app count them) that `frame` shows as current.
    func lineNumber(_ frame: PlannedFrame) -> Int? {
        let numbers = song.lyrics.lineNumbers
        return frame.scene.lineIndex.flatMap { numbers.indices.contains($0) ? numbers[$0] : nil }
    }
}
