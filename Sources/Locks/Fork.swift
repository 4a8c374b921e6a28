import Foundation

/// Fork and join: two pieces of work at once, both done when the call returns.
package enum Fork {
    /// Runs `second` on one of Dispatch's threads and `first` on this one at the same time, and
    /// returns both results once both are done. Forks may nest (a fork inside either closure
    /// gets a thread of its own too, where `DispatchQueue.concurrentPerform` would run a nested
    /// call's work one after the other); Dispatch bounds its threads.
    ///
    /// The caller cannot touch what the closures capture while they run (it is blocked here until
    /// both are done), but the two run at the same time: they must not share anything that is
    /// not thread-safe. What they make is handed back under a lock, after the work that made it.
    package static func both<A, B>(_ first: () -> A, _ second: () -> B) -> (A, B) {
        let b = Guarded<B?>(nil)
        let done = DispatchGroup()
        let a = withoutActuallyEscaping(second) { second -> A in
            // Runs once, and this call waits for it below, before `second` goes out of scope.
            nonisolated(unsafe) let second = second
            DispatchQueue.global().async(group: done) {
                let made = second()
                b.withLock { $0 = made }
            }
            let made = first()
            done.wait()
            return made
        }
        return (a, b.withLock { $0.take()! })
    }
}
