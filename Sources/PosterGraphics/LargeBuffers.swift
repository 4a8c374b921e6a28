import CPNGShim
import Foundation
import Glibc

/// Large pixel buffers (covers, canvases, snapshots: megabytes each) are first touched as whole
/// 2 MB pages where the system allows it (transparent huge pages on request, `madvise`): a cold
/// poster otherwise spends a good part of its time in page faults, one per 4 KB of every new
/// buffer (about 15 000 for a first frame), and in tearing those pages down at exit.
/// The pixels are the same either way; a system without huge pages ignores the request.
package enum LargeBuffers {
    static let hugePage = 2 << 20

    /// Asks for huge pages over the whole 2 MB pages inside `count` bytes at `start`, before they
    /// are first written.
    static func adviseHugePages(_ start: UnsafeMutableRawPointer?, count: Int) {
        guard let start, count >= 2 * hugePage else { return }
        let address = UInt(bitPattern: start)
        let first = (address + UInt(hugePage) - 1) & ~UInt(hugePage - 1)
        let end = (address + UInt(count)) & ~UInt(hugePage - 1)
        guard end > first, let pointer = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(pointer, Int(end - first), MADV_HUGEPAGE)
    }

    /// `count` bytes made by `fill`, which must write every one of them.
    static func bytes(_ count: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            adviseHugePages(buffer.baseAddress, count: count)
            fill(buffer.baseAddress!)
            initialized = count
        }
    }

    /// Keeps freed pixel buffers in the heap for the next ones, in a process that meets many songs
    /// one after another (`catalog`, `serve`, `follow`): called once, before its threads start.
    /// glibc's defaults give a large block back to the system when it is freed (the threshold adapts
    /// to the blocks freed, up to 32 MB), trim a heap's free top past twice that, and let threads
    /// spread over up to eight arenas per core, each keeping its own leftovers: a catalogue song then
    /// meets much of its cover, halvings and canvases as fresh pages the kernel must clear. Here
    /// blocks up to 32 MB always come from a heap, up to 128 MB may lie free at its top, and there is
    /// one arena per core and one more: about 6 % less CPU per catalogue song, and a lower peak. A
    /// one-song command keeps the defaults (`lines` was no quicker with these). The pixels are the
    /// same either way. A user's own malloc settings in the environment are left as they are.
    ///
    /// Returns whether it asked glibc (false when the environment has settings of its own).
    @discardableResult
    package static func keepFreedBuffers(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        let own = ["MALLOC_ARENA_MAX", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "GLIBC_TUNABLES"]
        guard !own.contains(where: { environment[$0] != nil }) else { return false }
        _ = lp_malloc_keep_freed(32 << 20, 128 << 20, Int32(min(ProcessInfo.processInfo.activeProcessorCount + 1, 1024)))
        return true
    }
}
