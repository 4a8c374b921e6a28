import Foundation
import LyricPoster
import LyricsCore
import SongSources
import NowPlaying
import PosterGraphics
import Synchronization

/// What `follow` is asked to do.
package struct FollowOptions: Sendable {
    package var render: RenderOptions
    /// Follow only this player (the part after `org.mpris.MediaPlayer2.`).
    package var player: String?
    /// The poster kept current.
    package var output: String
    /// Where lyrics are looked for beyond the song's file (`--lyrics-dir`, `--lrclib-db`).
    package var places = LyricsPlaces()
    /// Publish `org.mpris.MediaPlayer2.lyricposter`.
    package var publish = false
    /// A shell command run after each new poster, with the poster's path as its last argument.
    package var exec: String?
    /// A JSON-lines log of posters and state changes.
    package var events: String?
    /// Told of each song, poster and status as it happens (on the loop's task; must not block).
    package var observer: (@Sendable (LiveEvent) -> Void)?
    /// Where the player's own lyrics (`xesam:asText`) come in the search.
    package var playerLyrics: NowPlayingSong.PlayerLyrics = .first
    /// Print one JSON line per change for status bars (Waybar's custom module format).
    package var waybar = false
    /// Keep this plain text file holding the current line (OBS text sources, conky).
    package var textFile: String?
    /// Shifts every line change by this many milliseconds on the player's clock (positive: later,
    /// for audio that reaches the ears late, such as Bluetooth; negative: read ahead).
    package var offsetMs = 0
    /// Render posters and keep `output` current (`follow`). False: only tell the observer, which
    /// renders what it needs itself (`serve --follow`).
    package var writesPosters = true
    /// How often the poster changes: every line, once a verse or once a song (e-ink panels take
    /// half a minute to refresh).
    package var every: PreparedSong.Every = .line
    /// Write each poster for an e-ink panel of these colours (an indexed PNG; see
    /// ``PosterSession/renderEInk(_:palette:)``).
    package var palette: EInkPalette?
    /// A cover for a track that has none of its own (no file, no art URL, none from the source):
    /// `serve`'s library song of the same title and artist. Given the title, the artist and the
    /// cover byte limit.
    package var libraryCover: (@Sendable (String?, String?, Int) -> (Data, String)?)?

    package init(render: RenderOptions, output: String) {
        self.render = render
        self.output = output
    }

    /// `$XDG_RUNTIME_DIR/lyricposter/now-playing.png`, else `~/.cache/lyricposter/now-playing.png`.
    package static var defaultOutput: String {
        let environment = ProcessInfo.processInfo.environment
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/lyricposter/now-playing.png"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.cache/lyricposter/now-playing.png"
    }
}

