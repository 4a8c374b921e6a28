import Dispatch
import Foundation
import Synchronization
import LyricPoster
import PosterGraphics
import Locks

/// Set when the user asks the process to stop (SIGINT, SIGTERM): batches finish the frames in
/// flight, write a manifest of what is done, and return, so no partial file is ever left behind.
package final class StopFlag: Sendable {
    private final class Flag: Sendable {
        let requested = Atomic<Bool>(false)
    }

    private let flag = Flag()
    private let sources = Guarded<[any DispatchSourceSignal]>([])

    package init() {}

    package var isRequested: Bool { flag.requested.load(ordering: .acquiring) }

    package func request() { flag.requested.store(true, ordering: .releasing) }

    /// Routes SIGINT and SIGTERM to `request()` and ignores SIGPIPE (a closed pipe then shows up
    /// as a write error instead of killing the process mid-file).
    package func installSignalHandlers() {
        signal(SIGPIPE, SIG_IGN)
        let flag = self.flag
        sources.withLock { sources in
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { flag.requested.store(true, ordering: .releasing) }
                source.resume()
                sources.append(source)
            }
        }
    }
}
