import Foundation
import LyricPoster
import PosterGraphics
import Locks

/// Renders a planned set of frames into a folder: in parallel, streaming each PNG to disk as it is
/// encoded, skipping frames that are already up to date, and writing the manifest last.
package struct BatchRenderer {
    package var session: PosterSession
    package var directory: String
    /// The cover and lyrics paths as the user gave them (recorded in the manifest).
    package var coverPath: String
    package var lyricsPath: String
    package var jobs: Int
    /// Re-render everything and overwrite files this tool did not write.
    package var force: Bool

    package init(session: PosterSession, directory: String, coverPath: String, lyricsPath: String, jobs: Int, force: Bool) {
        self.session = session
        self.directory = directory
        self.coverPath = coverPath
        self.lyricsPath = lyricsPath
        self.jobs = max(1, jobs)
        self.force = force
    }

    package struct Result: Sendable {
        package var manifest: Manifest
        package var rendered: Int
        package var reused: Int
        package var interrupted: Bool
        package var seconds: Double
        /// The most lines before and after the current one that any frame had to leave out.
        package var dropped: (before: Int, after: Int) = (0, 0)
    }

    package static let manifestName = "manifest.json"
    package static let concatName = "frames.ffconcat"

    /// Renders `frames`; `progress(done, total)` is called after each frame, from any thread.
    package func run(frames: [PlannedFrame], kind: String, fps: Int? = nil, ticks: [Tick]? = nil, stop: StopFlag,
                    progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws(PosterError) -> Result {
        let start = DispatchTime.now().uptimeNanoseconds
        try prepareDirectory()
        let manifestPath = directory + "/" + Self.manifestName
        let previous = Manifest.read(from: manifestPath)
        if previous == nil, FileManager.default.fileExists(atPath: manifestPath), !force {
            throw PosterError(path: manifestPath, reason: "exists but was not written by LyricPoster (use --force to replace it)")
        }
        let previousByFile = Dictionary((previous?.frames ?? []).map { ($0.file, $0) }, uniquingKeysWith: { a, _ in a })

        // Never overwrite a file this tool did not write, unless told to.
        if !force {
            for frame in frames where previousByFile[frame.fileName] == nil {
                let path = directory + "/" + frame.fileName
                if FileManager.default.fileExists(atPath: path) {
                    throw PosterError(path: path, reason: "exists but was not written by LyricPoster (use --force to overwrite)")
                }
            }
        }

        let key = session.renderKey
        var reused = [Manifest.Frame?](repeating: nil, count: frames.count)
        var pending: [Int] = []
        for (i, frame) in frames.enumerated() {
            let input = Self.inputDigest(key: key, frame: frame)
            if !force, let old = previousByFile[frame.fileName], old.inputSha256 == input,
               let data = FileManager.default.contents(atPath: directory + "/" + frame.fileName),
               Digest.sha256(data) == old.sha256 {
                var entry = old
                entry.index = frame.index
                entry.startMs = frame.startMs
                entry.endMs = frame.endMs
                reused[i] = entry
            } else {
                pending.append(i)
            }
        }
        let reusedCount = frames.count - pending.count
        progress(reusedCount, frames.count)

        // Each worker holds one frame at a time and streams it to disk as soon as it is encoded.
        let state = Guarded((results: reused, done: reusedCount, dropped: (before: 0, after: 0)))
        let todo = pending
        let session = self.session
        let directory = self.directory
        let failure = Parallel.run(count: todo.count, jobs: jobs, stop: stop, makeState: session.makeRenderer) {
            (renderer: SequenceRenderer, n: Int) throws(PosterError) in
            let i = todo[n]
            let frame = frames[i]
            let output = try renderer.render(frame.scene, motion: frame.motion, digest: true)
            try session.timings.measure("write") { () throws(PosterError) in
                try OutputFile.writeAtomically(output.png, to: directory + "/" + frame.fileName)
            }
            let entry = Manifest.Frame(
                index: frame.index, file: frame.fileName, startMs: frame.startMs, endMs: frame.endMs,
                lineIndex: frame.scene.lineIndex, text: Self.text(of: frame.scene),
                translation: frame.scene.lines.first { $0.role == .current }?.translation,
                sha256: output.sha256, inputSha256: Self.inputDigest(key: key, frame: frame),
                missingGlyphs: output.report.missingGlyphs, boxes: output.report.boxes)
            let done = state.withLock { value -> Int in
                value.results[i] = entry
                value.done += 1
                value.dropped = (max(value.dropped.before, output.report.droppedBefore), max(value.dropped.after, output.report.droppedAfter))
                return value.done
            }
            progress(done, frames.count)
        }
        let (results, dropped) = state.withLock { ($0.results, $0.dropped) }

        let finished = results.compactMap { $0 }
        let complete = finished.count == frames.count
        let manifest = Manifest(kind: kind, width: session.options.preset.width, height: session.options.preset.height,
                                cover: coverPath, lyrics: lyricsPath, tags: session.lyrics.tags, fps: fps,
                                frames: finished, ticks: complete ? ticks : nil, complete: complete)
        if complete, let previous {
            // Frames an earlier run wrote that this plan no longer has: ours to remove.
            let keep = Set(frames.map(\.fileName))
            for old in previous.frames where !keep.contains(old.file) {
                unlink(directory + "/" + old.file)
            }
        }
        if let failure {
            // Record what did get written (best effort: the failure may be a full disk), then
            // report the failure itself.
            try? OutputFile.writeAtomically(manifest.json(), to: manifestPath)
            throw failure
        }
        // The manifest last: whatever it lists is on disk and complete.
        try OutputFile.writeAtomically(manifest.ffconcat(), to: directory + "/" + Self.concatName)
        try OutputFile.writeAtomically(manifest.json(), to: manifestPath)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Result(manifest: manifest, rendered: finished.count - reusedCount, reused: reusedCount,
                      interrupted: !complete, seconds: seconds, dropped: dropped)
    }

    static func inputDigest(key: String, frame: PlannedFrame) -> String {
        Digest.sha256(key + "\n" + frame.fileName + "\n" + frame.fingerprint)
    }

    /// The text a frame shows as current: the lyric line, or "" in an interlude.
    static func text(of scene: Scene) -> String {
        scene.lines.first { $0.role == .current }?.text ?? ""
    }

    private func prepareDirectory() throws(PosterError) {
        try OutputFile.makeFolder(directory)
    }
}
