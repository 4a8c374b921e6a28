import Foundation
import Locks

/// Lyric files in folders, indexed by the tags written inside them (`[ar:]`, `[ti:]`, `[al:]`,
/// `[length:]`), so that a song is found whatever its file is called (as rmpc does).
///
/// A folder is walked once (recursively, symbolic links not followed, at most
/// ``maxFiles`` lyric files and ``maxDepth`` levels), reading each file's first
/// ``headBytes`` up to its first time stamp; the index is kept, and walked again when any folder
/// in it has changed (a file added, removed or renamed changes its folder's modification time).
/// Editing the tags inside a file that stays put is seen on the next change of its folder, or on
/// the next run.
package final class LyricsFolderIndex: Sendable {
    package static let shared = LyricsFolderIndex()

    static let maxFiles = 100_000
    static let maxDepth = 16
    static let headBytes = 8192

    /// One file's tags.
    struct Entry: Sendable, Hashable {
        var path: String
        var artist: String
        var title: String
        var album: String?
        var lengthMs: Int?
    }

    private struct Folder: Sendable {
        var entries: [Entry]
        /// Every folder walked, with its modification time when walked.
        var stamps: [String: Date]
    }

    private let folders = Guarded<[String: Folder]>([:])

    /// The file in `roots` whose tags name `song`: artist and title equal ignoring case (and
    /// surrounding spaces), the album equal or missing on either side. Of several: those with the
    /// song's album first; then the one whose `[length:]` is nearest the song's duration within
    /// ±5 s; then one without a length; then the nearest length; ties in path order.
    package func match(_ song: LyricsPlaces.Song, in roots: [String]) -> String? {
        guard let title = song.title.map(Self.key), let artist = song.artist.map(Self.key) else { return nil }
        var hits: [Entry] = []
        for root in roots {
            hits += entries(root).filter { Self.key($0.title) == title && Self.key($0.artist) == artist }
        }
        let album = song.album.map(Self.key)
        hits = hits.filter { entry in album == nil || entry.album == nil || Self.key(entry.album ?? "") == album }
        guard !hits.isEmpty else { return nil }
        if let album {
            let same = hits.filter { $0.album.map(Self.key) == album }
            if !same.isEmpty { hits = same }
        }
        guard hits.count > 1, let duration = song.durationMs else { return hits.first?.path }
        let timed = hits.compactMap { entry in entry.lengthMs.map { (entry, abs($0 - duration)) } }
        if let near = timed.filter({ $0.1 < 5000 }).min(by: { $0.1 < $1.1 }) { return near.0.path }
        if let untimed = hits.first(where: { $0.lengthMs == nil }) { return untimed.path }
        return timed.min(by: { $0.1 < $1.1 })?.0.path
    }

    static func key(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// The entries of `root`, walked again when a folder in it changed.
    private func entries(_ root: String) -> [Entry] {
        if let kept = folders.withLock({ $0[root] }), kept.stamps.allSatisfy({ Self.modified($0.key) == $0.value }) {
            return kept.entries
        }
        let walked = Self.walk(root)
        folders.withLock { $0[root] = walked }
        return walked.entries
    }

    private static func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    private static func walk(_ root: String) -> Folder {
        var entries: [Entry] = []
        var stamps: [String: Date] = [:]
        var pending: [(String, Int)] = [(root, 0)]
        var files = 0
        let extensions = Set(["lrc", "txt", "lrcx", "elrc"])
        while let (folder, depth) = pending.popLast(), files < maxFiles {
            stamps[folder] = modified(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? []
            for name in names where !name.hasPrefix(".") {
                let path = (folder as NSString).appendingPathComponent(name)
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if depth + 1 < maxDepth { pending.append((path, depth + 1)) }
                case S_IFREG:
                    guard extensions.contains((name as NSString).pathExtension.lowercased()), files < maxFiles else { continue }
                    files += 1
                    if let entry = read(path) { entries.append(entry) }
                default:
                    continue
                }
            }
        }
        entries.sort { $0.path < $1.path }
        return Folder(entries: entries, stamps: stamps)
    }

    /// A file's `[ar:]`, `[ti:]`, `[al:]` and `[length:]` tags, read up to its first time stamp.
    static func read(_ path: String) -> Entry? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: headBytes), !data.isEmpty else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        var tags: [String: String] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\u{FEFF}"))
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { continue }
            let body = line[line.index(after: line.startIndex)..<close]
            if body.first?.isNumber == true { break }  // the first time stamp: tags come before it
            guard let colon = body.firstIndex(of: ":") else { continue }
            let key = body[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = body[body.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if ["ar", "ti", "al", "length"].contains(key), !value.isEmpty, tags[key] == nil { tags[key] = value }
        }
        guard let artist = tags["ar"], let title = tags["ti"] else { return nil }
        return Entry(path: path, artist: artist, title: title, album: tags["al"], lengthMs: tags["length"].flatMap(lengthMs))
    }

    /// `[length:]` as milliseconds: `m:ss`, `mm:ss.xx`, or seconds.
    static func lengthMs(_ value: String) -> Int? {
        let parts = value.split(separator: ":")
        if parts.count == 2, let minutes = Int(parts[0].trimmingCharacters(in: .whitespaces)),
           let seconds = Double(parts[1].trimmingCharacters(in: .whitespaces)), minutes >= 0, seconds >= 0, seconds < 60 {
            return minutes * 60_000 + Int((seconds * 1000).rounded())
        }
        if parts.count == 1, let seconds = Double(value), seconds >= 0, seconds < 86_400 { return Int((seconds * 1000).rounded()) }
        return nil
    }
}
