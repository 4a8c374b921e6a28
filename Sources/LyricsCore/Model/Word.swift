/// One timed piece of a line in word-timed ("enhanced") lyrics: a word, a syllable, a character
/// or a phrase, as the file chose.
///
/// Times are display times (the file's `[offset:]` already applied), half-open `[start, end)`.
/// A word ends where the next word stamp begins, at an explicit trailing stamp
/// (`<00:03.00>` or `[00:03.00]` with no text after it), or, for the last word of a line
/// without one, at the line's end. `end` is never before `start`.
///
/// Whitespace between words belongs to the word before it (`"Every "`, `"night"`), so joining the
/// texts of a line's words gives the line's display text.
public struct Word: Hashable, Sendable {
    /// When the word starts to be sung.
    public var start: Timestamp
    /// When the word has been sung (exclusive).
    public var end: Timestamp
    /// The word's text, including any whitespace that follows it within the line.
    public var text: String
    /// A reading shown above the word (furigana, TTML `tts:ruby`), or `nil`.
    public var ruby: String?

    public init(start: Timestamp, end: Timestamp, text: String, ruby: String? = nil) {
        self.start = start
        self.end = end
        self.text = text
        self.ruby = ruby
    }
}
