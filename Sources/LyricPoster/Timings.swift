import Foundation
import PosterGraphics
import Locks

/// Wall time spent per named stage (`--timings`), in the order stages first ran.
package final class Timings: Sendable {
    private let state = Guarded<(order: [String], totals: [String: Double])>(([], [:]))

    package init() {}

    /// Runs `body`, adding its wall time to `stage`.
    package func measure<T, E: Error>(_ stage: String, _ body: () throws(E) -> T) throws(E) -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { add(stage, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) }
        return try body()
    }

    package func add(_ stage: String, seconds: Double) {
        state.withLock { state in
            if state.totals[stage] == nil { state.order.append(stage) }
            state.totals[stage, default: 0] += seconds
        }
    }

    /// (stage, seconds) in first-run order.
    package var stages: [(String, Double)] {
        state.withLock { state in state.order.map { ($0, state.totals[$0] ?? 0) } }
    }

    /// One line per stage, milliseconds.
    package func summary() -> String {
        stages.map { name, seconds in
            name.padding(toLength: 12, withPad: " ", startingAt: 0) + String(format: "%9.1f ms", seconds * 1000)
        }.joined(separator: "\n")
    }
}
