import Foundation

/// Writing results so that a reader never sees half a file and inputs are never overwritten.
package enum OutputFile {
    /// Writes `bytes` to a temporary file in the target's folder, then renames it over `path`.
    /// On any failure the temporary file is removed and the target is left as it was.
    package static func writeAtomically(_ bytes: [UInt8], to path: String) throws(PosterError) {
        try writeAtomically([(bytes, path)])
    }

    /// Writes `pieces`, one after the other, atomically: as one file, without joining them first.
    package static func writeAtomically(pieces: [ArraySlice<UInt8>], to path: String) throws(PosterError) {
        try writeAtomically(pieceFiles: [(pieces, path)])
    }

    /// Writes text (UTF-8) atomically.
    package static func writeAtomically(_ text: String, to path: String) throws(PosterError) {
        try writeAtomically(Array(text.utf8), to: path)
    }

    /// Writes several files as one step: every file goes to a temporary file first, and only when
    /// all of them are written are they renamed into place. If anything fails, no temporary file is
    /// left and no target that did not exist before is created.
    package static func writeAtomically(_ files: [([UInt8], String)]) throws(PosterError) {
        try writeAtomically(pieceFiles: files.map { ([$0.0[...]], $0.1) })
    }

    private static func writeAtomically(pieceFiles files: [([ArraySlice<UInt8>], String)]) throws(PosterError) {
        var staged: [(temporary: String, target: String, existed: Bool)] = []
        do {
            for (bytes, path) in files {
                let target = try resolveTarget(path)
                let existed = FileManager.default.fileExists(atPath: target)
                staged.append((try writeTemporary(bytes, besides: target, reportAs: path), target, existed))
            }
        } catch {
            for s in staged { unlink(s.temporary) }
            throw error
        }
        for (i, s) in staged.enumerated() where rename(s.temporary, s.target) != 0 {
            let reason = errnoReason(errno)
            for later in staged[i...] { unlink(later.temporary) }
            for earlier in staged[..<i] where !earlier.existed { unlink(earlier.target) }
            throw PosterError(path: files[i].1, reason: "cannot write: " + reason)
        }
    }

    /// A file written beside its target and not yet in place: ``commit()`` renames it over the
    /// target (atomic), ``discard()`` removes it.
    package struct StagedFile: Sendable {
        package let temporary: String
        package let target: String

        package func commit() throws(PosterError) {
            guard rename(temporary, target) == 0 else {
                let reason = OutputFile.errnoReason(errno)
                unlink(temporary)
                throw PosterError(path: target, reason: "cannot write: " + reason)
            }
        }

        package func discard() { unlink(temporary) }
    }

    /// Writes `bytes` next to `path`, to be renamed into place later.
    package static func stage(_ bytes: [UInt8], for path: String) throws(PosterError) -> StagedFile {
        let target = try resolveTarget(path)
        return StagedFile(temporary: try writeTemporary([bytes[...]], besides: target, reportAs: path), target: target)
    }

    /// An empty temporary file beside `path`'s target, for a writer that fills it (ffmpeg);
    /// ``StagedFile/commit()`` then renames it into place, ``StagedFile/discard()`` removes it.
    package static func reserve(_ path: String) throws(PosterError) -> StagedFile {
        let target = try resolveTarget(path)
        let (fd, temporary) = try openTemporary(besides: target, reportAs: path)
        close(fd)
        return StagedFile(temporary: temporary, target: target)
    }

    /// The file a write to `path` really replaces: a symlink's target (so the link survives);
    /// refuses folders, devices, pipes and sockets, which a rename would clobber.
    static func resolveTarget(_ path: String) throws(PosterError) -> String {
        guard !path.isEmpty else { throw PosterError(path: path, reason: "empty output path") }
        var target = path
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        }
        if stat(target, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw PosterError(path: path, reason: "is a folder, not a file")
            default: throw PosterError(path: path, reason: "is not a regular file (a device, pipe or socket)")
            }
        }
        let folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PosterError(path: path, reason: "folder \(folder) does not exist")
        }
        return target
    }

    /// Writes `bytes` to a new temporary file next to `target` and returns its path.
    private static func writeTemporary(_ pieces: [ArraySlice<UInt8>], besides target: String, reportAs path: String) throws(PosterError) -> String {
        let (fd, temporary) = try openTemporary(besides: target, reportAs: path)
        var failure: Int32 = 0
        for piece in pieces where failure == 0 {
            failure = piece.withUnsafeBytes { writeAll($0, to: fd) }
        }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw PosterError(path: path, reason: "cannot write: " + errnoReason(failure))
        }
        return temporary
    }

    /// Writes all of `bytes` to `fd` (retrying short and interrupted writes); 0, or the errno of
    /// the write that failed.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return 0
    }

    /// Creates `.<name>.tmp-<pid>-<random>` beside `target`, open for writing.
    private static func openTemporary(besides target: String, reportAs path: String) throws(PosterError) -> (Int32, String) {
        let url = URL(fileURLWithPath: target)
        let temporary = url.deletingLastPathComponent().path + "/." + url.lastPathComponent
            + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PosterError(path: path, reason: "cannot write: " + errnoReason(errno)) }
        return (fd, temporary)
    }

    /// Makes the output folder `path` when it is not there: the last level only, as `mkdir` does,
    /// so a mistyped `-o` does not leave a tree of folders behind. A folder already there is kept.
    package static func makeFolder(_ path: String) throws(PosterError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw PosterError(path: path, reason: "is a file, not a folder") }
            return
        }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PosterError(path: path, reason: "folder \(parent) does not exist (only the last folder of an output path is made)")
        }
        if mkdir(path, 0o755) != 0, errno != EEXIST {
            throw PosterError(path: path, reason: "cannot create the folder: \(errnoReason(errno))")
        }
    }

    /// True when `a` and `b` name the same file (same inode if both exist, else the same path).
    package static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        if stat(a, &sa) == 0, stat(b, &sb) == 0 { return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino }
        let ua = URL(fileURLWithPath: a).standardizedFileURL.resolvingSymlinksInPath()
        let ub = URL(fileURLWithPath: b).standardizedFileURL.resolvingSymlinksInPath()
        return ua.path == ub.path
    }

    package static func errnoReason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "folder does not exist"
        case EACCES, EPERM: return "permission denied"
        case EROFS: return "read-only file system"
        case ENOSPC: return "no space left on device"
        case EDQUOT: return "disk quota exceeded"
        case EISDIR: return "is a folder"
        case ENOTDIR: return "a part of the path is not a folder"
        default: return String(cString: strerror(code))
        }
    }
}
