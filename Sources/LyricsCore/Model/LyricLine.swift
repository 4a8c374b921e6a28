/// One line of a song: text that becomes current at `start` and stops being current at `end`,
/// with what the file says about it (translation, romanisation, backing vocals, singer).
///
/// Every format's parser produces this shape; nothing of the file's syntax is left in it.
///
/// Times are display times: the file's times with any offset applied. They may be negative (an
/// `[offset:]` that moves a line before the song starts); a player treats such a line as current
/// from zero. The interval is half-open, `[start, end)`. A line ends where the file says it ends
/// (a trailing stamp in LRC, `end` in TTML, a cue's end), otherwise where the next line starts.
/// The time between a line's end and the next start is a gap: a short one is a breath (the line
/// stays on screen), a long one an interlude — that choice belongs to the display, not the parser.
///
/// Lines may share a start: two voices singing at once (a duet, or an LRC file with two lines at
/// one stamp that are not a translation pair). They stay separate lines, in file order.
///
/// A line whose `text` is empty is a *gap line*: a stamp with no text, which real files use to
/// clear the screen during instrumental breaks.
public struct LyricLine: Hashable, Sendable {
    /// When the line becomes current.
    public var start: Timestamp
    /// When the line stops being current (exclusive); never before `start`.
    public var end: Timestamp
    /// The text to display: timing removed, leading and trailing whitespace trimmed, inner
    /// spacing kept. Empty for a gap line.
    public var text: String
    /// The translation carried by the file for this line; several are joined with `"\n"`.
    /// `nil` when there is none.
    public var translation: String?
    /// Per-word timing, in order; empty when the line has no word timing. Joining the words'
    /// texts gives ``text``.
    public var words: [Word]
    /// What the line is: sung lyrics, or a credit (`作词 : …`, `Composed by …`) that is kept for
    /// `inspect` but never shown as the sung line.
    public var role: Role
    /// The line in Latin letters (romaji, pinyin, romaja), when the file carries it; `nil` otherwise.
    public var romanisation: String?
    /// Backing vocals sung under this line (TTML `x-bg`), with their own timing; `nil` when none.
    public var background: Backing?
    /// Who sings the line: an agent id from ``Lyrics/agents`` (`"v1"`, `"v2"`), or `nil` when the
    /// file does not say.
    public var agent: String?

    public init(start: Timestamp, end: Timestamp, text: String, translation: String? = nil, words: [Word] = [],
                role: Role = .lyric, romanisation: String? = nil, background: Backing? = nil, agent: String? = nil) {
        self.start = start
        self.end = end
        self.text = text
        self.translation = translation
        self.words = words
        self.role = role
        self.romanisation = romanisation
        self.background = background
        self.agent = agent
    }

    /// `true` for a gap line (a stamp with no text).
    public var isBlank: Bool { text.isEmpty }

    /// `true` for a line that is sung: not a gap and not a credit.
    public var isSung: Bool { role == .lyric && !text.isEmpty }

    /// The line's length in milliseconds (`end − start`).
    public var durationMs: Int { end.milliseconds - start.milliseconds }

    /// Whether `t` falls inside the half-open interval `[start, end)`.
    public func contains(_ t: Timestamp) -> Bool { start <= t && t < end }

    /// What a line is in the song.
    public enum Role: String, Hashable, Sendable, CaseIterable {
        /// Sung lyrics (or a gap line).
        case lyric
        /// A credit: who wrote, composed, arranged or produced the song.
        case credit
    }

    /// Backing vocals that belong to a main line: an echo, a response, a choir under the lead.
    public struct Backing: Hashable, Sendable {
        public var start: Timestamp
        public var end: Timestamp
        /// The text, trimmed, with one pair of enclosing parentheses removed.
        public var text: String
        public var words: [Word]
        public var translation: String?
        public var romanisation: String?

        public init(start: Timestamp, end: Timestamp, text: String, words: [Word] = [],
                    translation: String? = nil, romanisation: String? = nil) {
            self.start = start
            self.end = end
            self.text = text
            self.words = words
            self.translation = translation
            self.romanisation = romanisation
        }
    }
}
