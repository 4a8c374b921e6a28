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
    /// The translation shown for this line; several are joined with `"\n"`. `nil` when there is
    /// none. When the file carries translations in several languages (``translations``), this is
    /// the chosen one (``Lyrics/choosingTranslation(_:)``).
    public var translation: String?
    /// Every translation the file gives this line with its language, in file order, when the file
    /// names languages (TTML `xml:lang`, KRC/LQE sections); empty otherwise.
    public var translations: [Translation]
    /// Per-word timing, in order; empty when the line has no word timing. Joining the words'
    /// texts gives ``text``.
    public var words: [Word]
    /// What the line is: sung lyrics, or a credit (`作词 : …`, `Composed by …`) that is kept for
    /// `inspect` but never shown as the sung line.
    public var role: Role
    /// The line in Latin letters (romaji, pinyin, romaja), when the file carries it; `nil` otherwise.
    public var romanisation: String?
    /// Backing vocals sung under this line (TTML `x-bg`, Lyricify backing lines), each with its own
    /// timing, in file order; empty when none.
    public var backgrounds: [Backing]
    /// Who sings the line: an agent id from ``Lyrics/agents`` (`"v1"`, `"v2"`), or `nil` when the
    /// file does not say.
    public var agent: String?

    public init(start: Timestamp, end: Timestamp, text: String, translation: String? = nil, words: [Word] = [],
                role: Role = .lyric, romanisation: String? = nil, background: Backing? = nil, agent: String? = nil,
                translations: [Translation] = [], backgrounds: [Backing]? = nil) {
        self.start = start
        self.end = end
        self.text = text
        self.translation = translation
        self.translations = translations
        self.words = words
        self.role = role
        self.romanisation = romanisation
        self.backgrounds = backgrounds ?? background.map { [$0] } ?? []
        self.agent = agent
    }

    /// The backing vocals as one run for display: the first one's start to the last one's end,
    /// texts joined with a space, words in order. `nil` when the line has none. Setting it replaces
    /// every backing run with the one given.
    public var background: Backing? {
        get {
            guard let first = backgrounds.first else { return nil }
            guard backgrounds.count > 1 else { return first }
            func joined(_ values: [String?]) -> String? {
                let present = values.compactMap { $0 }.filter { !$0.isEmpty }
                return present.isEmpty ? nil : present.joined(separator: " ")
            }
            var words: [Word] = []
            for (index, run) in backgrounds.enumerated() {
                var runWords = run.words
                // Words join into the text: a space between runs belongs to the word before it.
                if index < backgrounds.count - 1, !runWords.isEmpty, let last = runWords.last,
                   !(last.text.last?.isWhitespace ?? false) {
                    runWords[runWords.count - 1].text += " "
                }
                words += runWords
            }
            let text = backgrounds.map(\.text).joined(separator: " ")
            return Backing(start: backgrounds.map(\.start).min() ?? first.start,
                           end: backgrounds.map(\.end).max() ?? first.end,
                           text: text, words: words.map(\.text).joined() == text ? words : [],
                           translation: joined(backgrounds.map(\.translation)),
                           romanisation: joined(backgrounds.map(\.romanisation)))
        }
        set { backgrounds = newValue.map { [$0] } ?? [] }
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

    /// A translation with the language the file names for it.
    public struct Translation: Hashable, Sendable {
        /// A BCP 47 tag as the file writes it (`zh-Hans`, `en`), or `nil` when the file names none.
        public var language: String?
        public var text: String

        public init(language: String?, text: String) {
            self.language = language
            self.text = text
        }
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
