import Foundation
import LyricsDatabase

/// The LRCLIB dump lookup (`--lrclib-db`) on a generated dump of a million tracks in LRCLIB's
/// schema (Tests/Fixtures/make-lrclib-db.py, kept in the work folder between runs): the time to
/// open it and look the first song up (cold: the page cache dropped is not in our power, so
/// "cold" is a fresh process's first lookup), and warm lookups of songs that are there, near a
/// duration, and absent. Also the pages SQLite read, against the file's size: a lookup must read
/// the index, not the file.
enum LRCLIBBench {
    static func run(work: String, tracks: Int = 1_000_000) throws {
        let path = work + "/lrclib-\(tracks).sqlite3"
        if !FileManager.default.fileExists(atPath: path) {
            let script = FileManager.default.currentDirectoryPath + "/Tests/Fixtures/make-lrclib-db.py"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [script, path, "--tracks", String(tracks)]
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw BenchError("make-lrclib-db.py failed (\(process.terminationStatus))") }
        }
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.doubleValue ?? 0
        print("## LRCLIB dump lookup (--lrclib-db), \(tracks) tracks, \(f(size / 1e6, 0)) MB, in process")
        // Cold: the file's pages dropped from the page cache first (clean pages; no root needed).
        let descriptor = open(path, O_RDONLY)
        if descriptor >= 0 {
            posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
            close(descriptor)
        }
        let coldBefore = readBytes()
        var start = DispatchTime.now().uptimeNanoseconds
        let dump = try LRCLIBDump(path: path)
        let first = try dump.lookup(title: "Paper Moon", artist: "The Lanterns", album: "Night Songs", durationMs: 200_000)
        let coldMs = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let coldRead = readBytes() - coldBefore
        let readBefore = readBytes()
        guard first?.trackID == 1 else { throw BenchError("the known row was not found") }
        // Warm: filler songs by name (their durations are not known here: title and artist only),
        // known rows near a duration, and songs that are not there.
        let present = try sample(path, count: 700, tracks: tracks)
        var times: [Double] = []
        var found = 0
        let lookups = 2100
        for index in 0..<lookups {
            start = DispatchTime.now().uptimeNanoseconds
            let result: LRCLIBDump.Found?
            switch index % 3 {
            case 0:
                let song = present[(index / 3) % present.count]
                result = try dump.lookup(title: song.title, artist: song.artist, durationMs: song.durationMs + 1500)
            case 1: result = try dump.lookup(title: "Paper Moon", artist: "The Lanterns", durationMs: 201_500)
            default: result = try dump.lookup(title: "Missing \(index)", artist: "Nobody")
            }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            if result != nil { found += 1 }
        }
        let read = readBytes() - readBefore
        times.sort()
        print("| what | ms |")
        print("|---|---|")
        print("| open + first lookup, the file's pages dropped from the page cache | \(f(coldMs, 2)) |")
        print("| warm lookup, median of \(lookups) | \(f(times[times.count / 2], 3)) |")
        print("| warm lookup, 99th percentile | \(f(times[times.count * 99 / 100], 3)) |")
        print("| warm lookup, slowest | \(f(times.last ?? 0, 3)) |")
        print("")
        print("- found \(found) of \(lookups) (a third are absent by design)")
        print("- read from storage by the cold open and lookup: \(f(Double(coldRead) / 1024, 0)) KB of a \(f(size / 1e6, 0)) MB file")
        print("- read from storage during the warm lookups: \(f(Double(read) / 1e6, 1)) MB of a \(f(size / 1e6, 0)) MB file (target: the index, not the file)")
        print("- target ≤ 20 ms warm: \(times[times.count * 99 / 100] <= 20 ? "met" : "NOT met") (99th percentile)")
        print("")
    }

    /// Title, artist and duration of `count` random tracks, read with the sqlite3 tool by id.
    static func sample(_ path: String, count: Int, tracks: Int) throws -> [(title: String, artist: String, durationMs: Int)] {
        let ids = (0..<count).map { _ in String(Int.random(in: 9...tracks)) }.joined(separator: ",")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-readonly", "-separator", "\t", path, "SELECT name, artist_name, CAST(duration * 1000 AS INTEGER) FROM tracks WHERE id IN (\(ids))"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let rows = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line -> (String, String, Int)? in
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 3, let ms = Int(parts[2]) else { return nil }
            return (String(parts[0]), String(parts[1]), ms)
        }
        guard !rows.isEmpty else { throw BenchError("no tracks sampled from \(path)") }
        return rows
    }

    /// `read_bytes` of /proc/self/io: what this process caused to be read from storage (0 when
    /// the page cache already held it).
    static func readBytes() -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/io", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("read_bytes:") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }

    static func f(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}
