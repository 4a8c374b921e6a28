import Foundation

/// Writing results so that a reader never sees half a file and inputs are never overwritten.
public enum OutputFile {
    /// Writes `bytes` to a temporary file in the target's folder, then renames it over `path`.
    /// On any failure the temporary file is removed and the target is left as it was.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(PosterError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PosterError(path: path, reason: "folder \(folder) does not exist")
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw PosterError(path: path, reason: "is a folder, not a file")
        }
        let temporary = folder + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PosterError(path: path, reason: "cannot write: " + errnoReason(errno)) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let n = write(fd, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += n
            }
        }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw PosterError(path: path, reason: "cannot write: " + errnoReason(failure))
        }
    }

    /// Writes text (UTF-8) atomically.
    public static func writeAtomically(_ text: String, to path: String) throws(PosterError) {
        try writeAtomically(Array(text.utf8), to: path)
    }

    /// True when `a` and `b` name the same file (same inode if both exist, else the same path).
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        if stat(a, &sa) == 0, stat(b, &sb) == 0 { return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino }
        let ua = URL(fileURLWithPath: a).standardizedFileURL.resolvingSymlinksInPath()
        let ub = URL(fileURLWithPath: b).standardizedFileURL.resolvingSymlinksInPath()
        return ua.path == ub.path
    }

    static func errnoReason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "folder does not exist"
        case EACCES, EPERM: return "permission denied"
        case EROFS: return "read-only file system"
        case ENOSPC: return "no space left on device"
        case EDQUOT: return "disk quota exceeded"
        case EISDIR: return "is a folder"
        default: return String(cString: strerror(code))
        }
    }
}
