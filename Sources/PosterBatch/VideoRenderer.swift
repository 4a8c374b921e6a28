import Foundation
import LyricPoster
import Locks

/// Renders a video plan's frames in parallel and sends their raw pixels, in order, into an
/// ffmpeg encoder: no PNG is encoded or decoded on the way, and rendering overlaps encoding.
package struct VideoRenderer {
    package var session: PosterSession
    package var plan: VideoPlan
    package var jobs: Int

    package init(session: PosterSession, plan: VideoPlan, jobs: Int) {
        self.session = session
        self.plan = plan
        self.jobs = max(1, jobs)
    }

    package struct Result: Sendable {
        /// Frames sent to the encoder.
        package var frames: Int
        package var interrupted: Bool
        package var seconds: Double
        /// The most lines before and after the current one that any frame had to leave out.
        package var dropped: (before: Int, after: Int)
        package var missingGlyphs: Int
    }

    /// Sends every frame of the plan to `pipe`; `progress(done, total)` is called after each one.
    /// Throws the first rendering or sending failure; returns with `interrupted` set when `stop`
    /// was requested.
    package func run(into pipe: FramePipe, stop: StopFlag,
                    progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws(PosterError) -> Result {
        let start = DispatchTime.now().uptimeNanoseconds
        let frames = plan.frames
        let session = self.session
        let timings = session.timings
        let stats = Guarded((sent: 0, dropped: (before: 0, after: 0), missing: 0))
        // Each worker renders ahead while another sends: a frame each, plus one waiting its turn.
        let failure = Parallel.ordered(count: frames.count, jobs: jobs, window: jobs + 1, stop: stop, makeState: session.makeRenderer,
                                       make: { (renderer: SequenceRenderer, i: Int) throws(PosterError) -> [UInt8] in
            let (pixels, report) = try renderer.renderPixels(frames[i].scene, motion: frames[i].motion) { (rgb) throws(PosterError) -> [UInt8] in Array(rgb) }
            stats.withLock { value in
                value.dropped = (max(value.dropped.before, report.droppedBefore), max(value.dropped.after, report.droppedAfter))
                value.missing = max(value.missing, report.missingGlyphs)
            }
            return pixels
        }, deliver: { (_: Int, pixels: [UInt8]) throws(PosterError) in
            try timings.measure("send") { () throws(PosterError) in
                let failed = pixels.withUnsafeBytes { (raw) -> PosterError? in
                    do throws(PosterError) { try pipe.write(raw) } catch { return error }
                    return nil
                }
                if let failed { throw failed }
            }
            let sent = stats.withLock { value -> Int in
                value.sent += 1
                return value.sent
            }
            progress(sent, frames.count)
        })
        if let failure { throw failure }
        let (sent, dropped, missing) = stats.withLock { ($0.sent, $0.dropped, $0.missing) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Result(frames: sent, interrupted: sent < frames.count, seconds: seconds, dropped: dropped, missingGlyphs: missing)
    }
}
