import Foundation
import Synchronization
import LyricPoster
import PosterGraphics
import Locks

/// Runs work items on a task group: each child task makes its own state once (a renderer: Pango
/// is not thread-safe), then takes the next item from a shared atomic counter until none are
/// left, one fails, or a stop is requested. Which task renders which item varies; what is made
/// from each item does not, so the output stays deterministic.
enum Parallel {
    /// Calls `body(state, i)` for i in 0..<count on up to `jobs` child tasks; returns the first
    /// failure. Blocks the calling thread until all are done: for synchronous callers (the batch
    /// commands), never from inside a task.
    static func run<State>(count: Int, jobs: Int, stop: StopFlag,
                           makeState: @escaping @Sendable () throws(PosterError) -> State,
                           body: @escaping @Sendable (State, Int) throws(PosterError) -> Void) -> PosterError? {
        let outcome = Guarded<PosterError?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task {
            let failure = await run(count: count, jobs: jobs, stop: stop, makeState: makeState, body: body)
            outcome.withLock { $0 = failure }
            finished.signal()
        }
        finished.wait()
        return outcome.withLock { $0 }
    }

    /// The same, awaited.
    static func run<State>(count: Int, jobs: Int, stop: StopFlag,
                           makeState: @escaping @Sendable () throws(PosterError) -> State,
                           body: @escaping @Sendable (State, Int) throws(PosterError) -> Void) async -> PosterError? {
        let next = Counter()
        let workers = min(max(1, jobs), max(1, count))
        return await withTaskGroup(of: PosterError?.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    let state: State
                    do throws(PosterError) { state = try makeState() } catch { return error }
                    while !Task.isCancelled, !stop.isRequested {
                        let i = next.take()
                        guard i < count else { break }
                        do throws(PosterError) { try body(state, i) } catch { return error }
                    }
                    return nil
                }
            }
            var first: PosterError?
            for await failure in group {
                if let failure, first == nil {
                    first = failure
                    group.cancelAll()
                }
            }
            return first
        }
    }

    /// Calls `body` for every item `next` yields (nil: no more), on up to `jobs` threads, until
    /// the items run out or a stop is requested; items are taken one at a time, so a streamed
    /// source is never read ahead. The workers are dispatch threads, not tasks: `body` may block
    /// on a batch of its own (``run(count:jobs:stop:makeState:body:)``), whose tasks then still
    /// find the cooperative pool free. Blocks until every worker is done.
    static func each<Item: Sendable>(jobs: Int, stop: StopFlag, next: @escaping @Sendable () -> Item?,
                                     body: @escaping @Sendable (Item) -> Void) {
        DispatchQueue.concurrentPerform(iterations: max(1, jobs)) { _ in
            while !stop.isRequested, let item = next() { body(item) }
        }
    }

    /// Makes items 0..<count on up to `jobs` child tasks and hands each result to `deliver` in
    /// index order, one call at a time (by whichever task finds the next result ready). At most
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
        /// so some task can always go on); false when the run is stopping.
        func waitForRoom(_ i: Int, stop: StopFlag) -> Bool {
            let window = self.window
            while true {
                let (fits, failed) = withState { (i < $0.next + window, $0.failed) }
                if failed || stop.isRequested || Task.isCancelled { return false }
                if fits { return true }
                usleep(1000)
            }
        }

        func put(_ i: Int, _ output: Output) {
            withState { $0.ready[i] = output }
        }

        /// Delivers ready results in order until the next one is missing or another task is
        /// already delivering (it will pick up what was put meanwhile).
        func drain(_ deliver: (Int, Output) throws(PosterError) -> Void) throws(PosterError) {
            while true {
                let item: (Int, Output)? = withState { state in
                    guard !state.delivering, !state.failed, let output = state.ready.removeValue(forKey: state.next) else { return nil }
                    state.delivering = true
                    return (state.next, output)
                }
                guard let (i, output) = item else { return }
                do throws(PosterError) {
                    try deliver(i, output)
                } catch {
                    withState { state in
                        state.failed = true
                        state.delivering = false
                    }
                    throw error
                }
                withState { state in
                    state.next += 1
                    state.delivering = false
                }
            }
        }

        /// Frees what is left after a stop or a failure.
        func abandon() {
            withState { state in
                state.failed = true
                state.ready = [:]
            }
        }

        private func withState<T: Sendable>(_ body: (inout sending (next: Int, ready: [Int: Output], delivering: Bool, failed: Bool)) -> T) -> T {
            state.withLock { value in
                return body(&value)
            }
        }
    }

    /// The next item to take.
    private final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func take() -> Int { value.add(1, ordering: .relaxed).oldValue }
    }
}
