import Dispatch
import Foundation
import PosterGraphics
import Locks

/// Renders posters. Make one and share it: any number of tasks and threads may call it at once.
///
/// The renderer holds the fonts (a fontconfig configuration of its own, which leaves the host
/// program's current configuration alone) and bounds its work: at most
/// ``maxConcurrentRenders`` preparations and renders run at once, each on a thread of Dispatch's
/// pool, and the others wait their turn. It writes no file outside the cache folder it is given,
/// if any, and changes no process-wide state.
///
/// ```swift
/// let renderer = try PosterRenderer()
/// let song = try Song(lyrics: lrcData, cover: coverData, title: "Night Drive")
/// let poster = try await renderer.render(song, at: .seconds(83.45), style: PosterStyle(preset: .square))
/// try poster.pngData().write(to: url)
/// ```
///
/// Rendering one song at many instants: ``prepare(_:style:)`` once, then
/// ``PreparedSong/render(at:)`` as often as needed.
///
/// Every call is `async`; each has a synchronous twin, named with `Blocking`, for code that is
/// not async (a command-line tool): it works on the calling thread, which waits its turn.
public final class PosterRenderer: Sendable {
    /// The fonts text may use.
    public let fonts: FontOptions
    /// Preparations and renders that run at once; the others wait.
    public let maxConcurrentRenders: Int
    /// Where prepared backdrops are kept between runs, if anywhere.
    public let backdropCache: URL?
    let library: FontLibrary
    let limiter: WorkLimiter

    /// - Parameters:
    ///   - fonts: the bundled fonts (the default), plus folders of your own, plus the machine's.
    ///   - backdropCache: a folder of yours where prepared backdrops (a cover decoded, scaled and
    ///     blurred for a canvas and theme, most of a first poster's time) are kept between runs,
    ///     256 MiB at most, the least recently used removed first; nil (the default): none.
    ///   - maxConcurrentRenders: at least 1; by default the number of cores.
    public init(fonts: FontOptions = FontOptions(), backdropCache: URL? = nil,
                maxConcurrentRenders: Int = ProcessInfo.processInfo.activeProcessorCount) throws(PosterError) {
        self.fonts = fonts
        self.backdropCache = backdropCache
        self.maxConcurrentRenders = max(1, maxConcurrentRenders)
        library = try FontSetup.library(fonts)
        limiter = WorkLimiter(slots: self.maxConcurrentRenders)
    }

    /// ``prepare(_:style:)`` on the calling thread.
    public func prepareBlocking(_ song: Song, style: PosterStyle = PosterStyle()) throws(PosterError) -> PreparedSong {
        try limiter.blocking { () throws(PosterError) in try self.prepareNow(song, style: style) }
    }

    /// Prepares `song` in `style` for any number of posters: the lyrics laid out, the cover
    /// decoded and its backdrop made (most of a first poster's time).
    public func prepare(_ song: Song, style: PosterStyle = PosterStyle()) async throws(PosterError) -> PreparedSong {
        try await limiter.run { () throws(PosterError) in try self.prepareNow(song, style: style) }
    }

    /// ``render(_:at:style:)`` on the calling thread.
    public func renderBlocking(_ song: Song, at time: Timestamp, style: PosterStyle = PosterStyle()) throws(PosterError) -> Poster {
        try prepareBlocking(song, style: style).renderBlocking(at: time)
    }

    /// The poster of `song` at `time`. To render many instants of one song, prepare it once.
    public func render(_ song: Song, at time: Timestamp, style: PosterStyle = PosterStyle()) async throws(PosterError) -> Poster {
        try await prepare(song, style: style).render(at: time)
    }

    /// ``card(_:lines:style:)`` on the calling thread.
    public func cardBlocking(_ song: Song, lines: ClosedRange<Int>, style: PosterStyle = PosterStyle()) throws(PosterError) -> Poster {
        try prepareBlocking(song, style: style).cardBlocking(lines: lines)
    }

    /// A share card of the song's lines `lines` (numbered from 1, as `lyricposter inspect --text`
    /// shows them), all of them whole: ``PosterError/cardDoesNotFit(path:lines:width:height:)``
    /// when they do not fit the canvas.
    public func card(_ song: Song, lines: ClosedRange<Int>, style: PosterStyle = PosterStyle()) async throws(PosterError) -> Poster {
        try await prepare(song, style: style).card(lines: lines)
    }

    private func prepareNow(_ song: Song, style: PosterStyle) throws(PosterError) -> PreparedSong {
        let options = style.options(for: song, fonts: fonts, backdropCache: backdropCache?.path)
        let session = try PosterSession(song: song.resolved, options: options, fonts: library)
        return PreparedSong(song: song, style: style, session: session, limiter: limiter)
    }
}

