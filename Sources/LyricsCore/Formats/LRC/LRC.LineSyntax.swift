extension LRC {
    /// What one physical line of an LRC file says, before lines are combined into ``Lyrics``.
    ///
    /// Times here are as written in the file, in milliseconds, before `[offset:]`.
    struct LineSyntax: Hashable, Sendable {
        /// ID tags found at the start of the line, in order (key lower-cased, value trimmed).
        var tags: [Tag] = []
        /// The line's time tags, in the order written (one entry per tag, duplicates kept).
        var stamps: [Int] = []
        /// What follows the time tags; `.none` for untimed lines, comments and tag-only lines.
        var content: Content = .none

        struct Tag: Hashable, Sendable {
            var key: String
            var value: String
        }

        enum Content: Hashable, Sendable {
            case none
            /// Lyric text, possibly with word time tags.
            case text(Body)
            /// An LRCX `[tr]`/`[tr:lang]` attachment: a translation of the line with the same time tag,
            /// and the language it names.
            case translation(String, language: String?)
            /// An LRCX `[roma]` attachment: the romanisation of the line with the same time tag.
            case romanisation(String)
            /// An LRCX `[tt]` attachment: word timing for the line with the same time tag.
            case timing(String)
            /// An LRCX `[fu]` attachment: furigana for the line with the same time tag.
            case furigana(String)
            /// A line with text but no time tag and no ID tag (trimmed, not empty).
            case untimed(String)
        }

        /// Lyric text split at its word time tags (`<mm:ss.xx>`, or `[mm:ss.xx]` once text has begun).
        struct Body: Hashable, Sendable {
            /// Text before the first word tag (all of it when there is none), untrimmed.
            var leading: String
            /// Each word tag with the text that follows it up to the next word tag, untrimmed.
            var words: [WordTag] = []
            /// When the first word starts, if later than the line (`[t1][t2]text` with `t2` just
            /// after `t1`: a delayed first word).
            var firstWordStart: Int?
        }

        struct WordTag: Hashable, Sendable {
            var stamp: Int
            var text: String
        }
    }
}
