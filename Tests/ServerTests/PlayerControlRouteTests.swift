import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PosterServer
import Testing

/// `POST /api/player/ACTION` in process: who may control (tokens, the view token, a read-only
/// server), what a seek's body may be, and the push source's refusal. The real players are in
/// CLITests (ServeControlTests, FollowMPDTests).
@Suite(.tags(.server)) struct PlayerControlRouteTests {
    static func following(token: String? = "control-token-1", viewToken: String? = nil, readOnly: Bool = false) throws -> ServerConfiguration {
        var configuration = try ServerRouteTests.configuration(token: token)
        configuration.library = []
        var follow = FollowSettings()
        follow.push = true
        configuration.follow = follow
        configuration.viewToken = viewToken
        configuration.readOnly = readOnly
        return configuration
    }

    static func error(_ response: TestResponse) -> String {
        let json = try? JSONSerialization.jsonObject(with: Data(Array(buffer: response.body))) as? [String: Any]
        return json?["error"] as? String ?? ""
    }

    @Test func onlyTheFullTokenControls() async throws {
        let server = try PosterServer.make(Self.following(viewToken: "view-token-1"))
        try await server.application.test(.router) { client in
            try await client.execute(uri: "/api/player/pause", method: .post) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/api/player/pause?token=view-token-1", method: .post) { response in
                #expect(response.status == .forbidden)
                #expect(Self.error(response).contains("--view-token"))
            }
            try await client.execute(uri: "/api/player/pause", method: .post, headers: [.authorization: "Bearer view-token-1"]) { response in
                #expect(response.status == .forbidden)
            }
            // The full token reaches the source, which is read-only here (pushes).
            try await client.execute(uri: "/api/player/pause?token=control-token-1", method: .post) { response in
                #expect(response.status == .conflict)
                #expect(Self.error(response) == "the push source is read-only: devices say what they play, and cannot be told what to do")
            }
            // The view token reads; neither token is offered controls for a source that has none.
            for token in ["view-token-1", "control-token-1"] {
                try await client.execute(uri: "/now.json?token=\(token)", method: .get) { response in
                    #expect(response.status == .ok)
                    let json = try JSONSerialization.jsonObject(with: Data(Array(buffer: response.body))) as? [String: Any]
                    #expect(json?["controls"] is NSNull, "\(String(describing: json))")
                }
            }
        }
    }

    @Test func aReadOnlyServerRefusesEveryControl() async throws {
        let server = try PosterServer.make(Self.following(readOnly: true))
        try await server.application.test(.router) { client in
            for action in ["play", "pause", "toggle", "next", "previous", "seek?position_ms=1000"] {
                let uri = "/api/player/" + action + (action.contains("?") ? "&" : "?") + "token=control-token-1"
                try await client.execute(uri: uri, method: .post) { response in
                    #expect(response.status == .forbidden, "\(action)")
                    #expect(Self.error(response).contains("--read-only"), "\(action)")
                }
            }
        }
    }

    @Test func withoutFollowTheControlsSayHowToStartIt() async throws {
        let server = try PosterServer.make(ServerRouteTests.configuration(token: "control-token-1"))
        try await server.application.test(.router) { client in
            try await client.execute(uri: "/api/player/toggle?token=control-token-1", method: .post) { response in
                #expect(response.status == .notFound)
                #expect(Self.error(response).contains("lyricposter serve --follow"))
            }
        }
    }

    /// Hostile and mistaken seeks: each gets its 4xx before any player is asked; a good one
    /// reaches the (read-only) source and gets its 409.
    @Test(arguments: [
        ("?position_ms=1000", nil, nil, 409),
        ("", "application/json", "{\"position_ms\": 1000}", 409),
        ("", "application/json; charset=utf-8", " {\"position_ms\": 12.5}\n", 409),
        ("", nil, nil, 400),
        ("?position_ms=abc", nil, nil, 400),
        ("?position_ms=1e3", nil, nil, 400),
        ("?position_ms=0x10", nil, nil, 400),
        ("?position_ms=12.3456", nil, nil, 400),
        ("?position_ms=99999999999999999", nil, nil, 400),
        ("?position_ms=-1", nil, nil, 422),
        ("?position_ms=86400001", nil, nil, 422),
        ("?position_ms=1000", "application/json", "{\"position_ms\": 1000}", 400),
        ("", "text/plain", "position_ms=1000", 415),
        ("", nil, "{\"position_ms\": 1000}", 415),
        ("", "application/json", "{", 400),
        ("", "application/json", "[]", 400),
        ("", "application/json", "1000", 400),
        ("", "application/json", "{}", 400),
        ("", "application/json", "{\"position_ms\": null}", 400),
        ("", "application/json", "{\"position_ms\": true}", 400),
        ("", "application/json", "{\"position_ms\": \"1000\"}", 400),
        ("", "application/json", "{\"position_ms\": 1000, \"device\": \"x\"}", 400),
        ("", "application/json", "{\"position_ms\": -5}", 422),
        ("", "application/json", "{\"position_ms\": 1e300}", 422),
        ("", "application/json", String(repeating: "[", count: 1000), 400),
        ("", "application/json", "{\"position_ms\": " + String(repeating: "9", count: 2000) + "}", 413),
    ] as [(String, String?, String?, Int)])
    func seekBodies(query: String, type: String?, body: String?, status: Int) async throws {
        let server = try PosterServer.make(Self.following())
        try await server.application.test(.router) { client in
            var headers: HTTPFields = [.authorization: "Bearer control-token-1"]
            if let type { headers[.contentType] = type }
            try await client.execute(uri: "/api/player/seek" + query, method: .post, headers: headers,
                                     body: body.map { ByteBuffer(string: $0) }) { response in
                #expect(response.status.code == status, "\(query) \(body ?? "") → \(response.status.code): \(Self.error(response))")
                #expect(!Self.error(response).isEmpty)
            }
        }
    }

    @Test func unknownActionsAndOtherSites() async throws {
        let server = try PosterServer.make(Self.following())
        try await server.application.test(.router) { client in
            let token: HTTPFields = [.authorization: "Bearer control-token-1"]
            for path in ["/api/player/eject", "/api/player/", "/api/player/PLAY", "/api/player/seek/10"] {
                try await client.execute(uri: path, method: .post, headers: token) { response in
                    #expect(response.status == .notFound, "\(path)")
                }
            }
            var foreign = token
            foreign[.origin] = "http://music.example"
            try await client.execute(uri: "/api/player/play", method: .post, headers: foreign) { response in
                #expect(response.status == .forbidden)
                #expect(Self.error(response).contains("this server's own pages"))
            }
            foreign[.origin] = "null"
            try await client.execute(uri: "/api/player/play", method: .post, headers: foreign) { response in
                #expect(response.status == .forbidden)
            }
        }
    }

    /// Controls from many requests at once share one `PlayerControlRoutes` (its control thread and
    /// its count of waiting controls): each is answered, as the source's refusal (409) or, past
    /// the bound of waiting controls, 503 with `Retry-After`. Runs under ThreadSanitizer.
    @Test func manyControlsAtOnce() async throws {
        let server = try PosterServer.make(Self.following())
        try await server.application.test(.router) { client in
            let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for index in 0..<32 {
                    group.addTask {
                        let action = ["play", "pause", "toggle", "next", "previous", "seek?position_ms=1000"][index % 6]
                        return try await client.execute(uri: "/api/player/" + action, method: .post,
                                                        headers: [.authorization: "Bearer control-token-1"]) { response in
                            (Int(response.status.code), response.headers[.retryAfter])
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count == 32)
            for (status, retry) in statuses {
                #expect(status == 409 || (status == 503 && retry == "2"), "\(status)")
            }
        }
    }

    @Test(arguments: [
        ("83500", 83_500_000), ("0", 0), ("12.5", 12_500), ("86400000", 86_400_000_000), ("007", 7000),
    ] as [(String, Int64)])
    func positionsInTheQuery(text: String, microseconds: Int64) throws {
        #expect(try ControlRequest.seekPosition(query: text, body: [], contentType: nil) == microseconds)
    }

    @Test func positionsInTheBody() throws {
        let body = Array("{\"position_ms\": 2500.25}".utf8)
        #expect(try ControlRequest.seekPosition(query: nil, body: body, contentType: "application/json") == 2_500_250)
        #expect(throws: ControlRequest.Refusal.unsupportedType("send the body as application/json: {\"position_ms\": N}")) {
            try ControlRequest.seekPosition(query: nil, body: Array("{\"position_ms\": 1}".utf8), contentType: "text/json")
        }
        // Whitespace alone is no body: the query's position stands.
        #expect(try ControlRequest.seekPosition(query: "5", body: Array(" \r\n".utf8), contentType: nil) == 5000)
    }
}
