import Foundation

/// Where the follow loop learns what plays and where in it: the MPRIS players on the session bus
/// (``PlayerWatcher``) or an MPD server (``MPDWatcher``). Every output of the loop works with
/// every source.
package protocol PlayerSource: AnyObject, Sendable {
    /// The followed player's state after each change (found or lost, status, track, a new position
    /// anchor); nil while there is none.
    var updates: AsyncStream<PlayerState?> { get }
    /// What the loop says while nothing plays ("waiting for an MPRIS player").
    var waitingMessage: String { get }
    /// Checks what can be checked before following, such as a password; throws a one-line reason.
    /// A source that is not there yet is waited for, not an error.
    func open() throws(PlayerSourceError)
    /// Starts watching; the first update follows soon.
    func start()
    /// Stops watching and ends ``updates``.
    func finish()
    /// The followed player's position now (µs), when it was read (monotonic ns, the middle of the
    /// call) and how long the call took (ns); nil without a player or when it does not answer.
    func readPosition() -> (owner: String, position: Int64, at: Int64, took: Int64)?
    /// A cover the source itself holds for `metadata`'s track (MPD's embedded picture or folder
    /// art, read over its protocol), when the loop cannot read the file: the bytes and where they
    /// came from, or a reason; nil when it has none.
    func cover(for metadata: MPRIS.Metadata, maxBytes: Int) -> Result<(Data, String), PlayerSourceError>?
    /// Tells the followed player to play, pause, skip or seek, and returns once it took the
    /// command (the state change itself comes through ``updates``, as any other). Blocks for at
    /// most a few seconds: a player that does not answer in that time is ``ControlError/unavailable(_:)``.
    func control(_ command: PlayerCommand) throws(ControlError)
    /// False for a source that can never be controlled (pushes, what a user plays on a Subsonic
    /// server): pages show no controls.
    var canBeControlled: Bool { get }
}

extension PlayerSource {
    package func open() throws(PlayerSourceError) {}
    package func cover(for metadata: MPRIS.Metadata, maxBytes: Int) -> Result<(Data, String), PlayerSourceError>? { nil }
    package var canBeControlled: Bool { true }
}

/// Why a source cannot be followed: `what` names it (`mpd://localhost:6600`), `reason` says why.
package struct PlayerSourceError: Error, Sendable, CustomStringConvertible {
    package var what: String
    package var reason: String

    package init(_ what: String, _ reason: String) {
        self.what = what
        self.reason = reason
    }

    package var description: String { "\(what): \(reason)" }
}

extension PlayerWatcher: PlayerSource {
    package var waitingMessage: String {
        wantedName.map { "waiting for \(MPRIS.prefix)\($0)" } ?? "waiting for an MPRIS player"
    }
}
