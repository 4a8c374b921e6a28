import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LyricPoster
import NIOCore
import PosterGraphics
import PosterServer
import Testing
@testable import lyricposter

/// `serve`'s routes driven in process (HummingbirdTesting's router client): the application
/// `PosterServer.make` builds, with the request options the CLI's own `ServeCommand.options` makes.
/// The real-process tests (CLITests' ServeTests) keep the socket, curl and the browser.
@Suite(.tags(.server)) struct ServerRouteTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static func configuration(token: String? = nil) throws -> ServerConfiguration {
        let base = try RenderOptionGroup.parse([])
        var configuration = ServerConfiguration { parameters, timed in
            try ServeCommand.options(base: base, karaoke: true, parameters: parameters, timed: timed)
        }
        configuration.library = [root + "/samples"]
        configuration.defaults = try base.renderOptions()
        configuration.jobs = 2
        configuration.token = token
        return configuration
    }

    /// The id `GET /api/songs` gives the song whose lyrics file is `file` (relative to samples/),
    /// once the library's scan (in the background, as `serve` starts) has found it.
    static func songID(_ client: some TestClientProtocol, _ file: String) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let found = try await client.execute(uri: "/api/songs", method: .get) { response -> String? in
                #expect(response.status == .ok)
                let json = try JSONSerialization.jsonObject(with: Data(Array(buffer: response.body))) as? [String: Any]
                let songs = json?["songs"] as? [[String: Any]] ?? []
                return songs.first { $0["file"] as? String == file }?["id"] as? String
            }
            if let found { return found }
            try #require(ContinuousClock.now < deadline, "the library did not list \(file) within 30 s")
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test func healthAndHeadersOnEveryAnswer() async throws {
        let server = try PosterServer.make(Self.configuration())
        try await server.application.test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "ok\n")
                #expect(response.headers[.contentSecurityPolicy] == "default-src 'self'")
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
            }
            try await client.execute(uri: "/no/such/route", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
            }
        }
    }

    @Test func aTokenGuardsTheLibraryButNotTheHealthCheck() async throws {
        let server = try PosterServer.make(Self.configuration(token: "a-long-token"))
        try await server.application.test(.router) { client in
            try await client.execute(uri: "/api/songs", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == "Bearer")
                #expect(String(buffer: response.body).contains("a token is required"))
            }
            try await client.execute(uri: "/api/songs", method: .get, headers: [.authorization: "Bearer a-long-tokeN"]) { response in
                #expect(response.status == .unauthorized, "one byte off is refused")
            }
            try await client.execute(uri: "/api/songs", method: .get, headers: [.authorization: "Bearer a-long-token"]) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/songs?token=a-long-token", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok, "a probe needs no token")
            }
        }
    }

    /// Without `--follow` the live routes say how to start the server so that they answer (what
    /// `/overlay` shows), with the token still required first.
    @Test func withoutFollowTheLiveRoutesSayHowToStartIt() async throws {
        let server = try PosterServer.make(Self.configuration(token: "a-long-token"))
        try await server.application.test(.router) { client in
            for path in ["/now.json", "/now.png", "/events", "/now/abc/1000.png"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .unauthorized, "\(path)")
                }
                try await client.execute(uri: path + "?token=a-long-token", method: .get) { response in
                    #expect(response.status == .notFound, "\(path)")
                    let json = try JSONSerialization.jsonObject(with: Data(Array(buffer: response.body))) as? [String: Any]
                    #expect(json?["error"] as? String == "nothing is following a player: start the server with `lyricposter serve --follow`", "\(path)")
                }
            }
        }
    }

    /// A frame over HTTP is the library's poster of the same song and instant; a second request
    /// names it by ETag and gets 304 with no body.
    @Test func aFrameIsTheLibrarysPosterAndKeepsItsETag() async throws {
        let server = try PosterServer.make(Self.configuration())
        let song = try Song(lyricsFile: Self.root + "/samples/night-drive/night-drive.lrc", coverFile: Self.root + "/samples/night-drive/cover.jpg")
        let expected = try await PosterRenderer().render(song, at: .seconds(31), style: PosterStyle()).pixels()
        try await server.application.test(.router) { client in
            let id = try await Self.songID(client, "night-drive/night-drive.lrc")
            let etag = try await client.execute(uri: "/api/songs/\(id)/frame.png?at=31000", method: .get) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                #expect(response.headers[.contentType] == "image/png")
                let drawn = try PictureFormat.decoded(png: Array(buffer: response.body), alphaWhenTransparent: false)
                #expect(drawn.width == expected.width && drawn.height == expected.height)
                #expect(drawn.channels == 4 && drawn.bytes == expected.rgba, "the frame's pixels are the library's poster's")
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: "/api/songs/\(id)/frame.png?at=31000", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
        }
    }

    @Test(arguments: [
        ("/api/songs/../../etc/passwd", HTTPResponse.Status.notFound),
        ("/api/songs/%2e%2e%2f%2e%2e%2fetc%2fpasswd/frame.png?at=1", .notFound),
        ("/api/songs/0000000000000000/frame.png?at=1", .notFound),
        ("/etc/passwd", .notFound),
        ("/api/songs/ID/frame.png", .badRequest),
        ("/api/songs/ID/frame.png?at=soon", .badRequest),
        ("/api/songs/ID/frame.png?at=1&size=9000x9000", .badRequest),
        ("/api/songs/ID/frame.png?at=1&theme=/etc/passwd", .badRequest),
        ("/api/songs/ID/frame.png?at=1&before=many", .badRequest),
        ("/api/songs/ID/card.png?lines=900-901", .unprocessableContent),
    ])
    func hostileRequestsGetTheirStatusAndAnErrorLine(path: String, status: HTTPResponse.Status) async throws {
        let server = try PosterServer.make(Self.configuration())
        try await server.application.test(.router) { client in
            let id = try await Self.songID(client, "night-drive/night-drive.lrc")
            try await client.execute(uri: path.replacingOccurrences(of: "ID", with: id), method: .get) { response in
                #expect(response.status == status, "\(path): \(String(buffer: response.body))")
                #expect(response.headers[.contentType] != "image/png")
                if status != .notFound {
                    let json = try JSONSerialization.jsonObject(with: Data(Array(buffer: response.body))) as? [String: Any]
                    #expect((json?["error"] as? String)?.isEmpty == false, "\(path) says why")
                }
            }
        }
    }

    /// A page asks for 64 frames at once: every one is answered with its picture, none refused.
    @Test func sixtyFourFramesAtOnceAreAllAnswered() async throws {
        let server = try PosterServer.make(Self.configuration())
        try await server.application.test(.router) { client in
            let id = try await Self.songID(client, "night-drive/night-drive.lrc")
            let statuses = try await withThrowingTaskGroup(of: (Int, HTTPResponse.Status, Int).self) { group in
                for i in 0..<64 {
                    group.addTask {
                        try await client.execute(uri: "/api/songs/\(id)/frame.png?at=\(1000 + i * 2500)&size=360x640", method: .get) { response in
                            (i, response.status, response.body.readableBytes)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count == 64)
            #expect(statuses.allSatisfy { $0.1 == .ok && $0.2 > 1000 }, "\(statuses.filter { $0.1 != .ok })")
        }
    }
}

extension Tag {
    @Tag static var server: Self
}
