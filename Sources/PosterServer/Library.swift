import Foundation
import LyricPoster
import LyricsCore
import PosterBatch
import PosterGraphics
import Synchronization

/// One song the server knows: where its parts are and what the song list shows.
public struct LibrarySong: Sendable {
    /// Opaque and stable: 16 hex digits of the SHA-256 of the library root's index and the song's
    /// path relative to that root. Never a path; looked up, never joined into one.
    public var id: String
    /// The audio file's (or, for a pair, the lyrics file's) path relative to its library root.
    public var file: String
    public var source: SongSource
    public var title: String?
    public var artist: String?
    public var album: String?
    public var durationMs: Int?
    public var format: String
    public var lineCount: Int
}

/// The songs of the library folders, found as `catalog` finds them (audio files with their tags,
/// sidecars and folder covers; cover and lyrics pairs). The folders are walked on a background
/// thread; until it is done the server serves the songs known so far. Thread-safe.
public final class Library: Sendable {
    public let roots: [String]
    private let state = Mutex<(songs: [LibrarySong], byID: [String: Int], scanning: Bool, generation: Int)>(([], [:], false, 0))

    public init(roots: [String]) {
        self.roots = roots
    }

    /// The id of a song at `relative` under the root at `rootIndex`.
    static func id(rootIndex: Int, relative: String) -> String {
        String(Digest.sha256(Data("\(rootIndex)\n\(relative)".utf8)).prefix(16))
    }

    /// Starts a walk of every root on a background thread (a walk already under way is replaced:
    /// its results are dropped when the new one starts).
    public func rescan(options: RenderOptions) {
        let generation = state.withLock { state -> Int in
            state.generation += 1
            state.scanning = true
            return state.generation
        }
        let roots = self.roots
        Thread.detachNewThread { [self] in
            var found: [LibrarySong] = []
            for (index, root) in roots.enumerated() {
                let sources = CatalogSources([root])
                // For a single file given as a library, its folder (where its cover may be).
                var isFolder: ObjCBool = false
                let folder = FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) && !isFolder.boolValue
                    ? (root as NSString).deletingLastPathComponent : root
                let top = Self.realPath(folder.isEmpty ? "." : folder) ?? folder
                while let entry = sources.next() {
                    guard case .song(let song) = entry, let file = song.file else { continue }
                    // A symbolic link that leads out of the library is not the library's.
                    guard song.source.paths.allSatisfy({ Self.realPath($0).map { Self.contains(top, $0) } ?? false }) else { continue }
                    found.append(Self.describe(song, file: file, id: Self.id(rootIndex: index, relative: file), options: options))
                    if found.count % 256 == 0 { publish(found, generation: generation, done: false) }
                }
            }
            publish(found, generation: generation, done: true)
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

    /// The song list entry: tags and line count from reading the lyrics (not the cover). A song
    /// whose lyrics cannot be read is listed with no lines; rendering it reports why.
    static func describe(_ song: CatalogSong, file: String, id: String, options: RenderOptions) -> LibrarySong {
        var entry = LibrarySong(id: id, file: file, source: song.source, format: "", lineCount: 0)
        if let resolved = try? SongResolver.resolve(song.source, options: options, needCover: false) {
            let lyrics = resolved.lyrics
            entry.title = lyrics.metadata.title ?? PosterSession.displayName(resolved.lyricsPath)
            entry.artist = lyrics.metadata.artist
            entry.album = lyrics.metadata.album
            entry.durationMs = (lyrics.metadata.length ?? lyrics.lines.last?.end)?.milliseconds
            entry.format = lyrics.format.rawValue
            entry.lineCount = lyrics.numberedLines.count
        }
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

    public var isScanning: Bool { state.withLock { $0.scanning } }

    public func song(_ id: String) -> LibrarySong? {
        state.withLock { state in state.byID[id].map { state.songs[$0] } }
    }

    /// Songs whose file, title, artist or album contains `query` (case-insensitive), in library
    /// order, from `offset`, at most `limit`; and how many match in all.
    public func songs(matching query: String?, offset: Int, limit: Int) -> (songs: [LibrarySong], total: Int) {
        let all = state.withLock { $0.songs }
        let needle = query.map { LineChoice.normalise($0) } ?? ""
        let matching = needle.isEmpty ? all : all.filter { song in
            [song.file, song.title, song.artist, song.album].compactMap { $0 }.contains { LineChoice.normalise($0).contains(needle) }
        }
        let start = min(offset, matching.count)
        return (Array(matching[start..<min(matching.count, start + limit)]), matching.count)
    }
}
