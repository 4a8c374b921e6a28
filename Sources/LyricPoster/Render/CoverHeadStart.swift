import Foundation
import PosterGraphics

/// The cover of a one-song command, read and decoded on a thread of its own from the moment the
/// program starts, while the command line is still being parsed (several milliseconds of
/// reflection in the argument parser) and before the options are known.
///
/// It is a guess, and nothing depends on it being right: the decode is made for the default
/// options (`RenderOptions()`), and the session that decodes the cover takes it (``take(_:limits:minimumSize:)``)
/// only when its cover bytes, decoding limits and decoded size are exactly those; otherwise the
/// guess is dropped and the cover decoded as always. Decoding is deterministic, so a frame is the
/// same bytes either way. Where the backdrop cache already holds these options' backdrop of the
/// cover, nothing is decoded: the session loads the backdrop instead.
package enum CoverHeadStart {
    /// Files larger than this are not read ahead (a cover of that size is rare; the guess would
    /// hold its bytes twice).
    static let byteLimit = 64 * 1024 * 1024

    final class Started: Sendable {
        let limits: DecodeLimits
        let width: Int, height: Int
        /// The bytes of the first candidate that is a picture (nil: none was, or its backdrop is
        /// cached).
        let read = Handoff<Box<Bytes?>>()
        /// Their decode (nil: it failed, or was not made; the session decodes for itself).
        let picture = Handoff<Box<Decoded?>>()

        init(limits: DecodeLimits, minimumSize: (width: Int, height: Int)) {
            self.limits = limits
            width = minimumSize.width
            height = minimumSize.height
        }
    }

    /// A value, set once, that may itself be nil.
    struct Box<Value: Sendable>: Sendable { let value: Value }

    /// Bytes read ahead, in memory of their own, freed with the object. The guess holds them as
    /// a plain reference rather than inside a `Data`: a guess no session asks for (a cached
    /// backdrop, a lyrics error) stays in the slot until the process ends, and LeakSanitizer does
    /// not follow a reference packed into `Data`'s representation, so it would call that a leak.
    final class Bytes: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
        let count: Int

        init?(count: Int) {
            guard let pointer = malloc(max(1, count)) else { return nil }
            self.pointer = pointer
            self.count = count
        }

        deinit { free(pointer) }

        /// The bytes as `Data` for the length of `body` (no copy; the object must outlive it).
        func withData<Result>(_ body: (Data) throws -> Result) rethrows -> Result {
            try withExtendedLifetime(self) { try body(Data(bytesNoCopy: pointer, count: count, deallocator: .none)) }
        }
    }

    /// A guess's decode and the seconds it took.
    final class Decoded: Sendable {
        let bitmap: Bitmap
        let seconds: Double

        init(bitmap: Bitmap, seconds: Double) {
            self.bitmap = bitmap
            self.seconds = seconds
        }
    }

    private static let slot = Guarded<Started?>(nil)

    /// Starts reading the first of `candidates` that is a regular file with a picture's
    /// signature, and decoding it as the default options would. At most once per process; a
    /// later call does nothing.
    package static func begin(candidates: [String]) {
        guard !candidates.isEmpty else { return }
        let options = { var options = RenderOptions(); options.backdropCache = true; return options }()  // as the command's
        let started = Started(limits: options.limits, minimumSize: PosterSession.coverSize(options))
        let fresh = slot.withLock { current -> Bool in
            guard current == nil else { return false }
            current = started
            return true
        }
        guard fresh else { return }
        _ = Preparation<Void, Never> { () -> Void in
            // A backdrop cached for these options makes the decode needless (the session loads
            // it instead): the decode would only take a core from the warm path. The slot is
            // found from the cover's size and first bytes, so the rest of a cached cover is not
            // read (the session reads it once, for its digest). The slot's name is looked for
            // only in a cache that has entries (its digest's first use sets up OpenSSL, 2 ms
            // before the decode could start).
            let folder = options.backdropCache ? BackdropCache.folder.flatMap { hasEntries($0) ? $0 : nil } : nil
            var found: Bytes?
            search: for candidate in candidates {
                switch picture(at: candidate, isCached: folder.map { folder in { count, head in
                    access(folder + "/" + BackdropCache.key(coverCount: count, head: head, options: options), F_OK) == 0
                } }) {
                case .none: continue search
                case .cached: break search
                case .bytes(let bytes):
                    found = bytes
                    break search
                }
            }
            started.read.set(Box(value: found))
            guard let bytes = found else {
                started.picture.set(Box(value: nil))
                return
            }
            let start = DispatchTime.now().uptimeNanoseconds
            let bitmap = bytes.withData { try? ImageDecoder.decode($0, limits: started.limits, minimumSize: (started.width, started.height)) }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            started.picture.set(Box(value: bitmap.map { Decoded(bitmap: $0, seconds: seconds) }))
        }
    }

    /// Whether `folder` exists and holds any file not hidden (an entry, not a temporary one).
    static func hasEntries(_ folder: String) -> Bool {
        guard let dir = opendir(folder) else { return false }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let hidden = withUnsafeBytes(of: entry.pointee.d_name) { $0.first == UInt8(ascii: ".") }
            if !hidden { return true }
        }
        return false
    }

    /// What reading a candidate found.
    enum Read {
        /// Not a picture, or not readable: the next candidate is tried.
        case none
        /// A picture whose backdrop is cached: only its head was read.
        case cached
        /// A picture, read whole.
        case bytes(Bytes)
    }

    /// The bytes of `path` if it is a regular file no larger than ``byteLimit`` that starts as a
    /// PNG, JPEG or WebP does; `.none` for anything else, and for anything that cannot be read.
    /// `isCached` is asked with the file's size and first ``BackdropCache/quickPrefix`` bytes
    /// (all of them if it is shorter) once they are read: when it says so, the rest is not read.
    static func picture(at path: String, isCached: ((Int, Data) -> Bool)? = nil) -> Read {
        // Plain system calls, while the parser keeps the runtime busy. The bytes are copied, not
        // mapped: a file cut short while mapped would kill the process (SIGBUS) when read.
        // Only regular files are opened (a named pipe's writer must not be met, nor a device
        // read), and without blocking should one be swapped in meanwhile.
        var before = stat()
        guard path != "-", stat(path, &before) == 0, before.st_mode & S_IFMT == S_IFREG else { return .none }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .none }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 16, Int(info.st_size) <= byteLimit,
              let bytes = Bytes(count: Int(info.st_size)) else { return .none }
        var done = 0
        func fill(to end: Int) -> Bool {
            while done < end {
                let n = read(fd, bytes.pointer + done, end - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
        let head = min(bytes.count, BackdropCache.quickPrefix)
        guard fill(to: head), bytes.withData({ ImageDecoder.sniff($0.prefix(16)) }) != nil else { return .none }
        bytesRead.withLock { $0 = done }
        if let isCached, bytes.withData({ isCached(bytes.count, $0.prefix(head)) }) { return .cached }
        guard fill(to: bytes.count) else { return .none }
        bytesRead.withLock { $0 = done }
        return .bytes(bytes)
    }

    /// How many bytes the last candidate found to be a picture had read (for tests).
    static let bytesRead = Guarded<Int>(0)

    /// The picture decoded ahead, if it was decoded from `data` under `limits` for `minimumSize`
    /// (waiting for it if it is still being decoded), and the seconds its decode took; nil
    /// otherwise. The guess is given up either way: only the first session asks.
    static func take(_ data: Data, limits: DecodeLimits, minimumSize: (width: Int, height: Int)) -> (Bitmap, seconds: Double)? {
        guard let started = slot.withLock({ current -> Started? in
            defer { current = nil }
            return current
        }) else { return nil }
        guard started.limits == limits, started.width == minimumSize.width, started.height == minimumSize.height,
              let read = started.read.value().value, read.withData({ $0 == data }),
              let decoded = started.picture.value().value else { return nil }
        return (decoded.bitmap, decoded.seconds)
    }

    /// Whether a guess is waiting to be taken (for tests).
    static var isPending: Bool { slot.withLock { $0 != nil } }
}
