import LyricsCore

/// How a video or a sequence goes from one line to the next.
package struct Transition: Hashable, Sendable {
    package enum Style: String, Hashable, Sendable, CaseIterable {
        /// A cut: the next picture at once (a slideshow).
        case none
        /// The old lines fade out where they are while the new ones fade in where they go.
        case fade
        /// The lines move to their new places around the anchor: the sung line shrinks and dims
        /// as it rises into the past, the next one grows and brightens into the current place,
        /// lines entering or leaving slide in or out with the rest and fade.
        case scroll
    }

    package var style: Style
    /// How long a change takes; a line shorter than this gets a quicker change that ends when it does.
    package var durationMs: Int

    package static let defaultDurationMs = 450
    /// Changes shorter than this (lines that last a few frames) are cut, not moved.
    package static let shortestMs = 60
    package static let none = Transition(style: .none, durationMs: 0)

    package init(style: Style, durationMs: Int = Transition.defaultDurationMs) {
        self.style = style
        self.durationMs = durationMs
    }

    package var moves: Bool { style != .none && durationMs >= Self.shortestMs }
}

/// A picture in the middle of a change: the lines on their way from where `from` (the song just
/// before the change, at rest) has them to where the instant's own scene has them, `progress`
/// of the way there in time (from 0 up to 1; the renderer eases it).
package struct Motion: Hashable, Sendable {
    package var style: Transition.Style
    package var from: Scene
    package var progress: Double

    package init(style: Transition.Style, from: Scene, progress: Double) {
        self.style = style
        self.from = from
        self.progress = progress
    }
}

/// Where a song's pictures change (a line starts or ends, an interlude begins or ends) and which
/// instants fall inside a change, under one transition.
package struct MotionPlan: Sendable {
    package struct Change: Sendable {
        /// When the new picture starts, in ms of song time.
        package var at: Int
        /// How long the move takes: the transition's length, or less when the next change comes sooner.
        package var durationMs: Int
        /// The song just before the change (the picture at rest that moves away).
        package var before: Scene
    }

    package let transition: Transition
    package let changes: [Change]

    package init(_ scenes: SceneBuilder, transition: Transition) {
        self.transition = transition
        guard transition.moves else {
            changes = []
            return
        }
        var instants: [(at: Int, before: Scene)] = []
        // Where a picture starts: each line's stretch, and the end of the lyrics (the closing
        // picture a video shows while its audio goes on).
        let end = scenes.timeline.end.milliseconds
        let starts = FramePlan.perLine(scenes).map(\.startMs) + [end]
        for start in Set(starts).sorted() where start > 0 {
            let before = scenes.scene(at: Timestamp(milliseconds: start - 1))
            let scene = scenes.scene(at: Timestamp(milliseconds: start))
            // Only a change of lines moves; karaoke and the clock alone do not.
            guard before.restingKey != scene.restingKey else { continue }
            instants.append((start, before))
        }
        changes = instants.enumerated().map { i, change in
            let next = i + 1 < instants.count ? instants[i + 1].at : Int.max
            return Change(at: change.at, durationMs: min(transition.durationMs, next - change.at), before: change.before)
        }
    }

    /// The change under way at `ms` (song time), if any.
    package func change(at ms: Int) -> Change? {
        var low = 0, high = changes.count
        while low < high {
            let mid = (low + high) / 2
            if changes[mid].at <= ms { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let change = changes[low - 1]
        guard change.durationMs >= Transition.shortestMs, ms - change.at < change.durationMs else { return nil }
        return change
    }

    /// The motion of the picture at `ms`, or nil when it is at rest there.
    package func motion(at ms: Int) -> Motion? {
        guard let change = change(at: ms) else { return nil }
        return Motion(style: transition.style, from: change.before,
                      progress: Double(ms - change.at) / Double(change.durationMs))
    }
}

extension Scene {
    /// The scene with everything that changes while its lines stay put cleared: the time and how
    /// far each line is sung. Two scenes with the same key have their lines in the same places.
    package var restingKey: Scene {
        var copy = self
        copy.time = Timestamp(milliseconds: 0)
        for i in copy.lines.indices {
            copy.lines[i].sung = []
            copy.lines[i].backing?.sung = []
        }
        return copy
    }
}
