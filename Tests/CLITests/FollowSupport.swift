import Foundation
import TestSupport
import XCTest

/// How late `follow` may change a line, measured from outside. `make test` holds it to 100 ms.
/// Under the sanitizers the follower renders several times slower, and AddressSanitizer's runs
/// missed 100 ms now and then (mpv's changes by 3 to 90 ms in about 1 run in 4; VLC's first change
/// once by 8.6 ms), so there it is 250: those runs check memory and threads, `make test` checks time.
enum FollowBound {
    static var lateness: Double { Sanitizers.active ? 250 : 100 }
}

/// A private D-Bus session bus, a real player on it and a `lyricposter follow` run, for the
/// follow tests. Every process gets the bus's address; all are stopped in `tearDown`.
class FollowTestCase: CLITestCase {
    var busAddress = ""
    /// The scripted player commands go to (the one started last), and each by name.
    var input: Pipe!
    var inputs: [String: Pipe] = [:]
    private var processes: [Process] = []
    private(set) var bus: Process?

    override func setUpWithError() throws {
        try super.setUpWithError()
        for tool in ["/usr/bin/dbus-daemon", "/usr/bin/mpv", "/usr/bin/playerctl", "/usr/bin/ffmpeg"] {
            guard FileManager.default.isExecutableFile(atPath: tool) else {
                XCTFail("\(tool) is missing: run `make test`, which installs dbus, mpv, mpv-mpris, playerctl and ffmpeg")
                throw XCTSkip("no \(tool)")
            }
        }
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1"]
        let out = Pipe()
        daemon.standardOutput = out
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        bus = daemon
        // The address is the first line it prints.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        busAddress = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(busAddress.isEmpty, "dbus-daemon printed no address")
    }

