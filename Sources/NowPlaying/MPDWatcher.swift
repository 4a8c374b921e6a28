import Foundation
import Locks

/// Follows an MPD server: `idle player` on a connection of its own wakes it on every play, pause,
/// seek and song change, and `status` and `currentsong` on a second connection give the state,
/// the position (`elapsed`, to the millisecond) and the song. The loop's probe reads `status`
/// before each line change and every few seconds, so the clock is corrected as for MPRIS.
///
/// One thread of its own (the blocking `idle`); when MPD goes away (a restart) the player is lost
/// and the watcher connects again with a growing pause (0.25 s doubling to 5 s).
///
/// The song's file is reachable when the music directory is known (`--music-dir`, or MPD's own
/// `config` answer over a local socket): the loop then reads its sidecar, tags and covers as for
/// any file. Otherwise the track is `mpd:<file>` and the cover comes over the protocol
/// (``cover(for:maxBytes:)``: `readpicture`, then `albumart`).
package final class MPDWatcher: PlayerSource {
    package let updates: AsyncStream<PlayerState?>
    private let continuation: AsyncStream<PlayerState?>.Continuation
    package let address: MPDAddress
    private let log: @Sendable (String) -> Void
    /// The command connection: `status`, `currentsong`, pictures. A connection is not thread-safe:
    /// it is only used inside the lock, by one thread at a time.
    private let commands = Guarded<MPDConnection?>(nil)
    private let state: Guarded<State>

    private struct State {
        var stopped = false
        /// The idle connection's socket, shut down by ``finish()`` to end its wait.
        var idleSocket: Int32 = -1
        /// Counts connections: a player after a reconnect is another owner.
        var generation = 0
        var musicDirectory: String?
        var connected = false
    }

    /// The pause before connecting again grows to this (seconds).
    static let maxBackoff = 5.0

    /// - Parameters:
    ///   - musicDirectory: where MPD's song paths start (its `music_directory`); nil: asked of MPD
    ///     over a local socket, else songs are not read as files.
    ///   - log: one line per connection change.
    package init(address: MPDAddress, musicDirectory: String?, log: @escaping @Sendable (String) -> Void) {
        self.address = address
        self.log = log
        state = Guarded(State(musicDirectory: musicDirectory.map { $0.hasSuffix("/") && $0.count > 1 ? String($0.dropLast()) : $0 }))
        (updates, continuation) = AsyncStream.makeStream(of: PlayerState?.self, bufferingPolicy: .bufferingNewest(64))
    }

    package var waitingMessage: String { "waiting for MPD at \(address)" }

    /// A wrong password is an error now, not a wait; an MPD that is not running is waited for.
    package func open() throws(PlayerSourceError) {
        do {
            let connection = try MPDConnection(address)
            commands.withLock { $0 = connection }
        } catch {
            if case .password = error { throw PlayerSourceError(address.description, error.description) }
            if case .malformed = error { throw PlayerSourceError(address.description, error.description) }
        }
    }

    package func start() {
        let thread = Thread { [self] in run() }
        thread.name = "lyricposter-mpd"
        thread.start()
    }

    package func finish() {
        let socket = state.withLock { state -> Int32 in
            state.stopped = true
            return state.idleSocket
        }
        if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
        continuation.finish()
    }

    package func readPosition() -> (owner: String, position: Int64, at: Int64, took: Int64)? {
        let generation = state.withLock { $0.connected ? $0.generation : nil }
        guard let generation else { return nil }
        let before = Monotonic.now()
        guard let pairs = try? withCommands({ (c) throws(MPDError) in try c.command("status") }),
              let elapsed = Self.value("elapsed", in: pairs).flatMap(Self.microseconds) else { return nil }
        let after = Monotonic.now()
        return (Self.owner(generation), elapsed, before + (after - before) / 2, after - before)
    }

    package func cover(for metadata: MPRIS.Metadata, maxBytes: Int) -> Result<(Data, String), PlayerSourceError>? {
        guard let url = metadata.url, url.hasPrefix(Self.trackScheme) else { return nil }
        let file = String(url.dropFirst(Self.trackScheme.count))
        for command in ["readpicture", "albumart"] {
            do throws(MPDError) {
                if let data = try withCommands({ (c) throws(MPDError) in try c.picture(command, uri: file, maxBytes: maxBytes) }) {
                    return .success((data, "mpd:\(command)"))
                }
            } catch {
                return .failure(PlayerSourceError("\(address) \(command) \(file)", error.description))
            }
        }
        return nil
    }

    /// Carries out `command` with MPD's own commands on the command connection: `pause 0`/`pause 1`
    /// (`play` from a stop), `next`, `previous`, `seekcur` (to the millisecond). What it cannot do
    /// in its state (a seek with nothing playing, play with an empty queue) is refused without
    /// asking; MPD's own refusals (ACK) are passed on. A connection that fails is tried once more
    /// (MPD closes idle clients), then the control is ``ControlError/unavailable(_:)``.
    package func control(_ command: PlayerCommand) throws(ControlError) {
        let address = self.address
        let refusal: ControlError?
        do throws(MPDError) {
            refusal = try withCommands { (connection) throws(MPDError) -> ControlError? in
                let status = try connection.command("status")
                let state = Self.value("state", in: status) ?? "stop"
                let queued = (Int(Self.value("playlistlength", in: status) ?? "") ?? 0) > 0
                let nothing = ControlError.cannot("nothing is playing on MPD at \(address)")
                switch command {
                case .play where state == "stop", .toggle where state == "stop":
                    guard queued else { return .cannot("the queue of MPD at \(address) is empty") }
                    try connection.command("play")
                case .play, .toggle where state == "pause":
                    if state == "pause" { try connection.command("pause", "0") }
                case .pause, .toggle:
                    guard state != "stop" else { return nothing }
                    if state == "play" { try connection.command("pause", "1") }
                case .next, .previous:
                    guard state != "stop" else { return nothing }
                    try connection.command(command.action)
                case .seek(let position):
                    guard state != "stop" else { return nothing }
                    if let length = Self.value("duration", in: status).flatMap(Self.microseconds), length > 0, position > length {
                        return .pastEnd(position: position, length: length)
                    }
                    try connection.command("seekcur", String(format: "%.3f", Double(position) / 1_000_000))
                }
                return nil
            }
        } catch {
            switch error {
            case .refused, .password: throw .cannot(error.description)
            case .unreachable, .malformed: throw .unavailable("MPD at \(address): \(error.description)")
            }
        }
        if let refusal { throw refusal }
    }

    // MARK: - The watching thread

    private var stopped: Bool { state.withLock { $0.stopped } }

    private func run() {
        var delay = 0.25
        var lostSaid = false
        while !stopped {
            do throws(MPDError) {
                let idle = try MPDConnection(address, timeout: 0)
                let (generation, stop) = state.withLock { state in
                    state.idleSocket = idle.socket
                    state.generation += 1
                    state.connected = true
                    return (state.generation, state.stopped)
                }
                if stop { break }
                if state.withLock({ $0.musicDirectory }) == nil, address.isLocalSocket,
                   let pairs = try? withCommands({ (c) throws(MPDError) in try c.command("config") }), let folder = Self.value("music_directory", in: pairs) {
                    state.withLock { $0.musicDirectory = folder }
                }
                log("connected to MPD \(idle.version) at \(address)" + (lostSaid ? " again" : ""))
                lostSaid = false
                delay = 0.25
                try publish(generation: generation)
                while !stopped {
                    try idle.command("idle", "player")
                    try publish(generation: generation)
                }
            } catch {
                guard !stopped else { break }
                let wasConnected = state.withLock { state -> Bool in
                    defer { state.connected = false; state.idleSocket = -1 }
                    return state.connected
                }
                commands.withLock { $0 = nil }
                if wasConnected {
                    continuation.yield(nil)
                    log("lost MPD at \(address) (\(error.description)); connecting again")
                    lostSaid = true
                } else if case .password = error {
                    log("\(address): \(error.description)")
                }
                Thread.sleep(forTimeInterval: delay)
                delay = min(delay * 2, Self.maxBackoff)
            }
        }
        state.withLock { $0.connected = false; $0.idleSocket = -1 }
    }

    /// Reads `status` and `currentsong` and sends the player's state.
    private func publish(generation: Int) throws(MPDError) {
        let before = Monotonic.now()
        let (status, song) = try withCommands { connection throws(MPDError) in
            (try connection.command("status"), try connection.command("currentsong"))
        }
        let after = Monotonic.now()
        let folder = state.withLock { $0.musicDirectory }
        continuation.yield(Self.playerState(status: status, song: song, musicDirectory: folder, owner: Self.owner(generation),
                                            at: before + (after - before) / 2))
    }

    /// Runs `body` on the command connection, connecting first when there is none, and once more
    /// when the connection fails (MPD closes an idle client after its `connection_timeout`).
    private func withCommands<T>(_ body: (MPDConnection) throws(MPDError) -> T) throws(MPDError) -> T {
        let address = self.address
        return try commands.withLock { connection throws(MPDError) -> T in
            if let open = connection {
                do throws(MPDError) { return try body(open) } catch {
                    guard case .unreachable = error else { throw error }
                    connection = nil
                }
            }
            let fresh = try MPDConnection(address)
            connection = fresh
            return try body(fresh)
        }
    }

    // MARK: - Reading the answers

    /// The track's URL when the file cannot be read here: `mpd:` and MPD's song path.
    package static let trackScheme = "mpd:"

    static func owner(_ generation: Int) -> String { "mpd#\(generation)" }

    static func value(_ key: String, in pairs: [(key: String, value: String)]) -> String? {
        pairs.first { $0.key.caseInsensitiveCompare(key) == .orderedSame }?.value
    }

    /// `83.456` seconds → microseconds.
    static func microseconds(_ seconds: String) -> Int64? {
        guard let value = Double(seconds), value.isFinite, value >= 0, value < 1e9 else { return nil }
        return Int64((value * 1_000_000).rounded())
    }

    /// The player's state from `status` and `currentsong` (read at monotonic `at`).
    package static func playerState(status: [(key: String, value: String)], song: [(key: String, value: String)],
                                    musicDirectory: String?, owner: String, at: Int64) -> PlayerState {
        let playback: MPRIS.Status = switch value("state", in: status) {
        case "play": .playing
        case "pause": .paused
        default: .stopped
        }
        var metadata = MPRIS.Metadata()
        if let file = value("file", in: song), !file.isEmpty {
            if file.contains("://") {
                metadata.url = file  // a stream
            } else if let musicDirectory, !file.hasPrefix("/") {
                let path = musicDirectory + "/" + file
                metadata.url = "file://" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
            } else if file.hasPrefix("/") {
                metadata.url = "file://" + (file.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? file)
            } else {
                metadata.url = trackScheme + file
            }
            metadata.trackID = value("songid", in: status).map { "mpd:song:\($0)" }
            metadata.title = value("Title", in: song) ?? value("Name", in: song)
            metadata.artists = song.filter { $0.key == "Artist" }.map(\.value)
            metadata.album = value("Album", in: song)
            let duration = value("duration", in: status) ?? value("duration", in: song) ?? value("Time", in: song)
            metadata.length = duration.flatMap(microseconds)
        }
        let elapsed = value("elapsed", in: status).flatMap(microseconds) ?? 0
        // What ``control(_:)`` carries out in this state.
        let queued = (Int(value("playlistlength", in: status) ?? "") ?? 0) > 0
        let controls: PlayerControls = playback == .stopped ? (queued ? [.play] : []) : .all
        return PlayerState(name: "mpd", owner: owner, status: playback, metadata: metadata,
                           clock: PlaybackClock(position: elapsed, anchor: at, rate: 1, playing: playback == .playing), controls: controls)
    }
}
