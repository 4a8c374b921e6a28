import Foundation
import XCTest

/// `serve --follow` against the tests' scripted MPRIS player on a private bus: server-sent events,
/// `/now.json`, the posters' addresses, the text layer, and the overlay page in a real browser.
final class ServeLiveTests: FollowTestCase {
    struct Message {
        var event: String
        var data: [String: Any]
    }

    /// The events in an SSE stream written so far (complete messages only).
    func messages(_ path: String) -> [Message] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "\n\n").compactMap { block in
            var event = "message", data = ""
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            }
            guard !data.isEmpty, let json = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else { return nil }
            return Message(event: event, data: json)
        }
    }

    /// Reads `/events` with curl into a file until the test ends.
    func listen(_ url: String, into name: String) throws -> String {
        let path = temp(name)
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-sN", "-o", path, url]
        try curl.run()
        addTeardownBlock { if curl.isRunning { curl.terminate(); curl.waitUntilExit() } }
        return path
    }

    func waitUntil(_ what: String, seconds: Double = 20, _ check: () -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, !check() { usleep(20_000) }
        XCTAssertTrue(check(), "timed out waiting for \(what)")
    }

    func testEventsNowAndPostersFollowThePlayer() throws {
        let song = try makeSong("song", title: "Live", seconds: 20, in: "music")
        try copyCover(to: "music")
        let server = try startServer([temp("music"), "--follow", "--player", "scripted", "--size", "360x640"], environment: environment)
        XCTAssertEqual(try get(server.base + "/now.png").status, 404, "nothing plays yet")
        let idle = try XCTUnwrap(try JSONSerialization.jsonObject(with: try get(server.base + "/now.json").body) as? [String: Any])
        XCTAssertEqual(idle["status"] as? String, "waiting")

        let stream = try listen(server.base + "/events?theme=minimal", into: "events.txt")
        let textStream = try listen(server.base + "/events?layer=text", into: "events-text.txt")
        try startPlayer()
        try track(["xesam:title": "Live", "xesam:url": fileURL(song), "mpris:trackid": "/t/1", "mpris:length": 20_000_000])
        try send(["cmd": "play"])
        waitUntil("four posters") { messages(stream).filter { $0.event == "poster" }.count >= 4 }
        let all = messages(stream)
        XCTAssertTrue(all.contains { $0.event == "status" && $0.data["status"] as? String == "playing" }, "\(all.map(\.event))")
        XCTAssertTrue(all.contains { $0.event == "song" && $0.data["track"] as? String == "Live" })
        let posters = all.filter { $0.event == "poster" }
        let starts = posters.compactMap { $0.data["start_ms"] as? Int }
        XCTAssertEqual(starts, starts.sorted(), "posters arrive in the song's order")
        XCTAssertEqual(Set(starts).count, starts.count)
        for poster in posters {
            let url = try XCTUnwrap(poster.data["poster"] as? String)
            XCTAssertTrue(url.hasPrefix("/now/") && url.contains("theme=minimal"), url)
        }

        // A poster's address keeps its bytes (immutable); /now.png is the one on screen, never cached.
        let address = try XCTUnwrap(posters.last?.data["poster"] as? String)
        let first = try get(server.base + address)
        XCTAssertEqual(first.status, 200, String(decoding: first.body, as: UTF8.self))
        XCTAssertTrue(first.headers.contains("immutable"), first.headers)
        XCTAssertEqual(first.body.prefix(8), Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        XCTAssertEqual(try get(server.base + address).body, first.body)
        let now = try get(server.base + "/now.png")
        XCTAssertEqual(now.status, 200)
        XCTAssertTrue(now.headers.contains("no-store"), now.headers)

        let state = try XCTUnwrap(try JSONSerialization.jsonObject(with: try get(server.base + "/now.json?theme=minimal").body) as? [String: Any])
        XCTAssertEqual(state["status"] as? String, "playing")
        XCTAssertEqual(state["track"] as? String, "Live")
        let start = try XCTUnwrap(state["start_ms"] as? Int), position = try XCTUnwrap(state["position_ms"] as? Int)
        XCTAssertLessThanOrEqual(start, position + 50, "the line shown has started")
        if let next = state["next_change_ms"] as? Int { XCTAssertGreaterThan(next, start) }
        XCTAssertTrue((state["text"] as? String)?.hasPrefix("Live line") == true, "\(state)")

        // The text layer: RGBA (PNG colour type 6), transparent at a corner.
        let textPosters = messages(textStream).filter { $0.event == "poster" }
        let layer = try get(server.base + (try XCTUnwrap(textPosters.last?.data["poster"] as? String)))
        XCTAssertEqual(layer.status, 200)
        XCTAssertEqual(layer.body.count > 26 ? layer.body[25] : 0, 6, "an RGBA PNG")
        XCTAssertEqual(try get(server.base + "/now.png?layer=glass").status, 400)
        XCTAssertEqual(try get(server.base + "/now/1/../../etc/passwd").status, 404)
        XCTAssertEqual(try get(server.base + "/now/999/1000.png").status, 404)

        // Paused: the status reaches the stream.
        try send(["cmd": "pause"])
        waitUntil("the paused status") { messages(stream).contains { $0.event == "status" && $0.data["status"] as? String == "paused" } }

        // SIGTERM with event streams open: the server still stops at once, with status 0.
        let started = Date()
        server.process.terminate()
        server.process.waitUntilExit()
        XCTAssertEqual(server.process.terminationStatus, 0)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    /// Controls honour what the player says it can do (`Can…`): what it cannot is 409 and never
    /// reaches it. A track without an id is seeked by `Seek` (the difference), not `SetPosition`.
    func testControlsHonourThePlayersCapabilities() throws {
        let song = try makeSong("song", title: "Able", seconds: 20, in: "music")
        try copyCover(to: "music")
        let server = try startServer([temp("music"), "--follow", "--player", "scripted", "--size", "360x640"], environment: environment)
        try startPlayer("scripted", ["--cannot", "CanSeek,CanGoNext"])
        try track(["xesam:title": "Able", "xesam:url": fileURL(song), "mpris:trackid": "/t/1", "mpris:length": 20_000_000])
        try send(["cmd": "play"])
        func now() -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: (try? get(server.base + "/now.json"))?.body ?? Data()) as? [String: Any]) ?? [:]
        }
        func post(_ action: String) throws -> Answer { try curl(["-X", "POST", server.base + "/api/player/" + action]) }
        func called(_ method: String) -> Bool {
            ((try? String(contentsOfFile: temp("player-scripted.log"), encoding: .utf8)) ?? "").contains("{\"called\": \"\(method)\"")
        }
        waitUntil("the player's controls") { now()["controls"] as? [String] == ["play", "pause", "previous"] }

        let seek = try post("seek?position_ms=5000")
        XCTAssertEqual(seek.status, 409)
        XCTAssertEqual(String(decoding: seek.body, as: UTF8.self), "{\"error\":\"scripted cannot seek in this track now\"}\n")
        XCTAssertEqual(try post("next").status, 409)
        XCTAssertEqual(try post("previous").status, 204)
        XCTAssertEqual(try post("pause").status, 204)
        waitUntil("Pause to reach the player") { called("Pause") }
        XCTAssertEqual(try post("toggle").status, 204)
        waitUntil("PlayPause to reach the player") { called("PlayPause") }
        waitUntil("the player to play again") { now()["status"] as? String == "playing" }
        XCTAssertTrue(called("Previous"))
        XCTAssertFalse(called("SetPosition") || called("Seek") || called("Next"), "a refused control reached the player")

        // A player whose track has no id: the seek goes by difference. This one sends no
        // `Seeked` (as VLC 3 does not while paused): the server reads its position again.
        try send(["cmd": "quit"])
        waitUntil("the player to go") { now()["status"] as? String == "waiting" }
        try startPlayer("scripted", ["--no-seeked"])
        try track(["xesam:title": "Able", "xesam:url": fileURL(song), "mpris:trackid": "/org/mpris/MediaPlayer2/TrackList/NoTrack",
                   "mpris:length": 20_000_000], at: 2)
        try send(["cmd": "pause"])
        waitUntil("the player again") { now()["status"] as? String == "paused" }
        XCTAssertEqual(try post("seek?position_ms=9000").status, 204)
        waitUntil("Seek to reach the player") { called("Seek") }
        XCTAssertFalse(called("SetPosition"))
        waitUntil("the 9 s line's poster") { now()["start_ms"] as? Int == 9000 }
    }

    /// The overlay page in headless chromium: transparent, and it swaps posters as events come.
    func testOverlayInABrowser() throws {
        try requireBrowser()
        let song = try makeSong("song", title: "Overlay", seconds: 30, in: "music")
        try copyCover(to: "music")
        let server = try startServer([temp("music"), "--follow", "--player", "scripted", "--preset", "landscape"], environment: environment)
        try startPlayer()
        try track(["xesam:title": "Overlay", "xesam:url": fileURL(song), "mpris:trackid": "/t/1", "mpris:length": 30_000_000])
        try send(["cmd": "play"])
        let result = try run([Self.package.appendingPathComponent("Tests/Fixtures/browser-check.py").path, "overlay",
                              "--base", server.base, "--shots", Self.screenshots, "--layer", "text", "--expect", "3", "--seconds", "25"],
                             environment: environment, executable: "/usr/bin/python3")
        if result.status == 77 { throw XCTSkip("the browser could not start: \(result.stdout)") }
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }
}

extension CLITestCase {
    /// Where the browser tests leave their screenshots (to look at; the README's comes from here).
    static var screenshots: String { package.appendingPathComponent(".build/browser-shots").path }

    /// Skips, loudly, when the headless browser is not installed (`make test` installs it).
    func requireBrowser() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/lib/python3/dist-packages/selenium"] {
            guard FileManager.default.fileExists(atPath: tool) else {
                print("SKIPPED: \(tool) is missing; `make test` installs chromium, chromium-driver and python3-selenium")
                throw XCTSkip("\(tool) is missing: run `make test` (it installs chromium, chromium-driver, python3-selenium)")
            }
        }
    }
}