/// Keeps a poster of the playing song current, line by line: the follow loop above
/// ``PlayerWatcher``.
///
/// Each song is prepared once (lyrics, cover, backdrop, fonts, the per-line frame plan). The next
/// line's poster is rendered and written beside the target ahead of time, so at the line change it
/// is only renamed into place. Between changes the loop sleeps on a timer set from the player's
/// position anchor and rate; a seek, pause, rate or track change re-reads the position and
/// re-plans at once.
package final class Follower: Sendable {
    private let options: FollowOptions
    /// The session bus, for MPRIS and `--publish`; nil when neither is used.
    private let bus: Bus?
    private let source: any PlayerSource
    private let inputs: AsyncStream<Input>
    private let continuation: AsyncStream<Input>.Continuation
    private let log: @Sendable (String) -> Void

    enum Input: Sendable {
        case player(PlayerState?)
        /// The timer for the boundary into frame `frame` of plan `generation` fired.
        case boundary(generation: Int, frame: Int)
        /// Time to read the player's position (for the clock made at `epoch`).
        case probe(epoch: Int)
        /// The player's position, read exactly (for the clock made at `epoch`).
        case measured(epoch: Int, PositionProbe.Reading)
        /// The bus connection closed under the loop.
        case busClosed
        case stop
    }

    /// Follows the MPRIS players on `bus`.
    /// - Parameter log: one line per state change (stderr, the journal).
    package convenience init(options: FollowOptions, bus: Bus, log: @escaping @Sendable (String) -> Void) {
        self.init(options: options, source: PlayerWatcher(bus: bus, player: options.player, excluding: [PublishedPlayer.name]),
                  bus: bus, log: log)
    }

    /// Follows `source`; `bus` publishes the player (`--publish`) and is watched for closing.
    package init(options: FollowOptions, source: any PlayerSource, bus: Bus?, log: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.source = source
        self.bus = bus
        self.log = log
        (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
    }

    /// Ends ``run()`` (from a signal handler or any thread).
    package func stop() { continuation.yield(.stop) }

    /// Follows players until ``stop()``. Throws only when it cannot start (the source refuses,
    /// such as MPD's password; the output's folder cannot be made, the events file cannot be
    /// opened, the published name is taken).
    package func run() async throws(PosterError) {
        let watcher = source
        do { try watcher.open() } catch { throw PosterError(path: error.what, reason: error.reason) }
        var loop = try Loop(options: options, bus: bus, watcher: watcher, log: log, continuation: continuation)
        let forward = Task { [continuation] in
            for await state in watcher.updates { continuation.yield(.player(state)) }
        }
        // A bus that goes away (a logout, a restarted daemon) ends the loop with an error, so that
        // a service manager restarts it.
        let bus = self.bus
        let closedWatch = Task { [continuation] in
            guard let bus else { return }
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 500_000_000)
                if bus.isClosed { continuation.yield(.busClosed); return }
            }
        }
        watcher.start()
        var closed = false
        for await input in inputs {
            if case .stop = input { break }
            if case .busClosed = input { closed = true; break }
            await loop.handle(input)
        }
        closedWatch.cancel()
        forward.cancel()
        watcher.finish()
        await loop.finish()
        if closed { throw PosterError(path: "D-Bus", reason: "the session bus connection closed") }
    }
}

extension Follower {
    /// The loop's state; every method runs on the loop's task, one input at a time.
    struct Loop {
        let options: FollowOptions
        let log: @Sendable (String) -> Void
        let continuation: AsyncStream<Input>.Continuation
        let outputs: FollowOutputs
        let watcher: any PlayerSource
        var player: PlayerState?
        var song: PreparedSong?
        /// The track `song` was prepared for (also when preparing it failed, so it is not retried).
        var preparedFor: MPRIS.Metadata?
        /// The frame in place at the output, for the current song.
        var shown: Int?
        /// The next frame, being rendered and written beside the output on its own task (so the
        /// loop is free at the line change, when it only renames it into place).
        var ahead: (frame: Int, task: Task<OutputFile.StagedFile?, Never>)?
        var timer: Task<Void, Never>?
        /// The player's clock as corrected from exact readings, and when the next reading is due.
        var corrector = ClockCorrector()
        var probeTimer: Task<Void, Never>?
        /// Counts the clocks the player announced (a reading taken for an older one is dropped).
        var epoch = 0
        var lastProbe: Int64 = 0
        /// A reading far from the clock, waiting for a second one (its residual, µs).
        var suspect: Int64?
        var generation = 0
        /// Songs prepared so far (names each song to the observer).
        var songCount = 0
        var waitingSaid = false

        init(options: FollowOptions, bus: Bus?, watcher: any PlayerSource, log: @escaping @Sendable (String) -> Void,
             continuation: AsyncStream<Input>.Continuation) throws(PosterError) {
            self.options = options
            self.watcher = watcher
            self.log = log
            self.continuation = continuation
            outputs = try FollowOutputs(options: options, bus: bus)
        }

