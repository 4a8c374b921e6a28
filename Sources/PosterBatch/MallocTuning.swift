import CMallocTuning
import Foundation

/// glibc's malloc settings for the commands that meet many songs in one process. Process-global:
/// the command-line tool calls this for itself, before its threads start; the library never does.
package enum MallocTuning {
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
