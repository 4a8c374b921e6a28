import Foundation
import NowPlaying

/// The server's jukebox (`subsonic-jukebox+http://USER@HOST`): a player on the server's own
/// machine, which any Subsonic client may drive with `jukeboxControl` and which this source both
/// follows and controls.
///
/// What the API gives shapes what is done here:
/// - The position comes in whole seconds. A poll that agrees with the clock already held (within
///   its second) keeps it, so that the clock set by a control of ours, which knows the exact
///   offset, is not replaced by a coarser one; a jukebox started elsewhere is placed at the middle
///   of its second (at most half a second off).
/// - A seek is `skip` to the current index with an offset in whole seconds: the asked position is
///   rounded to the nearest second.
/// - `stop` pauses. Some servers (Supysonic) forget the position on `stop`, and their `start`
///   plays the song from its beginning: then `start` is followed by a `skip` back to where it was
///   paused here.
/// - A stopped jukebox is not seeked (409): on those servers a `skip` would start it from the
///   beginning of the song, not at the asked place.
extension SubsonicSource {
    /// The jukebox as last seen, and the clock this source holds for its song.
    struct JukeboxState {
        var track: JukeboxTrack?
        var clock: PlaybackClock?
        /// Where a pause from here left the song (µs), to resume there.
        var pausedAt: Int64?
        /// Bumped by every control: a poll asked before it is stale and not published.
        var generation = 0
    }

    /// A song at its place in the jukebox's queue (the same song twice is two tracks).
    struct JukeboxTrack: Equatable {
        var index: Int
        var id: String
    }

    /// What `jukeboxControl` answers (`jukeboxPlaylist` for `get`, `jukeboxStatus` otherwise).
    package struct Jukebox {
        /// The queue's songs (`get` only), at most ``SubsonicSource/maxJukeboxEntries``.
        package var entries: [[String: Any]]
        package var index: Int
        package var playing: Bool
        /// In whole seconds.
        package var seconds: Int64

        /// The song playing (or to play), when the index is in the queue and it has an id.
        package var current: (entry: [String: Any], id: String)? { song(at: index) }

        /// The queue's song at `index`, when there is one with an id.
        package func song(at index: Int) -> (entry: [String: Any], id: String)? {
            guard entries.indices.contains(index), let id = entries[index]["id"].map({ "\($0)" }) else { return nil }
            return (entries[index], id)
        }
    }

    /// Longer queues are read up to here.
    package static let maxJukeboxEntries = 10_000

    /// The jukebox in a `jukeboxControl` answer; nil when the answer holds none.
    package static func jukebox(in answer: [String: Any]) -> Jukebox? {
        guard let body = (answer["jukeboxPlaylist"] ?? answer["jukeboxStatus"]) as? [String: Any],
              let index = number(body["currentIndex"]), index.isFinite, abs(index) < 1e9 else { return nil }
        let seconds = number(body["position"]).flatMap { $0.isFinite && $0 >= 0 && $0 < 1e7 ? Int64($0) : nil } ?? 0
        let playing = (body["playing"] as? Bool) ?? ((body["playing"] as? String) == "true")
        let entries = ((body["entry"] as? [[String: Any]]) ?? []).prefix(maxJukeboxEntries)
        return Jukebox(entries: Array(entries), index: Int(index), playing: playing, seconds: seconds)
    }

    /// The clock for a jukebox that reports `seconds` (whole) at monotonic `at`: `previous` (this
    /// source's clock for the same track) when it agrees, else one placed in the reported second.
    /// A stopped jukebox that says 0 stands where `pausedAt` (or `previous`) left it.
    package static func jukeboxClock(seconds: Int64, playing: Bool, at: Int64, previous: PlaybackClock?, pausedAt: Int64?) -> PlaybackClock {
        let reported = seconds * 1_000_000
        guard playing else {
            let position = reported > 0 ? reported : (pausedAt ?? previous?.position(at: at) ?? 0)
            if let previous, !previous.playing, previous.position == position { return previous }
            return PlaybackClock(position: position, anchor: at, rate: 1, playing: false)
        }
        if let previous, previous.playing {
            let predicted = previous.position(at: at)
            // Within the reported second, less a little for the request's own time.
            if predicted >= reported - 250_000, predicted < reported + 1_250_000 {
                return predicted < reported ? PlaybackClock(position: reported, anchor: at, rate: 1, playing: true) : previous
            }
        }
        return PlaybackClock(position: reported + 500_000, anchor: at, rate: 1, playing: true)
    }

