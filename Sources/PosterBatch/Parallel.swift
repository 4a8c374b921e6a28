import Foundation
import Synchronization
import LyricPoster
import PosterGraphics
import Locks

/// Runs work items on up to `jobs` of Dispatch's threads: each worker makes its own state once
/// (a renderer: Pango is not thread-safe) when it finds an item to do, then takes the next item
/// from a shared atomic counter until none are left, one fails, or a stop is requested. Which
/// worker renders which item varies; what is made from each item does not, so the output stays
/// deterministic. Every call returns only when all its workers are done (fork and join).
enum Parallel {
    /// Calls `body(state, i)` for i in 0..<count on up to `jobs` workers; returns the first
    /// failure. Blocks the calling thread until all are done.
    static func run<State>(count: Int, jobs: Int, stop: StopFlag,
                           makeState: @escaping @Sendable () throws(PosterError) -> State,
                           body: @escaping @Sendable (State, Int) throws(PosterError) -> Void) -> PosterError? {
        let next = Counter()
        let failure = Guarded<PosterError?>(nil)
        let workers = min(max(1, jobs), max(1, count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            var stopping: Bool { stop.isRequested || failure.withLock { $0 != nil } }
            var i = next.take()
            guard i < count, !stopping else { return }
            do throws(PosterError) {
                let state = try makeState()
                while i < count, !stopping {
                    try body(state, i)
                    i = next.take()
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        return failure.withLock { $0 }
    }

    /// Calls `body` for every item `next` yields (nil: no more), on up to `jobs` threads, until
    /// the items run out or a stop is requested; items are taken one at a time, so a streamed
    /// source is never read ahead. `body` may run a batch of its own
    /// (``run(count:jobs:stop:makeState:body:)``). Blocks until every worker is done.
    static func each<Item: Sendable>(jobs: Int, stop: StopFlag, next: @escaping @Sendable () -> Item?,
                                     body: @escaping @Sendable (Item) -> Void) {
        DispatchQueue.concurrentPerform(iterations: max(1, jobs)) { _ in
            while !stop.isRequested, let item = next() { body(item) }
        }
    }

    /// Makes items 0..<count on up to `jobs` workers and hands each result to `deliver` in
    /// index order, one call at a time (by whichever worker finds the next result ready). At most
    /// `window` items are taken and not yet delivered, so memory stays bounded when delivery is
    /// slower than making. Returns the first failure; blocks like ``run(count:jobs:stop:makeState:body:)``.
    static func ordered<State, Output: Sendable>(count: Int, jobs: Int, window: Int, stop: StopFlag,
                                                 makeState: @escaping @Sendable () throws(PosterError) -> State,
                                                 make: @escaping @Sendable (State, Int) throws(PosterError) -> Output,
                                                 deliver: @escaping @Sendable (Int, Output) throws(PosterError) -> Void) -> PosterError? {
        let line = Turnstile<Output>(window: max(1, window))
        let failure = run(count: count, jobs: jobs, stop: stop, makeState: makeState) { (state: State, i: Int) throws(PosterError) in
            guard line.waitForRoom(i, stop: stop) else { return }
            let output: Output
            do throws(PosterError) { output = try make(state, i) } catch {
                line.abandon()
                throw error
            }
            line.put(i, output)
            try line.drain(deliver)
        }
        line.abandon()
        return failure
    }

    /// Results waiting to be delivered in order, and the room left for more.
    private final class Turnstile<Output: Sendable>: Sendable {
        private let state = Guarded<(next: Int, ready: [Int: Output], delivering: Bool, failed: Bool)>((0, [:], false, false))
        private let window: Int

        init(window: Int) {
            self.window = window
        }

        /// Waits until item `i` is within `window` of the next one to deliver (which always is,
        /// so some worker can always go on); false when the run is stopping.
        func waitForRoom(_ i: Int, stop: StopFlag) -> Bool {
            let window = self.window
            while true {
                let (fits, failed) = state.withLock { (i < $0.next + window, $0.failed) }
                if failed || stop.isRequested { return false }
                if fits { return true }
                usleep(1000)
            }
        }

        func put(_ i: Int, _ output: Output) {
            state.withLock { $0.ready[i] = output }
        }

        /// Delivers ready results in order until the next one is missing or another worker is
        /// already delivering (it will pick up what was put meanwhile).
        func drain(_ deliver: (Int, Output) throws(PosterError) -> Void) throws(PosterError) {
            while true {
                let item: (Int, Output)? = state.withLock { state in
                    guard !state.delivering, !state.failed, let output = state.ready.removeValue(forKey: state.next) else { return nil }
                    state.delivering = true
                    return (state.next, output)
                }
                guard let (i, output) = item else { return }
                do throws(PosterError) {
                    try deliver(i, output)
                } catch {
                    state.withLock { state in
                        state.failed = true
                        state.delivering = false
                    }
                    throw error
                }
                state.withLock { state in
                    state.next += 1
                    state.delivering = false
                }
            }
        }

        /// Frees what is left after a stop or a failure.
        func abandon() {
            state.withLock { state in
                state.failed = true
                state.ready = [:]
            }
        }
    }

    /// The next item to take.
    private final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func take() -> Int { value.add(1, ordering: .relaxed).oldValue }
    }
}
