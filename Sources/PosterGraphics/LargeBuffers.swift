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
}
