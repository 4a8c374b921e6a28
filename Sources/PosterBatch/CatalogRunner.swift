import Foundation
import LyricPoster
import SongSources
import LyricsCore
import PosterGraphics
import Locks

/// Renders a catalogue, or one shard of it, into an output root: each song into `<root>/<id>/`
/// (`lines` frames and manifest, `sheet.png`, and `poster.png` when the manifest gives `at`),
/// written in `<root>/.<id>.partial/` and renamed into place when complete, with a
/// `catalog.json` that records the digests of what it was made from. A song whose folder records
/// the same digests is skipped. Songs are rendered on all cores, one song per core, with the
/// fonts set up once; every song gets one line in `<root>/catalog/<shard>.jsonl`.
package struct CatalogRunner: Sendable {
    package enum Each: String, Sendable, CaseIterable {
        case lines, sheet, both
        var lines: Bool { self != .sheet }
        var sheet: Bool { self != .lines }
    }

    package var output: String
    package var options: RenderOptions
    /// Where songs' lyrics are looked for beyond their files (`--lyrics-dir`, `--lrclib-db`).
    package var places = LyricsPlaces()
    package var each: Each
    package var shard: CatalogShard
    package var jobs: Int
    package var columns: Int?

    package init(output: String, options: RenderOptions, each: Each, shard: CatalogShard, jobs: Int, columns: Int? = nil) {
        self.output = output
        var options = options
        options.backdropCache = nil
        self.options = options
        self.each = each
        self.shard = shard
        self.jobs = max(1, jobs)
        self.columns = columns
    }

    package static let reportFolder = "catalog"
    package static let recordName = "catalog.json"

    /// A song's line in the report.
    package struct Line: Codable, Sendable {
        package var id: String
        package var status: Status
        /// PNGs of instants: the `lines` frames, and `poster.png`.
        package var frames: Int
        /// Contact sheets (`sheet.png`); absent when none.
        package var sheets: Int?
        package var ms: Int
        package var error: String?

        package enum Status: String, Codable, Sendable, CaseIterable {
            case rendered, skipped, failed
            case noLyrics = "no-lyrics"
            /// Another live process held the song for longer than a run waits (10 minutes).
            case busy
        }
    }

    package struct Totals: Sendable {
        package var counts: [Line.Status: Int] = [:]
        package var frames = 0
        package var sheets = 0
        package var seconds = 0.0
        package var interrupted = false
        package var report = ""

        package var songs: Int { counts.values.reduce(0, +) }
        package subscript(status: Line.Status) -> Int { counts[status, default: 0] }
    }

    /// Renders this shard's songs from `sources`; `progress` gets the running totals after each song.
    package func run(_ sources: sending CatalogSources, stop: StopFlag,
                    progress: @escaping @Sendable (Totals) -> Void = { _ in }) throws(PosterError) -> Totals {
        let start = DispatchTime.now().uptimeNanoseconds
        let reports = output + "/" + Self.reportFolder
        try OutputFile.makeFolder(output)
        try OutputFile.makeFolder(reports)
        let fonts = try FontSetup.library(options.fonts)
        let source = Guarded(sources)
        let state = Guarded((totals: Totals(), report: try ReportWriter(path: reports + "/" + shard.name + ".jsonl")))
        let shard = self.shard
        let runner = self
        Parallel.each(jobs: jobs, stop: stop, next: {
            // Only this shard's songs leave the source; the rest are not even resolved.
            while let entry = source.withLock({ $0.next() }) {
                if shard.contains(entry.id) { return entry }
            }
            return nil
        }, body: { (entry: CatalogEntry) in
            guard let line = runner.process(entry, fonts: fonts, stop: stop) else {
                state.withLock { $0.totals.interrupted = true }
                return
            }
            let encoded = Self.encode(line)
            let now = state.withLock { value -> Totals in
                value.report.append(encoded)
                value.totals.counts[line.status, default: 0] += 1
                value.totals.frames += line.frames
                value.totals.sheets += line.sheets ?? 0
                return value.totals
            }
            progress(now)
        })
        // A stopped run's report is not the shard's: it stays the hidden temporary file, which
        // `--summary` shows as a shard that did not finish, and the next run removes.
        var result = try state.withLock { (value) throws(PosterError) -> Totals in
            var totals = value.totals
            totals.interrupted = totals.interrupted || stop.isRequested
            totals.report = totals.interrupted ? value.report.abandon() : try value.report.commit()
            return totals
        }
        result.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return result
    }

    static func encode(_ line: Line) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(line), as: UTF8.self)) ?? "{}"
    }

    /// One song: skipped, rendered or failed; nil when a stop interrupted it (nothing is left).
    func process(_ entry: CatalogEntry, fonts: FontLibrary, stop: StopFlag) -> Line? {
        let start = DispatchTime.now().uptimeNanoseconds
        func line(_ status: Line.Status, frames: Int = 0, sheets: Int = 0, error: String? = nil) -> Line {
            Line(id: entry.id, status: status, frames: frames, sheets: sheets > 0 ? sheets : nil,
                 ms: Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000), error: error)
        }
        guard case .song(let song) = entry else {
            if case .bad(_, let error) = entry { return line(.failed, error: error) }
            return nil
        }
        var options = self.options
        if let title = song.title { options.title = title }
        if let artist = song.artist { options.artist = artist }
        if let album = song.album { options.album = album }
        var resolved: ResolvedSong
        do { resolved = try SongResolver.resolve(song.source, options: options, places: places) } catch {
            return line(error.reason.hasPrefix("no lyrics") ? .noLyrics : .failed, error: error.description)
        }
        let key = self.key(song, &resolved, options: options, fonts: fonts)
        // The song is this process's from here: its record read, its `.partial` made and renamed.
        // Another process rendering it (a task resubmitted beside the original) is waited for, and
        // its work then found in place; only one that holds it past the patience is left to it.
        let claim: FileClaim
        switch FileClaim.wait(output + "/." + song.id + ".claim", stop: stop) {
        case .held(let held)?: claim = held
        case .busy(let holder)?: return line(.busy, error: "being rendered by \(holder) for over 10 minutes")
        case .failed(let reason)?: return line(.failed, error: reason)
        case nil: return nil
        }
        defer { claim.release() }
        let folder = output + "/" + song.id
        let record = Record.read(folder)
        if let record, record.key == key { return line(.skipped, frames: record.frames, sheets: record.sheets ?? 0) }
        if record == nil, FileManager.default.fileExists(atPath: folder) {
            return line(.failed, error: "\(folder): exists but was not written by LyricPoster (remove it to render this song)")
        }
        let partial = output + "/." + song.id + ".partial"
        removeTree(partial)
        do {
            try FileManager.default.createDirectory(atPath: partial, withIntermediateDirectories: false)
        } catch {
            return line(.failed, error: "\(partial): cannot create the folder: \(OutputFile.errnoReason(errno))")
        }
        do throws(PosterError) {
            guard let made = try render(song, resolved, options: options, fonts: fonts, into: partial, key: key, stop: stop) else {
                removeTree(partial)
                return nil
            }
            try install(partial, as: folder, id: song.id)
            return line(.rendered, frames: made.frames, sheets: made.sheets)
        } catch {
            removeTree(partial)
            return line(.failed, error: error.description)
        }
    }

    /// Renders what `each` asks for into `folder`; the frames and sheets written, or nil when stopped.
    private func render(_ song: CatalogSong, _ resolved: ResolvedSong, options: RenderOptions, fonts: FontLibrary,
                        into folder: String, key: String, stop: StopFlag) throws(PosterError) -> (frames: Int, sheets: Int)? {
        let session = try PosterSession(song: resolved, options: options, fonts: fonts)
        let plan = FramePlan.perLine(session.scenes)
        var frames = 0, sheets = 0
        if each.lines {
            let result = try BatchRenderer(session: session, directory: folder, coverPath: resolved.coverPath,
                                           lyricsPath: resolved.lyricsPath, jobs: 1, force: true)
                .run(frames: plan, kind: "lines", stop: stop)
            if result.interrupted { return nil }
            frames += result.manifest.frames.count
        }
        if each.sheet {
            let wide = options.preset.width > options.preset.height
            let png = try ContactSheet(session: session, columns: columns ?? (wide ? 4 : 6), jobs: 1).render(frames: plan, stop: stop)
            if stop.isRequested { return nil }
            try OutputFile.writeAtomically(png, to: folder + "/sheet.png")
            sheets += 1
        }
        if let at = song.at {
            try OutputFile.writeAtomically(try session.render(at: at).png, to: folder + "/poster.png")
            frames += 1
        }
        let record = Record(id: song.id, key: key, frames: frames, sheets: sheets > 0 ? sheets : nil, each: each.rawValue,
                            cover: session.coverDigest, lyrics: session.lyricsDigest,
                            coverSource: resolved.coverSource, lyricsSource: resolved.lyricsSource)
        try OutputFile.writeAtomically(record.json(), to: folder + "/" + Self.recordName)
        return (frames, sheets)
    }

    /// Puts a complete song folder in place: a rename, or (over an older version) the old one
    /// renamed aside first and removed after.
    private func install(_ partial: String, as folder: String, id: String) throws(PosterError) {
        if rename(partial, folder) == 0 { return }
        guard errno == ENOTEMPTY || errno == EEXIST else {
            throw PosterError(path: folder, reason: "cannot write: " + OutputFile.errnoReason(errno))
        }
        let old = output + "/." + id + ".old"
        removeTree(old)
        guard rename(folder, old) == 0, rename(partial, folder) == 0 else {
            throw PosterError(path: folder, reason: "cannot replace the older version: " + OutputFile.errnoReason(errno))
        }
        removeTree(old)
    }

    private func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The digest of everything a song's folder is made from: the cover and lyrics bytes, the
    /// audio file's tags that show, the manifest's overrides, the options, fonts, `each` and the
    /// renderer's version.
    /// The cover's digest is kept with `resolved`, for the song's session.
    func key(_ song: CatalogSong, _ resolved: inout ResolvedSong, options: RenderOptions, fonts: FontLibrary) -> String {
        let tags = resolved.audio.map { "\($0.title ?? "")|\($0.artist ?? "")|\($0.album ?? "")|\($0.lengthMs.map(String.init) ?? "")" } ?? "-"
        let parts = ["lyricposter-catalog-1", "renderer-\(SequenceRenderer.version)", resolved.coverDigest(),
                     Digest.sha256(resolved.lyricsData), tags, options.title ?? "-", options.artist ?? "-", options.album ?? "-",
                     options.duration.map { String($0.milliseconds) } ?? "-", each.rawValue, columns.map(String.init) ?? "-",
                     song.at.map { String($0.milliseconds) } ?? "-"] + options.fingerprint + fonts.fontFiles()
        return Digest.sha256(parts.joined(separator: "\n"))
    }

    /// `<id>/catalog.json`: what the folder was made from.
    struct Record: Codable {
        var version = 1
        var id: String
        var key: String
        var frames: Int
        var sheets: Int?
        var each: String
        var cover: String
        var lyrics: String
        var coverSource: String
        var lyricsSource: String

        enum CodingKeys: String, CodingKey {
            case version, id, key, frames, sheets, each, cover, lyrics
            case coverSource = "cover_source"
            case lyricsSource = "lyrics_source"
        }

        static func read(_ folder: String) -> Record? {
            guard let data = FileManager.default.contents(atPath: folder + "/" + CatalogRunner.recordName) else { return nil }
            return try? JSONDecoder().decode(Record.self, from: data)
        }

        func json() -> [UInt8] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            return Array(((try? encoder.encode(self)) ?? Data()) + Data("\n".utf8))
        }
    }
}

