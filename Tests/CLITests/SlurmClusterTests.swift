import Foundation
@testable import PosterBatch
import TestSupport
import XCTest

/// The catalogue on a real single-node Slurm 22.05 (`slurm-wlm` and `munge`, started by
/// Tests/Fixtures/slurm-cluster.sh under the test's folder and stopped after it): an array of
/// shards, a task killed with SIGKILL and requeued, one index resubmitted alone (refused without
/// LYRICPOSTER_SHARDS, right with it), two resubmits of one index at once, and a re-run that
/// renders nothing. The jobs run the test's own binary, `--shard auto` reading what Slurm set.
final class SlurmClusterTests: CLITestCase {
    var cluster = ""
    var environment: [String: String] = [:]

    override func setUpWithError() throws {
        try super.setUpWithError()
        // The jobs' catalogue runs (shards, claims, a SIGKILL and a resume) are CatalogTests', which
        // run under the sanitizers; what this adds is Slurm itself, proved by make test.
        guard !Sanitizers.active else {
            FileHandle.standardError.write(Data("SKIPPED under a sanitizer: the Slurm cluster test (make test runs it)\n".utf8))
            throw XCTSkip("under a sanitizer the catalogue's shards are CatalogTests'; make test runs the Slurm cluster")
        }
        cluster = temp("slurm")
        let script = Self.package.appendingPathComponent("Tests/Fixtures/slurm-cluster.sh").path
        let started = try run([script, "start", cluster], executable: "/bin/bash")
        guard started.status == 0 else {
            let reason = started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            FileHandle.standardError.write(Data("SKIPPED: no Slurm cluster could start: \(reason)\n".utf8))
            throw XCTSkip("no Slurm cluster could start: \(reason) (make test installs slurm-wlm and munge)")
        }
        environment = ["SLURM_CONF": started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)]
    }

    override func tearDownWithError() throws {
        if !cluster.isEmpty {
            let script = Self.package.appendingPathComponent("Tests/Fixtures/slurm-cluster.sh").path
            _ = try? run([script, "stop", cluster], executable: "/bin/bash")
        }
        try super.tearDownWithError()
    }

    /// Runs a Slurm command; its standard output, trimmed.
    @discardableResult
    func slurm(_ tool: String, _ arguments: [String], extra: [String: String] = [:]) throws -> String {
        let result = try run(arguments, environment: environment.merging(extra) { $1 }, executable: "/usr/bin/" + tool)
        XCTAssertEqual(result.status, 0, "\(tool) \(arguments): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until none of `job`'s tasks is pending or running.
    func wait(_ job: String, seconds: Double = 300) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try slurm("squeue", ["-h", "-j", job, "-o", "%i %T"]).isEmpty { return }
            usleep(200_000)
        }
        XCTFail("job \(job) did not end within \(Int(seconds)) s: \(try slurm("squeue", ["-h", "-j", job]))")
    }

    func elapsed(since start: Date) -> String { String(format: "%.1f s", Date().timeIntervalSince(start)) }

    func testAnArrayAKilledTaskAndResubmittedIndicesOnARealSlurm() throws {
        let fixture = try CatalogTests.fixture.get()
        let root = temp("catalogue")
        let logs = temp("logs")
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        let job = try write("""
            #!/bin/bash
            exec '\(Self.binary.path)' catalog '\(fixture.appendingPathComponent("library").path)' \
                '\(fixture.appendingPathComponent("manifest.jsonl").path)' -o '\(root)' --shard auto --size 96x160
            """, to: "catalogue.sbatch")
        let expected = try CatalogTests.expected()
        func shardSongs(_ index: Int) -> [String] {
            expected.filter { $0.value == "rendered" && CatalogShard.bucket(of: $0.key, count: 4) == index }.map(\.key)
        }
        func inPlace(_ ids: [String]) -> Int {
            ids.filter { FileManager.default.fileExists(atPath: root + "/" + $0 + "/catalog.json") }.count
        }

        // An array of four shards, one CPU each; task 0 is killed (SIGKILL) a few songs in.
        var start = Date()
        let array = try slurm("sbatch", ["--parsable", "--array=0-3", "-c", "1", "-o", logs + "/array-%a.log", job])
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, inPlace(shardSongs(0)) < 5 { usleep(20_000) }
        try slurm("scancel", ["--signal=KILL", array + "_0"])
        try wait(array)
        let arraySeconds = elapsed(since: start)
        let killedAt = inPlace(shardSongs(0))
        XCTAssertGreaterThanOrEqual(killedAt, 5)
        XCTAssertLessThan(killedAt, shardSongs(0).count, "task 0 was killed before it finished")
        for index in 1..<4 {
            let log = try String(contentsOfFile: logs + "/array-\(index).log", encoding: .utf8)
            XCTAssertTrue(log.contains("catalog: shard \(index) of 4"), log)
            XCTAssertTrue(log.contains(", 1 job\n"), "--jobs follows the CPUs Slurm gave the task: \(log)")
            XCTAssertEqual(inPlace(shardSongs(index)), shardSongs(index).count, "shard \(index) complete")
        }
        var summary = try run(["catalog", "--summary", root])
        XCTAssertTrue(summary.stdout.contains("stopped before they finished (killed?); run them again: shard-00-of-04"), summary.stdout)

        // The killed task requeued: it runs again as task 0 of 4 and takes over its songs.
        start = Date()
        try slurm("scontrol", ["requeue", array + "_0"])
        // Slurm holds a requeued task back for a while (its begin time): let it start now.
        try slurm("scontrol", ["update", "JobId=" + array + "_0", "StartTime=now"])
        try wait(array)
        let requeueSeconds = elapsed(since: start)
        XCTAssertEqual(inPlace(shardSongs(0)), shardSongs(0).count, "the requeued task finished its shard")

        // One index resubmitted alone: refused without LYRICPOSTER_SHARDS (it would be the whole
        // catalogue as shard 0 of 1), the right shard with it.
        let alone = try slurm("sbatch", ["--parsable", "--array=2", "-c", "1", "-o", logs + "/alone.log", job])
        try wait(alone)
        let refusal = try String(contentsOfFile: logs + "/alone.log", encoding: .utf8)
        XCTAssertTrue(refusal.contains("a one-task Slurm array (SLURM_ARRAY_TASK_ID=2) does not say how many shards"), refusal)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/catalog/shard-00-of-01.jsonl"))
        start = Date()
        let resubmit = try slurm("sbatch", ["--parsable", "--array=2", "-c", "1", "--export=ALL,LYRICPOSTER_SHARDS=4",
                                            "-o", logs + "/resubmit.log", job])
        try wait(resubmit)
        let resubmitSeconds = elapsed(since: start)
        let resubmitted = try String(contentsOfFile: logs + "/resubmit.log", encoding: .utf8)
        XCTAssertTrue(resubmitted.contains("catalog shard-02-of-04"), resubmitted)
        XCTAssertTrue(resubmitted.contains("(0 rendered"), "a complete shard renders nothing again: \(resubmitted)")

        // Two resubmits of one index at once, over a shard whose songs were removed: the songs are
        // claimed, so neither removes the other's work, each song is rendered once (the other run
        // waits for it), and no song fails that should not.
        for id in shardSongs(1) { try FileManager.default.removeItem(atPath: root + "/" + id) }
        start = Date()
        let twins = try (0..<2).map { n in
            try slurm("sbatch", ["--parsable", "--array=1", "-c", "1", "--export=ALL,LYRICPOSTER_SHARDS=4", "-o", logs + "/twin-\(n).log", job])
        }
        for twin in twins { try wait(twin) }
        let twinSeconds = elapsed(since: start)
        XCTAssertEqual(inPlace(shardSongs(1)), shardSongs(1).count)
        var rendered = 0
        for n in 0..<2 {
            let log = try String(contentsOfFile: logs + "/twin-\(n).log", encoding: .utf8)
            if let match = log.range(of: "\\(\\d+ rendered", options: .regularExpression) {
                rendered += Int(log[match].dropFirst().split(separator: " ")[0]) ?? 0
            }
        }
        XCTAssertEqual(rendered, shardSongs(1).count, "each song rendered by one of the two")

        // The whole catalogue, merged: every song once, exactly as it should be.
        summary = try run(["catalog", "--summary", root])
        XCTAssertEqual(summary.status, 3, "the fixture's broken songs fail: \(summary.stdout)")
        XCTAssertFalse(summary.stdout.contains("warning:"), summary.stdout)
        var statuses: [String: String] = [:]
        for (report, lines) in try CatalogTests.reports(root) {
            XCTAssertTrue(report.hasSuffix("-of-04.jsonl"), report)
            for line in lines {
                let id = try XCTUnwrap(line["id"] as? String)
                XCTAssertNil(statuses[id], "\(id) reported twice")
                statuses[id] = line["status"] as? String
            }
        }
        for (id, status) in expected where status != "rendered" {
            XCTAssertEqual(statuses[id], status, id)
        }
        XCTAssertEqual(Set(statuses.keys), Set(expected.keys))

        // The array again: nothing to do.
        start = Date()
        let again = try slurm("sbatch", ["--parsable", "--array=0-3", "-c", "1", "-o", logs + "/again-%a.log", job])
        try wait(again)
        let againSeconds = elapsed(since: start)
        for index in 0..<4 {
            let log = try String(contentsOfFile: logs + "/again-\(index).log", encoding: .utf8)
            XCTAssertTrue(log.contains("(0 rendered"), log)
        }
        XCTAssertEqual(try files(root).filter { $0.hasPrefix(".") }, [], "no claim, partial or old folder left")
        print("slurm: \(expected.count) catalogue entries, 4 tasks × 1 CPU on 2 cores: array with task 0 killed after \(killedAt) songs \(arraySeconds); "
              + "requeue \(requeueSeconds); one index resubmitted \(resubmitSeconds); two resubmits of one index at once \(twinSeconds); "
              + "the array again \(againSeconds)")
    }
}
