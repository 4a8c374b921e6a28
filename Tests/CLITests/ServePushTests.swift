import Foundation
import XCTest

/// `serve --source push`: devices push what they play to `POST /api/now-playing` with curl, as a
/// phone or Home Assistant would, and the live routes follow: start, progress, pause, a second
/// device, a device gone silent, stop, tokens and hostile bodies.
final class ServePushTests: CLITestCase {
    /// Thirty lines, one a second, as a pushed lyrics text.
    let lyricsText = (0..<30).map { String(format: "[00:%02d.00]Pushed line %d", $0, $0) }.joined(separator: "\n")

    func push(_ server: Server, _ body: [String: Any], token: String? = nil) throws -> Answer {
        let data = try JSONSerialization.data(withJSONObject: body)
        return try pushRaw(server, data, token: token)
    }

    func pushRaw(_ server: Server, _ data: Data, token: String? = nil, type: String = "application/json") throws -> Answer {
        let file = temp("push-\(UUID().uuidString).json")
        try data.write(to: URL(fileURLWithPath: file))
        return try curl(["-X", "POST", "-H", "Content-Type: \(type)", "--data-binary", "@" + file]
                        + (token.map { ["-H", "Authorization: Bearer \($0)"] } ?? []) + [server.base + "/api/now-playing"])
    }

