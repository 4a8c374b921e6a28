import Foundation
import XCTest

/// `lyricposter serve` as a client sees it: a real server on a free loopback port, asked with curl.
final class ServeTests: CLITestCase {
    struct Server {
        let process: Process
        let base: String
    }

    /// Starts `serve` over `arguments` and waits for the address it prints.
    func startServer(_ arguments: [String]) throws -> Server {
        let (process, _, err) = try start(["serve"] + arguments + ["--port", "0"])
        var seen = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
            if let range = seen.range(of: #"listening on (http://[0-9.]+:[0-9]+)"#, options: .regularExpression) {
                let base = String(seen[range]).replacingOccurrences(of: "listening on ", with: "")
                addTeardownBlock { if process.isRunning { process.terminate(); process.waitUntilExit() } }
                return Server(process: process, base: base)
            }
        }
        process.terminate()
        throw XCTSkip("serve did not start: \(seen)")
    }

    struct Answer {
        var status: Int
        var headers: String
        var body: Data
    }

    func get(_ url: String, headers: [String] = []) throws -> Answer {
        let head = temp("head-\(UUID().uuidString)"), body = temp("body-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-g", "-D", head, "-o", body, "--max-time", "60", url] + headers.flatMap { ["-H", $0] }
        try process.run()
        process.waitUntilExit()
        let headerText = (try? String(contentsOfFile: head, encoding: .utf8)) ?? ""
        let status = Int(headerText.split(separator: " ").dropFirst().first ?? "") ?? 0
        return Answer(status: status, headers: headerText, body: (try? Data(contentsOf: URL(fileURLWithPath: body))) ?? Data())
    }

    func songID(_ server: Server, file: String) throws -> String {
        for _ in 0..<100 {
            let list = try get(server.base + "/api/songs")
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: list.body) as? [String: Any])
            let songs = try XCTUnwrap(json["songs"] as? [[String: Any]])
            if let song = songs.first(where: { $0["file"] as? String == file }), let id = song["id"] as? String { return id }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw XCTSkip("the library never listed \(file)")
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is missing: run `make test`") }
    }

    func testFramesAndCardsAreTheCLIsBytes() throws {
        let server = try startServer(["samples"])
        let health = try get(server.base + "/healthz")
        XCTAssertEqual(health.status, 200)
        XCTAssertTrue(health.headers.contains("Content-Security-Policy: default-src 'self'"), health.headers)
        XCTAssertTrue(health.headers.contains("X-Content-Type-Options: nosniff"))
        let id = try songID(server, file: "night-drive/night-drive.lrc")
        XCTAssertEqual(id.count, 16)

        let frame = try get(server.base + "/api/songs/\(id)/frame.png?at=31000&theme=immersive&preset=feed")
        XCTAssertEqual(frame.status, 200, String(decoding: frame.body, as: UTF8.self))
        XCTAssertTrue(frame.headers.contains("Content-Type: image/png"))
        let cli = temp("frame.png")
        XCTAssertEqual(try run(["frame", cover, lyrics, "--at", "31000ms", "--theme", "immersive", "--preset", "feed", "-o", cli]).status, 0)
        XCTAssertEqual(frame.body, try Data(contentsOf: URL(fileURLWithPath: cli)), "the frame over HTTP is the CLI's frame")

        // The ETag answers 304 with no body.
        let etag = try XCTUnwrap(frame.headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") })
            .dropFirst(5).trimmingCharacters(in: .whitespaces)
        let again = try get(server.base + "/api/songs/\(id)/frame.png?at=31000&theme=immersive&preset=feed", headers: ["If-None-Match: \(etag)"])
        XCTAssertEqual(again.status, 304)
        XCTAssertTrue(again.body.isEmpty)

        let card = try get(server.base + "/api/songs/\(id)/card.png?lines=5-7&theme=block&preset=feed")
        XCTAssertEqual(card.status, 200)
        let cliCard = temp("card.png")
        XCTAssertEqual(try run(["card", cover, lyrics, "--lines", "5-7", "--theme", "block", "--preset", "feed", "-o", cliCard]).status, 0)
        XCTAssertEqual(card.body, try Data(contentsOf: URL(fileURLWithPath: cliCard)), "the card over HTTP is the CLI's card")

        let inspect = try get(server.base + "/api/songs/\(id)")
        XCTAssertEqual(inspect.status, 200)
        XCTAssertEqual(String(decoding: inspect.body, as: UTF8.self), try run(["inspect", lyrics]).stdout)
    }

    func testHostileRequestsGetTheRightStatusAndNoBytes() throws {
        let server = try startServer(["samples"])
        let id = try songID(server, file: "night-drive/night-drive.lrc")
        let cases: [(String, Int)] = [
            ("/api/songs/../../etc/passwd", 404),
            ("/api/songs/%2e%2e%2f%2e%2e%2fetc%2fpasswd/frame.png?at=1", 404),
            ("/api/songs/night-drive%2Fnight-drive.lrc", 404),
            ("/api/songs/0000000000000000/frame.png?at=1", 404),
            ("/etc/passwd", 404),
            ("/api/songs/\(id)/frame.png", 400),
            ("/api/songs/\(id)/frame.png?at=soon", 400),
            ("/api/songs/\(id)/frame.png?at=-99999999999", 400),
            ("/api/songs/\(id)/frame.png?at=1&size=9000x9000", 400),
            ("/api/songs/\(id)/frame.png?at=1&theme=/etc/passwd", 400),
            ("/api/songs/\(id)/frame.png?at=1&preset=poster", 400),
            ("/api/songs/\(id)/frame.png?at=1&karaoke=maybe", 400),
            ("/api/songs/\(id)/card.png", 400),
            ("/api/songs/\(id)/card.png?lines=1-9", 400),
            ("/api/songs/\(id)/card.png?lines=5-2", 400),
            ("/api/songs/\(id)/card.png?lines=40-45", 422),
            ("/api/songs/\(id)/card.png?quote=xyzzy", 422),
            ("/api/songs?limit=0", 400),
            ("/api/songs?offset=-1", 400),
        ]
        for (path, status) in cases {
            let answer = try get(server.base + path)
            XCTAssertEqual(answer.status, status, "\(path): \(String(decoding: answer.body, as: UTF8.self))")
            let json = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
            XCTAssertNotNil(json?["error"] as? String, "\(path): a JSON error")
            XCTAssertFalse(answer.headers.contains("image/png"), path)
        }
    }

    func testBeyondTheDefaultLoopbackATokenIsRequired() throws {
        let refused = try run(["serve", "samples", "--listen", "127.0.0.2", "--port", "0"])
        XCTAssertEqual(refused.status, 64)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("needs a token"), refused.stderr)

        let server = try startServer(["samples", "--listen", "127.0.0.2", "--token", "correct-horse-1"])
        XCTAssertTrue(server.base.hasPrefix("http://127.0.0.2:"))
        XCTAssertEqual(try get(server.base + "/api/songs").status, 401)
        XCTAssertEqual(try get(server.base + "/api/songs?token=correct-horse-2").status, 401)
        XCTAssertEqual(try get(server.base + "/api/songs", headers: ["Authorization: Bearer correct-horse"]).status, 401)
        XCTAssertEqual(try get(server.base + "/api/songs", headers: ["Authorization: Bearer correct-horse-1"]).status, 200)
        XCTAssertEqual(try get(server.base + "/api/songs?token=correct-horse-1").status, 200)
    }

    func testSIGTERMStopsTheServerCleanly() throws {
        let server = try startServer(["samples"])
        XCTAssertEqual(try get(server.base + "/healthz").status, 200)
        server.process.terminate()
        server.process.waitUntilExit()
        XCTAssertEqual(server.process.terminationStatus, 0)
    }
}
