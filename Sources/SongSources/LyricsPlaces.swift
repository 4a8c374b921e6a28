import Foundation
import Locks
import LyricsCore
import LyricsDatabase
import LyricPoster

/// Where lyrics are looked for beyond the audio file itself: folders of lyric files
/// (`--lyrics-dir`, repeatable) and a local LRCLIB database dump (`--lrclib-db`).
package struct LyricsPlaces: Sendable, Hashable {
    package var folders: [String]
    package var lrclibDatabase: String?

    package init(folders: [String] = [], lrclibDatabase: String? = nil) {
        self.folders = folders
        self.lrclibDatabase = lrclibDatabase
    }

    package var isEmpty: Bool { folders.isEmpty && lrclibDatabase == nil }

    /// What the song is, for a search by name: from the audio file's tags, or the player.
    package struct Song: Sendable, Hashable {
        package var title: String?
        package var artist: String?
        package var album: String?
        package var durationMs: Int?

        package init(title: String?, artist: String?, album: String? = nil, durationMs: Int? = nil) {
            self.title = title.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            self.artist = artist.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            self.album = album.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            self.durationMs = durationMs
        }
    }

    /// A Lyricsfile beside the audio file: `<stem>.lyricsfile.yaml`, `.lyricsfile.yml`,
    /// `.lyricsfile`, `.yaml` or `.yml`, case-insensitively, in that order.
    package static func lyricsfile(beside audioPath: String) -> String? {
        SongResolver.beside(audioPath, suffixes: lyricsfileSuffixes)
    }

    package static let lyricsfileSuffixes = [".lyricsfile.yaml", ".lyricsfile.yml", ".lyricsfile", ".yaml", ".yml"]

    /// A lyrics file for `song` in the folders: by name first (`Artist - Title.*`, then
    /// `Title.*`, in each folder in turn), then by the tags inside the files
    /// (``LyricsFolderIndex``).
    package func file(for song: Song) -> String? {
        guard !folders.isEmpty else { return nil }
        if let named = Self.named(title: song.title, artist: song.artist, in: folders) { return named }
        return LyricsFolderIndex.shared.match(song, in: folders)
    }

    /// `Artist - Title.<ext>`, then `Title.<ext>`, in each folder in turn (case-insensitive; a `/`
    /// in a name is looked for as `_`).
    package static func named(title: String?, artist: String?, in folders: [String]) -> String? {
        guard let title, !title.isEmpty else { return nil }
        func safe(_ s: String) -> String { s.replacingOccurrences(of: "/", with: "_").lowercased() }
        var stems: [String] = []
        if let artist, !artist.isEmpty { stems.append(safe(artist) + " - " + safe(title)) }
        stems.append(safe(title))
        let extensions = SongResolver.sidecarExtensions.map { "." + $0 } + lyricsfileSuffixes
        let names = stems.flatMap { stem in extensions.map { stem + $0 } }
        return folders.lazy.compactMap { SongResolver.firstFile(in: $0, named: names) }.first
    }

    /// The song looked up in the LRCLIB dump, or `nil` when there is no dump, the song has no
    /// title and artist, or nothing matches. The dump is opened once per process and path.
    package func lrclib(_ song: Song) throws(PosterError) -> LRCLIBDump.Found? {
        guard let path = lrclibDatabase, let title = song.title, let artist = song.artist else { return nil }
        do {
            return try Self.openDump(path).lookup(title: title, artist: artist, album: song.album, durationMs: song.durationMs)
        } catch {
            throw PosterError(path: path, reason: Self.reason(error, path: path))
        }
    }

    /// Opens (once) and checks the dump at `path`; for a command's validation.
    package static func openDump(_ path: String) throws(LRCLIBDump.Failure) -> LRCLIBDump {
        try dumps.withLock { (open: inout [String: LRCLIBDump]) throws(LRCLIBDump.Failure) -> LRCLIBDump in
            if let dump = open[path] { return dump }
            let dump = try LRCLIBDump(path: path)
            open[path] = dump
            return dump
        }
    }

    /// A failure's reason without its path (a ``PosterError`` names the path itself).
    package static func reason(_ failure: LRCLIBDump.Failure, path: String) -> String {
        let text = failure.description
        return text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text
    }

    /// Dumps opened so far, by path: a lookup reuses the connection (opening reads the schema).
    private static let dumps = Guarded<[String: LRCLIBDump]>([:])
}
