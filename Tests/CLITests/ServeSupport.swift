import Foundation
import XCTest

/// A real `lyricposter serve` on a free loopback port and a real client (curl), for the serve tests.
extension CLITestCase {
    struct Server {
        let process: Process
        let base: String
    }

    /// Starts `serve` over `arguments` and waits for the address it prints.
    func startServer(_ arguments: [String], environment: [String: String] = [:]) throws -> Server {
        let (process, _, err) = try start(["serve"] + arguments + ["--port", "0"], environment: environment)
        var seen = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
            if let range = seen.range(of: #"listening on (http://[0-9.]+:[0-9]+)"#, options: .regularExpression) {
                let base = String(seen[range]).replacingOccurrences(of: "listening on ", with: "")
                // Keep reading what it says (a full pipe would stall it), into serve.log.
                let log = temp("serve-\(process.processIdentifier).log")
                FileManager.default.createFile(atPath: log, contents: Data(seen.utf8))
                if let handle = FileHandle(forWritingAtPath: log) {
                    handle.seekToEndOfFile()
                    err.fileHandleForReading.readabilityHandler = { pipe in
                        let data = pipe.availableData
                        if data.isEmpty { pipe.readabilityHandler = nil } else { handle.write(data) }
                    }
                }
                addTeardownBlock { [self] in
                    if process.isRunning { process.terminate(); process.waitUntilExit() }
                    // A sanitizer's report or a crash in the server is a failure, shown here (the
                    // scratch folder holding its log is removed after the test).
                    let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                    if let start = ["WARNING: ThreadSanitizer", "ERROR: AddressSanitizer", "Fatal error", "runtime failure"]
                        .compactMap({ said.range(of: $0)?.lowerBound }).min() {
                        XCTFail("serve reported:\n" + said[start...].split(separator: "\n").prefix(80).joined(separator: "\n"))
                    }
                }
                return Server(process: process, base: base)
            }
        }
        process.terminate()
        XCTFail("serve did not start: \(seen)")
        throw XCTSkip("serve did not start")
    }

    struct Answer {
        var status: Int
        var headers: String
        var body: Data
    }

    func get(_ url: String, headers: [String] = [], method: String = "GET") throws -> Answer {
        var answer = try curl([url] + headers.flatMap { ["-H", $0] } + (method == "HEAD" ? ["-I"] : method == "GET" ? [] : ["-X", method]))
        // curl -I writes the headers as the body too; a HEAD answer's own body is what is left.
        if method == "HEAD", answer.body.starts(with: Data(answer.headers.utf8)) { answer.body = Data(answer.body.dropFirst(answer.headers.utf8.count)) }
        return answer
    }

    /// curl with its own arguments (a URL, a form, a method), into an Answer.
    func curl(_ arguments: [String]) throws -> Answer {
        let head = temp("head-\(UUID().uuidString)"), body = temp("body-\(UUID().uuidString)")
        _ = try run(["-s", "-g", "-D", head, "-o", body, "--max-time", "60"] + arguments, executable: "/usr/bin/curl")
        let headerText = (try? String(contentsOfFile: head, encoding: .utf8)) ?? ""
        let status = Int(headerText.split(separator: " ").dropFirst().first ?? "") ?? 0
        return Answer(status: status, headers: headerText, body: (try? Data(contentsOf: URL(fileURLWithPath: body))) ?? Data())
    }

    /// A library folder holding one audio file with title and artist tags and no lyrics anywhere
    /// (a 2 s tone written by ffmpeg).
    func makeSongWithoutLyrics(title: String, artist: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else { throw XCTSkip("ffmpeg is missing: run `make test`") }
        let folder = temp("no-lyrics")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let made = try run(["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=330:duration=2",
                            "-metadata", "title=\(title)", "-metadata", "artist=\(artist)", "-y", folder + "/track-07.mp3"],
                           executable: "/usr/bin/ffmpeg")
        XCTAssertEqual(made.status, 0, made.stderr)
        return folder
    }

    /// What the server has said on stderr so far.
    func said(_ server: Server) -> String {
        (try? String(contentsOfFile: temp("serve-\(server.process.processIdentifier).log"), encoding: .utf8)) ?? ""
    }

    /// The library's songs once it is walked and its lyrics read.
    func scannedSongs(_ server: Server) throws -> [[String: Any]] {
        for _ in 0..<300 {
            let list = try get(server.base + "/api/songs?limit=1000")
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: list.body) as? [String: Any])
            if json["scanning"] as? Bool == false { return try XCTUnwrap(json["songs"] as? [[String: Any]]) }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw XCTSkip("the library was still being walked after 30 s")
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
}
