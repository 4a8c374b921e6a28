import Foundation
import LyricPoster
import SongSources
import LyricsCore
import MediaTags
import PosterGraphics

/// One song of a catalogue: where its parts are, and what its manifest line adds.
package struct CatalogSong: Sendable {
    /// The song's folder name under the output root (safe as a folder name).
    package var id: String
    package var source: SongSource
    package var title: String?
    package var artist: String?
    package var album: String?
    /// An instant for a single poster (`poster.png`), when the manifest asks for one.
    package var at: Timestamp?
    /// For a song found by walking: its file's path relative to the source folder (the audio file,
    /// or for a pair the lyrics file).
    package var file: String?
}

/// What a catalogue source yields: a song, or an entry that cannot be one (reported, not fatal).
package enum CatalogEntry: Sendable {
    case song(CatalogSong)
    case bad(id: String, error: String)

    package var id: String {
        switch self {
        case .song(let song): return song.id
        case .bad(let id, _): return id
        }
    }
}

/// Streams the songs of catalogue sources: folders (walked recursively, one listing at a time)
/// and JSONL manifests (read line by line), so memory does not grow with the catalogue.
/// Not thread-safe: callers take entries under a lock.
package final class CatalogSources {
    package static let lyricsExtensions: Set<String> = ["lrc", "ttml", "yrc", "srt", "vtt", "qrc", "krc", "lys", "lyl", "lqe", "ass"]
    package static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "webp"]
    /// The longest manifest line read; longer lines are reported and skipped.
    package static let maxLineBytes = 64 * 1024
    /// The longest id accepted (bytes): ids are folder names.
    package static let maxIDBytes = 200

    private var pending: [String]
    /// Folders still to list, depth first, each with its path relative to its source root.
    private var folders: [(path: String, relative: String)] = []
    private var ready: [CatalogEntry] = []
    private var manifest: (reader: LineReader, folder: String, path: String, line: Int)?
    private let skip: Set<String>
    /// The real paths a walk may reach (nil: anywhere).
    private let within: [String]?

    /// `skip`: folders never walked into (the output root, when it is inside a source folder).
    /// `within` (`serve`'s library folders): a symbolic link found by walking that resolves outside
    /// every one of them is not followed, nor is one to a folder it is in (a loop: its songs are
    /// already walked) or one that leads nowhere; each is a bad entry saying where it leads. Without
    /// it every link is followed (and a broken one passed over).
    package init(_ sources: [String], skip: [String] = [], within: [String]? = nil) {
        pending = sources.reversed()
        self.skip = Set(skip.map { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path })
        self.within = within.map { $0.map { Self.realPath($0) ?? $0 } }
    }

    /// The next entry, or nil when every source is done.
    package func next() -> CatalogEntry? {
        while true {
            if !ready.isEmpty { return ready.removeLast() }
            if let entry = nextManifestEntry() { return entry }
            if manifest != nil { continue }
            if let folder = folders.popLast() {
                list(folder)
                continue
            }
            guard let source = pending.popLast() else { return nil }
            open(source)
        }
    }

    private func open(_ source: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else {
            ready.append(.bad(id: source, error: "\(source): no such file or folder"))
            return
        }
        if isDirectory.boolValue {
            folders.append((source, ""))
            return
        }
        if MediaTags.isAudioFile(source) {
            // One audio file given as a source: a song of its own.
            let name = (source as NSString).lastPathComponent
            ready.append(.song(CatalogSong(id: Self.id(forRelativePath: name), source: .audio(source, cover: nil, lyrics: nil), file: name)))
            return
        }
        do {
            manifest = (try LineReader(path: source, maxLineBytes: Self.maxLineBytes), (source as NSString).deletingLastPathComponent, source, 0)
        } catch {
            ready.append(.bad(id: source, error: "\(source): \(error.reason)"))
        }
    }

    // MARK: folders

    /// Lists one folder: its sub-folders are queued, its songs become ready (in name order).
    private func list(_ folder: (path: String, relative: String)) {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
            ready.append(.bad(id: folder.relative.isEmpty ? folder.path : folder.relative,
                              error: "\(folder.path): cannot read the folder: \(error.localizedDescription)"))
            return
        }
        var visible = names.filter { !$0.hasPrefix(".") }.sorted()
        var songs: [CatalogEntry] = []
        if let within {
            let real = Self.realPath(folder.path) ?? folder.path
            var refused: Set<String> = []
            for name in visible {
                guard let reason = Self.refusal(folder.path + "/" + name, in: real, within: within) else { continue }
                refused.insert(name)
                let relative = folder.relative.isEmpty ? name : folder.relative + "/" + name
                songs.append(.bad(id: relative, error: "\(folder.path)/\(name): \(reason)"))
            }
            if !refused.isEmpty { visible.removeAll { refused.contains($0) } }
        }
        var subfolders: [(String, String)] = []
        var byStem: [String: [String]] = [:]
        for name in visible {
            let path = folder.path + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                let real = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
                if !skip.contains(real) { subfolders.append((path, folder.relative.isEmpty ? name : folder.relative + "/" + name)) }
                continue
            }
            byStem[((name as NSString).deletingPathExtension).lowercased(), default: []].append(name)
        }
        let folderCover = visible.first { name in
            SongResolver.folderCoverNames.contains((name as NSString).deletingPathExtension.lowercased())
                && Self.imageExtensions.contains((name as NSString).pathExtension.lowercased())
        }
        for name in visible where MediaTags.isAudioFile(name) {
            songs.append(.song(song(folder, name, source: .audio(folder.path + "/" + name, cover: nil, lyrics: nil))))
        }
        // Lyrics with no audio file of the same stem: paired with the image of the same stem,
        // else with the folder's cover image.
        for name in visible where Self.lyricsExtensions.contains((name as NSString).pathExtension.lowercased()) {
            let stem = (name as NSString).deletingPathExtension.lowercased()
            let siblings = byStem[stem] ?? []
            if siblings.contains(where: MediaTags.isAudioFile) { continue }
            let image = siblings.first { Self.imageExtensions.contains(($0 as NSString).pathExtension.lowercased()) } ?? folderCover
            guard let image else {
                let song = self.song(folder, name, source: .files(cover: "", lyrics: ""))
                songs.append(.bad(id: song.id, error: "\(folder.path)/\(name): no cover image beside it (same name, or cover.jpg/folder.jpg)"))
                continue
            }
            songs.append(.song(song(folder, name, source: .files(cover: folder.path + "/" + image, lyrics: folder.path + "/" + name))))
        }
        ready = songs.reversed()
        folders += subfolders.reversed().map { (path: $0.0, relative: $0.1) }
    }

    /// Why a walk confined to `roots` does not follow `path`, found in the folder whose real path is
    /// `folder`: nil when it is no symbolic link, or one that stays inside and makes no loop.
    private static func refusal(_ path: String, in folder: String, within roots: [String]) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return nil }
        guard let real = realPath(path) else {
            // An unmounted disk or a moved folder: told, rather than passed over in silence.
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            return "a symbolic link to \(target), which leads nowhere"
        }
        if !roots.contains(where: { contains($0, real) }) { return "a symbolic link to \(real), outside every library folder" }
        // A link to this folder or one it is in would walk it again, and again.
        if contains(real, folder) { return "a symbolic link to \(real), a folder it is in (walked once)" }
        return nil
    }

    /// The path with every symbolic link resolved, or nil when it does not lead to anything.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// True when the resolved `path` is the resolved `root` or under it.
    private static func contains(_ root: String, _ path: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    private func song(_ folder: (path: String, relative: String), _ name: String, source: SongSource) -> CatalogSong {
        let relative = folder.relative.isEmpty ? name : folder.relative + "/" + name
        return CatalogSong(id: Self.id(forRelativePath: relative), source: source, file: relative)
    }

    /// A stable folder name for a song found by walking: its file's name made safe (stem and
    /// extension, so `Song.flac` and `Song.mp3` read apart), and 8 hex digits of the SHA-256 of its
    /// path relative to the source folder (two songs never share one).
    package static func id(forRelativePath relative: String) -> String {
        let name = (relative as NSString).lastPathComponent
        func cleaned(_ text: String) -> String {
            String(text.unicodeScalars.map { scalar -> Character in
                if scalar == "/" || scalar.properties.generalCategory == .control || scalar == "\\" { return "_" }
                return Character(scalar)
            })
        }
        var safe = cleaned((name as NSString).deletingPathExtension)
        while safe.hasPrefix(".") { safe.removeFirst() }
        while safe.utf8.count > 120 { safe.removeLast() }
        if safe.isEmpty { safe = "song" }
        let ext = cleaned((name as NSString).pathExtension)
        if !ext.isEmpty, ext.utf8.count <= 8 { safe += "." + ext }
        return safe + "-" + String(Digest.sha256(Data(relative.utf8)).prefix(8))
    }

    /// Why `id` cannot be a folder name, or nil when it can.
    package static func problem(withID id: String) -> String? {
        if id.isEmpty { return "the id is empty" }
        if id.utf8.count > maxIDBytes { return "the id is longer than \(maxIDBytes) bytes" }
        if id.hasPrefix(".") { return "the id starts with '.'" }
        if id.unicodeScalars.contains(where: { $0 == "/" || $0 == "\\" || $0.properties.generalCategory == .control }) {
            return "the id contains '/', '\\' or a control character"
        }
        return nil
    }

    // MARK: manifests

    private func nextManifestEntry() -> CatalogEntry? {
        guard var current = manifest else { return nil }
        defer { manifest = current.reader.isDone ? nil : current }
        while true {
            let line: LineReader.Line
            do {
                guard let read = try current.reader.next() else {
                    current.reader.close()
                    return nil
                }
                line = read
            } catch {
                current.reader.close()
                return .bad(id: current.path, error: "\(current.path): \(error.reason)")
            }
            current.line += 1
            let number = current.line
            switch line {
            case .tooLong:
                return .bad(id: "line-\(number)", error: "\(current.path):\(number): longer than \(Self.maxLineBytes) bytes")
            case .text(let text):
                if text.allSatisfy(\.isWhitespace) { continue }
                return entry(text, number: number, folder: current.folder, path: current.path)
            }
        }
    }

    private func entry(_ text: String, number: Int, folder: String, path: String) -> CatalogEntry {
        let place = "\(path):\(number)"
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            return .bad(id: "line-\(number)", error: "\(place): not a JSON object")
        }
        func string(_ key: String) -> (value: String?, wrong: Bool) {
            guard let value = object[key], !(value is NSNull) else { return (nil, false) }
            guard let text = value as? String else { return (nil, true) }
            return (text, false)
        }
        for key in ["id", "audio", "cover", "lyrics", "title", "artist", "album", "at"] where string(key).wrong {
            return .bad(id: (object["id"] as? String) ?? "line-\(number)", error: "\(place): \"\(key)\" must be a string")
        }
        guard let id = string("id").value else { return .bad(id: "line-\(number)", error: "\(place): no \"id\"") }
        if let problem = Self.problem(withID: id) { return .bad(id: "line-\(number)", error: "\(place): \(problem)") }
        func resolved(_ key: String) -> String? {
            guard let value = string(key).value, !value.isEmpty else { return nil }
            // A manifest named without a folder (`catalog list.jsonl`) is in the current one.
            return value.hasPrefix("/") || folder.isEmpty ? value : folder + "/" + value
        }
        let audio = resolved("audio"), cover = resolved("cover"), lyrics = resolved("lyrics")
        let source: SongSource
        if let audio {
            source = .audio(audio, cover: cover, lyrics: lyrics)
        } else if let cover, let lyrics {
            source = .files(cover: cover, lyrics: lyrics)
        } else {
            return .bad(id: id, error: "\(place): give \"audio\", or \"cover\" and \"lyrics\"")
        }
        var at: Timestamp?
        if let text = string("at").value {
            guard let parsed = Timestamp.parse(text) else { return .bad(id: id, error: "\(place): \"at\" is not a time: \(text)") }
            at = parsed
        }
        return .song(CatalogSong(id: id, source: source, title: string("title").value, artist: string("artist").value,
                                 album: string("album").value, at: at))
    }
}

