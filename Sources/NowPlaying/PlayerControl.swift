import Foundation

/// What a listener asks of the followed player: the lock screen's controls.
package enum PlayerCommand: Sendable, Hashable {
    case play, pause, toggle, next, previous
    /// To this position of the current track, in microseconds.
    case seek(Int64)

    /// The command `action` names, as the HTTP route and the command line spell it (`seek` to
    /// `position`, in microseconds); nil for a name that is no action.
    package init?(action: String, position: Int64 = 0) {
        switch action {
        case "play": self = .play
        case "pause": self = .pause
        case "toggle": self = .toggle
        case "next": self = .next
        case "previous": self = .previous
        case "seek": self = .seek(position)
        default: return nil
        }
    }

    /// The action's name, as the HTTP route and the command line spell it (`seek` for any position).
    package var action: String {
        switch self {
        case .play: "play"
        case .pause: "pause"
        case .toggle: "toggle"
        case .next: "next"
        case .previous: "previous"
        case .seek: "seek"
        }
    }

    /// Every action's name, in the order help texts list them.
    package static let actions = ["play", "pause", "toggle", "next", "previous", "seek"]
}

/// Which controls the followed player offers now (MPRIS's `CanPlay`, `CanPause`, `CanSeek`,
/// `CanGoNext`, `CanGoPrevious`; for MPD, what its state allows). Empty for a source that cannot
/// be controlled.
package struct PlayerControls: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    package static let play = PlayerControls(rawValue: 1 << 0)
    package static let pause = PlayerControls(rawValue: 1 << 1)
    package static let seek = PlayerControls(rawValue: 1 << 2)
    package static let next = PlayerControls(rawValue: 1 << 3)
    package static let previous = PlayerControls(rawValue: 1 << 4)
    package static let all: PlayerControls = [.play, .pause, .seek, .next, .previous]

    /// The names of the controls offered, in a fixed order (`["play", "pause", "seek"]`).
    package var names: [String] {
        [(PlayerControls.play, "play"), (.pause, "pause"), (.seek, "seek"), (.next, "next"), (.previous, "previous")]
            .filter { contains($0.0) }.map(\.1)
    }
}

/// Why a control was not carried out.
package enum ControlError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The player cannot do it now, or this source cannot be controlled at all: nothing plays,
    /// the track is not seekable, the source is read-only. (HTTP 409.)
    case cannot(String)
    /// The position asked for lies past the end of the track (microseconds both). (HTTP 422.)
    case pastEnd(position: Int64, length: Int64)
    /// The player did not answer in time, or went away while asked. (HTTP 503.)
    case unavailable(String)

    package var description: String {
        switch self {
        case .cannot(let reason), .unavailable(let reason): reason
        case .pastEnd(let position, let length):
            "position_ms: \(position / 1000) is past the end of the track (\(length / 1000) ms)"
        }
    }
}
