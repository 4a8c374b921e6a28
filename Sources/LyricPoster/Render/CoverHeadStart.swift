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
public enum CoverHeadStart {
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
    public static func begin(candidates: [String]) {
        guard !candidates.isEmpty else { return }
        let options = RenderOptions()
        let started = Started(limits: options.limits, minimumSize: PosterSession.coverSize(options))
        let fresh = slot.withLock { current -> Bool in
            guard current == nil else { return false }
            current = started
            return true
        }
        guard fresh else { return }
        _ = Preparation<Void, Never> { () -> Void in
            guard let bytes = candidates.lazy.compactMap(picture(at:)).first else {
                started.read.set(Box(value: nil))
                started.picture.set(Box(value: nil))
                return
            }
            // A backdrop cached for these options makes the decode needless (the session loads
            // it instead): the decode would only take a core from the warm path, and the bytes
            // are let go. The slot's name is looked for only in a cache that has entries (its
            // digest's first use sets up OpenSSL, 2 ms before the decode could start).
            if options.backdropCache, let folder = BackdropCache.folder, hasEntries(folder),
               access(folder + "/" + bytes.withData { BackdropCache.key(cover: $0, options: options) }, F_OK) == 0 {
                started.read.set(Box(value: nil))
                started.picture.set(Box(value: nil))
                return
            }
            started.read.set(Box(value: bytes))
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

    /// The bytes of `path` if it is a regular file no larger than ``byteLimit`` that starts as a
    /// PNG, JPEG or WebP does; nil for anything else, and for anything that cannot be read.
    static func picture(at path: String) -> Bytes? {
        // Plain system calls, while the parser keeps the runtime busy. The bytes are copied, not
        // mapped: a file cut short while mapped would kill the process (SIGBUS) when read.
        // Only regular files are opened (a named pipe's writer must not be met, nor a device
        // read), and without blocking should one be swapped in meanwhile.
        var before = stat()
        guard path != "-", stat(path, &before) == 0, before.st_mode & S_IFMT == S_IFREG else { return nil }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 16, Int(info.st_size) <= byteLimit,
              let bytes = Bytes(count: Int(info.st_size)) else { return nil }
        var done = 0
        while done < bytes.count {
            let n = read(fd, bytes.pointer + done, bytes.count - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        guard bytes.withData({ ImageDecoder.sniff($0.prefix(16)) }) != nil else { return nil }
        return bytes
    }

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
