import Foundation
import LyricPoster
import SongSources
import LyricsCore
import PosterBatch
import PosterGraphics
import Locks
import MediaTags

/// One song the server knows: where its parts are and what the song list shows.
package struct LibrarySong: Sendable {
    /// Opaque and stable: 16 hex digits of the SHA-256 of the library root's index and the song's
    /// path relative to that root. Never a path; looked up, never joined into one.
    package var id: String
    /// The audio file's (or, for a pair, the lyrics file's) path relative to its library root.
    package var file: String
    package var source: SongSource
    /// Where its lyrics are looked for beyond its files (the server's `--lyrics-dir`, `--lrclib-db`).
    package var places = LyricsPlaces()
    package var title: String?
    package var artist: String?
    package var album: String?
    package var durationMs: Int?
    package var format: String
    package var lineCount: Int
    /// Why its posters cannot be made (its lyrics cannot be read, or it has none); nil when they
    /// can, or before its lyrics are read.
    package var problem: String?
    /// File, title, artist and album, normalised for search (made once, when listed).
    var searchText = ""

    /// The song prepared for `options`; its files' problems are the client's (422, naming the file).
    @Sendable func session(_ options: RenderOptions) throws -> PosterSession {
        do { return try PosterSession(source: source, options: options, places: places) } catch {
            throw APIError(.unprocessableContent, "\(file): \(error.reason)")
        }
    }
}

