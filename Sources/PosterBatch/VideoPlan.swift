import LyricsCore
import LyricPoster

/// The pictures of a lyric video in the order they are shown, each with the moment it appears
/// (milliseconds from the start of the clip). Consecutive equal pictures are one entry: the
/// encoder holds a picture until the next one, so nothing is rendered or sent twice in a row.
package struct VideoPlan: Sendable {
    package struct Frame: Sendable {
        package var scene: Scene
        /// When the picture appears, in milliseconds from the clip's start.
        package var ptsMs: Int
        /// Set when the picture is in the middle of a change of lines.
        package var motion: Motion? = nil
    }

    package var frames: [Frame]
    /// The clip's length in milliseconds: the last picture stays until then.
    package var durationMs: Int
    /// A constant frame rate, or nil for one frame per picture (variable frame rate).
    package var fps: Int?

    /// One frame per stretch over which the poster stays the same (the `lines` frames) within
    /// [from, to): the exact line timing at the smallest size.
    /// With `motion`, each change of lines is drawn on its way at `motionFps` frames a second
    /// (a variable frame rate: still pictures stay single frames).
    package static func perLine(_ scenes: SceneBuilder, from: Int, to: Int, motion: MotionPlan? = nil,
                               motionFps: Int = 30) -> VideoPlan {
        precondition(to > from && motionFps > 0)
        var frames: [Frame] = []
        /// The picture that starts at `start` (song time) and stays until `stop`: on its way first
        /// when a change starts there, then at rest from where it settles.
        func add(_ scene: Scene, start planned: Int, stop: Int) {
            let start = max(planned, from)
            guard let change = motion?.change(at: start), change.at == planned else {
                frames.append(Frame(scene: scene, ptsMs: start - from))
                return
            }
            let settled = change.at + change.durationMs
            var k = 0
            while true {
                let t = start + k * 1000 / motionFps
                guard t < settled, t < stop, let moving = motion?.motion(at: t) else { break }
                frames.append(Frame(scene: scenes.scene(at: Timestamp(milliseconds: t)), ptsMs: t - from, motion: moving))
                k += 1
            }
            if settled < stop {
                frames.append(Frame(scene: scenes.scene(at: Timestamp(milliseconds: settled)), ptsMs: settled - from))
            }
        }
        for planned in FramePlan.perLine(scenes) where planned.endMs > from && planned.startMs < to {
            add(planned.scene, start: planned.startMs, stop: min(to, planned.endMs))
        }
        // After the lyrics end (the audio often goes on): the poster as `frame` draws it there.
        let end = scenes.timeline.end.milliseconds
        if to > end || frames.isEmpty {
            let start = max(end, from)
            let scene = scenes.scene(at: Timestamp(milliseconds: start))
            if frames.last.map({ $0.motion != nil || $0.scene.withoutTime != scene.withoutTime }) ?? true {
                add(scene, start: start, stop: to)
            }
        }
        return VideoPlan(frames: frames, durationMs: to - from, fps: nil).holdingToEnd()
    }

    /// The ticks of `fps` frames a second over [from, to), as `sequence` samples them; a run of
    /// ticks that show the same picture is one frame here, which the encoder repeats.
    package static func constant(_ scenes: SceneBuilder, fps: Int, from: Int, to: Int, motion: MotionPlan? = nil) -> VideoPlan {
        precondition(to > from && fps > 0)
        let sampled = FramePlan.sequence(scenes, fps: fps, from: Timestamp(milliseconds: from), to: Timestamp(milliseconds: to),
                                         motion: motion)
        var frames: [Frame] = []
        var previous = -1
        for tick in sampled.ticks where tick.frame != previous {
            previous = tick.frame
            // A frame met again later shows the same picture; this run's first tick is when it
            // appears now.
            frames.append(Frame(scene: sampled.frames[tick.frame].scene, ptsMs: tick.timeMs - from, motion: sampled.frames[tick.frame].motion))
        }
        return VideoPlan(frames: frames, durationMs: to - from, fps: fps).holdingToEnd()
    }

    /// The last picture sent once more 1 ms before the end: an encoded frame lasts until the
    /// next one, and the last one only 1 ms, so this makes the video end exactly at the end.
    private func holdingToEnd() -> VideoPlan {
        guard let last = frames.last, last.ptsMs < durationMs - 1 else { return self }
        var copy = self
        copy.frames.append(Frame(scene: last.scene, ptsMs: durationMs - 1, motion: last.motion))
        return copy
    }

    /// Ticks the encoder writes: one per frame, or `fps` a second over the clip.
    package var outputFrames: Int {
        guard let fps else { return frames.count }
        return (durationMs * fps + 999) / 1000
    }
}

extension VideoChapter {
    /// What `--chapters` marks: the song's sections (lines between interludes) or each line.
    package enum Mode: String, CaseIterable, Sendable {
        case sections, lines
    }

    /// The chapters of the clip [from, to) (ms of song time), in ms from the clip's start. The
    /// first starts at 0 (players expect it); a section is named after its first line, the part
    /// before the first line "Intro".
    package static func plan(_ scenes: SceneBuilder, mode: Mode, from: Int, to: Int) -> [VideoChapter] {
        var starts: [(ms: Int, title: String)] = []
        var afterBreak = true
        for frame in FramePlan.perLine(scenes) where frame.startMs < to {
            guard frame.scene.state == .lyric, let text = frame.scene.currentText else {
                afterBreak = afterBreak || frame.scene.state == .interlude || frame.scene.state == .intro
                continue
            }
            if mode == .lines || afterBreak { starts.append((frame.startMs, text)) }
            afterBreak = false
        }
        // Within the clip: the chapter under way at its start begins it.
        var kept = starts.filter { $0.ms > from }
        if let under = starts.last(where: { $0.ms <= from }) {
            kept.insert((from, under.title), at: 0)
        } else {
            kept.insert((from, "Intro"), at: 0)
        }
        if kept.count > 1, kept[1].ms - kept[0].ms < 1000, kept[0].title == "Intro" {
            // A moment of intro is not a chapter: the first line's chapter starts at 0.
            kept.remove(at: 0)
            kept[0].ms = from
        }
        return kept.enumerated().map { i, start in
            let end = i + 1 < kept.count ? kept[i + 1].ms : to
            return VideoChapter(startMs: start.ms - from, endMs: end - from, title: Self.shortTitle(start.title))
        }
    }

    /// A chapter name: the line, cut at a word boundary after about 60 characters.
    static func shortTitle(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        guard flat.count > 64 else { return flat }
        let head = String(flat.prefix(60))
        if let space = head.lastIndex(of: " "), head.distance(from: head.startIndex, to: space) > 30 {
            return String(head[..<space]) + "…"
        }
        return head + "…"
    }
}
