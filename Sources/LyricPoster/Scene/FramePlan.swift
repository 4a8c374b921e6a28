import LyricsCore

/// One frame a batch writes: the scene it shows and the span of song time it covers.
package struct PlannedFrame: Hashable, Sendable {
    package var index: Int
    package var scene: Scene
    /// Half-open [startMs, endMs): when this frame is on screen (for `sequence`, its first run).
    package var startMs: Int
    package var endMs: Int
    package var fileName: String
    /// Set when the frame is a picture in the middle of a change of lines.
    package var motion: Motion? = nil
}

/// One tick of a time-sampled sequence and the frame shown at it.
package struct Tick: Hashable, Sendable, Codable {
    package var index: Int
    package var timeMs: Int
    package var frame: Int

    enum CodingKeys: String, CodingKey {
        case index
        case timeMs = "time_ms"
        case frame
    }
}

/// Which frames a batch renders.
package enum FramePlan {
    /// One frame per stretch of the song over which the picture stays the same: one per lyric line,
    /// plus an interlude frame before the first line (when it does not start at 0) and for every
    /// silence (a blank stamp, or the time between a line's end and the next line) of 4 s or more.
    /// Short silences extend the line before them. Lines before 0 (a negative offset) count from 0.
    package static func perLine(_ scenes: SceneBuilder) -> [PlannedFrame] {
        let timeline = scenes.timeline
        let end = timeline.end.milliseconds
        var instants = Set([0])
        for line in timeline.lines {
            if line.start.milliseconds < end { instants.insert(max(0, line.start.milliseconds)) }
            if line.end.milliseconds < end, line.end.milliseconds > 0 { instants.insert(line.end.milliseconds) }
        }
        let sorted = instants.sorted()
        var frames: [PlannedFrame] = []
        var lastKey: Scene?
        for (i, start) in sorted.enumerated() {
            let stop = i + 1 < sorted.count ? sorted[i + 1] : max(end, start + 1)
            let scene = scenes.scene(at: Timestamp(milliseconds: start))
            let key = scene.withoutTime
            if key == lastKey, var last = frames.popLast() {
                last.endMs = stop
                frames.append(last)
                continue
            }
            lastKey = key
            frames.append(PlannedFrame(index: frames.count, scene: scene, startMs: start, endMs: stop,
                                       fileName: fileName(index: frames.count, ms: start)))
        }
        return frames
    }

    /// Frames sampled at `fps` over [from, to): each distinct picture is rendered once, and every
    /// tick maps to the frame it shows.
    /// Ticks inside a change of lines (`motion`) show the lines on their way.
    package static func sequence(_ scenes: SceneBuilder, fps: Int, from: Timestamp, to: Timestamp,
                                motion: MotionPlan? = nil) -> (frames: [PlannedFrame], ticks: [Tick]) {
        precondition(fps > 0)
        struct Key: Hashable {
            var scene: Scene
            var motion: Motion?
        }
        var frames: [PlannedFrame] = []
        var ticks: [Tick] = []
        var byKey: [Key: Int] = [:]
        var k = 0
        while true {
            let t = from.milliseconds + k * 1000 / fps
            guard t < to.milliseconds else { break }
            let next = min(to.milliseconds, from.milliseconds + (k + 1) * 1000 / fps)
            let scene = scenes.scene(at: Timestamp(milliseconds: t))
            let moving = motion?.motion(at: t)
            let key = Key(scene: scene.withoutTime, motion: moving)
            let frame: Int
            if let known = byKey[key] {
                frame = known
                // Extend the frame's first run while it continues.
                if let last = ticks.last, last.frame == known, frames[known].endMs == t { frames[known].endMs = next }
            } else {
                frame = frames.count
                byKey[key] = frame
                frames.append(PlannedFrame(index: frame, scene: scene, startMs: t, endMs: next,
                                           fileName: fileName(index: frame, ms: t), motion: moving))
            }
            ticks.append(Tick(index: k, timeMs: t, frame: frame))
            k += 1
        }
        return (frames, ticks)
    }

    /// `0007-01m23.450s.png`: sorts in time order and says the time.
    package static func fileName(index: Int, ms: Int) -> String {
        "\(pad(index, 4))-\(timeLabel(ms: ms)).png"
    }

    /// `01m23.450s`, the time in a file name; `01m23s` on a whole second when `shortOnWholeSeconds`.
    package static func timeLabel(ms: Int, shortOnWholeSeconds: Bool = false) -> String {
        let minutes = ms / 60_000, seconds = (ms % 60_000) / 1000, millis = ms % 1000
        if shortOnWholeSeconds, millis == 0 { return "\(pad(minutes, 2))m\(pad(seconds, 2))s" }
        return "\(pad(minutes, 2))m\(pad(seconds, 2)).\(pad(millis, 3))s"
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}

extension Scene {
    /// The scene with its time cleared: two scenes that draw the same picture compare equal.
    package var withoutTime: Scene {
        guard !timeSensitive else { return self }
        var copy = self
        copy.time = Timestamp(milliseconds: 0)
        return copy
    }

    /// A stable text form of everything that affects the picture (for input hashes).
    package var fingerprint: String {
        var parts = ["interlude=\(isInterlude)", "line=\(lineIndex.map(String.init) ?? "-")",
                     "title=\(title ?? "")", "artist=\(artist ?? "")", "album=\(album ?? "")", "lang=\(language ?? "")",
                     "duration=\(duration?.milliseconds ?? -1)", timeSensitive ? "time=\(time.milliseconds)" : "time=-"]
        for line in lines {
            parts.append("\(line.role.rawValue)|\(line.lineIndex.map(String.init) ?? "-")|\(line.language ?? "")|\(line.text)|\(line.translation ?? "")|\(line.romanisation ?? "")|\(line.voice.rawValue)|\(line.backing.map { $0.text + "|" + $0.sung.map { String($0) }.joined(separator: ",") } ?? "")|\(line.sung.map { String($0) }.joined(separator: ","))")
        }
        return parts.joined(separator: "\n")
    }
}

extension PlannedFrame {
    /// A stable text form of everything that affects the frame's picture (for input hashes).
    package var fingerprint: String {
        guard let motion else { return scene.fingerprint }
        return scene.fingerprint + "\nmotion=\(motion.style.rawValue)|\(motion.progress)\n" + motion.from.fingerprint
    }
}
