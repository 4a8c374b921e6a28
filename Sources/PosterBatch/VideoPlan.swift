import LyricsCore
import LyricPoster

/// The pictures of a lyric video in the order they are shown, each with the moment it appears
/// (milliseconds from the start of the clip). Consecutive equal pictures are one entry: the
/// encoder holds a picture until the next one, so nothing is rendered or sent twice in a row.
public struct VideoPlan: Sendable {
    public struct Frame: Sendable {
        public var scene: Scene
        /// When the picture appears, in milliseconds from the clip's start.
        public var ptsMs: Int
    }

    public var frames: [Frame]
    /// The clip's length in milliseconds: the last picture stays until then.
    public var durationMs: Int
    /// A constant frame rate, or nil for one frame per picture (variable frame rate).
    public var fps: Int?

    /// One frame per stretch over which the poster stays the same (the `lines` frames) within
    /// [from, to): the exact line timing at the smallest size.
    public static func perLine(_ scenes: SceneBuilder, from: Int, to: Int) -> VideoPlan {
        precondition(to > from)
        var frames: [Frame] = []
        for planned in FramePlan.perLine(scenes) where planned.endMs > from && planned.startMs < to {
            frames.append(Frame(scene: planned.scene, ptsMs: max(planned.startMs, from) - from))
        }
        // After the lyrics end (the audio often goes on): the poster as `frame` draws it there.
        let end = scenes.timeline.end.milliseconds
        if to > end || frames.isEmpty {
            let start = max(end, from)
            let scene = scenes.scene(at: Timestamp(milliseconds: start))
            if frames.last.map({ $0.scene.withoutTime != scene.withoutTime }) ?? true {
                frames.append(Frame(scene: scene, ptsMs: start - from))
            }
        }
        return VideoPlan(frames: frames, durationMs: to - from, fps: nil).holdingToEnd()
    }

    /// The ticks of `fps` frames a second over [from, to), as `sequence` samples them; a run of
    /// ticks that show the same picture is one frame here, which the encoder repeats.
    public static func constant(_ scenes: SceneBuilder, fps: Int, from: Int, to: Int) -> VideoPlan {
        precondition(to > from && fps > 0)
        let sampled = FramePlan.sequence(scenes, fps: fps, from: Timestamp(milliseconds: from), to: Timestamp(milliseconds: to))
        var frames: [Frame] = []
        var previous = -1
        for tick in sampled.ticks where tick.frame != previous {
            previous = tick.frame
            // A frame met again later shows the same picture; this run's first tick is when it
            // appears now.
            frames.append(Frame(scene: sampled.frames[tick.frame].scene, ptsMs: tick.timeMs - from))
        }
        return VideoPlan(frames: frames, durationMs: to - from, fps: fps).holdingToEnd()
    }

    /// The last picture sent once more 1 ms before the end: an encoded frame lasts until the
    /// next one, and the last one only 1 ms, so this makes the video end exactly at the end.
    private func holdingToEnd() -> VideoPlan {
        guard let last = frames.last, last.ptsMs < durationMs - 1 else { return self }
        var copy = self
        copy.frames.append(Frame(scene: last.scene, ptsMs: durationMs - 1))
        return copy
    }

    /// Ticks the encoder writes: one per frame, or `fps` a second over the clip.
    public var outputFrames: Int {
        guard let fps else { return frames.count }
        return (durationMs * fps + 999) / 1000
    }
}
