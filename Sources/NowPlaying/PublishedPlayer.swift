import Foundation
import Locks

/// `org.mpris.MediaPlayer2.lyricposter`: a player on the session bus that mirrors the followed
/// one, with the current lyric line as its title and the poster as its art, so that lock screens
/// and panels which show the now-playing title and artwork show the lyrics. Its controls are
/// forwarded to the real player.
package final class PublishedPlayer: Sendable {
    package static let name = "lyricposter"
    private let bus: Bus
    private let shared = Shared()

    /// The mirrored state, shared with the bus thread's handlers.
    private final class Shared: Sendable {
        let state = Guarded(Mirror())
    }

    private struct Mirror {
        /// The real player's bus name, where controls go.
        var target: String?
        var status: MPRIS.Status = .stopped
        var clock = PlaybackClock(position: 0, playing: false)
        var metadata: [String: DBusValue] = [:]
    }

    /// Publishes the player; throws when the bus refuses or another process holds the name.
    package init(bus: Bus) throws(BusError) {
        self.bus = bus
        let shared = self.shared
        let handler = ObjectHandler(
            call: { [bus] interface, method, arguments in
                guard let target = shared.state.withLock({ $0.target }) else {
                    return .failure(BusError(name: "org.freedesktop.DBus.Error.Failed", "no player is followed"))
                }
                switch (interface, method) {
                case (MPRIS.playerInterface, "PlayPause"), (MPRIS.playerInterface, "Play"), (MPRIS.playerInterface, "Pause"),
                     (MPRIS.playerInterface, "Stop"), (MPRIS.playerInterface, "Next"), (MPRIS.playerInterface, "Previous"),
                     (MPRIS.playerInterface, "Seek"), (MPRIS.playerInterface, "SetPosition"), (MPRIS.playerInterface, "OpenUri"),
                     (MPRIS.rootInterface, "Raise"):
                    bus.send(target, MPRIS.path, interface, method, arguments)
                    return .success(nil)
                default:
                    return .success(nil)
                }
            },
            get: { interface, property in
                let mirror = shared.state.withLock { $0 }
                switch (interface, property) {
                case (MPRIS.rootInterface, "Identity"): return .string("LyricPoster")
                case (MPRIS.rootInterface, "CanQuit"), (MPRIS.rootInterface, "CanRaise"), (MPRIS.rootInterface, "HasTrackList"):
                    return .bool(false)
                case (MPRIS.rootInterface, "SupportedUriSchemes"), (MPRIS.rootInterface, "SupportedMimeTypes"): return .strings([])
                case (MPRIS.playerInterface, "PlaybackStatus"): return .string(mirror.status.rawValue)
                case (MPRIS.playerInterface, "Metadata"):
                    return .dictionary(mirror.metadata.isEmpty ? ["mpris:trackid": .objectPath(MPRIS.noTrack)] : mirror.metadata)
                case (MPRIS.playerInterface, "Position"): return .int64(mirror.clock.position())
                case (MPRIS.playerInterface, "Rate"): return .double(mirror.clock.rate)
                case (MPRIS.playerInterface, "Volume"), (MPRIS.playerInterface, "MaximumRate"): return .double(1)
                case (MPRIS.playerInterface, "MinimumRate"): return .double(1)
                case (MPRIS.playerInterface, _) where property.hasPrefix("Can"): return .bool(mirror.target != nil)
                default: return nil
                }
            },
            set: { _, _, _ in false })
        try bus.register(path: MPRIS.path, introspection: Self.introspection, handler: handler)
        guard try bus.requestName(MPRIS.prefix + Self.name) else {
            throw BusError("\(MPRIS.prefix + Self.name) is already taken (is another lyricposter follow --publish running?)")
        }
    }

    /// Mirrors `player` with `title` (the current lyric line) and `artURL` (the poster) in its metadata.
    package func mirror(_ player: PlayerState?, title: String?, artURL: String?) {
        var metadata = player?.metadata.raw ?? [:]
        if metadata["mpris:trackid"] == nil { metadata["mpris:trackid"] = .objectPath(MPRIS.noTrack) }
        if let title { metadata["xesam:title"] = .string(title) }
        if let artURL { metadata["mpris:artUrl"] = .string(artURL) }
        let status = player?.status ?? .stopped
        let clock = player?.clock ?? PlaybackClock(position: 0, playing: false)
        let (changed, seeked) = shared.state.withLock { mirror -> ([String: DBusValue], Int64?) in
            var changed: [String: DBusValue] = [:]
            if mirror.status != status { changed["PlaybackStatus"] = .string(status.rawValue) }
            if mirror.metadata != metadata { changed["Metadata"] = .dictionary(metadata) }
            if mirror.clock.rate != clock.rate { changed["Rate"] = .double(clock.rate) }
            let now = Monotonic.now()
            let jump = abs(mirror.clock.position(at: now) - clock.position(at: now)) > 500_000
            mirror.target = player?.busName
            mirror.status = status
            mirror.metadata = metadata
            mirror.clock = clock
            return (changed, jump ? clock.position(at: now) : nil)
        }
        if !changed.isEmpty {
            try? bus.emit(path: MPRIS.path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                          [.string(MPRIS.playerInterface), .dictionary(changed), .strings([])])
        }
        if let seeked { try? bus.emit(path: MPRIS.path, interface: MPRIS.playerInterface, member: "Seeked", [.int64(seeked)]) }
    }

    /// Gives the name back and forgets the mirrored state (on exit: the handlers stay registered
    /// with GLib until the process ends, and should hold nothing the player sent).
    package func withdraw() {
        bus.releaseName(MPRIS.prefix + Self.name)
        shared.state.withLock { $0 = Mirror() }
    }

    static let introspection = """
    <node>
      <interface name="org.mpris.MediaPlayer2">
        <method name="Raise"/>
        <method name="Quit"/>
        <property name="CanQuit" type="b" access="read"/>
        <property name="CanRaise" type="b" access="read"/>
        <property name="HasTrackList" type="b" access="read"/>
        <property name="Identity" type="s" access="read"/>
        <property name="SupportedUriSchemes" type="as" access="read"/>
        <property name="SupportedMimeTypes" type="as" access="read"/>
      </interface>
      <interface name="org.mpris.MediaPlayer2.Player">
        <method name="Next"/>
        <method name="Previous"/>
        <method name="Pause"/>
        <method name="PlayPause"/>
        <method name="Stop"/>
        <method name="Play"/>
        <method name="Seek"><arg direction="in" name="Offset" type="x"/></method>
        <method name="SetPosition"><arg direction="in" name="TrackId" type="o"/><arg direction="in" name="Position" type="x"/></method>
        <method name="OpenUri"><arg direction="in" name="Uri" type="s"/></method>
        <signal name="Seeked"><arg name="Position" type="x"/></signal>
        <property name="PlaybackStatus" type="s" access="read"/>
        <property name="Rate" type="d" access="read"/>
        <property name="Metadata" type="a{sv}" access="read"/>
        <property name="Volume" type="d" access="read"/>
        <property name="Position" type="x" access="read"/>
        <property name="MinimumRate" type="d" access="read"/>
        <property name="MaximumRate" type="d" access="read"/>
        <property name="CanGoNext" type="b" access="read"/>
        <property name="CanGoPrevious" type="b" access="read"/>
        <property name="CanPlay" type="b" access="read"/>
        <property name="CanPause" type="b" access="read"/>
        <property name="CanSeek" type="b" access="read"/>
        <property name="CanControl" type="b" access="read"/>
      </interface>
    </node>
    """
}