/// The run's report: lines appended to a temporary file as songs finish, renamed over
/// `<shard>.jsonl` at the end (a killed or stopped run leaves the previous report in place). The temporary
/// file is locked while the run lives; a run starting removes its shard's temporary reports that
/// nobody holds (left by a killed run), and `--summary` tells running shards from killed ones.
final class ReportWriter {
    private let handle: FileHandle
    private let staged: OutputFile.StagedFile
    private let lock: FileClaim?
    private var failure: String?
    let path: String

    init(path: String) throws(PosterError) {
        self.path = path
        Self.removeAbandoned(besides: path)
        // Made, then locked: another run of the shard starting now may remove it in between, in
        // which case the lock is on a file no longer there, and another is made.
        var attempt = 0
        var made: (staged: OutputFile.StagedFile, lock: FileClaim)?
        while made == nil {
            let staged = try OutputFile.reserve(path)
            if let lock = FileClaim.hold(staged.temporary), lock.isLinked {
                made = (staged, lock)
            } else {
                staged.discard()
                attempt += 1
                if attempt == 8 { throw PosterError(path: path, reason: "cannot write: its temporary file keeps being removed") }
            }
        }
        guard let made, let handle = FileHandle(forWritingAtPath: made.staged.temporary) else {
            made?.lock.unlock()
            made?.staged.discard()
            throw PosterError(path: path, reason: "cannot write")
        }
        staged = made.staged
        lock = made.lock
        self.handle = handle
    }

