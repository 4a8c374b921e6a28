import Foundation

/// A value behind a lock that ThreadSanitizer understands (a pthread mutex, through NSLock): the
/// project's one lock type, for state that threads share. `Synchronization.Mutex` waits on a
/// futex on Linux, which TSan cannot see, so it reports whatever such a mutex guards as a race.
///
/// Safe to send whatever the value: every access to it is inside `withLock`, under the lock. A
/// value of a type that is not thread-safe may be moved out and in (a pool of renderers) as long
/// as one thread at a time holds it; say so where it is done.
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