/// One song prepared in one style: posters at any instant, and cards, cost only layout, drawing
/// and encoding. Share it between tasks like its ``PosterRenderer``, whose bound it keeps.
public final class PreparedSong: Sendable {
    public let song: Song
    public let style: PosterStyle
    /// Problems that did not stop the work (a font that could not be read, a guessed encoding).
    public var warnings: [String] { session.warnings }
    let session: PosterSession
    let limiter: WorkLimiter

    init(song: Song, style: PosterStyle, session: PosterSession, limiter: WorkLimiter) {
        self.song = song
        self.style = style
        self.session = session
        self.limiter = limiter
    }

    /// ``render(at:)`` on the calling thread.
    public func renderBlocking(at time: Timestamp) throws(PosterError) -> Poster {
        try limiter.blocking { () throws(PosterError) in try self.poster(at: time) }
    }

    /// The poster at `time`.
    public func render(at time: Timestamp) async throws(PosterError) -> Poster {
        try await limiter.run { () throws(PosterError) in try self.poster(at: time) }
    }

    /// ``card(lines:)-(ClosedRange<Int>)`` on the calling thread.
    public func cardBlocking(lines: ClosedRange<Int>) throws(PosterError) -> Poster {
        try limiter.blocking { () throws(PosterError) in try self.card(.numbers([lines])) }
    }

    /// A share card of lines `lines` (numbered from 1).
    public func card(lines: ClosedRange<Int>) async throws(PosterError) -> Poster {
        try await limiter.run { () throws(PosterError) in try self.card(.numbers([lines])) }
    }

    /// ``card(lines:)-([ClosedRange<Int>])`` on the calling thread.
    public func cardBlocking(lines: [ClosedRange<Int>]) throws(PosterError) -> Poster {
        try limiter.blocking { () throws(PosterError) in try self.card(.numbers(lines)) }
    }

    /// A share card of the lines in `lines` (numbered from 1; ranges in ascending order, not
    /// overlapping), with "…" between ranges that leave lines out: `[3...3, 7...8]`.
    public func card(lines: [ClosedRange<Int>]) async throws(PosterError) -> Poster {
        try await limiter.run { () throws(PosterError) in try self.card(.numbers(lines)) }
    }

    private func poster(at time: Timestamp) throws(PosterError) -> Poster {
        let (pixels, report) = try session.renderPixels(at: time)
        return Poster(pixels, report: report)
    }

    private func card(_ choice: LineChoice) throws(PosterError) -> Poster {
        guard case .numbers(let ranges) = choice, let first = ranges.first, first.lowerBound >= 1 else {
            throw .lineChoice(path: song.lyricsName, .other("lines are numbered from 1"))
        }
        guard zip(ranges, ranges.dropFirst()).allSatisfy({ $0.upperBound < $1.lowerBound }) else {
            throw .lineChoice(path: song.lyricsName, .other("line ranges must be in ascending order and not overlap"))
        }
        let (pixels, report) = try session.renderCardPixels(choice)
        return Poster(pixels, report: report)
    }
}

/// Runs at most `slots` pieces of work at once, on Dispatch's threads for async callers and on
/// the caller's own thread for synchronous ones; the others wait in order of arrival, an async
/// caller without holding a thread. (The server's renders wait here too.)
package final class WorkLimiter: Sendable {
    private enum Waiter {
        case task(CheckedContinuation<Void, Never>)
        case thread(DispatchSemaphore)
    }

    private let state: Guarded<(free: Int, waiting: [Waiter])>
    private let queue = DispatchQueue(label: "LyricPoster.PosterRenderer", attributes: .concurrent)

    package init(slots: Int) {
        state = Guarded((slots, []))
    }

    /// Runs `work` on this thread once a slot is free.
    package func blocking<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
        let semaphore = state.withLock { state -> DispatchSemaphore? in
            if state.free > 0 {
                state.free -= 1
                return nil
            }
            let semaphore = DispatchSemaphore(value: 0)
            state.waiting.append(.thread(semaphore))
            return semaphore
        }
        semaphore?.wait()
        defer { release() }
        return try work()
    }

    /// Runs `work` on one of Dispatch's threads once a slot is free; the calling task waits
    /// without holding a thread.
    package func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        await acquire()
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<T, E>, Never>) in
            queue.async {
                defer { self.release() }
                done.resume(returning: Result { () throws(E) -> T in try work() })
            }
        }
        return try result.get()
    }

    private func acquire() async {
        let free = state.withLock { state -> Bool in
            guard state.free > 0 else { return false }
            state.free -= 1
            return true
        }
        if free { return }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                // A slot may have come free since the first look.
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiting.append(.task(waiter))
                return false
            }
            if now { waiter.resume() }
        }
    }

    /// Hands the slot to the first waiter, or frees it.
    private func release() {
        let next = state.withLock { state -> Waiter? in
            if state.waiting.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        switch next {
        case .task(let waiter): waiter.resume()
        case .thread(let semaphore): semaphore.signal()
        case nil: break
        }
    }
}
