import Foundation
import NowPlaying

/// Keeps the follow loop on the player's own clock. Players announce seeks, pauses and rate
/// changes, but not how their clock actually runs: one may advance at 0.98× wall time, or report
/// its position in 250 ms steps, or miss a `Seeked` signal. So the loop reads `Position` shortly
/// before each line change (and every few seconds during long lines), finds the instant the
/// reported value steps (``PositionProbe``), and corrects its clock from those exact readings:
/// their offset at once, and the player's real rate from readings far enough apart.
struct ClockCorrector {
    /// Exact readings (monotonic ns, position µs) since the last discontinuity, oldest first.
    private(set) var readings: [(at: Int64, position: Int64)] = []
    /// The rate the player reports.
    private(set) var nominal: Double = 1

    /// Readings are compared over at least this long before a rate is believed.
    static let minimumSpan: Int64 = 2_000_000_000
    /// A measured rate further than this from the reported one is not believed (a missed seek).
    static let maximumSkew = 0.1
    /// A reading this far (µs) from the clock's prediction is a jump (a seek not announced).
    static let jumpTolerance: Int64 = 400_000

    /// Forgets the readings (after a seek, a track change, a status or rate change).
    mutating func reset(nominal rate: Double) {
        readings = []
        nominal = rate
    }

    /// The player's rate: the slope over the readings when they span at least 2 s and agree with
    /// the reported rate within 10 %; else the reported rate.
    var rate: Double {
        guard let first = readings.first, let last = readings.last, last.at - first.at >= Self.minimumSpan, nominal > 0 else {
            return nominal
        }
        let measured = Double(last.position - first.position) * 1000 / Double(last.at - first.at)
        guard abs(measured / nominal - 1) <= Self.maximumSkew else { return nominal }
        return measured
    }

    /// Takes an exact reading. Returns the corrected clock, or nil when the reading is a jump
    /// from what `clock` predicts (the readings are then forgotten; the caller re-anchors).
    mutating func correct(_ clock: PlaybackClock, reading position: Int64, at instant: Int64) -> PlaybackClock? {
        let predicted = clock.position(at: instant)
        guard abs(predicted - position) <= Self.jumpTolerance else {
            reset(nominal: nominal)
            return nil
        }
        readings.append((instant, position))
        // A minute of readings is plenty; older ones would hide a change in the player's pace.
        while let first = readings.first, instant - first.at > 60_000_000_000, readings.count > 2 { readings.removeFirst() }
        return PlaybackClock(position: position, anchor: instant, rate: rate, playing: clock.playing)
    }
}

/// Reads a player's position precisely. Many players update `Position` in steps (every 250 ms or
/// so); a single reading may be a step old. The probe polls every 10 ms until the value changes:
/// the new value held from a moment between the last two polls, so the reading is exact to 5 ms.
/// A player whose position changes on every call (a continuous clock) answers at the first pair.
enum PositionProbe {
    struct Reading: Sendable {
        var owner: String
        var position: Int64
        /// Monotonic ns.
        var at: Int64
        /// False when the value never changed within the probe (paused, or coarser than it waits).
        var exact: Bool
    }

    /// A call that takes longer than this (the player busy) dates its value too loosely: it is
    /// not used to time a step.
    static let slowCall: Int64 = 20_000_000

    /// At most `limitMs` of polling (on the calling thread; a D-Bus call each 10 ms).
    static func read(_ watcher: any PlayerSource, limitMs: Int = 400) -> Reading? {
        let deadline = Monotonic.now() + Int64(limitMs) * 1_000_000
        var previous: (owner: String, position: Int64, at: Int64, took: Int64)?
        while Monotonic.now() < deadline {
            guard let next = watcher.readPosition() else { return nil }
            if next.took > slowCall {
                // Start again from the next prompt answer.
                previous = nil
            } else if let last = previous {
                guard next.owner == last.owner else { return nil }
                // A step forward dates the new value to between the two calls.
                if next.position > last.position {
                    return Reading(owner: next.owner, position: next.position, at: last.at + (next.at - last.at) / 2, exact: true)
                }
                if next.position < last.position { previous = nil; continue }
                previous = next
            } else {
                previous = next
            }
            usleep(10_000)
        }
        guard let previous else { return nil }
        return Reading(owner: previous.owner, position: previous.position, at: previous.at, exact: false)
    }
}