        mutating func handle(_ input: Input) async {
            switch input {
            case .player(let state):
                playerChanged(state)
                await sync(atLeast: nil)
            case .boundary(let generation, let frame):
                guard generation == self.generation else { return }
                await sync(atLeast: frame)
            case .probe(let epoch):
                guard epoch == self.epoch else { return }
                startProbe()
            case .measured(let epoch, let reading):
                guard epoch == self.epoch, var player, player.owner == reading.owner, player.status == .playing else { return }
                // One reading far from the clock may be the player's slip rather than its clock:
                // it is believed when a second reading, taken at once, agrees with it.
                let residual = reading.position - player.clock.position(at: reading.at)
                if abs(residual) > Self.confirmBeyond {
                    guard let suspect, abs(suspect - residual) <= Self.confirmBeyond else {
                        suspect = residual
                        startProbe()
                        return
                    }
                }
                suspect = nil
                if let corrected = corrector.correct(player.clock, reading: reading.position, at: reading.at) {
                    // A reading that never stepped is a lower bound: it only moves the clock on.
                    if reading.exact || corrected.position(at: reading.at) > player.clock.position(at: reading.at) {
                        player.clock = corrected
                    }
                } else {
                    // A jump the player did not announce (a seek without `Seeked`): follow it now.
                    log("\(player.name)'s position jumped to \(reading.position / 1000) ms; following it")
                    player.clock = PlaybackClock(position: reading.position, anchor: reading.at, rate: player.clock.rate, playing: true)
                }
                self.player = player
                await sync(atLeast: nil)
            case .busClosed, .stop:
                break
            }
        }

        /// A reading further than this (µs) from the clock needs a second one to agree.
        static let confirmBeyond: Int64 = 60_000

        /// Reads the player's position off the loop (the probe polls the bus for up to 400 ms).
        private mutating func startProbe() {
            lastProbe = Monotonic.now()
            let watcher = self.watcher, continuation = self.continuation, epoch = self.epoch
            DispatchQueue.global().async {
                if let reading = PositionProbe.read(watcher) { continuation.yield(.measured(epoch: epoch, reading)) }
            }
        }

        mutating func finish() async {
            timer?.cancel()
            probeTimer?.cancel()
            if let ahead { await ahead.task.value?.discard() }
            ahead = nil
            outputs.finish()
        }

        private mutating func playerChanged(_ state: PlayerState?) {
            let before = player
            player = state
            // Every announcement (seek, status, rate, track) re-anchors the clock: readings taken
            // before it no longer apply.
            epoch += 1
            corrector.reset(nominal: state?.clock.rate ?? 1)
            lastProbe = 0
            suspect = nil
            guard let state else {
                if let before {
                    log("\(before.name) is gone; waiting for a player")
                    outputs.event("player-lost", ["player": JSONText.quoted(before.name)])
                } else if !waitingSaid {
                    log(watcher.waitingMessage)
                    outputs.event("waiting", [:])
                }
                outputs.status("waiting", clear: true)
                waitingSaid = true
                // A player that comes back starts from a fresh poster.
                shown = nil
                outputs.mirror(nil, line: nil)
                options.observer?(.status(nil))
                return
            }
            waitingSaid = false
            if before?.owner != state.owner {
                log("following \(state.name)")
                outputs.event("player-found", ["player": JSONText.quoted(state.name)])
            }
            if before?.status != state.status || before?.owner != state.owner {
                outputs.event("status", ["player": JSONText.quoted(state.name), "status": JSONText.quoted(state.status.rawValue)])
                outputs.status(state.status.rawValue.lowercased())
            }
            options.observer?(.status(state))
            outputs.mirror(state, line: nil)
            if let preparedFor, state.metadata.isSameTrack(as: preparedFor) {
                // The same track, perhaps with its own id now: kept, with the id remembered.
                self.preparedFor = state.metadata
            } else {
                preparedFor = state.metadata
                discardAhead()
                shown = nil
                song = nil
                songCount += 1
                // A player between tracks (nothing loaded yet) has no song to show.
                if state.metadata.url != nil || state.metadata.title != nil { prepare(state.metadata) }
                options.observer?(.song(song.map { LiveSong(generation: songCount, song: $0.song, title: $0.title, frames: $0.frames, session: $0.session) }))
            }
        }

