import Foundation
import XCTest

/// `lyricposter serve` as a client sees it: a real server on a free loopback port, asked with curl.
final class ServeTests: CLITestCase {
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

    /// A library with an audio file, a pair, and a folder that is a symbolic link out of it.
    func makeLibrary() throws -> String {
        let library = temp("library")
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.package.appendingPathComponent("samples/harbour-bells").path, toPath: library + "/harbour-bells")
        try FileManager.default.copyItem(atPath: Self.package.appendingPathComponent("samples/night-drive").path, toPath: library + "/night-drive")
        let outside = temp("outside")
        try FileManager.default.copyItem(atPath: Self.package.appendingPathComponent("samples/river-lights").path, toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: library + "/escape", withDestinationPath: outside)
        return library
    }

    /// `catalog` follows a library's symbolic links; `serve` does too, as long as they stay inside
    /// the library folders it was given, and says on stderr what it left out.
    func testLinksInsideTheLibrariesAreFollowedAndWhatIsLeftOutIsSaid() throws {
        let a = temp("A"), b = temp("B"), store = temp("store")
        for folder in [a + "/archive", b, store] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let samples = Self.package.appendingPathComponent("samples").path
        try FileManager.default.copyItem(atPath: samples + "/harbour-bells", toPath: a + "/archive/harbour-bells")
        try FileManager.default.copyItem(atPath: samples + "/paper-lanterns", toPath: b + "/paper")
        try FileManager.default.copyItem(atPath: samples + "/river-lights", toPath: store + "/river-lights")
        try FileManager.default.createSymbolicLink(atPath: a + "/linked", withDestinationPath: "archive/harbour-bells")
        try FileManager.default.createSymbolicLink(atPath: a + "/into-b", withDestinationPath: b + "/paper")
        try FileManager.default.createSymbolicLink(atPath: a + "/outside", withDestinationPath: store + "/river-lights")

        let server = try startServer([a, b])
        let files = try scannedSongs(server).compactMap { $0["file"] as? String }.sorted()
        XCTAssertEqual(files, ["archive/harbour-bells/harbour-bells.mp3", "into-b/paper-lanterns.lrc", "linked/harbour-bells.mp3",
                               "paper/paper-lanterns.lrc"])
        // The walk is done before the list says so; its lines may take a moment to reach the log.
        var log = said(server)
        for _ in 0..<50 where !log.contains("of the library left out") {
            Thread.sleep(forTimeInterval: 0.1)
            log = said(server)
        }
        let real = URL(fileURLWithPath: store).resolvingSymlinksInPath().path
        XCTAssertTrue(log.contains("lyricposter serve: left out \(a)/outside: a symbolic link to \(real)/river-lights, outside every library folder\n"), log)
        XCTAssertTrue(log.contains("lyricposter serve: 1 song or folder of the library left out\n"), log)
        XCTAssertEqual(log.components(separatedBy: "left out").count - 1, 2, log)

        // catalog renders the same links, and the one out of the library too.
        let out = temp("catalog")
        let catalog = try run(["catalog", a, "-o", out, "--each", "sheet"])
        XCTAssertEqual(catalog.status, 0, catalog.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).filter { $0 != "catalog" }.count, 4, catalog.stderr)
    }

    func testAudioRangesHeadPlanAppAndRescan() throws {
        let library = try makeLibrary()
        let server = try startServer([library])
        let id = try songID(server, file: "harbour-bells/harbour-bells.mp3")
        let list = try get(server.base + "/api/songs")
        let files = ((try JSONSerialization.jsonObject(with: list.body) as? [String: Any])?["songs"] as? [[String: Any]] ?? []).compactMap { $0["file"] as? String }
        XCTAssertFalse(files.contains { $0.hasPrefix("escape/") }, "a symbolic link out of the library is not served: \(files)")

        // Audio: whole, one range, a suffix range, past the end.
        let mp3 = try Data(contentsOf: Self.package.appendingPathComponent("samples/harbour-bells/harbour-bells.mp3"))
        let whole = try get(server.base + "/api/songs/\(id)/audio")
        XCTAssertEqual(whole.status, 200)
        XCTAssertEqual(whole.body, mp3)
        XCTAssertTrue(whole.headers.contains("Content-Type: audio/mpeg"), whole.headers)
        XCTAssertTrue(whole.headers.contains("Accept-Ranges: bytes"), whole.headers)
        let part = try get(server.base + "/api/songs/\(id)/audio", headers: ["Range: bytes=1000-1999"])
        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(part.body, mp3[1000..<2000])
        XCTAssertTrue(part.headers.contains("Content-Range: bytes 1000-1999/\(mp3.count)"), part.headers)
        let tail = try get(server.base + "/api/songs/\(id)/audio", headers: ["Range: bytes=-500"])
        XCTAssertEqual(tail.status, 206)
        XCTAssertEqual(tail.body, mp3.suffix(500))
        let open = try get(server.base + "/api/songs/\(id)/audio", headers: ["Range: bytes=\(mp3.count - 10)-"])
        XCTAssertEqual(open.body, mp3.suffix(10))
        let beyond = try get(server.base + "/api/songs/\(id)/audio", headers: ["Range: bytes=\(mp3.count)-"])
        XCTAssertEqual(beyond.status, 416)
        XCTAssertTrue(beyond.headers.contains("Content-Range: bytes */\(mp3.count)"), beyond.headers)
        let pair = try songID(server, file: "night-drive/night-drive.lrc")
        XCTAssertEqual(try get(server.base + "/api/songs/\(pair)/audio").status, 404, "a pair has no audio")

        // HEAD: the GET's status and headers, no body.
        let head = try get(server.base + "/api/songs/\(id)/frame.png?at=5000", method: "HEAD")
        XCTAssertEqual(head.status, 200)
        XCTAssertTrue(head.headers.contains("Content-Type: image/png"), head.headers)
        XCTAssertTrue(head.body.isEmpty)
        XCTAssertEqual(try get(server.base + "/api/songs/\(id)/audio", method: "HEAD").status, 200)
        XCTAssertEqual(try get(server.base + "/", method: "HEAD").status, 200)

        // The plan: the frames `lines` writes, by start time, and the numbered lines.
        let plan = try XCTUnwrap(try JSONSerialization.jsonObject(with: try get(server.base + "/api/songs/\(id)/plan").body) as? [String: Any])
        XCTAssertEqual(plan["audio"] as? Bool, true)
        let frames = try XCTUnwrap(plan["frames"] as? [[String: Any]])
        let linesRun = try run(["lines", library + "/harbour-bells/harbour-bells.mp3", "-o", temp("lines")])
        XCTAssertEqual(linesRun.status, 0, linesRun.stderr)
        let written = try FileManager.default.contentsOfDirectory(atPath: temp("lines")).filter { $0.hasSuffix(".png") }
        XCTAssertEqual(frames.count, written.count, "one plan frame per poster `lines` writes")
        XCTAssertEqual(frames.first?["start_ms"] as? Int, 0)
        let numbered = try XCTUnwrap(plan["lines"] as? [[String: Any]])
        XCTAssertEqual(numbered.map { $0["number"] as? Int }, Array(1...numbered.count).map { $0 })

        // The app and its assets: from the binary, with the security headers, revalidated by ETag.
        let page = try get(server.base + "/")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.headers.contains("Content-Type: text/html"), page.headers)
        XCTAssertTrue(page.headers.contains("Content-Security-Policy: default-src 'self'"), page.headers)
        XCTAssertTrue(String(decoding: page.body, as: UTF8.self).contains("/app.js"))
        let script = try get(server.base + "/app.js")
        XCTAssertEqual(script.status, 200)
        let tag = try XCTUnwrap(script.headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }).dropFirst(5)
            .trimmingCharacters(in: .whitespaces)
        XCTAssertEqual(try get(server.base + "/app.js", headers: ["If-None-Match: \(tag)"]).status, 304)
        for asset in ["/app.css", "/overlay", "/overlay.js"] { XCTAssertEqual(try get(server.base + asset).status, 200, asset) }
        XCTAssertEqual(try get(server.base + "/favicon.ico").status, 204)
        XCTAssertEqual(try get(server.base + "/app.js/../../etc/passwd").status, 404)
        let themes = try XCTUnwrap(try JSONSerialization.jsonObject(with: try get(server.base + "/api/themes").body) as? [String: Any])
        XCTAssertTrue((themes["themes"] as? [String])?.contains("block") == true)

        // A song added later is listed after a rescan.
        try FileManager.default.copyItem(atPath: Self.package.appendingPathComponent("samples/paper-lanterns").path, toPath: library + "/paper-lanterns")
        XCTAssertEqual(try get(server.base + "/api/rescan", method: "POST").status, 202)
        XCTAssertEqual(try songID(server, file: "paper-lanterns/paper-lanterns.lrc").count, 16)
    }

    /// A client that sends its request slowly (a byte at a time) is cut off at the idle timeout.
    func testSlowHeadersAreCutOff() throws {
        let server = try startServer(["samples", "--idle-timeout", "2"])
        let port = try XCTUnwrap(server.base.split(separator: ":").last)
        let script = """
        import socket, sys, time
        s = socket.create_connection(("127.0.0.1", \(port)))
        s.sendall(b"GET /healthz HTTP/1.1\\r\\nHost: x\\r\\n")
        start = time.time()
        try:
            while time.time() - start < 20:
                s.sendall(b"X")
                time.sleep(0.25)
            print("open")
        except OSError:
            print("closed %.1f" % (time.time() - start))
        """
        let result = try run(["-c", script], executable: "/usr/bin/python3")
        let words = result.stdout.split(separator: " ")
        XCTAssertEqual(words.first, "closed", "the slow client was never cut off: \(result.stdout) \(result.stderr)")
        if let seconds = words.last.flatMap({ Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            XCTAssertLessThan(seconds, 6, "cut off after \(seconds) s with a 2 s timeout")
        }
        XCTAssertEqual(try get(server.base + "/healthz").status, 200, "the server still answers others")
    }

    func testRenderFormsAreTheCLIsBytesAndHostileFormsAreRefused() throws {
        let server = try startServer(["--jobs", "2"])
        let url = server.base + "/api/render"
        let frame = try curl(["-F", "cover=@\(cover)", "-F", "lyrics=@\(lyrics)", "-F", "at=31000", "-F", "theme=immersive", "-F", "preset=feed", url])
        XCTAssertEqual(frame.status, 200, String(decoding: frame.body, as: UTF8.self))
        XCTAssertEqual(try run(["frame", cover, lyrics, "--at", "31000ms", "--theme", "immersive", "--preset", "feed", "-o", temp("cli.png")]).status, 0)
        XCTAssertEqual(frame.body, try Data(contentsOf: URL(fileURLWithPath: temp("cli.png"))), "a posted frame is the CLI's frame")
        let audio = "samples/harbour-bells/harbour-bells.mp3"
        let card = try curl(["-F", "audio=@\(audio)", "-F", "lines=2-3", url])
        XCTAssertEqual(card.status, 200, String(decoding: card.body, as: UTF8.self))
        XCTAssertEqual(try run(["card", audio, "--lines", "2-3", "-o", temp("card.png")]).status, 0)
        XCTAssertEqual(card.body, try Data(contentsOf: URL(fileURLWithPath: temp("card.png"))), "a posted card is the CLI's card")

        // 33 MiB of cover: refused before it is all read.
        let big = temp("big.jpg")
        FileManager.default.createFile(atPath: big, contents: Data(count: 33 << 20))
        var cases: [([String], Int)] = [
            (["-F", "cover=@\(big)", "-F", "lyrics=@\(lyrics)", "-F", "at=1"], 413),
            (["-F", "cover=@\(lyrics)", "-F", "lyrics=@\(lyrics)", "-F", "at=1"], 422),
            (["-F", "cover=@\(cover)", "-F", "at=1"], 400),
            (["-F", "cover=@\(cover)", "-F", "lyrics=@\(lyrics)", "-F", "audio=@\(audio)", "-F", "at=1"], 400),
            (["-F", "cover=@\(cover)", "-F", "lyrics=@\(lyrics)"], 400),
            (["-F", "cover=@\(cover)", "-F", "lyrics=@\(lyrics)", "-F", "at=1", "-F", "size=9000x9000"], 400),
            (["-F", "cover=@\(cover)", "-F", "lyrics=@\(lyrics)", "-F", "at=1", "-F", "output=/etc/passwd"], 400),
            (["-F", "cover=@\(cover)", "-F", "lyrics=@\(lyrics)", "-F", "lines=1-20"], 400),
            (["-F", "audio=@\(cover);filename=../../x.sh", "-F", "at=1"], 415),
            (["-H", "Content-Type: multipart/form-data; boundary=", "--data-binary", "x"], 400),
            (["-H", "Content-Type: multipart/form-data; boundary=b", "--data-binary", "--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--\r\n"], 400),
            (["-H", "Content-Type: application/json", "--data-binary", "{}"], 415),
        ]
        // A byte above 0x7F in a part's header name (which made the multipart parser trap, found by
        // the fuzz target): a 400, and the server lives on.
        let evil = temp("evil-form")
        try Data("--b\r\nContent-Disposition: form-data; name=\"at\"\r\nX\u{e9}: 1\r\n\r\n1000\r\n--b--\r\n".utf8).write(to: URL(fileURLWithPath: evil))
        cases.append((["-H", "Content-Type: multipart/form-data; boundary=b", "--data-binary", "@\(evil)"], 400))
        for (arguments, status) in cases {
            let answer = try curl(arguments + [url])
            XCTAssertEqual(answer.status, status, "\(arguments): \(String(decoding: answer.body, as: UTF8.self))")
            XCTAssertNotNil((try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["error"] as? String, "\(arguments)")
        }
        XCTAssertEqual(try get(server.base + "/healthz").status, 200, "the server survived every form")
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))?.filter { $0.hasPrefix("lyricposter-render-") } ?? []
        XCTAssertEqual(leftovers, [], "every upload's folder is removed")

        let metrics = String(decoding: try get(server.base + "/metrics").body, as: UTF8.self)
        XCTAssertTrue(metrics.contains(#"hb_requests{http_route="/api/render",http_request_method="POST",http_response_status_code="200"} 2"#), metrics)
        XCTAssertTrue(metrics.contains("lyricposter_render_seconds_count"), metrics)
        XCTAssertTrue(metrics.contains("lyricposter_render_queue_depth"), metrics)
    }

    /// 64 clients ask for 64 different frames at once, as a page of thumbnails does: every one
    /// gets its frame (the waiting ones hold no thread, and 64 wait well within the bound of
    /// 64 per render job), the server survives, and its memory stays bounded.
    func testSixtyFourConcurrentFramesAreAllAnsweredWithBoundedMemory() throws {
        let server = try startServer(["samples", "--jobs", "2"])
        let id = try songID(server, file: "night-drive/night-drive.lrc")
        // 64 curl processes started together, each asking for a different frame.
        var clients: [(Process, String, String)] = []
        for i in 0..<64 {
            let head = temp("c\(i).head"), body = temp("c\(i).png")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["-s", "-D", head, "-o", body, "--max-time", "120",
                                 server.base + "/api/songs/\(id)/frame.png?at=\(1000 + i * 2500)&size=720x1280"]
            clients.append((process, head, body))
        }
        for client in clients { try client.0.run() }
        var statuses: [Int] = []
        for (process, head, body) in clients {
            process.waitUntilExit()
            let headers = (try? String(contentsOfFile: head, encoding: .utf8)) ?? ""
            let status = Int(headers.split(separator: " ").dropFirst().first ?? "") ?? 0
            statuses.append(status)
            if status == 503 { XCTAssertTrue(headers.contains("Retry-After"), headers) }
            if status == 200 { XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: body)).prefix(4), Data([0x89, 0x50, 0x4E, 0x47])) }
        }
        let all = statuses
        XCTAssertEqual(all.count, 64)
        XCTAssertEqual(all.filter { $0 == 200 }.count, 64, "\(all)")
        XCTAssertEqual(try get(server.base + "/healthz").status, 200, "the server survived")
        let status = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        print("serve: 64 concurrent frames: \(all.filter { $0 == 200 }.count) rendered, \(all.filter { $0 == 503 }.count) refused; peak RSS \(peak / 1024) MiB")
        // Prepared songs (8), pictures (64 MiB) and two renders at once: well under 1 GiB.
        XCTAssertLessThan(peak, 1 << 20, "peak RSS \(peak) KiB")
    }
}
