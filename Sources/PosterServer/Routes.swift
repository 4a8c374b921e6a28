import Foundation
import HTTPTypes
import Hummingbird
import LyricPoster
import SongSources
import LyricsCore
import MediaTags
import NIOCore
import PosterGraphics

/// The HTTP API: health, the song list, a song's lyrics, its frames and its cards.
struct Routes: Sendable {
    let library: Library
    let renderer: RenderService
    let configuration: ServerConfiguration

    /// Rendering parameters a request may give, as the CLI flags of the same names.
    static let renderParameters = ["theme", "preset", "size", "translations", "romanisation", "before", "after", "lang"]
    static let maxSide = 4096
    static let maxTimeMs = 24 * 3600 * 1000

    /// GET routes (HEAD is answered for each by the router: the same headers, no body).
    func register(on router: Router<BasicRequestContext>) {
        router.get("/healthz") { _, _ in "ok\n" }
        // Browsers ask for it unprompted; there is none (and no error in their consoles).
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        router.get("/api/themes") { _, _ in themes() }
        router.get("/api/songs") { request, _ in try songs(request) }
        router.post("/api/rescan") { _, _ in rescan() }
        router.get("/api/songs/:id") { request, context in try await song(request, context) }
        router.get("/api/songs/:id/plan") { request, context in try await plan(request, context) }
        router.get("/api/songs/:id/frame.png") { request, context in try await frame(request, context) }
        router.get("/api/songs/:id/card.png") { request, context in try await card(request, context) }
        router.get("/api/songs/:id/audio") { request, context in try await audio(request, context) }
        router.post("/api/render") { request, context in try await render(request, context) }
        Assets.register(on: router)
    }

    // MARK: The library

    /// The themes and presets a request may name, and the server's defaults.
    func themes() -> Response {
        let defaults = configuration.defaults
        return Self.json(API.Themes(defaultPreset: defaults.preset.name, defaultTheme: defaults.theme.name,
                                    defaultTranslations: defaults.translations.rawValue, following: configuration.follow != nil,
                                    presets: Preset.all.map(\.name), themes: Theme.builtIn.map(\.name)))
    }

