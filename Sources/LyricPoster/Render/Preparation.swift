import Foundation

/// Work started on a thread of its own, so that the caller can do something else meanwhile: a
/// value (or an error) to wait for, then optional follow-up work on the same thread (storing what
/// was made) that the caller waits for only at the end (``finish()``).
///
/// Synchronised with `NSCondition` (a pthread mutex and condition, which the sanitizers see).
final class Preparation<Value: Sendable, Failure: Error>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<Value, Failure>?
    private var finished = false

    /// Starts `body` on a new thread; `afterwards` runs there with its value once that value has
    /// been handed over.
    init(_ body: @escaping @Sendable () throws(Failure) -> Value,
         afterwards: (@Sendable (Value) -> Void)? = nil) {
        let thread = Thread { [self] in
            let outcome: Result<Value, Failure>
            do throws(Failure) { outcome = .success(try body()) } catch { outcome = .failure(error) }
            condition.lock()
            result = outcome
            condition.broadcast()
            condition.unlock()
            if case .success(let value) = outcome { afterwards?(value) }
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        // Decoders and Cairo keep their pixels on the heap; the stack holds only frames.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The value, once made (the error the work threw, if it failed).
    func value() throws(Failure) -> Value {
        condition.lock()
        while result == nil { condition.wait() }
        let outcome = result!
        condition.unlock()
        return try outcome.get()
    }

    /// Waits until the follow-up work is done too.
    func finish() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
