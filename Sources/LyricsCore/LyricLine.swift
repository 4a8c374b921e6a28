/// One displayable lyric line: text that becomes current at `start` and stays current until `end`.
///
/// Times are display times: the file's time tag with the `[offset:]` applied (see
/// ``LRC/Options``) and clamped to zero. The interval is half-open, `[start, end)`: a line ends
/// exactly when the next one starts, so consecutive lines tile the song without gaps or overlap.
/// Two lines may share a start; the earlier one then has zero length and is never current. The
/// parser only produces this when `[offset:]` pushes several lines below zero, which clamps them all
/// to zero (distinct texts at one written time become original + translation instead).
///
/// The last line ends at the song's ``Lyrics/length`` when that is later than its start; otherwise
/// five seconds after its start, or at its last explicit word end if that is later still. A blank
/// last line (the "end of song" marker) ends at the length if later, else where it starts.
/// An explicit end tag (`text[00:05.00]`) only ends the line's last *word*; the line itself stays
/// current until the next line, so there is never a hole between lines.
///
/// A line whose `text` is empty is a *gap*: a time tag with no text, which real files use to clear
/// the screen during instrumental breaks.
public struct LyricLine: Hashable, Sendable {
    /// When the line becomes current.
    public var start: Timestamp
    /// When the line stops being current (exclusive): the next line's start, or the song end for the last.
    public var end: Timestamp
    /// The text to display: word time tags removed, leading and trailing whitespace trimmed, inner
    /// spacing kept. Empty for a gap.
    public var text: String
    /// The translation carried by the file for this line (a later line with the same time tag, or an
    /// LRCX `[tr:…]` attachment); several translations are joined with `"\n"`. `nil` when there is none.
    public var translation: String?
    /// Per-word timing, in order; empty when the line has no word time tags.
    public var words: [Word]

    public init(start: Timestamp, end: Timestamp, text: String, translation: String? = nil, words: [Word] = []) {
        self.start = start
        self.end = end
        self.text = text
        self.translation = translation
        self.words = words
    }

    /// `true` for a gap line (a time tag with no text).
    public var isBlank: Bool { text.isEmpty }

    /// The line's length in milliseconds (`end − start`; zero for a hidden same-start line).
    public var durationMs: Int { end.milliseconds - start.milliseconds }

    /// Whether `t` falls inside the half-open interval `[start, end)`.
    public func contains(_ t: Timestamp) -> Bool { start <= t && t < end }
}
