import Foundation
import XCTest

/// `follow` measured from outside, on the player's own clock: the scripted player reports its
/// true clock (position, monotonic instant, speed) on stdout, a thread here watches the poster
/// file every 5 ms, and each new poster's lateness is the player's true position at that instant
/// minus its line's start.
final class FollowClockTests: FollowTestCase {
    /// The monotonic instants (ns) at which the poster file was replaced, from inotify: the
    /// kernel queues every rename into the folder, so two replacements close together (a seek) or
    /// a slow thread (under ThreadSanitizer) never merge into one, as a polling `stat` could.
    final class PosterWatch: @unchecked Sendable {
        private let lock = NSLock()
        private var instants: [Int64] = []
        private var running = true
        private let fd: Int32

        init(_ path: String) {
            let directory = (path as NSString).deletingLastPathComponent, name = (path as NSString).lastPathComponent
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            fd = inotify_init1(Int32(IN_CLOEXEC))
            precondition(fd >= 0 && inotify_add_watch(fd, directory, UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE)) >= 0, "inotify")
            // A poster already there counts as the first one seen.
            if FileManager.default.fileExists(atPath: path) { instants.append(FollowClockTests.monotonic()) }
            Thread.detachNewThread { [self] in
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                while lock.withLock({ running }) {
                    var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&ready, 1, 20) > 0 else { continue }
                    let count = read(fd, &buffer, buffer.count)
                    let now = FollowClockTests.monotonic()
                    var offset = 0
                    while count > 0, offset + 16 <= count {
                        let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                        let bytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                        if String(decoding: bytes, as: UTF8.self) == name { lock.withLock { instants.append(now) } }
                        offset += 16 + length
                    }
                }
                close(fd)
            }
        }

        func stop() -> [Int64] {
            let result = lock.withLock { running = false; return instants }
            usleep(40_000)  // the watching thread closes its descriptor
            return result
        }
        var count: Int { lock.withLock { instants.count } }
    }

    static func monotonic() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// The player's true clock, from its `clock` lines.
    struct TrueClock {
        var anchors: [(position: Double, mono: Double, speed: Double, playing: Bool)] = []

        init(log: String) {
            for line in log.split(separator: "\n") {
                guard let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let clock = json["clock"] as? [String: Any], let position = clock["position_us"] as? Double ?? (clock["position_us"] as? Int).map(Double.init),
                      let mono = clock["mono"] as? Double, let speed = clock["speed"] as? Double, let playing = clock["playing"] as? Bool else { continue }
                anchors.append((position, mono, speed, playing))
            }
        }

        /// The true position (ms) at monotonic ns `instant`.
        func positionMs(at instant: Int64) -> Double? {
            let t = Double(instant) / 1e9
            guard let anchor = anchors.last(where: { $0.mono <= t }) else { return nil }
            return (anchor.position + (anchor.playing ? (t - anchor.mono) * 1e6 * anchor.speed : 0)) / 1000
        }
    }

    /// Lateness (ms, on the player's clock) of each poster that replaced its predecessor's line
    /// by the timer (frame k → k+1 of one track), from the poster file's replacement instants.
    func lateness(instants: [Int64], player: String = "scripted", offsetMs: Double = 0) -> [Double] {
        let clock = TrueClock(log: (try? String(contentsOfFile: temp("player-\(player).log"), encoding: .utf8)) ?? "")
        let placed = posters
        XCTAssertEqual(placed.count, instants.count, "one poster event per replacement of the file")
        var result: [Double] = []
        for k in 1..<min(placed.count, instants.count) where placed[k].frame == placed[k - 1].frame + 1 && placed[k].track == placed[k - 1].track {
            guard let position = clock.positionMs(at: instants[k]) else { continue }
            result.append(position - Double(placed[k].start) - offsetMs)
        }
        return result
    }

    func summary(_ values: [Double]) -> String {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return "none" }
        let median = sorted[sorted.count / 2], p95 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
        let worst = sorted.max { abs($0) < abs($1) }!
        return String(format: "n %d, median %.0f ms, p95 %.0f ms, worst %.0f ms", sorted.count, median, p95, worst)
    }

    /// A player whose clock runs 3 % slow and reports its position in 250 ms steps: every line
    /// change lands within ±100 ms of the line's start on its clock (median within ±30 ms).
    func testAnOffClockSteppedPlayerIsFollowedOnItsOwnClock() throws {
        let song = try makeSong("song", title: "Slow", seconds: 30, in: "music")
        try copyCover(to: "music")
        let watch = PosterWatch(temp("out/now.png"))
        _ = try follow()
        try startPlayer("scripted", ["--skew", "0.97", "--step-ms", "250"])
        try track(["xesam:title": "Slow", "xesam:url": fileURL(song), "mpris:trackid": "/t/1", "mpris:length": 30_000_000])
        try send(["cmd": "play"])
        waitFor("twenty lines", seconds: 40) { $0.filter { $0.kind == "poster" }.count >= 21 }
        let late = lateness(instants: watch.stop())
        print("follow, scripted player at 0.97× in 250 ms steps: \(summary(late))")
        XCTAssertGreaterThanOrEqual(late.count, 15)
        for value in late { XCTAssertLessThanOrEqual(abs(value), FollowBound.lateness, "lateness \(value) ms: \(late)") }
        let median = late.sorted()[late.count / 2]
        XCTAssertLessThanOrEqual(abs(median), 30, "median \(median) ms: \(late)")
    }

    /// A seek without `Seeked`: the jump is found at the next reading and followed; the line
    /// changes after it are on time again; `--offset` shifts every change.
    func testASilentSeekIsFoundAndOffsetShiftsChanges() throws {
        let song = try makeSong("song", title: "Silent", seconds: 40, in: "music")
        try copyCover(to: "music")
        let watch = PosterWatch(temp("out/now.png"))
        _ = try follow(["--offset", "150"])
        try startPlayer("scripted", ["--no-seeked"])
        try track(["xesam:title": "Silent", "xesam:url": fileURL(song), "mpris:trackid": "/t/1", "mpris:length": 40_000_000])
        try send(["cmd": "play"])
        waitFor("line 3") { $0.contains { $0.kind == "poster" && $0.start >= 3000 } }
        let seekedAt = Date()
        try send(["cmd": "seek", "position_us": 20_000_000])
        waitFor("the jump to be followed", seconds: 10) { $0.contains { $0.kind == "poster" && $0.start >= 20000 } }
        let noticed = Date().timeIntervalSince(seekedAt)
        XCTAssertLessThan(noticed, 4, "a silent seek is noticed within a reading (3 s) and its probe")
        waitFor("eight lines after the jump", seconds: 20) { $0.filter { $0.kind == "poster" && $0.start >= 21000 }.count >= 8 }
        let instants = watch.stop()
        let late = lateness(instants: instants, offsetMs: 150).suffix(7)
        print("follow, silent seek noticed after \(String(format: "%.2f", noticed)) s; then (offset 150 ms): \(summary(Array(late)))")
        for value in late { XCTAssertLessThanOrEqual(abs(value), FollowBound.lateness, "lateness \(value) ms after the silent seek: \(late)") }
    }
}
