import Foundation

/// A plain search for ASCII bytes in text's UTF-8, for the format sniffer's quick checks.
///
/// The standard library's `contains(_:)` and `firstRange(of:)` on strings and their views are
/// generic (`_StringProcessing`) and, in a process that has not used them yet, cost milliseconds
/// on a few kilobytes: about a third of reading a 60-line LRC in a cold `inspect` or `frame`.
enum ByteSearch {
    /// Whether `needle` (ASCII) occurs in the first `limit` bytes of `text`'s UTF-8.
    static func contains(_ text: some StringProtocol, _ needle: StaticString, inFirst limit: Int = .max) -> Bool {
        precondition(needle.isASCII, "ByteSearch looks for ASCII")
        let found = text.utf8.withContiguousStorageIfAvailable { find(needle, in: UnsafeBufferPointer(rebasing: $0.prefix(limit))) }
        return found ?? Array(text.utf8.prefix(limit)).withUnsafeBufferPointer { find(needle, in: $0) }
    }

    private static func find(_ needle: StaticString, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        let m = needle.utf8CodeUnitCount
        guard m > 0 else { return true }
        guard let base = haystack.baseAddress, haystack.count >= m else { return false }
        // Each place the first byte occurs (memchr), then the rest compared (memcmp).
        let last = haystack.count - m
        var from = 0
        while from <= last, let hit = memchr(base + from, Int32(needle.utf8Start.pointee), last - from + 1) {
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + at, needle.utf8Start, m) == 0 { return true }
            from = at + 1
        }
        return false
    }
}
