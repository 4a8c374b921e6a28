import LyricsCore

/// What a frame shows at one instant, fully resolved from the lyrics: which lines, in which role,
/// top to bottom. The renderer never looks at lyrics or times; the scene never draws.
public struct Scene: Hashable, Sendable {
    /// The current line's text (lines sung together joined by " / "), nil in an interlude.
    public var currentText: String? {
        let current = lines.filter { $0.role == .current }.map(\.text)
        return current.isEmpty ? nil : current.joined(separator: " / ")
    }

    /// The part a text block plays; also the `role` in reports.
    public enum Role: String, Hashable, Sendable, Codable {
        case current, previous, next, translation, title, artist, interlude, elapsed, total
        /// A line in Latin letters (romaji, pinyin) under the line it spells.
        case romanisation
        /// Backing vocals under their line.
        case background
        /// A line chosen for a share card: every chosen line is one, all of equal weight.
        case quote
        /// A reading (furigana) drawn small above the characters of the current line it reads.
        case ruby
    }

    /// A reading over part of a line: the characters `range` (extended grapheme clusters of the
    /// line's text, as ``Line/sung`` counts them) read as `text`.
    public struct Ruby: Hashable, Sendable {
        public var range: Range<Int>
        public var text: String
    }

    /// Which singer a line belongs to, for duets.
    public enum Voice: String, Hashable, Sendable, Codable {
        /// The lead singer, a group, or a file that names no singers.
        case lead
        /// The second singer: drawn on the other side in left-aligned themes, marked in centred ones.
        case duet
    }

    /// Backing vocals drawn under a line, with their own karaoke fill.
    public struct Backing: Hashable, Sendable {
        public var text: String
        /// How far each character has been sung (as ``Line/sung``); empty: no fill.
        public var sung: [Double] = []
    }

    /// One lyric line in the frame, with its translation, romanisation and backing vocals.
    public struct Line: Hashable, Sendable {
        public var role: Role
        public var text: String
        public var translation: String?
        public var romanisation: String? = nil
        public var backing: Backing? = nil
        public var voice: Voice = .lead
        /// BCP 47 language for glyph forms.
        public var language: String?
        /// Index into the timeline's lines (as in `inspect`), nil for the interlude marker.
        public var lineIndex: Int?
        /// For a karaoke current line: how far it has been sung, per character of `text` (its
        /// extended grapheme clusters, in order), each from 0 (not yet) to 1 (sung). Empty: no fill.
        public var sung: [Double] = []
        /// Readings of the line's words (TTML ruby), drawn above them on the current line; empty
        /// when the file gives none or the shown text no longer matches its words.
        public var ruby: [Ruby] = []
    }

    /// Where in the song the instant falls.
    public enum State: String, Hashable, Sendable, Codable {
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

    public var time: Timestamp
    public var state: State = .lyric
    /// The current line's index into the timeline's lines; nil in an interlude.
    public var lineIndex: Int?
    public var isInterlude: Bool
    /// Lyric lines top to bottom: previous lines, the current line (and any line sung at the same
    /// time, also `current`) or the interlude marker, next lines.
    public var lines: [Line]
    public var title: String?
    public var artist: String?
    public var album: String?
    /// The song's language ([la:] or --lang).
    public var language: String?
    /// The song's length ([length:], --duration, or the end of the last line), for progress bars.
    public var duration: Timestamp?
    /// True when the picture depends on the exact time (a progress bar), so that two instants
    /// with the same lines are still different frames.
    public var timeSensitive = false
}
