import ArgumentParser
import Foundation
import LyricPoster
import PosterBatch
import PosterGraphics

struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Render a whole catalogue: every song of music folders or JSONL manifests, resumable and sharded.",
        discussion: """
        Each song gets <dir>/<id>/. A manifest line is {"id", "audio"?, "cover"?, "lyrics"?, "title"?, \
        "artist"?, "album"?, "at"?} with paths relative to the manifest. Songs already complete for the \
        same inputs and options are skipped. --shard I/N renders the songs whose id hashes to shard I; \
        --shard auto takes I and N from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, LYRICPOSTER_SHARDS), \
        an AWS Batch array job or a Slurm array. Each run writes <dir>/catalog/<shard>.jsonl; \
        `lyricposter catalog --summary <dir>` merges them.
        Exit codes: 0 every song rendered or skipped (or had no lyrics), 3 some songs failed, 1 the run \
        could not proceed, 130 interrupted (run again to resume).
        """
    )

    @Argument(help: ArgumentHelp("Music folders (walked recursively), audio files and JSONL manifests.", valueName: "source"),
              completion: .file(extensions: Completions.audio + ["jsonl"]))
    var sources: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("The output root.", valueName: "dir"))
    var output: String?

    @Option(help: ArgumentHelp("This run's part of the catalogue: I/N, or auto (from the batch scheduler).", valueName: "I/N|auto"))
    var shard: String?

    @Option(help: ArgumentHelp("What each song gets: lines (a frame per line), sheet (a contact sheet) or both.", valueName: "what"))
    var each: String = "lines"

    @Option(help: ArgumentHelp("Thumbnails per row on sheets (default 6, 4 for landscape sizes).", valueName: "n"))
    var columns: Int?

    @Option(help: ArgumentHelp("Merge the shards' reports of an output root and print the totals and failures.", valueName: "dir"))
    var summary: String?

    @Option(name: .customLong("jobs"), help: ArgumentHelp("Songs rendered in parallel (default: the CPUs this process may use: Slurm's SLURM_CPUS_PER_TASK, the affinity mask, the cgroup's quota).", valueName: "n"))
    var jobsOption: Int?

    var jobs: Int { jobsOption ?? CPUs.available() }

    @Flag(name: [.customShort("q"), .long], help: "No progress line, summary or notes.")
    var quiet = false

    @OptionGroup var render: RenderOptionGroup

    @OptionGroup var lookup: LyricsPlacesOptions

    func validate() throws {
        try lookup.checkFolders()
        if summary != nil {
            if !sources.isEmpty || output != nil || shard != nil { throw ValidationError("--summary takes only the output folder") }
            return
        }
        if sources.isEmpty { throw ValidationError("give music folders or JSONL manifests to render") }
        guard let output, !output.isEmpty else { throw ValidationError("-o needs the output folder") }
        if let shard, shard != "auto", CatalogShard.parse(shard) == nil {
            throw ValidationError("--shard must be I/N with 0 ≤ I < N (e.g. 3/8), or auto")
        }
        if CatalogRunner.Each(rawValue: each) == nil { throw ValidationError("--each must be lines, sheet or both") }
        if let columns, !(1...50).contains(columns) { throw ValidationError("--columns must be from 1 to 50") }
        if let jobsOption, !(1...256).contains(jobsOption) { throw ValidationError("--jobs must be from 1 to 256") }
    }

    func run() throws {
        if let summary { return try printSummary(summary) }
        guard let output else { return }
        // Many songs, one after another: each one's pixel buffers stay in the heap for the next's.
        MallocTuning.keepFreedBuffers()
        let shard: CatalogShard
        do {
            if self.shard == "auto" {
                shard = try CatalogShard.automatic(ProcessInfo.processInfo.environment)
            } else {
                shard = self.shard.flatMap(CatalogShard.parse) ?? .all
            }
        } catch {
            throw fail(error)
        }
        let jobs = self.jobs
        // Which part of the catalogue this run takes, and with how many workers: said once, also
        // for a single shard (a scheduler that gave a count of 1 is then plain to see).
        if self.shard != nil || !quiet {
            let part = shard == .all ? "the whole catalogue" : "shard \(shard.index) of \(shard.count) (\(shard.origin))"
            FileHandle.standardError.write(Data("catalog: \(part), \(jobs) job\(jobs == 1 ? "" : "s")\n".utf8))
        }
        for source in sources where OutputFile.sameFile(source, output) {
            throw fail(PosterError(path: output, reason: "the output folder is one of the sources"))
        }
        let stop = StopFlag()
        stop.installSignalHandlers()
        let line = Progress(label: "catalog", quiet: quiet)
        let totals: CatalogRunner.Totals
        do {
            var runner = CatalogRunner(output: output, options: try render.renderOptions(), each: CatalogRunner.Each(rawValue: each) ?? .lines,
                                       shard: shard, jobs: jobs, columns: columns)
            runner.places = lookup.places
            totals = try runner.run(CatalogSources(sources, skip: [output]), stop: stop) { totals in
                line.redraw { seconds in
                    String(format: "catalog: %d songs (%d rendered, %d skipped, %d failed)  %.1f songs/s", totals.songs,
                           totals[.rendered], totals[.skipped], totals[.failed], seconds > 0 ? Double(totals.songs) / seconds : 0)
                }
            }
        } catch {
            line.finish()
            throw fail(error)
        }
        line.finish(String(format: "catalog %@: %d songs (%d rendered, %d skipped, %d no lyrics, %d failed), %d frames%@ in %.1f s; report %@",
                           shard.name, totals.songs, totals[.rendered], totals[.skipped], totals[.noLyrics], totals[.failed],
                           totals.frames, totals.sheets > 0 ? ", \(totals.sheets) sheet\(totals.sheets == 1 ? "" : "s")" : "", totals.seconds, totals.report))
        if totals[.busy] > 0 {
            note("\(totals[.busy]) song(s) were held by another process for over 10 minutes and were left to it (see \(totals.report))")
        }
        if totals.interrupted {
            FileHandle.standardError.write(Data("stopped: the songs in place are complete (listed in \(totals.report)); run again to render the rest\n".utf8))
            throw ExitCode(130)
        }
        if totals[.failed] > 0 {
            FileHandle.standardError.write(Data("\(totals[.failed]) song(s) failed: see \(totals.report), or `lyricposter catalog --summary \(output)`\n".utf8))
            throw ExitCode(3)
        }
    }

    private func printSummary(_ root: String) throws {
        let merged: CatalogSummary
        do { merged = try CatalogSummary.read(root) } catch { throw fail(error) }
        var text = "\(root): \(merged.reports.count) report(s), \(merged.songs) songs: "
        text += CatalogRunner.Line.Status.allCases.map { "\(merged.counts[$0, default: 0]) \($0.rawValue)" }.joined(separator: ", ")
        text += String(format: "; %d frames%@, %.1f s of rendering\n", merged.frames, merged.sheets > 0 ? ", \(merged.sheets) sheet\(merged.sheets == 1 ? "" : "s")" : "",
                       Double(merged.milliseconds) / 1000)
        if !merged.repeated.isEmpty {
            text += "warning: \(merged.repeated.count) song(s) appear in more than one report (did the shard count change?): "
                + merged.repeated.prefix(10).joined(separator: ", ") + (merged.repeated.count > 10 ? ", …" : "") + "\n"
        }
        if merged.unreadable > 0 { text += "warning: \(merged.unreadable) report line(s) could not be read\n" }
        func listed(_ names: [String]) -> String { names.prefix(10).joined(separator: ", ") + (names.count > 10 ? ", …" : "") }
        if !merged.missing.isEmpty {
            text += "warning: \(merged.missing.count) shard(s) have no report (never run, or run into another folder): \(listed(merged.missing))\n"
        }
        if !merged.unfinished.isEmpty {
            text += "warning: \(merged.unfinished.count) shard(s) were stopped before they finished (killed?); run them again: \(listed(merged.unfinished))\n"
        }
        if !merged.running.isEmpty {
            text += "note: \(merged.running.count) shard(s) are still running: \(listed(merged.running))\n"
        }
        if !merged.failures.isEmpty {
            text += "failed:\n" + merged.failures.map { "  \($0.id): \($0.error)" }.joined(separator: "\n") + "\n"
        }
        print(text, terminator: "")
        if !merged.failures.isEmpty { throw ExitCode(3) }
    }
}
