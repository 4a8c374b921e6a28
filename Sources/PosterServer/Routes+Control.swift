import Foundation
import HTTPTypes
import Hummingbird
import Locks
import Metrics
import NIOCore
import NowPlaying

/// `POST /api/player/{play,pause,toggle,next,previous,seek}` (`serve --follow`): the lock
/// screen's controls, carried out by the followed source (``PlayerSource/control(_:)``).
///
/// Answers 204 once the player took the command (what it then does reaches pages as events, like
/// any change of the player); 409 when it cannot (nothing plays, not seekable, a read-only
/// source); 422 for a position out of range (negative, past the track's end, beyond 24 h); 400 for
/// a body or query that is not a position; 403 for a read-only server (`--read-only`), a view-only
/// token, another site's page, or a loopback server asked under a name that is not loopback; 503
/// when the player does not answer within its timeout or too many controls wait.
struct PlayerControlRoutes: Sendable {
    let source: any PlayerSource
    let configuration: ServerConfiguration
    let metrics: ServerMetrics
    /// Controls are carried out one at a time, on a thread of their own: a player's answer may take
    /// up to its timeout (2 s over D-Bus, 3 s for MPD), which must not hold a server thread.
    private let queue = DispatchQueue(label: "lyricposter-control")
    private let waiting = Guarded(0)

    /// Controls waiting at once beyond which a request is answered 503 at once.
    static let maxWaiting = 8
    /// The longest body a seek takes.
    static let maxBodyBytes = 1024

    init(source: any PlayerSource, configuration: ServerConfiguration, metrics: ServerMetrics) {
        self.source = source
        self.configuration = configuration
        self.metrics = metrics
    }

    func register(on router: Router<BasicRequestContext>) {
        router.post("/api/player/:action") { request, context in try await control(request, context) }
    }

    /// Without `--follow`: the control routes answer 404 with how to start the server.
    static func registerNotFollowing(on router: Router<BasicRequestContext>) {
        router.post("/api/player/:action") { _, _ -> Response in throw APIError(.notFound, LiveRoutes.notFollowing) }
    }

    /// Whether `request`'s page may show controls: the server is not read-only, the source can be
    /// controlled, and the request did not come with the view-only token.
    func allowed(_ request: Request) -> Bool {
        !configuration.readOnly && source.canBeControlled
            && !GuardMiddleware.viewOnly(request, token: configuration.token, viewToken: configuration.viewToken)
    }

    func control(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let action = context.parameters.get("action") ?? ""
        guard var command = PlayerCommand(action: action) else {
            throw APIError(.notFound, "no such control: POST /api/player/ play, pause, toggle, next, previous or seek")
        }
        do {
            try refuseForeign(request)
            guard !configuration.readOnly else {
                throw APIError(.forbidden, "this server is read-only (--read-only): it shows posters but does not control the player")
            }
            if case .seek = command {
                let body = try await Routes.readBody(request, limit: Self.maxBodyBytes, tooLarge: "the body is larger than \(Self.maxBodyBytes) bytes")
                let position: Int64
                do throws(ControlRequest.Refusal) {
                    position = try ControlRequest.seekPosition(query: request.uri.queryParameters.get("position_ms"),
                                                                body: body, contentType: request.headers[.contentType])
                } catch {
                    switch error {
                    case .unsupportedType: throw APIError(.unsupportedMediaType, error.description)
                    case .outOfRange: throw APIError(.unprocessableContent, error.description)
                    case .malformed: throw APIError(.badRequest, error.description)
                    }
                }
                command = .seek(position)
            }
            try await carryOut(command)
            count(action, "done")
            return Response(status: .noContent)
        } catch let error as APIError {
            let result = switch error.status {
            case .forbidden: "refused"
            case .conflict: "cannot"
            case .serviceUnavailable: "unavailable"
            default: "invalid"
            }
            count(action, result)
            throw error
        }
    }

    /// Runs `command` on the control thread; its refusal as the HTTP answer.
    private func carryOut(_ command: PlayerCommand) async throws {
        let admitted = waiting.withLock { count -> Bool in
            guard count < Self.maxWaiting else { return false }
            count += 1
            return true
        }
        guard admitted else {
            var error = APIError(.serviceUnavailable, "too many controls are waiting for the player")
            error.headers[.retryAfter] = "2"
            throw error
        }
        let source = self.source, waiting = self.waiting
        let outcome: ControlError? = await withCheckedContinuation { continuation in
            queue.async {
                defer { waiting.withLock { $0 -= 1 } }
                do throws(ControlError) {
                    try source.control(command)
                    continuation.resume(returning: nil)
                } catch {
                    continuation.resume(returning: error)
                }
            }
        }
        switch outcome {
        case nil: return
        case .cannot(let reason): throw APIError(.conflict, reason)
        case .pastEnd: throw APIError(.unprocessableContent, outcome?.description ?? "")
        case .unavailable(let reason): throw APIError(.serviceUnavailable, reason)
        }
    }

