import Foundation

/// Fork and join: two pieces of work at once, both done when the call returns.
package enum Fork {
    /// Runs `first` and `second` at once on this thread and one of Dispatch's, and returns both
    /// results once both are done. When no other thread is free they run one after the other,
    /// so neither may wait for the other.
    ///
    /// The caller cannot touch what the closures capture while they run (it is blocked here until
    /// both are done), but the two run at the same time: they must not share anything that is
    /// not thread-safe. What they make is handed back under a lock, after the work that made it.
    package static func both<A, B>(_ first: () -> A, _ second: () -> B) -> (A, B) {
        let a = Guarded<A?>(nil), b = Guarded<B?>(nil)
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                // Each closure runs exactly once, on one thread, before concurrentPerform returns.
                nonisolated(unsafe) let first = first, second = second
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    if i == 0 {
                        let made = first()
                        a.withLock { $0 = made }
                    } else {
                        let made = second()
                        b.withLock { $0 = made }
                    }
                }
            }
        }
        return (a.withLock { $0.take()! }, b.withLock { $0.take()! })
    }
}
