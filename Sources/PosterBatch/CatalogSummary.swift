import Foundation
import LyricPoster

/// The shards' reports of an output root merged: totals by status and every failure.
package struct CatalogSummary: Sendable {
    package var reports: [String] = []
    package var counts: [CatalogRunner.Line.Status: Int] = [:]
    package var frames = 0
    package var sheets = 0
    package var milliseconds = 0
    package var failures: [(id: String, error: String)] = []
    /// Ids found in more than one report line (a shard count changed between runs, or a
    /// report was copied): each is counted once per line.
    package var repeated: [String] = []
    /// Report lines that could not be read.
    package var unreadable = 0
    /// Shards of a count some report names whose report is not there (`shard-02-of-04`).
    package var missing: [String] = []
    /// Shards whose run is going on now (its temporary report is held).
    package var running: [String] = []
    /// Shards whose run was killed before it finished (its temporary report is there, held by
    /// nobody): their report, if any, is an older run's.
    package var unfinished: [String] = []

    package var songs: Int { counts.values.reduce(0, +) }

    /// Reads every `<root>/catalog/*.jsonl`, line by line.
    package static func read(_ root: String) throws(PosterError) -> CatalogSummary {
        let folder = root + "/" + CatalogRunner.reportFolder
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
            throw PosterError(path: folder, reason: Inputs.exists(folder) ? "cannot read the folder" : "no reports here (is \(root) a catalogue's output folder?)")
        }
        var summary = CatalogSummary()
        var seen = Set<String>()
        let decoder = JSONDecoder()
        for name in names.sorted() where name.hasSuffix(".jsonl") && !name.hasPrefix(".") {
            summary.reports.append(name)
            let reader = try LineReader(path: folder + "/" + name, maxLineBytes: 1 << 20)
            defer { reader.close() }
            while let line = try reader.next() {
                guard case .text(let text) = line, !text.isEmpty else { continue }
                guard let entry = try? decoder.decode(CatalogRunner.Line.self, from: Data(text.utf8)) else {
                    summary.unreadable += 1
                    continue
                }
                // A song another process held was rendered by that one, and reported there.
                if entry.status != .busy, !seen.insert(entry.id).inserted { summary.repeated.append(entry.id) }
                summary.counts[entry.status, default: 0] += 1
                summary.frames += entry.frames
                summary.sheets += entry.sheets ?? 0
                summary.milliseconds += entry.ms
                if entry.status == .failed { summary.failures.append((entry.id, entry.error ?? "")) }
            }
        }
        for name in ReportWriter.temporaries(in: folder) {
            guard let range = name.range(of: ".jsonl.tmp-") else { continue }
            let shard = String(name[name.index(after: name.startIndex)..<range.lowerBound])
            if FileClaim.isHeld(folder + "/" + name) { summary.running.append(shard) } else { summary.unfinished.append(shard) }
        }
        if summary.reports.isEmpty, summary.running.isEmpty, summary.unfinished.isEmpty {
            throw PosterError(path: folder, reason: "no reports here (is \(root) a catalogue's output folder?)")
        }
        summary.missing = missingShards(among: summary.reports.map { String($0.dropLast(".jsonl".count)) } + summary.running + summary.unfinished)
        return summary
    }

    /// The shards of every count that `names` mention (`shard-I-of-N`) that are not among them.
    static func missingShards(among names: [String]) -> [String] {
        var present: [Int: Set<Int>] = [:]
        for name in names {
            let parts = name.split(separator: "-")
            guard parts.count == 4, parts[0] == "shard", parts[2] == "of", let index = Int(parts[1]), let count = Int(parts[3]),
                  count > 0, count <= 100_000, index < count else { continue }
            present[count, default: []].insert(index)
        }
        var missing: [String] = []
        for (count, indices) in present.sorted(by: { $0.key < $1.key }) {
            for index in 0..<count where !indices.contains(index) {
                missing.append(CatalogShard(index: index, count: count).name)
            }
        }
        return missing
    }
}