        private mutating func prepare(_ metadata: MPRIS.Metadata) {
            var render = options.render
            render.karaoke = false
            let watcher = self.watcher
            let found = NowPlayingSong.find(metadata, places: options.places, playerLyrics: options.playerLyrics,
                                            options: render, sourceCover: { [libraryCover = options.libraryCover] limit in
                watcher.cover(for: metadata, maxBytes: limit)
                    ?? libraryCover?(metadata.title, metadata.artist, limit).map { .success($0) }
            })
            let name = [found.song.lyrics.metadata.artist, found.song.lyrics.metadata.title ?? metadata.title]
                .compactMap { $0 }.joined(separator: " – ")
            // The track as the poster names it: the file's tags first (the player may still report a
            // file name as the title while it reads them).
            let title = found.song.lyrics.metadata.title ?? metadata.title ?? metadata.url ?? ""
            let track = JSONText.quoted(title)
            for problem in found.problems { log(problem) }
            do {
                song = try PreparedSong(found.song, title: title, options: render, every: options.every, palette: options.palette)
            } catch {
                // A cover that does not decode is replaced; anything else leaves the song without a poster.
                log("\(error.description); using a plain backdrop")
                var plain = found.song
                plain.coverData = Data()
                song = try? PreparedSong(plain, title: title, options: render, every: options.every, palette: options.palette)
            }
            guard let song else {
                log("cannot prepare a poster for \(name)")
                return
            }
            log("now playing: \(name.isEmpty ? "(untitled)" : name) (lyrics: \(found.song.lyricsSource), cover: \(found.song.coverData.isEmpty ? "none" : found.song.coverSource))")
            outputs.event("song", ["track": track, "lyrics": JSONText.quoted(found.song.lyricsSource),
                                   "cover": JSONText.quoted(found.song.coverData.isEmpty ? "none" : found.song.coverSource),
                                   "frames": "\(song.frames.count)"])
            if !found.hasLyrics {
                log("no lyrics for \(name.isEmpty ? "the song" : name) (\(found.searched)); showing its title")
                outputs.event("no-lyrics", ["track": track])
            }
        }

        /// Puts the right frame in place for the player's position now, then sets the timer for the
        /// next boundary and renders the next frame ahead. `atLeast`: the frame a timer fired for
        /// (a timer may wake a hair before the boundary).
        private mutating func sync(atLeast: Int?) async {
            timer?.cancel()
            timer = nil
            probeTimer?.cancel()
            probeTimer = nil
            generation += 1
            guard let player, let song else { return }
            let shift = Int64(options.offsetMs) * 1000
            let position = Int((player.clock.position() - shift) / 1000)
            var index = song.frame(at: position)
            if let atLeast, atLeast > index, atLeast < song.frames.count { index = atLeast }
            if index != shown { await show(index, position: position, player: player, song: song) }
            guard player.status == .playing, index + 1 < song.frames.count else { return }
            schedule(index + 1, song: song, clock: player.clock, shift: shift)
            if options.writesPosters, ahead?.frame != index + 1 {
                discardAhead()
                let output = options.output, log = self.log, next = index + 1
                ahead = (next, Task.detached {
                    guard let bytes = song.render(next, log: log) else { return nil }
                    return try? OutputFile.stage(bytes, for: output)
                })
            }
        }

        /// Drops the frame rendered ahead (its file removed once its render ends).
        private mutating func discardAhead() {
            guard let ahead else { return }
            self.ahead = nil
            Task.detached { await ahead.task.value?.discard() }
        }

        private mutating func show(_ index: Int, position: Int, player: PlayerState, song: PreparedSong) async {
            defer {
                if shown == index {
                    options.observer?(.poster(LivePoster(generation: songCount, index: index, frame: song.frames[index],
                                                         text: song.lineText(index), player: player)))
                }
            }
            guard options.writesPosters else {
                shown = index
                return
            }
            var placed = false
            if let ahead, ahead.frame == index {
                // Usually done long before; if not, it is nearer done than a new render would be.
                placed = (try? await ahead.task.value?.commit()) != nil
                self.ahead = nil
            }
            if !placed {
                guard let bytes = song.render(index, log: log) else { return }
                do { try OutputFile.writeAtomically(bytes, to: options.output) } catch {
                    log(error.description)
                    return
                }
            }
            shown = index
            outputs.placed(frame: song.frames[index], index: index, position: Int(player.clock.position() / 1000), player: player,
                           track: song.title, line: song.lineText(index),
                           next: index + 1 < song.frames.count ? song.lineText(index + 1) : nil)
        }

