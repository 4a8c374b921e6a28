import Foundation
import LyricPoster

/// An exclusive claim on a piece of a shared output folder, held by one process at a time: a file
/// locked with `flock`. The kernel drops the lock when its process ends however it ends (SIGKILL,
/// a crash, `scancel`), so a claim is never stale: a file whose lock nobody holds is free to take.
/// The file holds who took it (`pid N on HOST`) for the messages of those who find it held.
///
/// The same lock serves the catalogue's songs (`<root>/.<id>.claim`: two processes never render one
/// song into the same `.partial` folder) and its running reports (a temporary report locked by a
/// live run is never mistaken for a killed run's leftovers). On NFS, Linux maps `flock` to the
/// server's byte-range locks, so the claim holds across the nodes of a cluster too.
final class FileClaim {
    let path: String
    private var fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    enum Outcome {
        case held(FileClaim)
        /// Another live process holds it: who, as written in the file.
        case busy(String)
        case failed(String)
    }

    /// This process, as written into a claim.
    static let holder: String = {
        var name = [CChar](repeating: 0, count: 256)
        let host = gethostname(&name, name.count) == 0 ? String(cString: name) : "this host"
        return "pid \(getpid()) on \(host)"
    }()

    /// Takes the claim at `path`, waiting while another process holds it (checking `stop`, and
    /// for at most `patience` seconds): nil when stopped.
    static func wait(_ path: String, stop: StopFlag, patience: Double = 600) -> Outcome? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(patience * 1e9)
        while true {
            let outcome = take(path)
            guard case .busy = outcome, DispatchTime.now().uptimeNanoseconds < deadline else { return outcome }
            if stop.isRequested { return nil }
            usleep(50_000)
        }
    }

    /// Takes the claim at `path` (creating the file), or says who holds it.
    static func take(_ path: String) -> Outcome {
        // A holder that releases unlinks the file: one who opened it before then and locks after
        // holds a lock on a file no longer there, and opens again.
        for _ in 0..<16 {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return .failed("\(path): cannot create: \(OutputFile.errnoReason(errno))") }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let failure = errno
                let who = contents(fd)
                close(fd)
                if failure == EWOULDBLOCK { return .busy(who.isEmpty ? "another process" : who) }
                return .failed("\(path): cannot lock: \(OutputFile.errnoReason(failure))")
            }
            let claim = FileClaim(path: path, fd: fd)
            if claim.isLinked {
                _ = ftruncate(fd, 0)
                _ = Array((holder + "\n").utf8).withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
                return .held(claim)
            }
            claim.unlock()
        }
        return .busy("another process")
    }

    /// True when a live process holds the lock on `path` (a file that is not there is not held).
    static func isHeld(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 { return false }
        return errno == EWOULDBLOCK
    }

    /// Locks an existing file without waiting (a report this run just made, or a killed run's
    /// left-over one to remove under the lock); nil when another process holds it.
    static func hold(_ path: String) -> FileClaim? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return FileClaim(path: path, fd: fd)
    }

    /// True while the locked file is still the one at `path` (nobody removed or replaced it).
    var isLinked: Bool {
        var opened = stat(), named = stat()
        return fd >= 0 && fstat(fd, &opened) == 0 && stat(path, &named) == 0 && opened.st_ino == named.st_ino && opened.st_dev == named.st_dev
    }

    /// Removes the file, then lets go of the lock.
    func release() {
        guard fd >= 0 else { return }
        unlink(path)
        close(fd)
        fd = -1
    }

    /// Lets go of the lock and leaves the file (it has been renamed into place).
    func unlock() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    deinit { unlock() }

    private static func contents(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return "" }
        return String(decoding: buffer[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
