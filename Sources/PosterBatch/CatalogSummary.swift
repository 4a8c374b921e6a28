import Foundation
import LyricPoster

/// The shards' reports of an output root merged: totals by status and every failure.
public struct CatalogSummary: Sendable {
    public var reports: [String] = []
    public var counts: [CatalogRunner.Line.Status: Int] = [:]
    public var frames = 0
    public var milliseconds = 0
    public var failures: [(id: String, error: String)] = []
    /// Ids found in more than one report line (a shard count changed between runs, or a
    /// report was copied): each is counted once per line.
    public var repeated: [String] = []
    /// Report lines that could not be read.
    public var unreadable = 0

    public var songs: Int { counts.values.reduce(0, +) }

    /// Reads every `<root>/catalog/*.jsonl`, line by line.
    public static func read(_ root: String) throws(PosterError) -> CatalogSummary {
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
                if !seen.insert(entry.id).inserted { summary.repeated.append(entry.id) }
                summary.counts[entry.status, default: 0] += 1
                summary.frames += entry.frames
                summary.milliseconds += entry.ms
                if entry.status == .failed { summary.failures.append((entry.id, entry.error ?? "")) }
            }
        }
        if summary.reports.isEmpty {
            throw PosterError(path: folder, reason: "no reports here (is \(root) a catalogue's output folder?)")
        }
        return summary
    }
}