    /// Refuses what a page of another site may send: a request whose `Origin` is not this server
    /// (browsers send it with every cross-site `POST`), and, on a server that asks no token, one
    /// addressed to a name that is not loopback (a rebound DNS name pointing at 127.0.0.1).
    func refuseForeign(_ request: Request) throws {
        let authority = (request.head.authority ?? "").lowercased()
        if let origin = request.headers[.origin] {
            guard let parts = URLComponents(string: origin), let scheme = parts.scheme, let host = parts.host,
                  ["http", "https"].contains(scheme.lowercased()) else {
                throw APIError(.forbidden, "Origin \(origin.prefix(80)): controls are taken from this server's own pages only")
            }
            let named = (host.contains(":") ? "[\(host)]" : host) + (parts.port.map { ":\($0)" } ?? "")
            guard named.lowercased() == authority else {
                throw APIError(.forbidden, "Origin \(origin.prefix(80)): controls are taken from this server's own pages only")
            }
        }
        if configuration.token == nil {
            var host = Substring(authority)
            if host.hasPrefix("[") { host = host.prefix { $0 != "]" }.dropFirst() } else if let colon = host.lastIndex(of: ":") {
                host = host[..<colon]
            }
            guard host == "localhost" || host == "::1" || host.hasPrefix("127.") else {
                throw APIError(.forbidden, "Host \(authority.prefix(80)): a server without a token takes controls on loopback names only")
            }
        }
    }

    private func count(_ action: String, _ result: String) {
        Counter(label: "lyricposter_player_controls_total", dimensions: [("action", action), ("result", result)]).increment()
    }
}

/// The position a seek asks for, read from the request as the route reads it (and as the fuzz
/// target feeds it): `?position_ms=N` or the body `{"position_ms": N}`, one or the other.
package enum ControlRequest {
    package enum Refusal: Error, Equatable, CustomStringConvertible {
        /// Not a position (400).
        case malformed(String)
        /// A position, out of range (422).
        case outOfRange(String)
        /// A body that is not JSON (415).
        case unsupportedType(String)

        package var description: String {
            switch self {
            case .malformed(let reason), .outOfRange(let reason), .unsupportedType(let reason): reason
            }
        }
    }

    /// The longest position taken: a day, as everywhere else.
    static let maxMs = 86_400_000

    /// The position in microseconds. A whole or decimal number of milliseconds (at most three
    /// decimals), from 0 to 24 h.
    package static func seekPosition(query: String?, body: [UInt8], contentType: String?) throws(Refusal) -> Int64 {
        let hasBody = body.contains { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        let milliseconds: Double
        switch (query, hasBody) {
        case (nil, false): throw .malformed("position_ms: required, in the query (?position_ms=N) or the body ({\"position_ms\": N})")
        case (.some, true): throw .malformed("position_ms: give it in the query or the body, not both")
        case (.some(let text), false):
            guard text.utf8.count <= 16, text.range(of: #"^-?[0-9]+(\.[0-9]{1,3})?$"#, options: .regularExpression) != nil,
                  let value = Double(text) else {
                throw .malformed("position_ms: a number of milliseconds (such as 83500)")
            }
            milliseconds = value
        case (nil, true):
            guard let type = contentType, type.lowercased().hasPrefix("application/json") else {
                throw .unsupportedType("send the body as application/json: {\"position_ms\": N}")
            }
            do { milliseconds = try JSONDecoder().decode(Seek.self, from: Data(body)).positionMs } catch let refusal as Refusal {
                throw refusal
            } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
                throw .malformed("position_ms: a number of milliseconds")
            } catch DecodingError.keyNotFound, DecodingError.valueNotFound {
                throw .malformed("position_ms: required, a number of milliseconds")
            } catch {
                throw .malformed("the body: one JSON object, {\"position_ms\": N}")
            }
        }
        guard milliseconds.isFinite, milliseconds >= 0, milliseconds <= Double(maxMs) else {
            throw .outOfRange("position_ms: from 0 to \(maxMs) milliseconds")
        }
        return Int64((milliseconds * 1000).rounded())
    }

    /// A seek's body: `position_ms` and nothing else.
    private struct Seek: Decodable {
        let positionMs: Double

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: JSONFieldKey.self)
            if let other = container.allKeys.map(\.stringValue).sorted().first(where: { $0 != "position_ms" }) {
                throw Refusal.malformed("\(other.prefix(40)): not a field of a seek (position_ms)")
            }
            positionMs = try container.decode(Double.self, forKey: JSONFieldKey(stringValue: "position_ms"))
        }
    }
}