    func now(_ server: Server, token: String? = nil) throws -> [String: Any] {
        let answer = try get(server.base + "/now.json", headers: token.map { ["Authorization: Bearer \($0)"] } ?? [])
        return (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]) ?? [:]
    }

    /// Polls /now.json until `condition` holds (up to `seconds`); the last answer.
    @discardableResult
    func waitForNow(_ server: Server, _ what: String, seconds: Double = 10, token: String? = nil,
                    _ condition: ([String: Any]) -> Bool) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(seconds)
        var last: [String: Any] = [:]
        while Date() < deadline {
            last = try now(server, token: token)
            if condition(last) { return last }
            usleep(20_000)
        }
        XCTFail("timed out waiting for \(what): \(last)")
        return last
    }

    func testDevicesPushWhatTheyPlayAndTheLivePosterFollows() throws {
        try FileManager.default.createDirectory(atPath: temp("library"), withIntermediateDirectories: true)
        let server = try startServer([temp("library"), "--source", "push", "--stale-after", "2", "--size", "360x640"])
        var state = try now(server)
        XCTAssertEqual(state["status"] as? String, "waiting", "\(state)")

        // A phone starts playing at 5.2 s: the 5 s line, then the position runs on between pushes.
        var answer = try push(server, ["device_id": "phone", "title": "Pushed Song", "artist": "Tester", "duration_ms": 30000,
                                       "position_ms": 5200, "is_playing": true, "lyrics": lyricsText])
        XCTAssertEqual(answer.status, 204, String(decoding: answer.body, as: UTF8.self))
        state = try waitForNow(server, "the 5 s line") { ($0["start_ms"] as? Int) == 5000 }
        XCTAssertEqual(state["track"] as? String, "Pushed Song")
        XCTAssertEqual(state["player"] as? String, "push:phone")
        try waitForNow(server, "the position to run on to the 6 s line") { ($0["start_ms"] as? Int) == 6000 }

        // Progress: a push at 12.5 s moves the poster there; the round trip is measured.
        let sent = Date()
        answer = try push(server, ["device_id": "phone", "title": "Pushed Song", "artist": "Tester", "position_ms": 12500, "is_playing": true,
                                   "lyrics": lyricsText])
        XCTAssertEqual(answer.status, 204)
        try waitForNow(server, "the 12 s line") { ($0["start_ms"] as? Int) == 12000 }
        let roundTrip = Date().timeIntervalSince(sent) * 1000
        print(String(format: "push round trip (POST to /now.json naming the new line): %.0f ms", roundTrip))
        XCTAssertLessThan(roundTrip, 500)

        // Paused: the position stands.
        XCTAssertEqual(try push(server, ["device_id": "phone", "title": "Pushed Song", "position_ms": 14000, "is_playing": false, "lyrics": lyricsText]).status, 204)
        state = try waitForNow(server, "the pause") { ($0["status"] as? String) == "paused" }
        usleep(1_200_000)
        XCTAssertEqual(try now(server)["start_ms"] as? Int, 14000, "a paused device's line stands")

        // A second device that plays wins; when it stops, the first (paused) is shown again.
        XCTAssertEqual(try push(server, ["device_id": "kitchen.speaker", "title": "Other Song", "position_ms": 3000, "is_playing": true,
                                         "lyrics": lyricsText]).status, 204)
        try waitForNow(server, "the second device") { ($0["player"] as? String) == "push:kitchen.speaker" && ($0["track"] as? String) == "Other Song" }
        XCTAssertEqual(try push(server, ["device_id": "kitchen.speaker", "stopped": true]).status, 204)
        try waitForNow(server, "the first device again") { ($0["player"] as? String) == "push:phone" && ($0["status"] as? String) == "paused" }

        // A device gone silent for --stale-after (2 s here, 30 s by default) counts as paused.
        XCTAssertEqual(try push(server, ["device_id": "phone", "title": "Pushed Song", "position_ms": 20000, "is_playing": true, "lyrics": lyricsText]).status, 204)
        try waitForNow(server, "playing again") { ($0["status"] as? String) == "playing" }
        state = try waitForNow(server, "the silent device to count as paused", seconds: 6) { ($0["status"] as? String) == "paused" }
        XCTAssertEqual(state["start_ms"] as? Int, 22000, "it stands where it was when it went silent: \(state)")

        // Stopped: nothing to follow.
        XCTAssertEqual(try push(server, ["device_id": "phone", "stopped": true]).status, 204)
        try waitForNow(server, "waiting again") { ($0["status"] as? String) == "waiting" }
    }

    /// A push without a cover URL takes the cover of the library's song of that title and artist.
    func testAPushedSongWithoutACoverTakesTheLibrarysCover() throws {
        let server = try startServer([Self.package.path + "/samples/night-drive", "--source", "push", "--size", "360x640"])
        // The library is walked in the background: wait until it lists the song.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !String(decoding: try get(server.base + "/api/songs").body, as: UTF8.self).contains("Night Drive") { usleep(50_000) }
        XCTAssertEqual(try push(server, ["device_id": "phone", "title": "night drive", "artist": "The Sodium Lamps", "position_ms": 83400,
                                         "is_playing": true, "lyrics": lyricsText]).status, 204)
        try waitForNow(server, "the pushed song") { ($0["track"] as? String) == "night drive" }
        let log = try String(contentsOfFile: temp("serve-\(server.process.processIdentifier).log"), encoding: .utf8)
        XCTAssertTrue(log.contains("cover: library:night-drive.lrc"), log)
    }

    /// A push without lyrics: the server looks the song up in a local LRCLIB dump (`--lrclib-db`) by
    /// what the device says (title, artist, album, duration), as for a file; an instrumental row
    /// makes an instrumental poster.
    func testAPushedSongFindsItsLyricsInAnLRCLIBDump() throws {
        try FileManager.default.createDirectory(atPath: temp("library"), withIntermediateDirectories: true)
        let db = temp("lrclib.sqlite3")
        let made = try tool("python3", [Self.package.appendingPathComponent("Tests/Fixtures/make-lrclib-db.py").path, db])
        XCTAssertEqual(made.status, 0, made.stderr)
        let server = try startServer([temp("library"), "--source", "push", "--lrclib-db", db, "--size", "360x640"])
        XCTAssertEqual(try push(server, ["device_id": "phone", "title": "Paper Moon", "artist": "The Lanterns", "album": "Night Songs",
                                         "duration_ms": 200_500, "position_ms": 6000, "is_playing": false]).status, 204)
        let state = try waitForNow(server, "the dump's line") { ($0["text"] as? String) == "Lantern light" }
        XCTAssertEqual(state["start_ms"] as? Int, 5000, "\(state)")
        XCTAssertEqual(try push(server, ["device_id": "phone", "title": "Quiet Field", "artist": "The Lanterns", "duration_ms": 180_000,
                                         "position_ms": 60_000, "is_playing": false]).status, 204)
        try waitForNow(server, "the instrumental poster") { ($0["text"] as? String) == "Instrumental" }
        let log = try String(contentsOfFile: temp("serve-\(server.process.processIdentifier).log"), encoding: .utf8)
        XCTAssertTrue(log.contains("lrclib:1"), log)
    }

    /// `--latency` (with `--offset`) shifts the line shown, as for follow: 5.2 s less 0.5 s is the 4 s line.
    func testLatencyShiftsTheLineShown() throws {
        try FileManager.default.createDirectory(atPath: temp("library"), withIntermediateDirectories: true)
        let server = try startServer([temp("library"), "--source", "push", "--latency", "700", "--offset=-200", "--size", "360x640"])
        XCTAssertEqual(try push(server, ["device_id": "phone", "title": "T", "position_ms": 5200, "is_playing": false, "lyrics": lyricsText]).status, 204)
        let state = try waitForNow(server, "the paused song") { ($0["track"] as? String) == "T" && $0["start_ms"] != nil }
        XCTAssertEqual(state["start_ms"] as? Int, 4000, "\(state)")
        let refused = try run(["serve", temp("library"), "--latency", "5"])
        XCTAssertEqual(refused.status, 64, "--latency without --follow: \(refused.stderr)")
    }

    func testHostilePushesGetA4xxAndNothingElse() throws {
        try FileManager.default.createDirectory(atPath: temp("library"), withIntermediateDirectories: true)
        let server = try startServer([temp("library"), "--source", "push", "--size", "360x640"])
        let cases: [(String, Int, String)] = [
            ("not json", 400, "not a JSON object"),
            ("[1, 2]", 400, "send one JSON object"),
            (#"{"device_id": "a", "is_playing": true, "position_ms": 0, "colour": "red"}"#, 400, "colour: not a field"),
            (#"{"is_playing": true, "position_ms": 0}"#, 422, "device_id: required"),
            (#"{"device_id": "a b", "is_playing": true, "position_ms": 0}"#, 422, "device_id: 1 to 128"),
            (#"{"device_id": "a", "is_playing": 1, "position_ms": 0}"#, 422, "is_playing: the wrong type"),
            (#"{"device_id": "a", "is_playing": true, "position_ms": -1}"#, 422, "position_ms: a number"),
            (#"{"device_id": "a", "is_playing": true, "position_ms": 1e300}"#, 422, "position_ms: a number"),
            (#"{"device_id": "a", "is_playing": true, "position_ms": 0, "cover_url": "file:///etc/passwd"}"#, 422, "cover_url: an http"),
            (#"{"device_id": "a", "stopped": false}"#, 422, "stopped: true"),
            (#"{"device_id": "a", "stopped": true, "title": "x"}"#, 422, "goes with device_id alone"),
            (String(repeating: "[", count: 100_000), 400, "not a JSON object"),
        ]
        for (body, status, message) in cases {
            let answer = try pushRaw(server, Data(body.utf8))
            XCTAssertEqual(answer.status, status, "\(body.prefix(80)): \(String(decoding: answer.body, as: UTF8.self))")
            XCTAssertTrue(String(decoding: answer.body, as: UTF8.self).contains(message), "\(body.prefix(80)): \(String(decoding: answer.body, as: UTF8.self))")
        }
        let title = String(repeating: "x", count: 3000)
        XCTAssertEqual(try push(server, ["device_id": "a", "is_playing": true, "position_ms": 0, "title": title]).status, 422)
        XCTAssertEqual(try pushRaw(server, Data(repeating: 0x20, count: 2 << 20)).status, 413, "a body over 1 MiB")
        XCTAssertEqual(try pushRaw(server, Data("{}".utf8), type: "text/plain").status, 415)
        // Nothing was taken, and the server still answers.
        XCTAssertEqual(try now(server)["status"] as? String, "waiting")
        XCTAssertEqual(try get(server.base + "/healthz").status, 200)
    }

    func testAPushNeedsTheTokenAndOnlyAPushServerTakesOne() throws {
        try FileManager.default.createDirectory(atPath: temp("library"), withIntermediateDirectories: true)
        let token = "push-token-123"
        let server = try startServer([temp("library"), "--source", "push", "--token", token, "--size", "360x640"])
        let body: [String: Any] = ["device_id": "phone", "title": "T", "position_ms": 1000, "is_playing": true, "lyrics": lyricsText]
        XCTAssertEqual(try push(server, body).status, 401, "no token")
        XCTAssertEqual(try push(server, body, token: "push-token-124").status, 401, "a wrong token")
        XCTAssertEqual(try push(server, body, token: token).status, 204)
        try waitForNow(server, "the pushed song", token: token) { ($0["track"] as? String) == "T" }

        let plain = try startServer([temp("library")])
        let refused = try push(plain, body)
        XCTAssertEqual(refused.status, 409)
        XCTAssertTrue(String(decoding: refused.body, as: UTF8.self).contains("--source push"))
    }
}