    /// Walks the library folders again in the background; the list is served meanwhile.
    func rescan() -> Response {
        renderer.forget()
        library.rescan(options: configuration.defaults)
        return Response(status: .accepted, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(string: API.encoded(API.Scanning(scanning: true)) + "\n")))
    }

    func songs(_ request: Request) throws -> Response {
        let query = request.uri.queryParameters
        let offset = try Self.integer(query.get("offset"), name: "offset", in: 0...Int(Int32.max)) ?? 0
        let limit = try Self.integer(query.get("limit"), name: "limit", in: 1...1000) ?? 100
        let q = query.get("q")
        if let q, q.utf8.count > 256 { throw APIError(.badRequest, "q: at most 256 bytes") }
        let (songs, total) = library.songs(matching: q, offset: offset, limit: limit)
        let items = songs.map { song in
            API.Songs.Item(album: .init(song.album), artist: .init(song.artist), durationMs: .init(song.durationMs), file: song.file,
                           format: song.format, id: song.id, lineCount: song.lineCount, problem: .init(song.problem), title: .init(song.title))
        }
        return Self.json(API.Songs(scanning: library.isScanning, songs: items, total: total))
    }

    func song(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let song = try self.song(context)
        let options = configuration.defaults
        let body = try await renderer.render { () throws -> String in
            do {
                if case .audio(let audio, _, let lyrics) = song.source {
                    return try SongResolver.inspectJSON(audio: audio, lyrics: lyrics, options: options)
                }
                guard case .files(_, let lyrics) = song.source else { return "{}" }
                return try Inputs.lyrics(lyrics, format: options.format, encoding: options.encoding, offsetSign: options.offsetSign,
                                         translationLanguage: options.readOptions.translationLanguage,
                                         limit: options.maxLyricsBytes).inspectJSON()
            } catch let error as PosterError {
                throw APIError(.unprocessableContent, "\(song.file): \(error.reason)")
            }
        }
        return Self.json(body)
    }

    // MARK: Pictures

    func frame(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let song = try self.song(context)
        let query = request.uri.queryParameters
        guard let atText = query.get("at") else { throw APIError(.badRequest, "at: required (milliseconds)") }
        let at = try Self.integer(atText, name: "at", in: -Self.maxTimeMs...Self.maxTimeMs) ?? 0
        var parameters = try renderParameters(request)
        let karaoke = try Self.flag(query.get("karaoke"), name: "karaoke") ?? true
        if !karaoke { parameters.append(("karaoke", "false")) }
        let options = try makeOptions(parameters, timed: true)
        return try await picture(request, song: song, options: options, kind: "frame\n\(at)") { prepared in
            try prepared.session.render(at: Timestamp(milliseconds: at)).png
        }
    }

    func card(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let song = try self.song(context)
        let query = request.uri.queryParameters
        let choice = try Self.choice(lines: query.get("lines"), quote: query.get("quote"))
        let options = try makeOptions(try renderParameters(request), timed: false)
        return try await picture(request, song: song, options: options, kind: "card\n\(choice)") { prepared in
            do { return try prepared.session.renderCard(choice).png } catch let error as PosterError {
                // The choice does not fit the song (past its end, no match, does not fit the canvas).
                throw APIError(.unprocessableContent, error.reason)
            }
        }
    }

    /// Serves a picture: its ETag from the song's render key and the request, 304 for a matching
    /// If-None-Match, from the cache when kept, else rendered (on a render thread) and kept.
    func picture(_ request: Request, song: LibrarySong, options: RenderOptions, kind: String,
                 draw: @escaping @Sendable (RenderService.Prepared) throws -> [UInt8]) async throws -> Response {
        try await picture(request, key: song.id, options: options, kind: kind, make: song.session, draw: draw)
    }

    func picture(_ request: Request, key: String, options: RenderOptions, kind: String,
                 make: @escaping @Sendable (RenderOptions) throws -> PosterSession,
                 draw: @escaping @Sendable (RenderService.Prepared) throws -> [UInt8]) async throws -> Response {
        let renderer = self.renderer
        // A picture served before is answered at once, off the render queue: its request's key
        // names its ETag, and the cache may still hold its bytes.
        let requestKey = key + "\n" + options.fingerprint.joined(separator: "\n") + "\n" + kind
        if let etag = renderer.knownETag(requestKey) {
            if request.headers[.ifNoneMatch] == etag { return Self.picture(etag: etag, bytes: nil) }
            if let kept = renderer.cached(etag) { return Self.picture(etag: etag, bytes: kept) }
        }
        let (etag, bytes) = try await renderer.render { () throws -> (String, [UInt8]?) in
            let prepared = try renderer.prepared(key: key, options: options, make: make)
            let etag = "\"" + String(Digest.sha256(Data((prepared.renderKey + "\n" + kind).utf8)).prefix(32)) + "\""
            renderer.remember(etag, for: requestKey)
            if request.headers[.ifNoneMatch] == etag { return (etag, nil) }
            if let kept = renderer.cached(etag) { return (etag, kept) }
            let png: [UInt8]
            do { png = try draw(prepared) } catch let error as PosterError { throw APIError(.unprocessableContent, error.reason) }
            renderer.keep(png, etag: etag)
            return (etag, png)
        }
        return Self.picture(etag: etag, bytes: bytes)
    }

    /// A picture's answer: 200 with its bytes, or 304 without.
    static func picture(etag: String, bytes: [UInt8]?) -> Response {
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "public, max-age=3600"]
        guard let bytes else { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = "image/png"
        headers[.contentLength] = String(bytes.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    // MARK: Parameters

    func song(_ context: BasicRequestContext) throws -> LibrarySong {
        guard let id = context.parameters.get("id"), id.utf8.count == 16, id.allSatisfy(\.isHexDigit), let song = library.song(id) else {
            throw APIError(.notFound, "no such song")
        }
        return song
    }

    /// The request's rendering parameters, checked against the server's limits (known themes and
    /// presets only, sizes up to 4096×4096); the CLI's parser checks the rest.
    func renderParameters(_ request: Request) throws -> [(String, String)] {
        let query = request.uri.queryParameters
        return try checkedParameters { query.get($0) }
    }

    /// The rendering parameters `value` gives (a query's or a form's), checked the same way.
    func checkedParameters(_ value: (String) -> String?) throws -> [(String, String)] {
        var parameters: [(String, String)] = []
        for name in Self.renderParameters {
            guard let value = value(name) else { continue }
            guard value.utf8.count <= 64 else { throw APIError(.badRequest, "\(name): too long") }
            switch name {
            case "theme":
                guard Theme.named(value) != nil else {
                    throw APIError(.badRequest, "theme: one of \(Theme.builtIn.map(\.name).joined(separator: ", "))")
                }
            case "size":
                let sides = value.lowercased().split(separator: "x").compactMap { Int($0) }
                guard sides.count == 2, sides.allSatisfy({ (64...Self.maxSide).contains($0) }) else {
                    throw APIError(.badRequest, "size: WIDTHxHEIGHT, each side from 64 to \(Self.maxSide)")
                }
            default: break
            }
            parameters.append((name, value))
        }
        return parameters
    }

    func makeOptions(_ parameters: [(String, String)], timed: Bool) throws -> RenderOptions {
        do { return try configuration.makeOptions(parameters, timed) } catch let error as APIError { throw error } catch {
            throw APIError(.badRequest, "\(error)")
        }
    }

    static func integer(_ text: String?, name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw APIError(.badRequest, "\(name): a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    static func flag(_ text: String?, name: String) throws -> Bool? {
        guard let text else { return nil }
        switch text {
        case "1", "true", "yes": return true
        case "0", "false", "no": return false
        default: throw APIError(.badRequest, "\(name): true or false")
        }
    }

    static func json(_ value: some Encodable) -> Response {
        json(API.encoded(value))
    }

    static func json(_ body: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: body + "\n")))
    }
}