    /// The temporary reports of `path` (`.<name>.tmp-…`) in its folder.
    static func temporaries(in folder: String, of name: String? = nil) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("." + (name ?? "")) && $0.contains(".jsonl.tmp-") }.sorted()
    }

    /// Removes the temporary reports of this report's shard that no live run holds, each under
    /// its lock (so a run that has just made one, and locks it now, finds it gone and makes another).
    private static func removeAbandoned(besides path: String) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        for name in temporaries(in: folder, of: url.lastPathComponent) {
            FileClaim.hold(folder + "/" + name)?.release()
        }
    }

    /// Appends a line; called under the runner's lock.
    func append(_ line: String) {
        guard failure == nil else { return }
        do { try handle.write(contentsOf: Data((line + "\n").utf8)) } catch { failure = error.localizedDescription }
    }

    /// Leaves the report as its temporary file (a stopped run): its path.
    func abandon() -> String {
        try? handle.close()
        lock?.unlock()
        return staged.temporary
    }

    /// Renames the report into place; a write that failed (a full disk) fails the run here.
    func commit() throws(PosterError) -> String {
        try? handle.close()
        defer { lock?.unlock() }
        if let failure {
            staged.discard()
            throw PosterError(path: path, reason: "cannot write: \(failure)")
        }
        try staged.commit()
        return path
    }
}
