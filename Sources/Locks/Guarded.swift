import Foundation

/// A value behind a lock: the project's one lock type, for state that threads share. It is a
/// pthread mutex (through NSLock), which ThreadSanitizer understands; `Synchronization.Mutex`
/// waits on a futex on Linux, which TSan cannot see, so it would report whatever such a mutex
/// guards as a race.
///
/// `@unchecked Sendable` because it is safe to send whatever the value: every access to the value
/// is inside `withLock`, under the lock. A value of a type that is not thread-safe may be moved
/// out and in (a pool of renderers) as long as one thread at a time holds it; say so where it is
/// done.
package final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