    /// The controls a jukebox offers in this state.
    package static func jukeboxControls(_ jukebox: Jukebox) -> PlayerControls {
        var controls: PlayerControls = jukebox.playing ? [.pause, .seek] : [.play]
        if jukebox.index + 1 < jukebox.entries.count { controls.insert(.next) }
        if jukebox.index > 0 { controls.insert(.previous) }
        return controls
    }

    // MARK: - Following

    func runJukebox() {
        readExtensions()
        while !state.withLock({ $0.stopped }) {
            pollJukebox()
            Thread.sleep(forTimeInterval: pollInterval)
        }
    }

    /// Asks the jukebox's queue and state once and publishes them (unless a control came between).
    func pollJukebox() {
        let generation = state.withLock { $0.jukebox.generation }
        // A server that was down when following began: its login is learnt now. While it still
        // does not answer, the ping's failure is the poll's (no second call to wait 3 s for).
        if !state.withLock({ $0.negotiated }), case let silent?? = try? negotiate() {
            if failed("ping", silent) { send(nil, ifGeneration: generation) }
            return
        }
        let asked = Monotonic.now()
        switch call("jukeboxControl", ["action": "get"]) {
        case .success(let answer):
            answered()
            publishJukebox(Self.jukebox(in: answer), at: asked, generation: generation)
        case .failure(let error):
            if failed("jukeboxControl", error.description) { send(nil, ifGeneration: generation) }
        }
    }

    private func publishJukebox(_ jukebox: Jukebox?, at asked: Int64, generation: Int) {
        guard let jukebox, let (entry, id) = jukebox.current.map({ ($0.entry, $0.id) }) else {
            // Nothing queued, or the queue played to its end.
            send(nil, ifGeneration: generation)
            return
        }
        let lyrics = songLyrics(entry, id: id)
        let current = state.withLock { state -> PlayerState? in
            guard state.jukebox.generation == generation else { return nil }
            let track = JukeboxTrack(index: jukebox.index, id: id)
            let same = state.jukebox.track == track
            let clock = Self.jukeboxClock(seconds: jukebox.seconds, playing: jukebox.playing, at: asked,
                                          previous: same ? state.jukebox.clock : nil, pausedAt: same ? state.jukebox.pausedAt : nil)
            if !same || jukebox.playing { state.jukebox.pausedAt = nil }
            state.jukebox.track = track
            state.jukebox.clock = clock
            var metadata = Self.metadata(entry, id: id, lyrics: lyrics?.text)
            metadata.asTextSource = lyrics?.source
            return PlayerState(name: Self.jukeboxName, owner: Self.jukeboxName, status: jukebox.playing ? .playing : .paused,
                               metadata: metadata, clock: clock, controls: Self.jukeboxControls(jukebox))
        }
        // A control between here and the lock above makes it stale: send checks again.
        if let current { send(current, ifGeneration: generation) }
    }

    /// The jukebox as a player, in logs and pages.
    static let jukeboxName = "subsonic:jukebox"

    // MARK: - Controlling

