import Foundation
import LyricPoster
import PosterGraphics

/// Which songs of a catalogue one run renders: those whose id hashes into shard `index` of
/// `count`. The hash is of the id alone (the first 8 bytes of its SHA-256), so adding songs to a
/// catalogue never moves another song to a different shard.
public struct CatalogShard: Sendable, Equatable {
    public var index: Int
    public var count: Int
    /// Where the numbers came from (`--shard`, or the scheduler's variables).
    public var origin: String

    public init(index: Int, count: Int, origin: String = "--shard") {
        self.index = index
        self.count = count
        self.origin = origin
    }

    public static let all = CatalogShard(index: 0, count: 1, origin: "no --shard")

    /// The report's name: `shard-03-of-08`.
    public var name: String {
        let width = max(2, String(count - 1).count)
        func pad(_ n: Int) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        return "shard-\(pad(index))-of-\(pad(count))"
    }

    public func contains(_ id: String) -> Bool {
        Self.bucket(of: id, count: count) == index
    }

    public static func bucket(of id: String, count: Int) -> Int {
        let hex = Digest.sha256(Data(id.utf8)).prefix(16)
        let value = UInt64(hex, radix: 16) ?? 0
        return Int(value % UInt64(count))
    }

    /// `I/N` with 0 ≤ I < N ≤ 100000.
    public static func parse(_ text: String) -> CatalogShard? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
              (1...100_000).contains(count), (0..<count).contains(index) else { return nil }
        return CatalogShard(index: index, count: count)
    }

    /// The shard a batch scheduler gave this process: a Kubernetes Indexed Job
    /// (`JOB_COMPLETION_INDEX`, with the count in `LYRICPOSTER_SHARDS`), an AWS Batch array job
    /// (`AWS_BATCH_JOB_ARRAY_INDEX`, `AWS_BATCH_JOB_ARRAY_SIZE`) or a Slurm array
    /// (`SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN`, `SLURM_ARRAY_TASK_COUNT`).
    public static func automatic(_ environment: [String: String]) throws(PosterError) -> CatalogShard {
        func number(_ name: String) throws(PosterError) -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = Int(text) else { throw PosterError(path: "--shard auto", reason: "\(name)=\(text) is not a number") }
            return value
        }
        func make(_ index: Int, _ count: Int, _ origin: String) throws(PosterError) -> CatalogShard {
            guard (1...100_000).contains(count), (0..<count).contains(index) else {
                throw PosterError(path: "--shard auto", reason: "\(origin) gives shard \(index) of \(count), which is not a shard")
            }
            return CatalogShard(index: index, count: count, origin: origin)
        }
        if let index = try number("JOB_COMPLETION_INDEX") {
            guard let count = try number("LYRICPOSTER_SHARDS") else {
                throw PosterError(path: "--shard auto", reason: "a Kubernetes Indexed Job (JOB_COMPLETION_INDEX=\(index)) needs LYRICPOSTER_SHARDS set to the Job's completions")
            }
            return try make(index, count, "Kubernetes Indexed Job (JOB_COMPLETION_INDEX, LYRICPOSTER_SHARDS)")
        }
        if let index = try number("AWS_BATCH_JOB_ARRAY_INDEX") {
            guard let count = try number("AWS_BATCH_JOB_ARRAY_SIZE") else {
                throw PosterError(path: "--shard auto", reason: "AWS_BATCH_JOB_ARRAY_INDEX is set but AWS_BATCH_JOB_ARRAY_SIZE is not")
            }
            return try make(index, count, "AWS Batch array job (AWS_BATCH_JOB_ARRAY_INDEX, AWS_BATCH_JOB_ARRAY_SIZE)")
        }
        if let id = try number("SLURM_ARRAY_TASK_ID") {
            guard let count = try number("SLURM_ARRAY_TASK_COUNT") else {
                throw PosterError(path: "--shard auto", reason: "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
            }
            return try make(id - (try number("SLURM_ARRAY_TASK_MIN") ?? 0), count,
                            "Slurm array (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT)")
        }
        throw PosterError(path: "--shard auto", reason: "no scheduler variables found (JOB_COMPLETION_INDEX + LYRICPOSTER_SHARDS, AWS_BATCH_JOB_ARRAY_INDEX + AWS_BATCH_JOB_ARRAY_SIZE, or SLURM_ARRAY_TASK_ID + SLURM_ARRAY_TASK_COUNT)")
    }
}