        /// Sets the timer for the boundary into `frame`, and the reading of the player's clock
        /// before it: 450 ms ahead of the boundary (time for a probe and a correction), or in 3 s
        /// during a long line; none when the last reading was under half a second ago.
        private mutating func schedule(_ frame: Int, song: PreparedSong, clock: PlaybackClock, shift: Int64) {
            guard let at = clock.instant(of: Int64(song.frames[frame].startMs) * 1000 + shift) else { return }
            let now = Monotonic.now()
            let delay = max(0, at - now)
            let generation = self.generation, continuation = self.continuation
            timer = Task {
                do { try await Task.sleep(nanoseconds: UInt64(delay)) } catch { return }
                continuation.yield(.boundary(generation: generation, frame: frame))
            }
            let probeAt = min(at - 450_000_000, now + 3_000_000_000)
            guard probeAt > now, probeAt - lastProbe >= 500_000_000 else { return }
            let epoch = self.epoch
            probeTimer = Task {
                do { try await Task.sleep(nanoseconds: UInt64(probeAt - now)) } catch { return }
                continuation.yield(.probe(epoch: epoch))
            }
        }
    }
}

/// One followed song, ready to render: the session (cover, backdrop, fonts) and its per-line plan.
package struct PreparedSong: Sendable {
    /// When a new poster is made.
    package enum Every: String, Sendable, CaseIterable {
        /// At every line (and interlude).
        case line
        /// At the first line of each verse: the song's start, then each line after a gap or a
        /// blank line (the interludes themselves make no poster).
        case verse
        /// Once, at the song's start.
        case song
    }

    /// One render at a time (the loop and the task rendering ahead share the session); a pthread
    /// mutex, which ThreadSanitizer sees.
    let lock = NSLock()
    let song: ResolvedSong
    let session: PosterSession
    let frames: [PlannedFrame]
    /// The title events name the song by.
    let title: String

    let palette: EInkPalette?

    init(_ song: ResolvedSong, title: String, options: RenderOptions, every: Every = .line, palette: EInkPalette? = nil) throws(PosterError) {
        self.title = title
        self.song = song
        self.palette = palette
        session = try PosterSession(song: song, options: options, allowUntitled: true)
        frames = Self.thinned(FramePlan.perLine(session.scenes), every: every, lyrics: session.lyrics)
    }

    /// `frames` (a per-line plan) kept `every` line, verse or song: the first line of each verse
    /// (the first sung line, and each one after an interlude or a blank line), or of the song
    /// alone; the first poster from the song's start, each one on screen until the next.
    package static func thinned(_ frames: [PlannedFrame], every: Every, lyrics: Lyrics) -> [PlannedFrame] {
        guard every != .line, let first = frames.first, let last = frames.last else { return frames }
        var starts: [Int] = []
        for k in frames.indices where frames[k].scene.state == .lyric {
            guard let line = frames[k].scene.lineIndex else { continue }
            let afterGap = k == 0 || frames[k - 1].scene.state != .lyric
            let afterBlank = line > 0 && lyrics.lines.indices.contains(line - 1) && !lyrics.lines[line - 1].isSung
            if starts.isEmpty || afterGap || afterBlank { starts.append(k) }
            if every == .song { break }
        }
        guard !starts.isEmpty else {
            var whole = first
            whole.endMs = last.endMs
            return [whole]
        }
        return starts.enumerated().map { n, k in
            var frame = frames[k]
            if n == 0 { frame.startMs = first.startMs }
            frame.endMs = n + 1 < starts.count ? frames[starts[n + 1]].startMs : last.endMs
            return frame
        }
    }

    /// The frame on screen at `ms`: the last one starting at or before it (the first before any).
    func frame(at ms: Int) -> Int {
        var low = 0, high = frames.count - 1
        guard high > 0 else { return 0 }
        while low < high {
            let mid = (low + high + 1) / 2
            if frames[mid].startMs <= ms { low = mid } else { high = mid - 1 }
        }
        return low
    }

    func render(_ index: Int, log: (String) -> Void) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        do {
            if let palette { return try session.renderEInk(frames[index].scene, palette: palette).png }
            return try session.render(frames[index].scene).png
        } catch {
            log(error.description)
            return nil
        }
    }

    /// The current line's text (lines sung together joined by " / "), nil in an interlude.
    func lineText(_ index: Int) -> String? { frames[index].scene.currentText }
}
