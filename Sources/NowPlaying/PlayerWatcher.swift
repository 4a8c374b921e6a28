import Foundation
import Locks

/// Watches the MPRIS players on the session bus and reports the followed one's state whenever it
/// changes: found or lost, status, rate, metadata, or a new position anchor (after `Seeked`, a
/// status or rate change, or a new track). Nothing is polled; positions are re-read only on those
/// events.
///
/// Which player: `player` (the part after `org.mpris.MediaPlayer2.`; `mpv` also matches
/// `mpv.instance42`), else the one that is playing, switching when another starts playing.
package final class PlayerWatcher: Sendable {
    /// The followed player's state after each change; nil while there is none.
    package let updates: AsyncStream<PlayerState?>
    private let continuation: AsyncStream<PlayerState?>.Continuation
    private let bus: Bus
    private let wanted: String?
    /// The player asked for, if any.
    package var wantedName: String? { wanted }
    private let excluded: Set<String>
    private let state = Guarded(Players())

    private struct Players {
        /// By unique name.
        var known: [String: PlayerState] = [:]
        var selected: String?
        var lastSent: PlayerState??
    }

    /// - Parameters:
    ///   - player: follow only this player (the name after `org.mpris.MediaPlayer2.`).
    ///   - excluding: names never followed (our own published player).
    package init(bus: Bus, player: String?, excluding: Set<String> = []) {
        self.bus = bus
        wanted = player
        excluded = excluding
        (updates, continuation) = AsyncStream.makeStream(of: PlayerState?.self, bufferingPolicy: .bufferingNewest(64))
    }

    /// Subscribes to the bus's signals, then looks for players already running. The first update
    /// follows at once.
    package func start() {
        bus.subscribe(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                      path: "/org/freedesktop/DBus", arg0: "org.mpris.MediaPlayer2", arg0Namespace: true) { [weak self] signal in
            guard let self, signal.arguments.count == 3, let name = signal.arguments[0].string,
                  let old = signal.arguments[1].string, let new = signal.arguments[2].string else { return }
            self.ownerChanged(name: name, old: old, new: new)
        }
        bus.subscribe(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", path: MPRIS.path,
                      arg0: MPRIS.playerInterface) { [weak self] signal in
            self?.propertiesChanged(signal)
        }
        bus.subscribe(interface: MPRIS.playerInterface, member: "Seeked", path: MPRIS.path) { [weak self] signal in
            guard let self, let position = signal.arguments.first?.int64 else { return }
            self.update(signal.sender, reselect: false) { player in
                player.clock = PlaybackClock(position: position, rate: player.clock.rate, playing: player.status == .playing)
            }
        }
        scan()
    }

    /// Stops the stream of updates and forgets the players.
    package func finish() {
        continuation.finish()
        state.withLock { $0 = Players() }
    }

    /// Reads the followed player's `Position` now, when the reading was taken (monotonic ns, the
    /// middle of the call) and how long the call took (ns: the reading's uncertainty). Nil without
    /// a followed player or when it does not answer.
    package func readPosition() -> (owner: String, position: Int64, at: Int64, took: Int64)? {
        guard let player = state.withLock({ players in players.selected.flatMap { players.known[$0] } }) else { return nil }
        let before = Monotonic.now()
        guard let position = try? bus.property(player.busName, MPRIS.path, MPRIS.playerInterface, "Position").int64 else { return nil }
        let after = Monotonic.now()
        return (player.owner, position, before + (after - before) / 2, after - before)
    }

    // MARK: - Controls

    /// MPRIS's capability properties and the controls they offer.
    static let capabilities: [String: PlayerControls] = [
        "CanPlay": .play, "CanPause": .pause, "CanSeek": .seek, "CanGoNext": .next, "CanGoPrevious": .previous, "CanControl": [],
    ]

    /// The controls a player's properties offer: none without `CanControl`, and none the
    /// specification's defaults do not grant (a missing property is false).
    static func controls(_ properties: [String: DBusValue]) -> PlayerControls {
        guard properties["CanControl"]?.bool == true else { return [] }
        var controls: PlayerControls = []
        for (name, control) in capabilities where properties[name]?.bool == true { controls.insert(control) }
        return controls
    }

    /// Calls the followed player's method for `command`, after reading its capabilities fresh
    /// (a player may change them at any moment): `Play`, `Pause`, `PlayPause`, `Next`, `Previous`, and for a
    /// seek `SetPosition` with the track id (or `Seek` by the difference, for a player whose track
    /// has no id). A position past the track's `mpris:length` is refused, as the specification
    /// has players ignore it. Each call waits 2 s at most.
    package func control(_ command: PlayerCommand) throws(ControlError) {
        guard let player = state.withLock({ players in players.selected.flatMap { players.known[$0] } }) else {
            throw .cannot(wanted.map { "no MPRIS player named \($0) is running" } ?? "no MPRIS player is running")
        }
        let busName = player.busName
        func unavailable(_ error: BusError) -> ControlError {
            .unavailable("\(player.name) did not take it (\(error.message))")
        }
        let properties: [String: DBusValue]
        do { properties = try bus.properties(busName, MPRIS.path, MPRIS.playerInterface) } catch { throw unavailable(error) }
        let controls = Self.controls(properties)
        let status = properties["PlaybackStatus"]?.string.flatMap(MPRIS.Status.init(rawValue:)) ?? .stopped
        let metadata = MPRIS.Metadata(properties["Metadata"]?.dictionary ?? [:])
        func need(_ control: PlayerControls, _ what: String) throws(ControlError) {
            guard controls.contains(control) else { throw .cannot("\(player.name) cannot \(what) now") }
        }
        var method: String
        var arguments: [DBusValue] = []
        switch command {
        case .play:
            try need(.play, "play")
            method = "Play"
        case .pause:
            try need(.pause, "pause")
            method = "Pause"
        case .toggle:
            // What the player will do decides what it must offer (CanPause to pause, CanPlay to play).
            if status == .playing { try need(.pause, "pause") } else { try need(.play, "play") }
            method = "PlayPause"
        case .next:
            try need(.next, "go to the next track")
            method = "Next"
        case .previous:
            try need(.previous, "go to the previous track")
            method = "Previous"
        case .seek(let position):
            guard status != .stopped, metadata.url != nil || metadata.title != nil || metadata.knownTrackID != nil else {
                throw .cannot("nothing is playing on \(player.name)")
            }
            try need(.seek, "seek in this track")
            if let length = metadata.length, length > 0, position > length { throw .pastEnd(position: position, length: length) }
            if let track = metadata.knownTrackID {
                method = "SetPosition"
                arguments = [.objectPath(track), .int64(position)]
            } else {
                let read: DBusValue
                do { read = try bus.property(busName, MPRIS.path, MPRIS.playerInterface, "Position") } catch { throw unavailable(error) }
                guard let now = read.int64 else { throw .cannot("\(player.name) does not say where it is in the track") }
                method = "Seek"
                arguments = [.int64(position - now)]
            }
        }
        do { try bus.call(busName, MPRIS.path, MPRIS.playerInterface, method, arguments) } catch { throw unavailable(error) }
        if case .seek = command { reread(player.owner, busName: busName) }
    }

    /// Reads a player's status and position again 200 ms after a seek it took: some players send
    /// no `Seeked` for a seek made while paused (VLC 3), and the poster would otherwise stay where
    /// it was until they play. What the player then says is published like any other change.
    private func reread(_ owner: String, busName: String) {
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { [weak self] in
            guard let self,
                  let status = (try? bus.property(busName, MPRIS.path, MPRIS.playerInterface, "PlaybackStatus"))?.string
                    .flatMap(MPRIS.Status.init(rawValue:)),
                  let position = (try? bus.property(busName, MPRIS.path, MPRIS.playerInterface, "Position"))?.int64 else { return }
            update(owner, reselect: false) { player in
                player.status = status
                player.clock = PlaybackClock(position: position, rate: player.clock.rate, playing: status == .playing)
            }
        }
    }

    // MARK: - Events (on the bus thread)

    private func scan() {
        let names = (try? bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames"))?
            .first?.strings ?? []
        for busName in names.sorted() where busName.hasPrefix(MPRIS.prefix) {
            guard let owner = try? bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                            "GetNameOwner", [.string(busName)]).first?.string else { continue }
            load(name: String(busName.dropFirst(MPRIS.prefix.count)), owner: owner)
        }
        publish()
    }

    private func matches(_ name: String) -> Bool {
        if excluded.contains(name) { return false }
        guard let wanted else { return true }
        return name == wanted || name.hasPrefix(wanted + ".")
    }

    private func ownerChanged(name busName: String, old: String, new: String) {
        guard busName.hasPrefix(MPRIS.prefix) else { return }
        let name = String(busName.dropFirst(MPRIS.prefix.count))
        guard matches(name) else { return }
        if !old.isEmpty {
            state.withLock { players in
                if players.known[old]?.name == name { players.known[old] = nil }
                if players.selected == old { players.selected = nil }
            }
        }
        if !new.isEmpty { load(name: name, owner: new) }
        publish()
    }

    /// Reads a player's state and adds it (selecting it when it plays).
    private func load(name: String, owner: String) {
        guard matches(name) else { return }
        let busName = MPRIS.prefix + name
        guard let properties = try? bus.properties(busName, MPRIS.path, MPRIS.playerInterface) else { return }
        let status = properties["PlaybackStatus"]?.string.flatMap(MPRIS.Status.init(rawValue:)) ?? .stopped
        let rate = properties["Rate"]?.double ?? 1
        // Position is read alone as well: some players leave it out of GetAll.
        let position = (try? bus.property(busName, MPRIS.path, MPRIS.playerInterface, "Position").int64)
            ?? properties["Position"]?.int64 ?? 0
        let player = PlayerState(name: name, owner: owner, status: status,
                                 metadata: MPRIS.Metadata(properties["Metadata"]?.dictionary ?? [:]),
                                 clock: PlaybackClock(position: position, rate: rate, playing: status == .playing),
                                 controls: Self.controls(properties))
        state.withLock { players in
            players.known[owner] = player
            if status == .playing, players.selected.flatMap({ players.known[$0] })?.status != .playing {
                players.selected = owner
            }
        }
    }

    private func propertiesChanged(_ signal: BusSignal) {
        guard signal.arguments.count >= 2, let changed = signal.arguments[1].dictionary else { return }
        let invalidated = signal.arguments.count > 2 ? signal.arguments[2].strings ?? [] : []
        let owner = signal.sender
        guard let name = state.withLock({ $0.known[owner]?.name }) else { return }
        var changes = changed
        // Properties sent as invalidated (no value) are read.
        for key in invalidated where ["PlaybackStatus", "Rate", "Metadata"].contains(key) {
            if let value = try? bus.property(MPRIS.prefix + name, MPRIS.path, MPRIS.playerInterface, key) { changes[key] = value }
        }
        let canChanged = changes.keys.contains { Self.capabilities.keys.contains($0) }
        if canChanged {
            // The Can… properties come together only in GetAll: read them all again.
            let properties = (try? bus.properties(MPRIS.prefix + name, MPRIS.path, MPRIS.playerInterface)) ?? changes
            update(owner, reselect: false) { player in player.controls = Self.controls(properties) }
        }
        guard changes["PlaybackStatus"] != nil || changes["Rate"] != nil || changes["Metadata"] != nil else { return }
        // The position is re-anchored on every such change (a new track starts elsewhere; a rate
        // change bends the line).
        let position = try? bus.property(MPRIS.prefix + name, MPRIS.path, MPRIS.playerInterface, "Position").int64
        let startsPlaying = changes["PlaybackStatus"]?.string == MPRIS.Status.playing.rawValue
        update(owner, reselect: startsPlaying) { player in
            if let status = changes["PlaybackStatus"]?.string.flatMap(MPRIS.Status.init(rawValue:)) { player.status = status }
            if let rate = changes["Rate"]?.double { player.clock.rate = rate }
            if let metadata = changes["Metadata"]?.dictionary { player.metadata = MPRIS.Metadata(metadata) }
            let current = player.clock.position()
            player.clock = PlaybackClock(position: position ?? current, rate: player.clock.rate, playing: player.status == .playing)
        }
    }

    private func update(_ owner: String, reselect: Bool, _ body: (inout PlayerState) -> Void) {
        let known = state.withLock { players -> Bool in
            guard var player = players.known[owner] else { return false }
            body(&player)
            players.known[owner] = player
            // Switch to a player that starts playing.
            if reselect { players.selected = owner }
            return true
        }
        if known { publish() }
    }

    /// Picks the followed player and sends its state when it changed.
    private func publish() {
        let update = state.withLock { players -> PlayerState?? in
            if players.selected.flatMap({ players.known[$0] }) == nil {
                let all = players.known.values.sorted { ($0.name, $0.owner) < ($1.name, $1.owner) }
                players.selected = (all.first { $0.status == .playing } ?? all.first)?.owner
            }
            let current = players.selected.flatMap { players.known[$0] }
            if let last = players.lastSent, last == current { return nil }
            players.lastSent = .some(current)
            return .some(current)
        }
        if let update { continuation.yield(update) }
    }
}
