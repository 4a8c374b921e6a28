import Foundation
import LyricPoster
import LyricsCore
import NowPlaying

/// What the follow loop tells an observer as it happens: the song it prepared, each poster it put
/// on screen, the player's status. `follow` writes files; `serve --follow` hands these to browsers.
package enum LiveEvent: Sendable {
    /// A new song is ready (nil: nothing to show — no player, or a player between tracks).
    case song(LiveSong?)
    /// Frame `index` of the current song is now the one on screen.
    case poster(LivePoster)
    /// The followed player's status (nil: no player).
    case status(PlayerState?)
}

/// The song being followed: what it is, and its per-line plan, ready to render with any options.
package struct LiveSong: Sendable {
    /// Counts the songs of one loop, so a poster's address names its song.
    package let generation: Int
    package let song: ResolvedSong
    /// The track as the poster names it.
    package let title: String
    package let frames: [PlannedFrame]
    /// The session the loop prepared (with the follow options).
    package let session: PosterSession
}

/// One poster on screen: its frame, the line it shows and the player's clock when it was placed.
package struct LivePoster: Sendable {
    package let generation: Int
    package let index: Int
    package let frame: PlannedFrame
    /// The current line's text (lines sung together joined by " / "), nil in an interlude.
    package let text: String?
    package let player: PlayerState
}
