import Foundation
import LyricPoster
import PosterGraphics

/// Which songs of a catalogue one run renders: those whose id hashes into shard `index` of
/// `count`. The hash is of the id alone (the first 8 bytes of its SHA-256), so adding songs to a
/// catalogue never moves another song to a different shard.
package struct CatalogShard: Sendable, Equatable {
    package var index: Int
    package var count: Int
    /// Where the numbers came from (`--shard`, or the scheduler's variables).
    package var origin: String

    package init(index: Int, count: Int, origin: String = "--shard") {
        self.index = index
        self.count = count
        self.origin = origin
    }

    package static let all = CatalogShard(index: 0, count: 1, origin: "no --shard")

    /// The report's name: `shard-03-of-08`.
    package var name: String {
        let width = max(2, String(count - 1).count)
        func pad(_ n: Int) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        return "shard-\(pad(index))-of-\(pad(count))"
    }

    package func contains(_ id: String) -> Bool {
        Self.bucket(of: id, count: count) == index
    }

    package static func bucket(of id: String, count: Int) -> Int {
        let hex = Digest.sha256(Data(id.utf8)).prefix(16)
        let value = UInt64(hex, radix: 16) ?? 0
        return Int(value % UInt64(count))
    }

    /// `I/N` with 0 ≤ I < N ≤ 100000.
    package static func parse(_ text: String) -> CatalogShard? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
              (1...100_000).contains(count), (0..<count).contains(index) else { return nil }
        return CatalogShard(index: index, count: count)
    }

    /// The shard a batch scheduler gave this process: a Kubernetes Indexed Job
    /// (`JOB_COMPLETION_INDEX`, with the count in `LYRICPOSTER_SHARDS`), an AWS Batch array job
    /// (`AWS_BATCH_JOB_ARRAY_INDEX`, `AWS_BATCH_JOB_ARRAY_SIZE`) or a Slurm array.
    ///
    /// `LYRICPOSTER_SHARDS`, when set, is the number of shards for every scheduler: a task
    /// resubmitted alone (`sbatch --array=5`) is then still shard 5 of 8, not the whole catalogue
    /// as "task 0 of a one-task array". A Slurm task's shard is then its `SLURM_ARRAY_TASK_ID`
    /// modulo the count, so `--array=0-7` and `--array=1-8` both cover every shard once, and a
    /// resubmitted task takes the shard it had. Without it, a Slurm task's shard is its place in
    /// the array (`(SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP` of
    /// `SLURM_ARRAY_TASK_COUNT`), and arrays that cannot say it are refused: one task (a
    /// resubmitted index looks the same as a catalogue of one shard) and lists with gaps.
    package static func automatic(_ environment: [String: String]) throws(PosterError) -> CatalogShard {
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
        let shards = try number("LYRICPOSTER_SHARDS")
        if let index = try number("AWS_BATCH_JOB_ARRAY_INDEX") {
            if let shards { return try make(index, shards, "AWS Batch array job (AWS_BATCH_JOB_ARRAY_INDEX, LYRICPOSTER_SHARDS)") }
            guard let count = try number("AWS_BATCH_JOB_ARRAY_SIZE") else {
                throw PosterError(path: "--shard auto", reason: "AWS_BATCH_JOB_ARRAY_INDEX is set but AWS_BATCH_JOB_ARRAY_SIZE is not")
            }
            return try make(index, count, "AWS Batch array job (AWS_BATCH_JOB_ARRAY_INDEX, AWS_BATCH_JOB_ARRAY_SIZE)")
        }
        if let id = try number("SLURM_ARRAY_TASK_ID") {
            let step = try number("SLURM_ARRAY_TASK_STEP") ?? 1
            if let shards {
                guard step == 1 else {
                    throw PosterError(path: "--shard auto", reason: "a Slurm array with a step (SLURM_ARRAY_TASK_STEP=\(step)) cannot be mapped onto LYRICPOSTER_SHARDS=\(shards) the same way when a task is resubmitted alone: submit --array=0-\(max(0, shards - 1)) instead")
                }
                // (A count or id out of range is refused by make, as for the other schedulers.)
                return try make(shards > 0 && id >= 0 ? id % shards : id, shards,
                                "Slurm array (SLURM_ARRAY_TASK_ID \(id) modulo LYRICPOSTER_SHARDS)")
            }
            guard let count = try number("SLURM_ARRAY_TASK_COUNT") else {
                throw PosterError(path: "--shard auto", reason: "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
            }
            let min = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            guard count > 1 else {
                throw PosterError(path: "--shard auto", reason: "a one-task Slurm array (SLURM_ARRAY_TASK_ID=\(id)) does not say how many shards the catalogue has (a resubmitted task looks the same): set LYRICPOSTER_SHARDS to the count, or give --shard \(id)/N")
            }
            guard step > 0, (id - min) % step == 0 else {
                throw PosterError(path: "--shard auto", reason: "SLURM_ARRAY_TASK_ID=\(id) is not on the array's step (SLURM_ARRAY_TASK_MIN=\(min), SLURM_ARRAY_TASK_STEP=\(step))")
            }
            if let max = try number("SLURM_ARRAY_TASK_MAX"), (max - min) / step + 1 != count {
                throw PosterError(path: "--shard auto", reason: "the Slurm array has gaps (\(count) tasks between \(min) and \(max) at step \(step)), so a task's id does not say its shard: set LYRICPOSTER_SHARDS to the count, or give --shard I/N")
            }
            return try make((id - min) / step, count,
                            "Slurm array ((SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP, SLURM_ARRAY_TASK_COUNT)")
        }
        throw PosterError(path: "--shard auto", reason: "no scheduler variables found (JOB_COMPLETION_INDEX + LYRICPOSTER_SHARDS, AWS_BATCH_JOB_ARRAY_INDEX + AWS_BATCH_JOB_ARRAY_SIZE, or SLURM_ARRAY_TASK_ID + SLURM_ARRAY_TASK_COUNT)")
    }
}
