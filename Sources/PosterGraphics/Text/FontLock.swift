import Foundation

/// One lock for everything that can reach Cairo's FreeType font backend, taken by every thread.
///
/// Each thread shapes and draws with its own `TextEngine`, but Cairo (1.16) shares its FreeType
/// faces, and the one `FT_Library` they come from, between all of them. It keeps at most ten
/// faces open: a thread that needs another closes one no thread seems to hold and opens its own,
/// and neither step is safe against another thread doing the same, or using the face it closes
/// (a check of the face's lock count outside that face's lock; `FT_New_Face` outside any lock).
/// Text in more than ten font files (a song in many scripts, with the CJK and emoji fonts) then
/// failed on two threads about one run in fifteen, as "error occurred in libfreetype" or a crash.
///
/// Every Pango call, every Cairo call that draws or measures text, and the creation and release
/// of the objects holding fonts (font maps, layouts, canvases) run under this lock. It is
/// recursive, so that a locked call may make another.
enum FontLock {
    private static let lock = NSRecursiveLock()

    static func held<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
