import Foundation

/// Names and values of the MPRIS D-Bus interface (`org.mpris.MediaPlayer2`).
package enum MPRIS {
    package static let prefix = "org.mpris.MediaPlayer2."
    package static let path = "/org/mpris/MediaPlayer2"
    package static let rootInterface = "org.mpris.MediaPlayer2"
    package static let playerInterface = "org.mpris.MediaPlayer2.Player"
    /// The track id the specification gives "no track".
    package static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
    /// Track ids that name no track: the specification's, and the one mpv-mpris 0.7 sends while
    /// its playlist position is unknown.
    static let placeholderTrackIDs: Set<String> = [noTrack, "/noplaylist"]

    /// `PlaybackStatus`.
    package enum Status: String, Sendable {
        case playing = "Playing"
        case paused = "Paused"
        case stopped = "Stopped"
    }

    /// The parts of `Metadata` a poster needs.
    package struct Metadata: Sendable, Hashable {
        package var trackID: String?
        package var title: String?
        package var artists: [String] = []
        package var album: String?
        /// `xesam:url`, as sent.
        package var url: String?
        /// `mpris:artUrl`, as sent.
        package var artURL: String?
        /// `mpris:length` in microseconds.
        package var length: Int64?
        /// `xesam:asText`: some players put the song's whole lyrics here (LRC or plain text).
        package var asText: String?
        /// Where ``asText`` came from when not from an MPRIS player (`subsonic:getLyrics`,
        /// `push:lyrics`): what the song's lyrics source says.
        package var asTextSource: String?
        /// Everything the player sent (for mirroring it when publishing).
        package var raw: [String: DBusValue] = [:]

        package init() {}

        package init(_ dictionary: [String: DBusValue]) {
            raw = dictionary
            trackID = dictionary["mpris:trackid"]?.string
            title = dictionary["xesam:title"]?.string
            artists = dictionary["xesam:artist"]?.strings ?? []
            album = dictionary["xesam:album"]?.string
            url = dictionary["xesam:url"]?.string
            artURL = dictionary["mpris:artUrl"]?.string
            length = dictionary["mpris:length"]?.int64
            asText = dictionary["xesam:asText"]?.string
        }

        /// The artists joined for display.
        package var artist: String? { artists.isEmpty ? nil : artists.joined(separator: ", ") }

        /// What identifies the track: a new value means another song. A file is its URL (players
        /// update the title of the same file once its tags are read); a stream is its title and
        /// artist (a radio station keeps one URL). The track id joins both (some players keep one
        /// id for every track), unless it names no track.
        package var identity: String {
            if let url, !url.isEmpty, !url.lowercased().hasPrefix("http") { return (knownTrackID ?? "") + "\u{1F}" + url }
            return [knownTrackID ?? "", url ?? "", title ?? "", artist ?? ""].joined(separator: "\u{1F}")
        }

        /// Whether this is the track `earlier` named: the same identity, or the same file sent
        /// first without a track id of its own (mpv-mpris sends a placeholder id until it knows
        /// the file's playlist position, then the position's id).
        package func isSameTrack(as earlier: Metadata) -> Bool {
            if identity == earlier.identity { return true }
            guard let url, !url.isEmpty, !url.lowercased().hasPrefix("http"), url == earlier.url else { return false }
            return earlier.knownTrackID == nil
        }

        /// The track id, unless it is one that names no track.
        var knownTrackID: String? { trackID.flatMap { MPRIS.placeholderTrackIDs.contains($0) ? nil : $0 } }

        /// `xesam:url` as a local path, when it is a `file://` URL (percent-decoded).
        package var localPath: String? { url.flatMap(MPRIS.localPath(fromFileURL:)) }
    }

    /// The path of a `file://` URL, percent-decoded; nil for other schemes or malformed escapes.
    package static func localPath(fromFileURL url: String) -> String? {
        guard url.lowercased().hasPrefix("file://") else { return nil }
        var rest = Substring(url.dropFirst(7))
        // file://host/path: only an empty host or localhost is this machine.
        if !rest.hasPrefix("/") {
            guard let slash = rest.firstIndex(of: "/"), rest[..<slash].lowercased() == "localhost" else { return nil }
            rest = rest[slash...]
        }
        return String(rest).removingPercentEncoding
    }
}

/// Monotonic time in nanoseconds (`CLOCK_MONOTONIC`): what positions are anchored to.
package enum Monotonic {
    package static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}

/// Where playback is without asking: a position read at a known monotonic instant, advanced by
/// the rate while playing (players do not announce their position as it moves).
package struct PlaybackClock: Sendable, Hashable {
    /// The position read, in microseconds.
    package var position: Int64
    /// When it was read (``Monotonic/now()``, nanoseconds).
    package var anchor: Int64
    package var rate: Double
    package var playing: Bool

    package init(position: Int64, anchor: Int64 = Monotonic.now(), rate: Double = 1, playing: Bool) {
        self.position = position
        self.anchor = anchor
        self.rate = rate.isFinite && rate >= 0 ? rate : 1
        self.playing = playing
    }

    /// The position at monotonic time `now`, in microseconds.
    package func position(at now: Int64 = Monotonic.now()) -> Int64 {
        guard playing, rate > 0 else { return position }
        let elapsed = Double(max(0, now - anchor)) / 1000 * rate
        return position + Int64(elapsed)
    }

    /// The monotonic time at which playback reaches `target` microseconds, or nil when it never
    /// will at this rate (paused, stopped, rate 0, or already past it).
    package func instant(of target: Int64) -> Int64? {
        guard playing, rate > 0, target >= position else { return nil }
        return anchor + Int64((Double(target - position) * 1000 / rate).rounded(.up))
    }
}

/// The followed player as the follow loop sees it.
package struct PlayerState: Sendable, Hashable {
    /// The part of the bus name after `org.mpris.MediaPlayer2.` (`mpv`, `vlc.instance42`).
    package var name: String
    /// Its unique name on the bus (`:1.42`): a restarted player gets a new one.
    package var owner: String
    package var status: MPRIS.Status
    package var metadata: MPRIS.Metadata
    package var clock: PlaybackClock
    /// The controls the player offers now (empty for a source that cannot be controlled).
    package var controls: PlayerControls

    package var busName: String { MPRIS.prefix + name }

    package init(name: String, owner: String, status: MPRIS.Status, metadata: MPRIS.Metadata, clock: PlaybackClock,
                 controls: PlayerControls = []) {
        self.name = name
        self.owner = owner
        self.status = status
        self.metadata = metadata
        self.clock = clock
        self.controls = controls
    }
}
