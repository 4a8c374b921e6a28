import Foundation

/// Runs work items on several threads: each thread makes its own state once (a renderer: Pango is
/// not thread-safe), then takes the next item until none are left, one fails, or a stop is requested.
enum Parallel {
    /// Calls `body(state, i)` for i in 0..<count on up to `jobs` threads; returns the first failure.
    static func run<State>(count: Int, jobs: Int, stop: StopFlag,
                           makeState: @Sendable () throws(PosterError) -> State,
                           body: @Sendable (State, Int) throws(PosterError) -> Void) -> PosterError? {
        let queue = Queue(count: count)
        DispatchQueue.concurrentPerform(iterations: min(max(1, jobs), max(1, count))) { _ in
            let state: State
            do throws(PosterError) { state = try makeState() } catch {
                queue.fail(error)
                return
            }
            while let i = queue.take(unless: stop) {
                do throws(PosterError) { try body(state, i) } catch {
                    queue.fail(error)
                    return
                }
            }
        }
        return queue.failure
    }

    private final class Queue: @unchecked Sendable {
        private let lock = NSLock()
        private let count: Int
        private var next = 0
        private var storedFailure: PosterError?

        init(count: Int) { self.count = count }

        func take(unless stop: StopFlag) -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard storedFailure == nil, !stop.isRequested, next < count else { return nil }
            next += 1
            return next - 1
        }

        func fail(_ error: PosterError) {
            lock.lock()
            defer { lock.unlock() }
            storedFailure = storedFailure ?? error
        }

        var failure: PosterError? { lock.lock(); defer { lock.unlock() }; return storedFailure }
    }
}

/// A value several threads update under a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withValue<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