    override func tearDownWithError() throws {
        for process in processes.reversed() where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        bus?.terminate()
        bus?.waitUntilExit()
        try super.tearDownWithError()
    }

    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        env["XDG_CACHE_HOME"] = cacheHome
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        return env
    }

    /// Starts a process on the test bus; its output goes to `log` in the scratch folder.
    @discardableResult
    func spawn(_ executable: String, _ arguments: [String], log: String, stdin: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = Self.package
        _ = FileManager.default.createFile(atPath: temp(log), contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temp(log)))
        process.standardOutput = handle
        process.standardError = handle
        if let stdin { process.standardInput = stdin }
        try process.run()
        processes.append(process)
        return process
    }

    /// Runs a short command on the test bus and returns its standard output, trimmed.
    @discardableResult
    func command(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @discardableResult
    func playerctl(_ arguments: String...) throws -> String { try command("/usr/bin/playerctl", arguments) }

    /// Starts `lyricposter follow` with a small canvas (cheap under the sanitizers) and waits until
    /// it is on the bus (its first event), before any player appears.
    func follow(_ extra: [String] = []) throws -> Process {
        let process = try spawn(Self.binary.path, ["follow", "-o", temp("out/now.png"), "--events", temp("events.jsonl"),
                                                   "--size", "360x640"] + extra, log: "follow.log")
        waitFor("follow to start", seconds: 30) { !$0.isEmpty }
        return process
    }

    /// mpv, headless, with the MPRIS plugin, at double speed.
    func mpv(_ files: [String]) throws -> Process {
        try spawn("/usr/bin/mpv", ["--no-config", "--script=/usr/lib/mpv-mpris/mpris.so", "--ao=null", "--no-video",
                                   "--keep-open=yes", "--speed=2", "--really-quiet"] + files, log: "mpv.log")
    }

    // MARK: - Events

    struct Event {
        var fields: [String: Any]
        var kind: String { fields["event"] as? String ?? "" }
        var wall: Int { fields["wall_ms"] as? Int ?? 0 }
        var start: Int { fields["start_ms"] as? Int ?? -1 }
        var position: Int { fields["position_ms"] as? Int ?? -1 }
        var frame: Int { fields["frame"] as? Int ?? -1 }
        var line: Int? { fields["line_index"] as? Int }
        var track: String { fields["track"] as? String ?? "" }
    }

    func events() -> [Event] {
        guard let text = try? String(contentsOfFile: temp("events.jsonl"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).map(Event.init)
        }
    }

    var posters: [Event] { events().filter { $0.kind == "poster" } }

    /// Waits (polling the events file) until `condition` holds, up to `seconds`.
    @discardableResult
    func waitFor(_ what: String, seconds: Double = 20, _ condition: ([Event]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(events()) { return true }
            usleep(20_000)
        }
        XCTFail("timed out waiting for \(what); \(record)")
        return false
    }

    /// What follow logged and its events so far, for a failure's message.
    var record: String {
        let log = (try? String(contentsOfFile: temp("follow.log"), encoding: .utf8)) ?? ""
        let events = (try? String(contentsOfFile: temp("events.jsonl"), encoding: .utf8)) ?? ""
        return "follow said:\n\(log)\nits events:\n\(events)"
    }

    var nowMs: Int { Int((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// A TCP port free on 127.0.0.1 now, for a server a test starts (MPD, Supysonic).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    // MARK: - Songs

    /// A tagged MP3 of `seconds` (a sine tone), its `.lrc` with a line every second, in `folder`.
    func makeSong(_ stem: String, title: String, seconds: Int, in folder: String, lrc: Bool = true) throws -> String {
        try FileManager.default.createDirectory(atPath: temp(folder), withIntermediateDirectories: true)
        let audio = temp("\(folder)/\(stem).mp3")
        let result = try command("/usr/bin/ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                                                     "sine=frequency=330:duration=\(seconds)", "-metadata", "title=\(title)",
                                                     "-metadata", "artist=Tester", "-q:a", "9", audio])
        XCTAssertTrue(FileManager.default.fileExists(atPath: audio), "ffmpeg made no \(audio): \(result)")
        if lrc {
            let lines = (0..<seconds).map { String(format: "[00:%02d.00]%@ line %d", $0, title, $0) }
            try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: temp("\(folder)/\(stem).lrc")))
        }
        return audio
    }

    func copyCover(to folder: String) throws {
        try FileManager.default.copyItem(atPath: Self.package.appendingPathComponent(cover).path, toPath: temp("\(folder)/cover.jpg"))
    }

    /// Consecutive posters (frame k then k+1) are line changes driven by the timer: how late each
    /// was, in wall milliseconds (position past the line's start, divided by the rate).
    func boundaryLateness(_ posters: [Event], rate: Double) -> [Double] {
        zip(posters, posters.dropFirst()).compactMap { previous, next in
            next.frame == previous.frame + 1 && next.track == previous.track ? Double(next.position - next.start) / rate : nil
        }
    }
}

/// The tests' own MPRIS player (Tests/Fixtures/mpris-player.py), driven by JSON commands.
extension FollowTestCase {

    /// Starts the scripted player `name` and waits until it owns its bus name; commands then go to it.
    func startPlayer(_ name: String = "scripted", _ options: [String] = []) throws {
        input = Pipe()
        inputs[name] = input
        try spawn("/usr/bin/python3", [Self.package.appendingPathComponent("Tests/Fixtures/mpris-player.py").path, "--name", name] + options,
                  log: "player-\(name).log", stdin: input)
        let deadline = Date().addingTimeInterval(30)
        func ready() -> Bool { ((try? String(contentsOfFile: temp("player-\(name).log"), encoding: .utf8)) ?? "").contains("\"ready\"") }
        while Date() < deadline, !ready() { usleep(20_000) }
        XCTAssertTrue(ready(), "the scripted player \(name) did not start")
    }

    func send(_ command: [String: Any]) throws {
        var line = try JSONSerialization.data(withJSONObject: command)
        line.append(UInt8(ascii: "\n"))
        input.fileHandleForWriting.write(line)
    }

    func track(_ metadata: [String: Any], at seconds: Double = 0) throws {
        try send(["cmd": "track", "metadata": metadata, "position_us": Int(seconds * 1_000_000)])
    }

    func fileURL(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }
}
