import LyricsCore

/// What a frame shows at one instant, fully resolved from the lyrics: which lines, in which role,
/// top to bottom. The renderer never looks at lyrics or times; the scene never draws.
package struct Scene: Hashable, Sendable {
    /// The current line's text (lines sung together joined by " / "), nil in an interlude.
    package var currentText: String? {
        let current = lines.filter { $0.role == .current }.map(\.text)
        return current.isEmpty ? nil : current.joined(separator: " / ")
    }

    /// The part a text block plays; also the `role` in reports.
    package enum Role: String, Hashable, Sendable, Codable {
        case current, previous, next, translation, title, artist, interlude, elapsed, total
        /// A line in Latin letters (romaji, pinyin) under the line it spells.
        case romanisation
        /// Backing vocals under their line.
        case background
        /// A line chosen for a share card: every chosen line is one, all of equal weight.
        case quote
        /// A reading (furigana) drawn small above the characters of the current line it reads.
        case ruby
        /// "…" between a card's chosen lines where lines between them are left out.
        case ellipsis
    }

    /// A reading over part of a line: the characters `range` (extended grapheme clusters of the
    /// line's text, as ``Line/sung`` counts them) read as `text`.
    package struct Ruby: Hashable, Sendable {
        package var range: Range<Int>
        package var text: String
    }

    /// Which singer a line belongs to, for duets.
    package enum Voice: String, Hashable, Sendable, Codable {
        /// The lead singer, a group, or a file that names no singers.
        case lead
        /// The second singer: drawn on the other side in left-aligned themes, marked in centred ones.
        case duet
    }

    /// Backing vocals drawn under a line, with their own karaoke fill.
    package struct Backing: Hashable, Sendable {
        package var text: String
        /// How far each character has been sung (as ``Line/sung``); empty: no fill.
        package var sung: [Double] = []
    }

    /// One lyric line in the frame, with its translation, romanisation and backing vocals.
    package struct Line: Hashable, Sendable {
        package var role: Role
        package var text: String
        package var translation: String?
        package var romanisation: String? = nil
        package var backing: Backing? = nil
        package var voice: Voice = .lead
        /// BCP 47 language for glyph forms.
        package var language: String?
        /// Index into the timeline's lines (as in `inspect`), nil for the interlude marker.
        package var lineIndex: Int?
        /// For a karaoke current line: how far it has been sung, per character of `text` (its
        /// extended grapheme clusters, in order), each from 0 (not yet) to 1 (sung). Empty: no fill.
        package var sung: [Double] = []
        /// Readings of the line's words (TTML ruby), drawn above them on the current line; empty
        /// when the file gives none or the shown text no longer matches its words.
        package var ruby: [Ruby] = []
    }

    /// Where in the song the instant falls.
    package enum State: String, Hashable, Sendable, Codable {
        /// A line is being sung.
        case lyric
        /// Before the first line: a title card with the upcoming line.
        case intro
        /// A gap of the interlude threshold or more between lines: the marker and the next line.
        case interlude
        /// After the last line: a closing title card, with no marker of more to come.
        case outro
        /// A share card: lines a person chose (all `quote`), not an instant of the song.
        case quote
    }

    package var time: Timestamp
    package var state: State = .lyric
    /// The current line's index into the timeline's lines; nil in an interlude.
    package var lineIndex: Int?
    package var isInterlude: Bool
    /// Lyric lines top to bottom: previous lines, the current line (and any line sung at the same
    /// time, also `current`) or the interlude marker, next lines.
    package var lines: [Line]
    package var title: String?
    package var artist: String?
    package var album: String?
    /// The song's language ([la:] or --lang).
    package var language: String?
    /// The song's length ([length:], --duration, or the end of the last line), for progress bars.
    package var duration: Timestamp?
    /// True when the picture depends on the exact time (a progress bar), so that two instants
    /// with the same lines are still different frames.
    package var timeSensitive = false
}
