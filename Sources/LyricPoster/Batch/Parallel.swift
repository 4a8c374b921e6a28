import Foundation
import PosterGraphics
import Synchronization

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
        let outcome = Locked<PosterError?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task {
            let failure = await run(count: count, jobs: jobs, stop: stop, makeState: makeState, body: body)
            outcome.withValue { $0 = failure }
            finished.signal()
        }
        finished.wait()
        return outcome.withValue { $0 }
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

    /// The next item to take.
    private final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func take() -> Int { value.add(1, ordering: .relaxed).oldValue }
    }
}

/// A value several tasks update under a mutex.
final class Locked<Value>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: sending Value) { mutex = Mutex(value) }
    func withValue<T: Sendable, E: Error>(_ body: (inout sending Value) throws(E) -> T) throws(E) -> T {
        try mutex.withLock { (value) throws(E) -> T in
            RaceDetector.locked(self)
            defer { RaceDetector.unlocking(self) }
            return try body(&value)
        }
    }
}