/// Reads a file line by line in 1 MiB blocks, with a cap on a line's length.
final class LineReader {
    enum Line {
        case text(String)
        case tooLong
    }

    private let handle: FileHandle
    private let maxLineBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private(set) var isDone = false

    init(path: String, maxLineBytes: Int) throws(PosterError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw PosterError(path: path, reason: Inputs.exists(path) ? "cannot read the manifest" : "no such file")
        }
        self.handle = handle
        self.maxLineBytes = maxLineBytes
    }

    func close() {
        isDone = true
        try? handle.close()
    }

    /// The next line without its newline; nil at the end.
    func next() throws(PosterError) -> Line? {
        var skipping = false
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let bytes = buffer[start..<newline]
                start = newline + 1
                if skipping || bytes.count > maxLineBytes { return .tooLong }
                return .text(String(decoding: bytes.last == 0x0D ? bytes.dropLast() : bytes, as: UTF8.self))
            }
            if buffer.count - start > maxLineBytes {
                // Drop what is read of an overlong line and look for its end.
                skipping = true
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let bytes = buffer[start...]
                start = buffer.count
                return skipping || bytes.count > maxLineBytes ? .tooLong : .text(String(decoding: bytes, as: UTF8.self))
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw PosterError(path: "manifest", reason: "cannot read: \(error.localizedDescription)")
            }
            if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
        }
    }
}