    /// Carries out `command` on the jukebox as it is now (asked afresh), then publishes its state.
    func controlJukebox(_ command: PlayerCommand) throws(ControlError) {
        if !state.withLock({ $0.negotiated }) {
            let silent: String?
            do { silent = try negotiate() } catch { throw .cannot(error.description) }
            if let silent { throw .unavailable("\(address): \(silent)") }
        }
        let jukebox = try jukeboxCall("get")
        guard let current = jukebox.current else { throw .cannot("nothing is queued on the jukebox of \(address)") }
        let track = JukeboxTrack(index: jukebox.index, id: current.id)
        let (known, pausedAt) = state.withLock { state -> (PlaybackClock?, Int64?) in
            state.jukebox.track == track ? (state.jukebox.clock, state.jukebox.pausedAt) : (nil, nil)
        }
        let here = known?.position() ?? jukebox.seconds * 1_000_000
        var command = command
        if command == .toggle { command = jukebox.playing ? .pause : .play }
        switch command {
        case .play:
            guard !jukebox.playing else { break }
            let sent = Monotonic.now()
            let started = try jukeboxCall("start")
            let anchor = (sent + Monotonic.now()) / 2
            let reported = started.seconds * 1_000_000
            if let pausedAt, pausedAt >= 1_000_000, reported + 1_000_000 < pausedAt {
                // The server started the song from its beginning (Supysonic): back to the pause.
                try skip(to: pausedAt, of: track)
            } else {
                let resumed = pausedAt.flatMap { abs(reported - $0) < 1_000_000 ? $0 : nil } ?? reported
                set(track, PlaybackClock(position: resumed, anchor: anchor, rate: 1, playing: true), pausedAt: nil)
            }
        case .pause:
            guard jukebox.playing else { break }
            var stopped = try jukeboxCall("stop")
            // Supysonic stops its player a moment after it answers: the pause is taken once the
            // jukebox says so (at most 2 s), so that the state published next is the paused one.
            let deadline = Monotonic.now() + 2_000_000_000
            while stopped.playing, Monotonic.now() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
                stopped = try jukeboxCall("status")
            }
            set(track, PlaybackClock(position: here, anchor: Monotonic.now(), rate: 1, playing: false), pausedAt: here)
        case .next:
            guard jukebox.index + 1 < jukebox.entries.count else { throw .cannot("the jukebox plays the last song of its queue: there is no next") }
            try skip(to: 0, of: JukeboxTrack(index: jukebox.index + 1, id: jukebox.song(at: jukebox.index + 1)?.id ?? ""))
        case .previous:
            guard jukebox.index > 0 else { throw .cannot("the jukebox plays the first song of its queue: there is no previous") }
            try skip(to: 0, of: JukeboxTrack(index: jukebox.index - 1, id: jukebox.song(at: jukebox.index - 1)?.id ?? ""))
        case .seek(let position):
            guard jukebox.playing else {
                throw .cannot("the jukebox is stopped: play it first (a Subsonic jukebox's skip starts a stopped song from its beginning)")
            }
            // The length as the song's metadata reads it (a hostile duration is none, not a trap).
            if let length = Self.metadata(current.entry, id: current.id, lyrics: nil).length, length > 0, position > length {
                throw .pastEnd(position: position, length: length)
            }
            try skip(to: position, of: track)
        case .toggle:
            break
        }
        pollJukebox()
    }

    /// `skip` to `track` at `position` (µs), rounded to the nearest second as the API takes it; the
    /// clock is anchored on the call.
    private func skip(to position: Int64, of track: JukeboxTrack) throws(ControlError) {
        let seconds = (position + 500_000) / 1_000_000
        let sent = Monotonic.now()
        _ = try jukeboxCall("skip", ["index": String(track.index), "offset": String(seconds)])
        let anchor = (sent + Monotonic.now()) / 2
        set(track, PlaybackClock(position: seconds * 1_000_000, anchor: anchor, rate: 1, playing: true), pausedAt: nil)
    }

    /// Holds `clock` for `track` and makes any poll in flight stale.
    private func set(_ track: JukeboxTrack, _ clock: PlaybackClock, pausedAt: Int64?) {
        state.withLock { state in
            state.jukebox.generation += 1
            state.jukebox.track = track
            state.jukebox.clock = clock
            state.jukebox.pausedAt = pausedAt
        }
    }

    /// One `jukeboxControl` call. A server that does not answer, or whose jukebox is not running,
    /// is unavailable (503); one that refuses is `cannot` (409), with its words.
    private func jukeboxCall(_ action: String, _ parameters: [String: String] = [:]) throws(ControlError) -> Jukebox {
        var parameters = parameters
        parameters["action"] = action
        switch call("jukeboxControl", parameters) {
        case .success(let answer):
            guard let jukebox = Self.jukebox(in: answer) else { throw .unavailable("\(address): jukeboxControl \(action) gave no jukebox state") }
            return jukebox
        case .failure(.refused(let code, let message)) where code != 0:
            throw .cannot("\(address) refused jukeboxControl \(action): \(message) (error \(code))")
        case .failure(let error):
            throw .unavailable("\(address): jukeboxControl \(action): \(error.description)")
        }
    }
}
