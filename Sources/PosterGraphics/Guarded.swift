import Foundation

/// A value behind a lock that ThreadSanitizer understands (a pthread mutex, through NSLock), for
/// state that threads share in the server and the follow loop. `Synchronization.Mutex` waits on
/// a futex on Linux, which TSan cannot see, so it reports whatever such a mutex guards as a race.
package final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
