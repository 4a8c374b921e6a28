import Foundation

/// Cold starts: every run as a new user, a catalogue shard or a server meets a song — a fresh
/// cache folder (the backdrop cache on, empty), a cover never seen. Beside each cold figure, the
/// same run warm (the cache filled by a run before), and with `--compare BIN` the same rows for
/// another build of `lyricposter` in the same run (before/after ratios on the same machine state).
enum ColdBench {
    struct Row {
        var name: String
        var values: [String: Double]  // binary label → median seconds (or the figure named)
    }

    /// A fresh, empty cache folder for one run.
    static func freshCache(_ work: String) -> String {
        // Absolute: a relative XDG_CACHE_HOME is ignored (the XDG rule), and the user's own cache used.
        let base = work.hasPrefix("/") ? work : FileManager.default.currentDirectoryPath + "/" + work
        let folder = base + "/cold-cache-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static func withCache<T>(_ folder: String?, _ body: () throws -> T) rethrows -> T {
        let saved = (ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], ProcessInfo.processInfo.environment["LYRICPOSTER_NO_CACHE"])
        if let folder {
            setenv("XDG_CACHE_HOME", folder, 1)
            unsetenv("LYRICPOSTER_NO_CACHE")
        } else {
            setenv("LYRICPOSTER_NO_CACHE", "1", 1)
        }
        defer {
            if let xdg = saved.0 { setenv("XDG_CACHE_HOME", xdg, 1) } else { unsetenv("XDG_CACHE_HOME") }
            if let off = saved.1 { setenv("LYRICPOSTER_NO_CACHE", off, 1) } else { unsetenv("LYRICPOSTER_NO_CACHE") }
        }
        return try body()
    }

    /// `cover` with a JPEG comment (COM segment) naming `index` right after its start: other bytes
    /// (another digest, so no cache entry of another cover matches), the same picture.
    static func distinctJPEG(_ cover: Data, index: Int) -> Data {
        let text = Array("lyricposter-bench cover \(index)".utf8)
        let length = text.count + 2
        return cover.prefix(2) + Data([0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + text) + cover.dropFirst(2)
    }

    static func run(binaries: [(label: String, path: String)], inputs: (photo: String, song60: String, songWords: String, otherCovers: [(name: String, path: String)]),
                    work: String, runs: Int, cores: Int) throws {
        let labels = binaries.map(\.label)
        print("## cold and warm (\(labels.joined(separator: " vs "))), 1080×1920, photographic 3000² JPEG")
        print("cold: a fresh cache folder per run (the backdrop cache on and empty) and a cover never seen; warm: the cache filled")
        print("by the run before; cache off: LYRICPOSTER_NO_CACHE=1. Medians of \(runs) runs.")
        print("")
        let photo = try Data(contentsOf: URL(fileURLWithPath: inputs.photo))
        var rows: [Row] = []
        var coverIndex = 0
        /// Runs `body` with a cover never seen before and a fresh cache folder, then removes both.
        func withNewCoverAndCache<T>(_ body: (_ cover: String, _ cache: String) throws -> T) throws -> T {
            coverIndex += 1
            let cover = work + "/cold-cover-\(coverIndex).jpg"
            try distinctJPEG(photo, index: coverIndex).write(to: URL(fileURLWithPath: cover))
            let cache = freshCache(work)
            defer {
                try? FileManager.default.removeItem(atPath: cache)
                try? FileManager.default.removeItem(atPath: cover)
            }
            return try body(cover, cache)
        }
        func frameArgs(_ cover: String) -> [String] {
            ["frame", cover, inputs.song60, "--at", "1:30", "-o", work + "/cold-frame.png"]
        }

        // frame: cold, warm, cache off
        var cold: [String: Double] = [:], warm: [String: Double] = [:], off: [String: Double] = [:]
        for (label, binary) in binaries {
            var c: [Double] = [], w: [Double] = [], o: [Double] = []
            for _ in 0..<runs {
                try withNewCoverAndCache { cover, cache in
                    let first = try withCache(cache) { try measure(binary, frameArgs(cover)) }
                    guard first.status == 0 else { throw BenchError("frame failed: \(first.stderr)") }
                    c.append(first.wall)
                    w.append(try withCache(cache) { try measure(binary, frameArgs(cover)) }.wall)
                    o.append(try withCache(nil) { try measure(binary, frameArgs(cover)) }.wall)
                }
            }
            cold[label] = median(c); warm[label] = median(w); off[label] = median(o)
        }
        rows.append(Row(name: "`frame`, cold (ms)", values: cold.mapValues { $0 * 1000 }))
        rows.append(Row(name: "`frame`, warm cache (ms)", values: warm.mapValues { $0 * 1000 }))
        rows.append(Row(name: "`frame`, cache off (ms)", values: off.mapValues { $0 * 1000 }))

        // frame, cold and warm, with the same photograph as a progressive JPEG, a PNG and a WebP
        // (a fresh cache folder makes each run cold; the bytes stay those of the file)
        for (kind, cover) in inputs.otherCovers {
            var kindCold: [String: Double] = [:], kindWarm: [String: Double] = [:]
            for (label, binary) in binaries {
                var c: [Double] = [], w: [Double] = []
                for _ in 0..<runs {
                    let cache = freshCache(work)
                    defer { try? FileManager.default.removeItem(atPath: cache) }
                    let first = try withCache(cache) { try measure(binary, frameArgs(cover)) }
                    guard first.status == 0 else { throw BenchError("frame (\(kind)) failed: \(first.stderr)") }
                    c.append(first.wall)
                    w.append(try withCache(cache) { try measure(binary, frameArgs(cover)) }.wall)
                }
                kindCold[label] = median(c); kindWarm[label] = median(w)
            }
            rows.append(Row(name: "`frame`, cold, the photograph as a \(kind) (ms)", values: kindCold.mapValues { $0 * 1000 }))
            rows.append(Row(name: "`frame`, warm, the photograph as a \(kind) (ms)", values: kindWarm.mapValues { $0 * 1000 }))
        }

        // lines, 60 frames, cold and warm
        var linesCold: [String: Double] = [:], linesWarm: [String: Double] = [:], linesRSS: [String: Double] = [:]
        for (label, binary) in binaries {
            var c: [Double] = [], w: [Double] = [], rss: [Double] = []
            for _ in 0..<runs {
                try withNewCoverAndCache { cover, cache in
                    let out = work + "/cold-lines"
                    defer { try? FileManager.default.removeItem(atPath: out) }
                    let args = ["lines", cover, inputs.song60, "-o", out, "--size", "1080x1920", "--jobs", "\(cores)", "--quiet"]
                    try? FileManager.default.removeItem(atPath: out)
                    let first = try withCache(cache) { try measure(binary, args) }
                    guard first.status == 0 else { throw BenchError("lines failed: \(first.stderr)") }
                    c.append(first.wall); rss.append(first.peakRSSMB)
                    try? FileManager.default.removeItem(atPath: out)
                    w.append(try withCache(cache) { try measure(binary, args) }.wall)
                }
            }
            linesCold[label] = median(c); linesWarm[label] = median(w); linesRSS[label] = rss.max() ?? 0
        }
        rows.append(Row(name: "`lines` 60 frames, cold (s)", values: linesCold))
        rows.append(Row(name: "`lines` 60 frames, warm cache (s)", values: linesWarm))
        rows.append(Row(name: "`lines` 60 frames, cold, peak RSS (MB)", values: linesRSS))

        // The catalogue before the sequence: the sequence's thousands of files, written and then
        // deleted, would weigh on the catalogue's file creation and writeback (ext4 without a
        // journal passes over every inode deleted in the last minutes; a catalogue run after them
        // took 112 ms of CPU a song on disk against 70 in tmpfs).
        //
        // A catalogue: songs with covers all different, a few lines each, so that what is paid
        // once per song dominates.
        let songs = 60
        let catalogue = work + "/cold-catalogue"
        try? FileManager.default.removeItem(atPath: catalogue)
        try FileManager.default.createDirectory(atPath: catalogue, withIntermediateDirectories: true)
        var manifest = ""
        let lyrics = "[ti:Catalogue Song]\n[ar:LyricPoster]\n[00:01.00]First light over the harbour\n[00:04.00]Second bell across the water\n[00:07.00]Third and last, the lanterns out\n[00:10.00]\n"
        try Data(lyrics.utf8).write(to: URL(fileURLWithPath: catalogue + "/song.lrc"))
        for i in 0..<songs {
            try distinctJPEG(photo, index: 10_000 + i).write(to: URL(fileURLWithPath: catalogue + "/cover-\(i).jpg"))
            manifest += "{\"id\": \"song-\(i)\", \"cover\": \"cover-\(i).jpg\", \"lyrics\": \"song.lrc\"}\n"
        }
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: catalogue + "/catalog.jsonl"))
        // The same catalogue written to memory (tmpfs), where the system has one: creating files
        // on a disk costs the kernel more on some filesystems than on others (ext4 without a
        // journal passes over every inode deleted in the last minutes, as the run before's were),
        // and this row shows what the songs cost without it.
        let memory = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm/lyricposter-bench-\(getpid())" : nil
        if let memory { try FileManager.default.createDirectory(atPath: memory, withIntermediateDirectories: true) }
        defer { if let memory { try? FileManager.default.removeItem(atPath: memory) } }
        // Run by run, the builds take turns (and each its disk and memory run), the first of a
        // round changing every round, so that the disk's writeback of an earlier row weighs on
        // each alike.
        var cpu: [String: [Double]] = [:], wall: [String: [Double]] = [:], memoryCPU: [String: [Double]] = [:]
        for round in 0..<max(1, runs / 2) {
            for (label, binary) in round % 2 == 0 ? binaries : binaries.reversed() {
                for root in [catalogue, memory].compactMap({ $0 }) {
                    let out = root + "/out"
                    try? FileManager.default.removeItem(atPath: out)
                    let cache = freshCache(work)
                    defer { try? FileManager.default.removeItem(atPath: cache) }
                    let m = try withCache(cache) {
                        try measure(binary, ["catalog", catalogue + "/catalog.jsonl", "-o", out, "--jobs", "\(cores)", "--quiet"])
                    }
                    guard m.status == 0 else { throw BenchError("catalog failed: \(m.stderr)") }
                    if root == catalogue {
                        cpu[label, default: []].append(m.cpu / Double(songs)); wall[label, default: []].append(m.wall / Double(songs))
                    } else {
                        memoryCPU[label, default: []].append(m.cpu / Double(songs))
                    }
                }
            }
        }
        try? FileManager.default.removeItem(atPath: catalogue)
        rows.append(Row(name: "`catalog`, \(songs) songs × 3 lines, 60 different 3000² covers: CPU per song (ms)", values: cpu.mapValues { median($0) * 1000 }))
        rows.append(Row(name: "the same: wall per song (ms)", values: wall.mapValues { median($0) * 1000 }))
        if memory != nil {
            rows.append(Row(name: "the same written to /dev/shm (tmpfs): CPU per song (ms)", values: memoryCPU.mapValues { median($0) * 1000 }))
        }

        // sequence --fps 30 of the word-timed 3-minute song, cold
        var sequenceRate: [String: Double] = [:]
        var written = (files: 0, bytes: 0)
        for (label, binary) in binaries {
            var rates: [Double] = []
            for _ in 0..<max(1, runs / 2) {
                try withNewCoverAndCache { cover, cache in
                    let out = work + "/cold-sequence"
                    try? FileManager.default.removeItem(atPath: out)
                    defer { try? FileManager.default.removeItem(atPath: out) }
                    let m = try withCache(cache) {
                        try measure(binary, ["sequence", cover, inputs.songWords, "--fps", "30", "-o", out, "--size", "1080x1920",
                                             "--jobs", "\(cores)", "--quiet"])
                    }
                    guard m.status == 0 else { throw BenchError("sequence failed: \(m.stderr)") }
                    let counted = try framesWritten(in: out)
                    rates.append(Double(counted.count) / m.wall)
                    written = (counted.count, Int((counted.bytesPerFrame * Double(counted.count)).rounded()))
                }
            }
            sequenceRate[label] = median(rates)
        }
        rows.append(Row(name: "`sequence --fps 30`, 3-minute word-timed song, cold (PNGs/s)", values: sequenceRate))
        // What the disk takes: as many files of the PNGs' mean size, written the same way (a
        // temporary file and a rename, one thread per core) by a C program doing nothing else.
        if written.files > 0 {
            let floor = try buildWriteFloor(work: work)
            let out = work + "/write-floor-files"
            var rates: [Double] = []
            for _ in 0..<max(1, runs / 2) {
                try? FileManager.default.removeItem(atPath: out)
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
                let m = try measure(floor, [out, "\(written.files)", "\(written.bytes / written.files)", "\(cores)"])
                guard m.status == 0 else { throw BenchError("write-floor failed: \(m.stderr)") }
                rates.append(Double(written.files) / m.wall)
            }
            try? FileManager.default.removeItem(atPath: out)
            let rate = median(rates)
            rows.append(Row(name: "the same disk, \(written.files) files of \(written.bytes / written.files / 1024) KB written and nothing else (C, temp + rename, \(cores) threads; files/s)",
                            values: Dictionary(uniqueKeysWithValues: binaries.map { ($0.label, rate) })))
        }

        print("| row | " + labels.joined(separator: " | ") + (labels.count > 1 ? " | \(labels[0]) / \(labels[1]) |" : " |"))
        print("|---|" + String(repeating: "---|", count: labels.count + (labels.count > 1 ? 1 : 0)))
        for row in rows {
            let cells = labels.map { row.values[$0].map { f($0, $0 >= 100 ? 0 : ($0 >= 10 ? 1 : 2)) } ?? "–" }
            var line = "| \(row.name) | " + cells.joined(separator: " | ") + " |"
            if labels.count > 1, let a = row.values[labels[0]], let b = row.values[labels[1]], b > 0 { line += " \(f(a / b))× |" }
            print(line)
        }
        print("")
    }
}
