import Foundation
import LyricPoster
import LyricsCore
@testable import PosterBatch
import PosterGraphics
import TestSupport
import XCTest

/// `lyricposter catalog` over a generated catalogue (Tests/Fixtures/make-catalog.py: 200 audio
/// files with tags, sidecars and folder covers, 40 cover + lyrics pairs, broken songs, and a
/// manifest with broken lines), run as the real binary: shards side by side into one root, a
/// shard killed and restarted, re-runs, songs added, and a manifest of a million lines.
final class CatalogTests: CLITestCase {
    /// Generated once per test process.
    static let fixture: Result<URL, Error> = Result { try GeneratedFixtures.make("make-catalog.py", into: "catalog-fixtures") }

    /// Small posters: the tests are about the catalogue, not the pictures.
    let size = ["--size", "96x160"]

    /// The status every song and broken entry should get, by id.
    static func expected() throws -> [String: String] {
        let root = try Self.fixture.get()
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("expected.json"))) as? [String: [String: String]])
        var statuses: [String: String] = [:]
        for (relative, status) in object["folder"] ?? [:] { statuses[CatalogSources.id(forRelativePath: relative)] = status }
        for (id, status) in object["manifest"] ?? [:] { statuses[id] = status }
        return statuses
    }

    func expected() throws -> [String: String] { try Self.expected() }

    /// Every report line of a root, by report.
    static func reports(_ root: String) throws -> [String: [[String: Any]]] {
        var result: [String: [[String: Any]]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: root + "/catalog").sorted() where name.hasSuffix(".jsonl") && !name.hasPrefix(".") {
            let text = try String(contentsOfFile: root + "/catalog/" + name, encoding: .utf8)
            result[name] = try text.split(separator: "\n").map { try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        }
        return result
    }

    func reports(_ root: String) throws -> [String: [[String: Any]]] { try Self.reports(root) }

    func shardArguments(_ root: String, _ i: Int, of n: Int) throws -> [String] {
        let fixture = try Self.fixture.get()
        return ["catalog", fixture.appendingPathComponent("library").path, fixture.appendingPathComponent("manifest.jsonl").path,
                "-o", root, "--shard", "\(i)/\(n)", "--jobs", "1"] + size
    }

    func testShardsSideBySideRenderTheCatalogueOnceAndRerunsRenderNothing() throws {
        let fixture = try Self.fixture.get()
        let root = temp("out")
        let expected = try expected()
        // Four shards at once into one root.
        let started = try (0..<4).map { try start(shardArguments(root, $0, of: 4)) }
        var statuses: [Int32] = []
        for (process, _, err) in started {
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            statuses.append(process.terminationStatus)
            XCTAssertTrue([0, 3].contains(process.terminationStatus), stderr)
        }
        XCTAssertTrue(statuses.contains(3), "some shard met a broken song")
        var byID: [String: (report: String, line: [String: Any])] = [:]
        for (report, lines) in try reports(root) {
            for line in lines {
                let id = try XCTUnwrap(line["id"] as? String)
                XCTAssertNil(byID[id], "\(id) reported twice (\(report) and \(byID[id]?.report ?? ""))")
                byID[id] = (report, line)
            }
        }
        XCTAssertEqual(try reports(root).count, 4)
        XCTAssertEqual(Set(byID.keys), Set(expected.keys), "the union of the shards is exactly the catalogue")
        for (id, status) in expected {
            XCTAssertEqual(byID[id]?.line["status"] as? String, status, "\(id): \(byID[id]?.line["error"] ?? "")")
        }
        // Folders: exactly the rendered songs, each complete; nothing half-written is left.
        let folders = Set(try files(root).filter { $0 != "catalog" })
        XCTAssertEqual(folders, Set(expected.filter { $0.value == "rendered" }.keys))
        for id in folders {
            let record = try json(root + "/" + id + "/catalog.json")
            let pngs = try files(root + "/" + id).filter { $0.hasSuffix(".png") }
            XCTAssertEqual(record["frames"] as? Int, pngs.count, id)
            XCTAssertEqual(byID[id]?.line["frames"] as? Int, pngs.count, id)
            XCTAssertEqual(try json(root + "/" + id + "/manifest.json")["complete"] as? Bool, true, id)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/m-0000/poster.png"), "\"at\" gives a poster")
        XCTAssertTrue((byID["gone"]?.line["error"] as? String ?? "").contains("nowhere.mp3"))

        // The summary merges the four reports.
        var summary = try run(["catalog", "--summary", root])
        XCTAssertEqual(summary.status, 3, summary.stderr)
        let rendered = expected.values.filter { $0 == "rendered" }.count, failed = expected.values.filter { $0 == "failed" }.count
        XCTAssertTrue(summary.stdout.contains("4 report(s), \(expected.count) songs: \(rendered) rendered, 0 skipped, \(failed) failed, 2 no-lyrics"), summary.stdout)
        XCTAssertEqual(summary.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("  ") }.count, failed)

        // Again: nothing is rendered, and every song is in the same shard as before.
        for i in 0..<4 {
            let again = try run(try shardArguments(root, i, of: 4))
            XCTAssertTrue([0, 3].contains(again.status), again.stderr)
        }
        for (report, lines) in try reports(root) {
            for line in lines {
                let id = try XCTUnwrap(line["id"] as? String)
                XCTAssertEqual(byID[id]?.report, report, "\(id) moved")
                XCTAssertNotEqual(line["status"] as? String, "rendered", "\(id) rendered again")
            }
        }
        summary = try run(["catalog", "--summary", root])
        XCTAssertTrue(summary.stdout.contains("0 rendered, \(rendered) skipped"), summary.stdout)

        // Ten songs added to the manifest: only they are rendered, and no song changes shard.
        let grown = temp("grown.jsonl")
        var text = try String(contentsOf: fixture.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
        for i in 10..<20 {
            text += "{\"id\": \"added-\(i)\", \"cover\": \"\(fixture.path)/library/pairs/song-\(i).png\", \"lyrics\": \"\(fixture.path)/library/pairs/song-\(i).lrc\"}\n"
        }
        try text.write(toFile: grown, atomically: true, encoding: .utf8)
        var added: [String] = []
        for i in 0..<4 {
            let result = try run(["catalog", fixture.appendingPathComponent("library").path, grown, "-o", root,
                                  "--shard", "\(i)/4", "--jobs", "1"] + size)
            XCTAssertTrue([0, 3].contains(result.status), result.stderr)
        }
        for (report, lines) in try reports(root) {
            for line in lines {
                let id = try XCTUnwrap(line["id"] as? String)
                if id.hasPrefix("added-") {
                    added.append(id)
                    XCTAssertEqual(line["status"] as? String, "rendered")
                } else if let before = byID[id] {
                    XCTAssertEqual(before.report, report, "\(id) moved to another shard")
                    XCTAssertNotEqual(line["status"] as? String, "rendered", "\(id) rendered again")
                }
            }
        }
        XCTAssertEqual(added.sorted(), (10..<20).map { "added-\($0)" }.sorted())
    }

    func testAKilledShardResumesWithoutDuplicatesOrHalfSongs() throws {
        let root = temp("out")
        let arguments = try shardArguments(root, 1, of: 2)
        let (process, _, _) = try start(arguments)
        // Kill it hard once a few songs are in place.
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, process.isRunning {
            if let names = try? files(root), names.filter({ !$0.hasPrefix(".") && $0 != "catalog" }).count >= 8 { break }
            usleep(20_000)
        }
        XCTAssertTrue(process.isRunning, "still running when killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let before = try files(root).filter { !$0.hasPrefix(".") && $0 != "catalog" }
        for id in before {
            XCTAssertNotNil(try? json(root + "/" + id + "/catalog.json"), "\(id) is in place only when complete")
        }
        // The killed run left its temporary report: the summary says the shard did not finish,
        // and that shard 0 was never run.
        XCTAssertEqual(try files(root + "/catalog").filter { $0.contains(".jsonl.tmp-") }.count, 1)
        let summary = try run(["catalog", "--summary", root])
        XCTAssertTrue(summary.stdout.contains("stopped before they finished (killed?); run them again: shard-01-of-02"), summary.stdout + summary.stderr)
        XCTAssertTrue(summary.stdout.contains("have no report (never run, or run into another folder): shard-00-of-02"), summary.stdout)
        // Started again: the songs already in place are skipped, the rest rendered, nothing twice.
        let again = try run(arguments)
        XCTAssertTrue([0, 3].contains(again.status), again.stderr)
        let lines = try XCTUnwrap(try reports(root).values.first)
        XCTAssertEqual(try reports(root).count, 1)
        let ids = lines.compactMap { $0["id"] as? String }
        XCTAssertEqual(ids.count, Set(ids).count, "no song twice in the report")
        for line in lines where before.contains(line["id"] as? String ?? "") {
            XCTAssertEqual(line["status"] as? String, "skipped", "\(line["id"] ?? "") was complete before the kill")
        }
        let rendered = Set(lines.filter { $0["status"] as? String == "rendered" || $0["status"] as? String == "skipped" }.compactMap { $0["id"] as? String })
        XCTAssertEqual(Set(try files(root).filter { $0 != "catalog" }), rendered, "no partial folder left; every song in place")
        XCTAssertEqual(try files(root + "/catalog").filter { $0.hasPrefix(".") }, [], "the killed run's temporary report is removed")
        let expected = try expected()
        XCTAssertEqual(Set(ids), Set(expected.keys.filter { CatalogShard(index: 1, count: 2).contains($0) }))
    }

    /// Two runs of one shard at once (a task resubmitted while the first still runs): every song
    /// is rendered by exactly one of them, the other waits for it and finds it done, and each
    /// run's report is whole. Before the claims, each removed the other's `.partial` folders and
    /// reported dozens of false failures.
    func testTwoRunsOfOneShardNeverUndoEachOthersWork() throws {
        let root = temp("out")
        let arguments = try shardArguments(root, 1, of: 2)
        let started = try (0..<2).map { _ in try start(arguments) }
        var rendered = 0
        for (process, _, err) in started {
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertTrue([0, 3].contains(process.terminationStatus), stderr)
            let match = try XCTUnwrap(stderr.range(of: "\\(\\d+ rendered", options: .regularExpression), stderr)
            rendered += Int(stderr[match].dropFirst().split(separator: " ")[0]) ?? 0
        }
        let expected = try expected().filter { CatalogShard(index: 1, count: 2).contains($0.key) }
        let good = expected.filter { $0.value == "rendered" }
        XCTAssertEqual(rendered, good.count, "each song rendered by exactly one of the two runs")
        // The report that stands (the later run's) has every song of the shard once, as it is.
        var statuses: [String: String] = [:]
        for line in try XCTUnwrap(try reports(root).values.first) {
            let id = try XCTUnwrap(line["id"] as? String)
            XCTAssertNil(statuses[id], "\(id) twice")
            let status = line["status"] as? String
            statuses[id] = status == "skipped" ? "rendered" : status
        }
        XCTAssertEqual(statuses, expected)
        for id in good.keys { XCTAssertNotNil(try? json(root + "/" + id + "/catalog.json"), id) }
        XCTAssertEqual(try files(root).filter { $0.hasPrefix(".") }, [], "no claim or partial folder left")
        let again = try run(arguments)
        XCTAssertTrue(again.stderr.contains("(0 rendered"), again.stderr)
    }

    /// A contact sheet's captions name the instants that are not lines: the intro before the first
    /// line was labelled "interlude".
    func testSheetCaptionsNameTheIntro() throws {
        let lrc = "[00:04.00]First line\n[00:06.00]Second line\n[00:30.00]After a long gap\n[00:33.00]\n"
        let lyrics = try LyricsReader.load(Data(lrc.utf8))
        let labels = FramePlan.perLine(SceneBuilder(lyrics: lyrics)).map(ContactSheet.label)
        XCTAssertEqual(labels, ["#0  00:00.000  intro", "#1  00:04.000", "#2  00:06.000", "#3  00:30.000"])
    }

    /// Song folders read as their files (stem and extension, then the short hash), and sheets
    /// are counted as sheets, not frames.
    func testFolderNamesKeepTheFileNameAndSheetsAreCountedAsSheets() throws {
        XCTAssertTrue(CatalogSources.id(forRelativePath: "Album/01 Song.flac").hasPrefix("01 Song.flac-"))
        XCTAssertNotEqual(CatalogSources.id(forRelativePath: "Album/Song.flac").dropLast(9), CatalogSources.id(forRelativePath: "Album/Song.mp3").dropLast(9))
        let long = String(repeating: "n", count: 300) + ".opus"
        XCTAssertTrue(CatalogSources.id(forRelativePath: long).contains(".opus-"), "a long name keeps its extension")
        XCTAssertTrue(CatalogSources.id(forRelativePath: "..hidden.mp3").hasPrefix("hidden.mp3-"))
        XCTAssertNil(CatalogSources.problem(withID: CatalogSources.id(forRelativePath: long)))

        let manifest = try write("{\"id\": \"one\", \"cover\": \"\(Self.package.path)/\(cover)\", \"lyrics\": \"\(Self.package.path)/\(lyrics)\"}\n", to: "m.jsonl")
        let root = temp("both")
        let result = try run(["catalog", manifest, "-o", root, "--each", "both"] + size)
        XCTAssertEqual(result.status, 0, result.stderr)
        let pngs = try files(root + "/one").filter { $0.hasSuffix(".png") }
        let line = try XCTUnwrap(try reports(root).values.first?.first)
        XCTAssertEqual(line["frames"] as? Int, pngs.count - 1)
        XCTAssertEqual(line["sheets"] as? Int, 1)
        XCTAssertTrue(result.stderr.contains("\(pngs.count - 1) frames, 1 sheet in"), result.stderr)
        let summary = try run(["catalog", "--summary", root])
        XCTAssertTrue(summary.stdout.contains("; \(pngs.count - 1) frames, 1 sheet,"), summary.stdout)
    }

    func testAClaimIsHeldUntilReleasedAndFreeOnceItsHolderIsGone() throws {
        let path = temp("claims") + "/.song.claim"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard case .held(let first) = FileClaim.take(path) else { return XCTFail("a free claim is taken") }
        XCTAssertTrue(FileClaim.isHeld(path))
        guard case .busy(let holder) = FileClaim.take(path) else { return XCTFail("a held claim is busy") }
        XCTAssertEqual(holder, FileClaim.holder)
        first.release()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "released claims leave no file")
        // A file left by a holder that died (no lock on it) is free.
        FileManager.default.createFile(atPath: path, contents: Data("pid 1 on elsewhere\n".utf8))
        XCTAssertFalse(FileClaim.isHeld(path))
        guard case .held(let second) = FileClaim.take(path) else { return XCTFail("a claim nobody holds is taken over") }
        second.release()
    }

    func testShardAutoReadsTheSchedulersVariables() throws {
        let manifest = try write("{\"id\": \"one\", \"cover\": \"\(Self.package.path)/\(cover)\", \"lyrics\": \"\(Self.package.path)/\(lyrics)\"}\n", to: "m.jsonl")
        let root = temp("out")
        for (environment, origin, name) in [
            (["JOB_COMPLETION_INDEX": "2", "LYRICPOSTER_SHARDS": "5"], "Kubernetes Indexed Job", "shard-02-of-05"),
            (["AWS_BATCH_JOB_ARRAY_INDEX": "1", "AWS_BATCH_JOB_ARRAY_SIZE": "3"], "AWS Batch array job", "shard-01-of-03"),
            (["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"], "Slurm array", "shard-03-of-04"),
        ] {
            let result = try run(["catalog", manifest, "-o", root, "--shard", "auto"] + size, environment: environment)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stderr.contains(origin), result.stderr)
            XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/catalog/\(name).jsonl"), name)
        }
        // An audio file given as a source is one song.
        let single = temp("single")
        let song = try AudioFixtures.path("tagged.mp3")
        var result = try run(["catalog", song, "-o", single] + size)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try files(single).filter { $0 != "catalog" }, [CatalogSources.id(forRelativePath: "tagged.mp3")])
        result = try run(["catalog", manifest, "-o", root, "--shard", "auto"], environment: ["JOB_COMPLETION_INDEX": "0"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("LYRICPOSTER_SHARDS"), result.stderr)
        result = try run(["catalog", manifest, "-o", root, "--shard", "auto"], environment: ["JOB_COMPLETION_INDEX": "5", "LYRICPOSTER_SHARDS": "5"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("not a shard"), result.stderr)
    }

    /// Slurm arrays as `sbatch` sets them up: a whole array, one index resubmitted (`--array=5`,
    /// which once ran the whole catalogue as "shard 0 of 1"), a step, a list with gaps.
    func testSlurmArraysMapToTheRightShardsOrAreRefused() throws {
        let manifest = try write("{\"id\": \"one\", \"cover\": \"\(Self.package.path)/\(cover)\", \"lyrics\": \"\(Self.package.path)/\(lyrics)\"}\n", to: "m.jsonl")
        func array(_ id: Int, min: Int, max: Int, step: Int = 1, count: Int) -> [String: String] {
            ["SLURM_ARRAY_TASK_ID": "\(id)", "SLURM_ARRAY_TASK_MIN": "\(min)", "SLURM_ARRAY_TASK_MAX": "\(max)",
             "SLURM_ARRAY_TASK_STEP": "\(step)", "SLURM_ARRAY_TASK_COUNT": "\(count)"]
        }
        for (environment, name) in [
            (array(5, min: 0, max: 7, count: 8), "shard-05-of-08"),
            (array(6, min: 1, max: 8, count: 8), "shard-05-of-08"),
            (array(6, min: 0, max: 14, step: 2, count: 8), "shard-03-of-08"),
            // The same task resubmitted alone: LYRICPOSTER_SHARDS keeps it shard 5 of 8.
            (array(5, min: 5, max: 5, count: 1).merging(["LYRICPOSTER_SHARDS": "8"]) { $1 }, "shard-05-of-08"),
            (array(5, min: 0, max: 7, count: 8).merging(["LYRICPOSTER_SHARDS": "8"]) { $1 }, "shard-05-of-08"),
            // A 1-based array under LYRICPOSTER_SHARDS: task 8 takes shard 0, each shard once.
            (array(8, min: 1, max: 8, count: 8).merging(["LYRICPOSTER_SHARDS": "8"]) { $1 }, "shard-00-of-08"),
            (["AWS_BATCH_JOB_ARRAY_INDEX": "2", "AWS_BATCH_JOB_ARRAY_SIZE": "1", "LYRICPOSTER_SHARDS": "4"], "shard-02-of-04"),
        ] {
            let root = temp("out-\(UUID().uuidString)")
            let result = try run(["catalog", manifest, "-o", root, "--shard", "auto"] + size, environment: environment)
            XCTAssertEqual(result.status, 0, result.stderr)
            let reports = try files(root + "/catalog")
            XCTAssertTrue(reports.contains(name + ".jsonl"), "\(environment): \(reports)")
            XCTAssertTrue(result.stderr.contains("catalog: shard "), "the shard chosen is said: \(result.stderr)")
        }
        for (environment, message) in [
            (array(5, min: 5, max: 5, count: 1), "a one-task Slurm array (SLURM_ARRAY_TASK_ID=5) does not say how many shards"),
            (array(0, min: 0, max: 0, count: 1), "set LYRICPOSTER_SHARDS to the count, or give --shard 0/N"),
            (array(3, min: 0, max: 7, count: 3), "the Slurm array has gaps (3 tasks between 0 and 7 at step 1)"),
            (array(3, min: 0, max: 14, step: 2, count: 8), "SLURM_ARRAY_TASK_ID=3 is not on the array's step"),
            (array(4, min: 0, max: 14, step: 2, count: 8).merging(["LYRICPOSTER_SHARDS": "8"]) { $1 }, "a Slurm array with a step"),
        ] {
            let root = temp("refused-\(UUID().uuidString)")
            let result = try run(["catalog", manifest, "-o", root, "--shard", "auto"] + size, environment: environment)
            XCTAssertEqual(result.status, 1, "\(environment)")
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/catalog"), "nothing rendered")
        }
    }

    func testTheCPUsAProcessMayUseAreRead() {
        XCTAssertEqual(CPUs.affinity("Name:\tx\nCpus_allowed_list:\t0-3,8,10-11\n"), 7)
        XCTAssertEqual(CPUs.affinity("Cpus_allowed_list:\t5\n"), 1)
        XCTAssertNil(CPUs.affinity("Cpus_allowed_list:\t3-1\n"))
        XCTAssertNil(CPUs.affinity("Name:\tx\n"))
        XCTAssertEqual(CPUs.quota("150000 100000\n"), 2)
        XCTAssertEqual(CPUs.quota("50000 100000"), 1)
        XCTAssertNil(CPUs.quota("max 100000\n"))
        XCTAssertEqual(CPUs.available(environment: ["SLURM_CPUS_PER_TASK": "1"], status: nil, cpuMax: nil), 1)
        XCTAssertEqual(CPUs.available(environment: [:], status: "Cpus_allowed_list:\t0\n", cpuMax: "max 100000"), 1)
        XCTAssertEqual(CPUs.available(environment: ["SLURM_CPUS_PER_TASK": "x"], status: nil, cpuMax: nil),
                       ProcessInfo.processInfo.activeProcessorCount, "nothing applies: the machine's count")
    }

    /// `--jobs` defaults to the CPUs the process may use, not the machine's: Slurm's grant, the
    /// affinity mask (taskset), and says how many once.
    func testJobsDefaultToTheCPUsTheProcessWasGiven() throws {
        let manifest = try write("{\"id\": \"one\", \"cover\": \"\(Self.package.path)/\(cover)\", \"lyrics\": \"\(Self.package.path)/\(lyrics)\"}\n", to: "m.jsonl")
        var result = try run(["catalog", manifest, "-o", temp("a")] + size, environment: ["SLURM_CPUS_PER_TASK": "1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("catalog: the whole catalogue, 1 job\n"), result.stderr)
        result = try run(["catalog", manifest, "-o", temp("b"), "--jobs", "3"] + size, environment: ["SLURM_CPUS_PER_TASK": "1"])
        XCTAssertTrue(result.stderr.contains("3 jobs"), "an explicit --jobs wins: \(result.stderr)")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset") else {
            throw XCTSkip("taskset (util-linux) is not installed: the affinity mask was not tested")
        }
        result = try run(["-c", "0", Self.binary.path, "catalog", manifest, "-o", temp("c")] + size, executable: "/usr/bin/taskset")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("the whole catalogue, 1 job\n"), "one CPU allowed, one job: \(result.stderr)")
    }

    /// A catalogue song's frames are the bytes `lines` writes for that song alone. The catalogue
    /// keeps freed buffers in its heap (`MallocTuning.keepFreedBuffers`) and, on one job, renders
    /// its songs one after another, so each song meets the pixels the one before left behind: a
    /// byte read before it is written could differ here, where a process of its own meets only
    /// cleared pages. The same catalogue with glibc's defaults (a malloc setting of the user's in
    /// the environment) gives the same bytes.
    func testCatalogueFramesAreTheBytesLinesWritesForEachSongAlone() throws {
        let songs = [("night-drive", "cover.jpg", "night-drive.lrc"), ("paper-lanterns", "cover.png", "paper-lanterns.lrc"),
                     ("river-lights", "cover.png", "river-lights.ttml"), ("all-scripts", "cover.png", "all-scripts.lrc")]
        let folder = Self.package.path + "/samples/"
        let manifest = try write(songs.map { song in
            "{\"id\": \"\(song.0)\", \"cover\": \"\(folder + song.0)/\(song.1)\", \"lyrics\": \"\(folder + song.0)/\(song.2)\"}\n"
        }.joined(), to: "songs.jsonl")
        for name in ["MALLOC_ARENA_MAX", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "GLIBC_TUNABLES"] {
            XCTAssertFalse(MallocTuning.keepFreedBuffers(environment: [name: "1"]), "\(name) is the user's: left as it is")
        }
        let size = ["--size", "540x960"]
        let kept = temp("kept"), defaults = temp("defaults")
        var result = try run(["catalog", manifest, "-o", kept, "--jobs", "1", "--quiet"] + size)
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try run(["catalog", manifest, "-o", defaults, "--jobs", "1", "--quiet"] + size, environment: ["MALLOC_ARENA_MAX": "8"])
        XCTAssertEqual(result.status, 0, result.stderr)
        for song in songs {
            let alone = temp("lines-" + song.0)
            result = try run(["lines", folder + song.0 + "/" + song.1, folder + song.0 + "/" + song.2, "-o", alone, "--quiet"] + size)
            XCTAssertEqual(result.status, 0, result.stderr)
            let pngs = try files(alone).filter { $0.hasSuffix(".png") }
            XCTAssertGreaterThan(pngs.count, 3, song.0)
            for root in [kept, defaults] {
                XCTAssertEqual(try files(root + "/" + song.0).filter { $0.hasSuffix(".png") }, pngs, song.0)
                for png in pngs {
                    let same = FileManager.default.contentsEqual(atPath: alone + "/" + png, andPath: root + "/" + song.0 + "/" + png)
                    XCTAssertTrue(same, "\(root)/\(song.0)/\(png) differs from the frame `lines` wrote for the song alone")
                }
            }
        }
    }

    /// A manifest named without a folder, in the current one: its relative paths are relative to
    /// the current folder (they once became "/song.lrc").
    func testAManifestInTheCurrentFolder() throws {
        let folder = temp("here")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.package.path + "/" + cover, toPath: folder + "/cover.jpg")
        try FileManager.default.copyItem(atPath: Self.package.path + "/" + lyrics, toPath: folder + "/song.lrc")
        try Data("{\"id\": \"one\", \"cover\": \"cover.jpg\", \"lyrics\": \"song.lrc\"}\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/list.jsonl"))
        let command = "cd '\(folder)' && exec '\(Self.binary.path)' catalog list.jsonl -o out --each sheet " + size.joined(separator: " ")
        let result = try run(["-c", command], executable: "/bin/sh")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/out/one/sheet.png"), result.stderr)
    }

    func testHostileManifestLinesAreReportedOneByOne() throws {
        let song = "\"cover\": \"\(Self.package.path)/\(cover)\", \"lyrics\": \"\(Self.package.path)/\(lyrics)\""
        var bytes = Data()
        func line(_ text: String, ending: String = "\n") { bytes.append(Data((text + ending).utf8)) }
        line("{\"id\": \"crlf\", \(song)}", ending: "\r\n")                                    // 1: fine, CRLF
        line("{\"id\": \"long\", \"title\": \"" + String(repeating: "x", count: 100_000) + "\", \(song)}")  // 2
        bytes.append(Data([0xFF, 0xFE, 0x00, 0x7B, 0x22, 0x0A]))                                   // 3: binary
        line("{\"id\": 5, \(song)}")                                                             // 4
        line("{\"id\": \"list\", \"audio\": [\"a.mp3\"]}")                                       // 5
        line("[1, 2, 3]")                                                                        // 6
        line("{\"id\": \"con\\u0001trol\", \(song)}")                                               // 7
        line("{\"id\": \"" + String(repeating: "i", count: 300) + "\", \(song)}")                  // 8
        line("{\"id\": \"when\", \"at\": \"soon\", \(song)}")                                     // 9
        line("")                                                                                 // blank: skipped
        line("{\"id\": \"last\", \(song)}", ending: "")                                          // 11: no newline
        let manifest = temp("hostile.jsonl")
        try bytes.write(to: URL(fileURLWithPath: manifest))
        let root = temp("out")
        let result = try run(["catalog", manifest, "-o", root] + size)
        XCTAssertEqual(result.status, 3, result.stderr)
        let lines = try XCTUnwrap(try reports(root).values.first)
        var byID: [String: [String: Any]] = [:]
        for line in lines { byID[line["id"] as? String ?? ""] = line }
        XCTAssertEqual(Set(byID.keys), ["crlf", "line-2", "line-3", "line-4", "list", "line-6", "line-7", "line-8", "when", "last"])
        XCTAssertEqual(byID["crlf"]?["status"] as? String, "rendered")
        XCTAssertEqual(byID["last"]?["status"] as? String, "rendered")
        for (id, message) in [("line-2", "longer than 65536 bytes"), ("line-3", "not a JSON object"), ("line-4", "\"id\" must be a string"),
                              ("list", "\"audio\" must be a string"), ("line-6", "not a JSON object"), ("line-7", "control character"),
                              ("line-8", "longer than 200 bytes"), ("when", "\"at\" is not a time")] {
            XCTAssertEqual(byID[id]?["status"] as? String, "failed", id)
            XCTAssertTrue((byID[id]?["error"] as? String ?? "").contains(message), "\(id): \(byID[id]?["error"] ?? "")")
            XCTAssertTrue((byID[id]?["error"] as? String ?? "").hasPrefix(manifest + ":"), "names the manifest and line")
        }
    }

    func testAMillionLineManifestKeepsMemoryFlat() throws {
        // Manifests of missing files, 100 000 and 1 000 000 lines: every line is read and
        // hashed; one shard in 64 is tried (and fails). Peak memory must not follow the length.
        // Under a sanitizer the peak measures its allocator (AddressSanitizer keeps freed blocks
        // in a quarantine that fills with the volume allocated, up to 256 MB), and the million
        // lines take minutes: there the 100 000-line manifest is read and checked, and the
        // memory comparison is left to the plain build.
        let sanitized = Sanitizers.active
        var peaks: [Int: Double] = [:]
        for count in sanitized ? [100_000] : [100_000, 1_000_000] {
            let path = temp("m\(count).jsonl")
            FileManager.default.createFile(atPath: path, contents: nil)
            let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
            var block = ""
            for i in 0..<count {
                block += "{\"id\": \"s\(i)\", \"audio\": \"missing/\(i).mp3\"}\n"
                if block.utf8.count > 1 << 20 { handle.write(Data(block.utf8)); block = "" }
            }
            handle.write(Data(block.utf8))
            try handle.close()
            let root = temp("out\(count)")
            let result = try run(["-f", "%M", Self.binary.path, "catalog", path, "-o", root, "--shard", "0/64", "--quiet"],
                                 executable: "/usr/bin/time")
            XCTAssertEqual(result.status, 3, result.stderr)
            let peak = try XCTUnwrap(result.stderr.split(separator: "\n").last.flatMap { Double($0) })
            peaks[count] = peak / 1024
            let lines = try String(contentsOfFile: root + "/catalog/shard-00-of-64.jsonl", encoding: .utf8).split(separator: "\n")
            XCTAssertEqual(Double(lines.count), Double(count) / 64, accuracy: Double(count) / 64 * 0.1)
            XCTAssertTrue(lines.allSatisfy { $0.contains("\"failed\"") && $0.contains("no such file") })
        }
        if sanitized {
            print("peak RSS under a sanitizer: \(peaks[100_000] ?? 0) MB for 100 000 lines; not compared (its allocator's figure)")
            return
        }
        let small = try XCTUnwrap(peaks[100_000]), large = try XCTUnwrap(peaks[1_000_000])
        print("peak RSS: \(small) MB for 100 000 lines, \(large) MB for 1 000 000")
        XCTAssertLessThan(large - small, 16, "peak RSS \(small) MB → \(large) MB")
    }

    func testKubernetesManifestsAreAValidIndexedJob() throws {
        let checker = Self.package.appendingPathComponent("Tests/Fixtures/check-kubernetes.py").path
        let job = Self.package.appendingPathComponent("deploy/kubernetes/catalog-job.yaml").path
        let volume = Self.package.appendingPathComponent("deploy/kubernetes/data-volume.yaml").path
        var result = try run([checker, job, volume], executable: "/usr/bin/python3")
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        // The checker can fail: a Job whose completions disagree with LYRICPOSTER_SHARDS.
        let text = try String(contentsOfFile: job, encoding: .utf8)
        let broken = try write(text.replacingOccurrences(of: "completions: 8", with: "completions: 7"), to: "job.yaml")
        XCTAssertNotEqual(text, try String(contentsOfFile: broken, encoding: .utf8))
        result = try run([checker, broken, volume], executable: "/usr/bin/python3")
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue((result.stdout + result.stderr).contains("completions"), result.stdout + result.stderr)
    }
}
