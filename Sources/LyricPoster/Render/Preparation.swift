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
        let run: @Sendable () -> Void = { [self] in
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
        // A plain POSIX thread (Foundation's Thread takes milliseconds longer to start running).
        // Decoders and Cairo keep their pixels on the heap; the stack holds only frames.
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 8 << 20)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let box = Unmanaged.passRetained(ThreadBody(run)).toOpaque()
        var thread = pthread_t()
        if pthread_create(&thread, &attributes, { raw in
            let body = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, box) != 0 {
            // No thread to be had: do the work here.
            Unmanaged<ThreadBody>.fromOpaque(box).takeRetainedValue().run()
        }
        pthread_attr_destroy(&attributes)
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

private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// A value one thread sets once and others wait for.
final class Handoff<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var stored: Value?

    func set(_ value: Value) {
        condition.lock()
        stored = value
        condition.broadcast()
        condition.unlock()
    }

    /// The value, once set.
    func value() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while stored == nil { condition.wait() }
        return stored!
    }
}
