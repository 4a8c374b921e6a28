import Foundation
import HTTPTypes
import Hummingbird
import Logging
import LyricPoster
import SongSources
import LyricsCore
import NIOCore
import NowPlaying
import PosterGraphics
import PosterLive

/// What `serve` is told: where to listen, who may ask, the library, and how to turn a request's
/// rendering parameters into the same options the CLI would make of the same flags.
package struct ServerConfiguration: Sendable {
    package var host = "127.0.0.1"
    /// 0: any free port (the one chosen is reported through `onListening`).
    package var port = 8484
    /// Required beyond loopback; then every request needs it (Bearer or `?token=`).
    package var token: String?
    /// A second token that sees posters but cannot control the player (`--view-token`): a
    /// request that gives it may read, not `POST`.
    package var viewToken: String?
    /// The player is not controlled over HTTP, whoever asks (`--read-only`).
    package var readOnly = false
    /// Frames rendered at once; requests beyond `jobs × queueFactor` waiting get 503. A waiting
    /// request holds no thread and no picture, only its parsed request (a form upload at most
    /// `maxUploadBytes`), so the bound is generous: a page's 64 frames at once all wait their turn.
    package var jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
    package var queueFactor = 64
    package var library: [String] = []
    /// Where songs' lyrics are looked for beyond their files (`--lyrics-dir`, `--lrclib-db`): for
    /// the library's songs and the followed player's.
    package var places = LyricsPlaces()
    /// The server's rendering defaults (the command's rendering flags).
    package var defaults = RenderOptions()
    /// Turns a request's rendering parameters (`theme`, `preset`, `size`, …, as CLI flag names
    /// without dashes, with their values) into render options, exactly as the CLI parses the same
    /// flags; throws a message for a bad value. `timed`: as for `frame` (karaoke applies).
    package var makeOptions: @Sendable (_ parameters: [(String, String)], _ timed: Bool) throws -> RenderOptions
    /// Prepared songs kept at once.
    package var sessions = 8
    /// Encoded pictures kept, in bytes.
    package var cacheBytes = 64 << 20
    /// Follow the playing song over MPRIS (`--follow`): the live routes.
    package var follow: FollowSettings?
    /// Seconds a connection may sit without sending a whole request (also bounds slow headers).
    package var idleTimeout = 30
    /// The largest body `POST /api/render` takes (413 beyond it).
    package var maxUploadBytes = 32 << 20
    /// Server-sent event clients at once.
    package var maxEventClients = 1024
    /// Told the address actually bound (host, port) once the server listens.
    package var onListening: @Sendable (String, Int) -> Void = { _, _ in }
    /// Told what a person running the server should know, a line at a time: what a walk of the
    /// library left out and why, and what the follow loop does (`serve` prints them on stderr).
    package var log: @Sendable (String) -> Void = { _ in }

    package init(makeOptions: @escaping @Sendable (_ parameters: [(String, String)], _ timed: Bool) throws -> RenderOptions) {
        self.makeOptions = makeOptions
    }

    /// True for the default loopback addresses, which need no token. Every other address needs
    /// one — other 127.x addresses included, so that the rule is one a test can exercise.
    package static func isLoopback(_ host: String) -> Bool {
        ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host)
    }
}

/// What `serve --follow` follows.
package struct FollowSettings: Sendable {
    /// Only this player (the name after `org.mpris.MediaPlayer2.`).
    package var player: String?
    /// Follow this MPD server instead of the MPRIS players.
    package var mpd: MPDAddress?
    /// MPD's music directory (else asked of MPD over a local socket).
    package var musicDirectory: String?
    /// Follow what this user plays on a Subsonic server.
    package var subsonic: SubsonicAddress?
    /// Follow what devices push to `POST /api/now-playing`.
    package var push = false
    /// With `push`: only this device.
    package var device: String?
    /// With `push`: seconds without a push before a playing device counts as paused.
    package var staleAfter = 30.0
    /// Shifts every line change by this many milliseconds (`--offset` plus `--latency`).
    package var offsetMs = 0
    package init() {}
}