/// The songs of the library folders, found as `catalog` finds them (audio files with their tags,
/// sidecars and folder covers; cover and lyrics pairs). Symbolic links are followed as long as they
/// lead inside one of the library folders. The folders are walked on a background thread; until it
/// is done the server serves the songs known so far. Thread-safe.
package final class Library: Sendable {
    package let roots: [String]
    /// Where songs' lyrics are looked for beyond their files.
    package let places: LyricsPlaces
    /// Told, after each walk, what it left out and why: a line per song or folder (at most
    /// `maxReported`), then how many in all.
    private let report: @Sendable (String) -> Void
    private let state = Guarded<(songs: [LibrarySong], byID: [String: Int], scanning: Bool, generation: Int)>(([], [:], false, 0))
    package static let maxReported = 20

    package init(roots: [String], places: LyricsPlaces = LyricsPlaces(), report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.roots = roots
        self.places = places
        self.report = report
    }

    /// The id of a song at `relative` under the root at `rootIndex`.
    static func id(rootIndex: Int, relative: String) -> String {
        String(Digest.sha256(Data("\(rootIndex)\n\(relative)".utf8)).prefix(16))
    }

    /// Starts a walk of every root on one of Dispatch's threads (a walk already under way is replaced:
    /// its results are dropped when the new one starts).
    package func rescan(options: RenderOptions) {
        let generation = state.withLock { state -> Int in
            state.generation += 1
            state.scanning = true
            return state.generation
        }
        let roots = self.roots
        DispatchQueue.global(qos: .utility).async { [self] in
            // Where a walk may lead: every library folder (for a single file given as a library,
            // its folder, where its cover may be).
            let within = roots.map { root -> String in
                var isFolder: ObjCBool = false
                let folder = FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) && !isFolder.boolValue
                    ? (root as NSString).deletingLastPathComponent : root
                return Self.realPath(folder.isEmpty ? "." : folder) ?? folder
            }
            // First the walk: every song is listed at once under its file name…
            var walked: [(song: CatalogSong, entry: LibrarySong)] = []
            var leftOut: [String] = []
            for (index, root) in roots.enumerated() {
                let sources = CatalogSources([root], within: within)
                while let entry = sources.next() {
                    let song: CatalogSong
                    switch entry {
                    case .bad(_, let error): leftOut.append(error); continue
                    case .song(let found): song = found
                    }
                    guard let file = song.file else { continue }
                    // The walk follows no link out of the library; this holds should one change under it.
                    guard song.source.paths.allSatisfy({ Self.realPath($0).map { real in within.contains { Self.contains($0, real) } } ?? false }) else {
                        leftOut.append("\(root)/\(file): leads outside every library folder")
                        continue
                    }
                    var listed = LibrarySong(id: Self.id(rootIndex: index, relative: file), file: file, source: song.source, format: "", lineCount: 0)
                    listed.title = song.title ?? PosterSession.displayName(file)
                    listed.artist = song.artist
                    listed.album = song.album
                    listed.places = places
                    listed.searchText = Self.searchText(listed)
                    walked.append((song, listed))
                    if walked.count % 4096 == 0 { publish(walked.map(\.entry), generation: generation, done: false) }
                }
            }
            publish(walked.map(\.entry), generation: generation, done: false)
            if !leftOut.isEmpty, state.withLock({ $0.generation == generation }) { tell(leftOut) }
            // …then each song's lyrics are read for its tags and line count, on every core.
            let listed = walked
            let described = Guarded(listed.map(\.entry))
            let chunk = 256
            DispatchQueue.concurrentPerform(iterations: (listed.count + chunk - 1) / chunk) { part in
                let range = part * chunk ..< min(listed.count, (part + 1) * chunk)
                let entries = range.map { Self.describe(listed[$0].song, walked: listed[$0].entry, options: options) }
                described.withLock { list in for (i, entry) in zip(range, entries) { list[i] = entry } }
            }
            publish(described.withLock { $0 }, generation: generation, done: true)
        }
    }

    private func publish(_ songs: [LibrarySong], generation: Int, done: Bool) {
        state.withLock { state in
            guard state.generation == generation else { return }
            state.songs = songs
            state.byID = Dictionary(songs.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
            if done { state.scanning = false }
        }
    }

    /// Says what a walk left out, a line each up to `maxReported`, then how many in all.
    private func tell(_ leftOut: [String]) {
        for reason in leftOut.prefix(Self.maxReported) { report("left out \(reason)") }
        let named = leftOut.count > Self.maxReported ? " (the first \(Self.maxReported) named above)" : ""
        report("\(leftOut.count) \(leftOut.count == 1 ? "song or folder" : "songs or folders") of the library left out\(named)")
    }

    /// The song list entry: tags and line count from reading the lyrics (not the cover). A song
    /// whose lyrics cannot be read is listed with no lines, by its audio file's tags (else as
    /// `walked`), and with the reason as its `problem`.
    static func describe(_ song: CatalogSong, walked: LibrarySong, options: RenderOptions) -> LibrarySong {
        var entry = walked
        do {
            let resolved = try SongResolver.resolve(song.source, options: options, places: walked.places, needCover: false)
            let lyrics = resolved.lyrics
            entry.title = lyrics.metadata.title ?? PosterSession.displayName(resolved.lyricsPath)
            entry.artist = lyrics.metadata.artist
            entry.album = lyrics.metadata.album
            entry.durationMs = (lyrics.metadata.length ?? lyrics.lines.last?.end)?.milliseconds
            entry.format = lyrics.format.rawValue
            entry.lineCount = lyrics.numberedLines.count
        } catch {
            entry.problem = error.reason
            // The tags are read again without pictures: the song is still known by them.
            if case .audio(let audio, _, _) = song.source, let tags = try? MediaTags.read(audio, maxPictureBytes: 0) {
                entry.title = tags.title ?? entry.title
                entry.artist = tags.artist ?? entry.artist
                entry.album = tags.album ?? entry.album
                entry.durationMs = tags.lengthMs ?? entry.durationMs
            }
        }
        entry.searchText = searchText(entry)
        return entry
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// True when `path` (resolved) is `root` (resolved) or under it.
    static func contains(_ root: String, _ path: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// The size of a regular file (following links), nil for anything else or a missing file.
    static func regularFileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The fields a search looks in, each normalised, one per line (a query never spans two).
    static func searchText(_ song: LibrarySong) -> String {
        [song.file, song.title, song.artist, song.album].compactMap { $0 }.map { LineChoice.normalise($0) }.joined(separator: "\n")
    }

    package var isScanning: Bool { state.withLock { $0.scanning } }

    /// The cover of the library's song titled `title` (and by `artist`, when given), compared as
    /// search compares them: for a pushed song that brings no cover of its own.
    package func cover(title: String?, artist: String?, maxBytes: Int, options: RenderOptions) -> (Data, String)? {
        guard let title, !title.isEmpty else { return nil }
        let wantedTitle = LineChoice.normalise(title), wantedArtist = artist.map { LineChoice.normalise($0) }
        let match = state.withLock { state in
            state.songs.first { song in
                song.title.map { LineChoice.normalise($0) } == wantedTitle
                    && (wantedArtist == nil || song.artist.map { LineChoice.normalise($0) } == wantedArtist)
            }
        }
        guard let match, let resolved = try? SongResolver.resolve(match.source, options: options, needCover: true),
              !resolved.coverData.isEmpty, resolved.coverData.count <= maxBytes else { return nil }
        return (resolved.coverData, "library:" + match.file)
    }

    package func song(_ id: String) -> LibrarySong? {
        state.withLock { state in state.byID[id].map { state.songs[$0] } }
    }

    /// Songs whose file, title, artist or album contains `query` (case-insensitive), in library
    /// order, from `offset`, at most `limit`; and how many match in all.
    package func songs(matching query: String?, offset: Int, limit: Int) -> (songs: [LibrarySong], total: Int) {
        let all = state.withLock { $0.songs }
        let needle = query.map { LineChoice.normalise($0) } ?? ""
        let matching = needle.isEmpty ? all : all.filter { $0.searchText.contains(needle) }
        let start = min(offset, matching.count)
        return (Array(matching[start..<min(matching.count, start + limit)]), matching.count)
    }
}
