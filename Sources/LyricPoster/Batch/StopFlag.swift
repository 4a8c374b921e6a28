import Dispatch
import Foundation

/// Set when the user asks the process to stop (SIGINT, SIGTERM): batches finish the frames in
/// flight, write a manifest of what is done, and return, so no partial file is ever left behind.
public final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var requested = false
    private var sources: [any DispatchSourceSignal] = []

    public init() {}

    public var isRequested: Bool {
        lock.lock()
        defer { lock.unlock() }
        return requested
    }

    public func request() {
        lock.lock()
        requested = true
        lock.unlock()
    }

    /// Routes SIGINT and SIGTERM to `request()` and ignores SIGPIPE (a closed pipe then shows up
    /// as a write error instead of killing the process mid-file).
    public func installSignalHandlers() {
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.request() }
            source.resume()
            sources.append(source)
        }
    }
}