/// `lyricposter serve`: the library's songs, frames and cards over HTTP (Hummingbird 2). Handlers
/// turn requests into the same engine calls the CLI makes, so a frame or card fetched over HTTP is
/// byte-identical to the file the CLI writes with the same options.
package enum PosterServer {
    /// Runs until SIGTERM or SIGINT (in-flight requests finish first).
    package static func run(_ configuration: ServerConfiguration) async throws {
        let server = try make(configuration)
        let following = server.follower.map { follower in Task { try? await follower.run() } }
        defer {
            server.follower?.stop()
            following?.cancel()
        }
        try await server.application.runService()
    }

    /// The application `run` serves, built apart from running it: the library scanned, the routes
    /// and the live hub set up, nothing listening and nothing followed yet. Tests drive its routes
    /// in process (HummingbirdTesting); `run` serves it on a socket.
    package static func make(_ configuration: ServerConfiguration) throws -> Server {
        let library = Library(roots: configuration.library, places: configuration.places, report: configuration.log)
        library.rescan(options: configuration.defaults)
        let metrics = ServerMetrics()
        let renderer = RenderService(configuration: configuration, metrics: metrics)
        let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: GuardMiddleware(token: configuration.token, viewToken: configuration.viewToken))
        router.get("/metrics") { _, _ in metrics.response() }
        let routes = Routes(library: library, renderer: renderer, configuration: configuration)
        routes.register(on: router)
        var follower: Follower?
        if let follow = configuration.follow {
            let hub = LiveHub(maxClients: configuration.maxEventClients, metrics: metrics)
            var options = FollowOptions(render: configuration.defaults, output: "")
            options.render.karaoke = false
            options.player = follow.player
            options.places = configuration.places
            options.writesPosters = false
            options.offsetMs = follow.offsetMs
            options.observer = { hub.receive($0) }
            let defaults = configuration.defaults
            options.libraryCover = { title, artist, limit in library.cover(title: title, artist: artist, maxBytes: limit, options: defaults) }
            let source: any PlayerSource
            var bus: Bus?
            if follow.push {
                let push = PushSource(device: follow.device, staleAfter: follow.staleAfter)
                LiveRoutes.registerPush(on: router, source: push, maxLyricsBytes: configuration.defaults.maxLyricsBytes)
                source = push
            } else if let subsonic = follow.subsonic {
                source = SubsonicSource(address: subsonic, log: configuration.log)
            } else if let mpd = follow.mpd {
                source = MPDWatcher(address: mpd, musicDirectory: follow.musicDirectory, log: configuration.log)
            } else {
                let session: Bus
                do { session = try Bus() } catch { throw PosterError(path: "D-Bus", reason: error.description) }
                bus = session
                source = PlayerWatcher(bus: session, player: follow.player, excluding: [PublishedPlayer.name])
            }
            follower = Follower(options: options, source: source, bus: bus, log: configuration.log)
            let controls = PlayerControlRoutes(source: source, configuration: configuration, metrics: metrics)
            LiveRoutes(hub: hub, routes: routes, controls: controls).register(on: router)
            controls.register(on: router)
            if !follow.push { LiveRoutes.registerNoPush(on: router) }
        } else {
            LiveRoutes.registerNotFollowing(on: router)
            PlayerControlRoutes.registerNotFollowing(on: router)
            LiveRoutes.registerNoPush(on: router)
        }
        let application = Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: .seconds(Int64(configuration.idleTimeout)))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "lyricposter"),
            onServerRunning: { channel in
                configuration.onListening(configuration.host, channel.localAddress?.port ?? configuration.port)
            },
            logger: Self.logger
        )
        return Server(application: application, follower: follower)
    }

    /// Hummingbird's own log: warnings and errors only. Its start-up line repeats the one
    /// `onListening` prints (which `--quiet` silences).
    static var logger: Logger {
        var logger = Logger(label: "lyricposter")
        logger.logLevel = .warning
        return logger
    }

    /// What `make` builds: the application, and the follower `run` starts beside it (`--follow`).
    package struct Server {
        package let application: Application<RouterResponder<BasicRequestContext>>
        package let follower: Follower?
    }
}

/// A failure a client caused or must be told about, answered as `{"error": "…"}` with its status.
struct APIError: Error, HTTPResponseError {
    var status: HTTPResponse.Status
    var message: String
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: API.encoded(API.Failure(error: message)) + "\n")))
    }
}

/// The token check and the headers every answer carries.
struct GuardMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let token: String?
    var viewToken: String? = nil

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        // The health check answers anyone (a load balancer's probe has no token), and so do the app's
        // own pages, scripts and style sheet (the same in every copy of the binary; a page cannot
        // put a token on the scripts it loads): none tells anything of the library.
        if let token, !Self.open.contains(request.uri.path), !Self.authorised(request, token: token),
           !(viewToken.map { Self.authorised(request, token: $0) } ?? false) {
            var error = APIError(.unauthorized, "a token is required: Authorization: Bearer TOKEN, or ?token=TOKEN")
            error.headers[.wwwAuthenticate] = "Bearer"
            response = try error.response(from: request, context: context)
        } else if request.method != .get, request.method != .head, Self.viewOnly(request, token: token, viewToken: viewToken) {
            response = try APIError(.forbidden, "this token only views posters (--view-token): controlling needs the server's --token")
                .response(from: request, context: context)
        } else {
            do { response = try await next(request, context) } catch let error as APIError {
                response = try error.response(from: request, context: context)
            } catch let error as HTTPError {
                response = try APIError(error.status, error.body ?? error.status.reasonPhrase).response(from: request, context: context)
            }
        }
        response.headers[.contentSecurityPolicy] = "default-src 'self'"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[Self.referrerPolicy] = "no-referrer"
        return response
    }

    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let open: Set<String> = Set(["/healthz", "/favicon.ico"] + Assets.table.map(\.path))

    /// Whether `request` may only look (it gave the view token, not the full one); a view-only
    /// request may not `POST`.
    static func viewOnly(_ request: Request, token: String?, viewToken: String?) -> Bool {
        guard let token, let viewToken else { return false }
        return !authorised(request, token: token) && authorised(request, token: viewToken)
    }

    static func authorised(_ request: Request, token: String) -> Bool {
        var offered: String?
        if let header = request.headers[.authorization], header.hasPrefix("Bearer ") { offered = String(header.dropFirst(7)) }
        if offered == nil { offered = request.uri.queryParameters.get("token") }
        guard let offered else { return false }
        return constantTimeEqual(Array(offered.utf8), Array(token.utf8))
    }

    /// Compares every byte whatever the first difference, so timing tells nothing of the token.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<max(a.count, b.count) {
            difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
        }
        return difference == 0
    }
}
