import Foundation
import XCTest

/// Where `follow` finds a song's parts besides files (lyrics the player sends, covers by http URL)
/// and the small outputs for bars and text sources; a bus that goes away.
final class FollowSourcesTests: FollowTestCase {
    /// A local HTTP server for covers: /cover.jpg, /slow.jpg (answers after 8 s), /huge.jpg
    /// (announces 2 GB), /missing.jpg (404). Returns its base URL.
    func coverServer() throws -> String {
        let script = """
        import http.server, socketserver, sys, time
        cover = open(sys.argv[1], "rb").read()
        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args): pass
            def do_GET(self):
                if self.path == "/cover.jpg":
                    self.send_response(200); self.send_header("Content-Length", str(len(cover))); self.end_headers(); self.wfile.write(cover)
                elif self.path == "/slow.jpg":
                    time.sleep(8); self.send_response(200); self.end_headers()
                elif self.path == "/huge.jpg":
                    self.send_response(200); self.send_header("Content-Length", str(2 << 30)); self.end_headers()
                    try:
                        for _ in range(1000): self.wfile.write(b"\\0" * 65536)
                    except Exception: pass
                else:
                    self.send_response(404); self.end_headers()
        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer): daemon_threads = True
        server = Server(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """
        let process = try spawn("/usr/bin/python3", ["-c", script, Self.package.appendingPathComponent(cover).path], log: "http.log")
        _ = process
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let text = (try? String(contentsOfFile: temp("http.log"), encoding: .utf8)) ?? ""
            if let port = text.split(separator: "\n").first.flatMap({ Int($0) }) { return "http://127.0.0.1:\(port)" }
            usleep(20_000)
        }
        XCTFail("the cover server did not start")
        throw XCTSkip("no cover server")
    }

    func testLyricsFromThePlayerCoversByURLWaybarAndTextFile() throws {
        let base = try coverServer()
        let song = try makeSong("bare", title: "Sent", seconds: 20, in: "music", lrc: false)
        let lrc = (0..<20).map { String(format: "[00:%02d.00]Sent by the player %d", $0, $0) }.joined(separator: "\n")
        _ = try follow(["--waybar", "--text-file", temp("out/line.txt")])
        try startPlayer()
        try track(["xesam:title": "Sent", "xesam:url": fileURL(song), "mpris:trackid": "/t/1", "xesam:asText": lrc,
                   "mpris:artUrl": base + "/cover.jpg"], at: 2.5)
        try send(["cmd": "pause"])
        XCTAssertTrue(waitFor("the player's lyrics on the poster") { $0.contains { $0.kind == "poster" && $0.start == 2000 } })
        let found = try XCTUnwrap(events().last { $0.kind == "song" })
        XCTAssertEqual(found.fields["lyrics"] as? String, "player:xesam:asText")
        XCTAssertEqual(found.fields["cover"] as? String, base + "/cover.jpg")
        // The poster is the one `frame` makes of the same lyrics and cover.
        try Data(lrc.utf8).write(to: URL(fileURLWithPath: temp("sent.lrc")))
        let frame = try run(["frame", song, "--lyrics", temp("sent.lrc"), "--cover", cover, "--at", "2000ms", "--no-karaoke",
                             "--size", "360x640", "-o", temp("frame.png")])
        XCTAssertEqual(frame.status, 0, frame.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: temp("out/now.png"))), try Data(contentsOf: URL(fileURLWithPath: temp("frame.png"))),
                       "the poster of the player's lyrics and the fetched cover is `frame`'s of the same")
        XCTAssertEqual(try String(contentsOfFile: temp("out/line.txt"), encoding: .utf8), "Sent by the player 2\n")
        let bar = ((try? String(contentsOfFile: temp("follow.log"), encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { $0.hasPrefix("{") }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let last = try XCTUnwrap(bar.last { $0["text"] as? String == "Sent by the player 2" }, "\(bar)")
        XCTAssertEqual(last["tooltip"] as? String, "Sent by the player 2\nSent by the player 3")
        XCTAssertEqual(last["class"] as? String, "paused")
        XCTAssertEqual(last["alt"] as? String, "paused")

        // A sidecar wins over the player's lyrics; --player-lyrics last would put them after the tags.
        // A slow cover URL gives up after 3 s, an oversized one at once, a missing one says 404;
        // each falls back to the folder's cover (none here: a plain backdrop) and says why.
        for (number, art, reason) in [(2, "/slow.jpg", "timed out"), (3, "/huge.jpg", "larger than"), (4, "/missing.jpg", "HTTP status 404")] {
            let started = Date()
            try track(["xesam:title": "Sent \(number)", "xesam:url": fileURL(song), "mpris:trackid": "/t/\(number)", "xesam:asText": lrc,
                       "mpris:artUrl": base + art], at: 4.5)
            XCTAssertTrue(waitFor("the poster despite \(art)", seconds: 15) { events in
                events.filter { $0.kind == "song" }.count >= number && events.last?.kind == "poster"
            })
            XCTAssertLessThan(Date().timeIntervalSince(started), 6, "\(art) held the poster up")
            let log = (try? String(contentsOfFile: temp("follow.log"), encoding: .utf8)) ?? ""
            XCTAssertTrue(log.contains(base + art + ": ") && log.contains(reason), "\(art): \(log)")
        }
    }

    /// The session bus goes away under `follow`: it exits non-zero with one line (so a service
    /// manager restarts it), instead of following nothing for ever.
    func testABusThatGoesAwayEndsFollowWithAnError() throws {
        let follower = try follow()
        try startPlayer()
        bus?.terminate()
        let deadline = Date().addingTimeInterval(10)
        while follower.isRunning, Date() < deadline { usleep(50_000) }
        XCTAssertFalse(follower.isRunning, "follow kept running without a bus")
        XCTAssertNotEqual(follower.terminationStatus, 0)
        let log = (try? String(contentsOfFile: temp("follow.log"), encoding: .utf8)) ?? ""
        XCTAssertTrue(log.contains("D-Bus: the session bus connection closed"), log)
    }
}
