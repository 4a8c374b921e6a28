import Foundation
import LyricPoster
import LyricsCore
import PosterGraphics
import Locks

/// A whole song on one image: every frame as a thumbnail with its index and time.
package struct ContactSheet {
    package var session: PosterSession
    package var columns: Int
    package var jobs: Int

    package init(session: PosterSession, columns: Int, jobs: Int) {
        self.session = session
        self.columns = max(1, columns)
        self.jobs = max(1, jobs)
    }

    /// Sheet geometry: thumbnail size and where the n-th thumbnail goes.
    struct Grid {
        var thumbWidth: Double
        var thumbHeight: Double
        var columns: Int
        var rows: Int
        let gap = 16.0
        let label = 34.0
        let header = 96.0
        var width: Int { Int((Double(columns) * thumbWidth + Double(columns + 1) * gap).rounded(.up)) }
        var height: Int { Int((header + Double(rows) * (thumbHeight + label + gap) + gap).rounded(.up)) }
        func cell(_ n: Int) -> Rect {
            let column = n % columns, row = n / columns
            return Rect(x: gap + Double(column) * (thumbWidth + gap), y: header + Double(row) * (thumbHeight + label + gap),
                        width: thumbWidth, height: thumbHeight)
        }

        init(frameWidth: Int, frameHeight: Int, count: Int, columns: Int) {
            self.columns = min(columns, max(1, count))
            rows = max(1, (count + self.columns - 1) / self.columns)
            // 270 px on the short side, smaller if the sheet would exceed Cairo's 32767 px limit.
            var scale = min(1, 270 / Double(min(frameWidth, frameHeight)))
            let perRow = Double(frameHeight) * scale + 34 + 16
            if 96 + Double(rows) * perRow > 32_000 {
                scale *= (32_000 - 96) / (Double(rows) * perRow)
            }
            thumbWidth = (Double(frameWidth) * scale).rounded()
            thumbHeight = (Double(frameHeight) * scale).rounded()
        }
    }

    /// Renders the sheet for `frames` and returns it as PNG bytes.
    /// `canvas` drawn down to the size of `cell`, for a grid of pictures (`for` names it in errors).
    static func thumbnail(_ canvas: Canvas, size cell: Rect, for name: String) throws(PosterError) -> Bitmap {
        do {
            let small = try Canvas(width: Int(cell.width), height: Int(cell.height))
            small.draw(canvas, in: Rect(x: 0, y: 0, width: cell.width, height: cell.height))
            try small.finish()
            return small.snapshot()
        } catch {
            throw PosterError(path: name, reason: "\(error)")
        }
    }

    /// A cell's caption: its number, its time, and what the instant is when it is not a line
    /// (`intro`, `interlude`, `outro`).
    static func label(_ frame: PlannedFrame) -> String {
        "#\(frame.index)  \(Timestamp(milliseconds: frame.startMs))" + (frame.scene.state == .lyric ? "" : "  " + frame.scene.state.rawValue)
    }

    package func render(frames: [PlannedFrame], stop: StopFlag,
                       progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws(PosterError) -> [UInt8] {
        let preset = session.options.preset
        let grid = Grid(frameWidth: preset.width, frameHeight: preset.height, count: frames.count, columns: columns)
        let sheet: Canvas
        do { sheet = try Canvas(width: grid.width, height: grid.height) } catch {
            throw PosterError(path: "sheet", reason: "\(error)")
        }
        sheet.fill(Color(red: 0.07, green: 0.07, blue: 0.08))
        // Workers draw each frame at its cell's size and paste it into the sheet under the mutex.
        let shared = Guarded(sheet)
        let done = Guarded(0)
        let failure = Parallel.run(count: frames.count, jobs: jobs, stop: stop, makeState: session.makeRenderer) {
            (renderer: SequenceRenderer, n: Int) throws(PosterError) in
            let cell = grid.cell(n)
            let thumbnail = try renderer.draw(frames[n].scene) { (canvas, _) throws(PosterError) -> Bitmap in
                try Self.thumbnail(canvas, size: cell, for: "sheet")
            }
            shared.withLock { $0.draw(thumbnail, in: cell) }
            progress(done.withLock { $0 += 1; return $0 }, frames.count)
        }
        if let failure { throw failure }
        if stop.isRequested { throw PosterError(path: "sheet", reason: "stopped before the sheet was complete") }
        let compression = session.options.compression
        let session = self.session
        return try shared.withLock { (sheet) throws(PosterError) -> [UInt8] in
            try Self.drawLabels(on: sheet, grid: grid, frames: frames, session: session)
            do { return try sheet.pngData(opaque: true, compression: compression) } catch {
                throw PosterError(path: "sheet", reason: "\(error)")
            }
        }
    }

    private static func drawLabels(on sheet: Canvas, grid: Grid, frames: [PlannedFrame], session: PosterSession) throws(PosterError) {
        let text: TextEngine
        do { text = try TextEngine(fonts: session.fonts) } catch { throw PosterError(path: "fonts", reason: error.description) }
        let lyrics = session.lyrics
        let heading = [lyrics.title, lyrics.artist].compactMap { $0 }.joined(separator: " — ")
        let summary = "\(frames.count) frames · \(session.options.preset.name) \(session.options.preset.width)×\(session.options.preset.height)"
        let families = FontSetup.families(for: session.scenes.language)
        let title = text.layout(heading.isEmpty ? summary : heading,
                                style: TextStyle(families: families, size: 34, weight: 700, language: session.scenes.language,
                                                 alignment: .left), width: Double(grid.width) - 2 * grid.gap, maxLines: 1)
        let sub = text.layout(summary, style: TextStyle(families: families, size: 20, alignment: .left),
                              width: Double(grid.width) - 2 * grid.gap, maxLines: 1)
        do {
            try sheet.draw(title, at: Point(x: grid.gap, y: 14), color: .white)
            if !heading.isEmpty { try sheet.draw(sub, at: Point(x: grid.gap, y: 60), color: Color.white.withAlpha(0.6)) }
            for (n, frame) in frames.enumerated() {
                let cell = grid.cell(n)
                let layout = text.layout(Self.label(frame), style: TextStyle(families: families, size: 18, alignment: .left),
                                         width: cell.width, maxLines: 1)
                try sheet.draw(layout, at: Point(x: cell.minX, y: cell.maxY + 6), color: Color.white.withAlpha(0.8))
            }
        } catch {
            throw PosterError(path: "sheet", reason: "\(error)")
        }
    }
}
