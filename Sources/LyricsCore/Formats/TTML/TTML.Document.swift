extension TTML {
    /// What a TTML file says, as read from the XML and before it becomes ``Lyrics``: times in
    /// milliseconds, text as written (whitespace not yet settled).
    struct Document {
        var language: String?
        /// `dur` on `<body>`.
        var length: Int?
        var title: String?
        /// Head metadata as written, for `inspect`.
        var tags: [String: String] = [:]
        var agents: [Lyrics.Agent] = []
        /// Head translations and transliterations by line key.
        var head: [String: HeadText] = [:]
        var lines: [Line] = []
    }

    /// What the head carries for one line key.
    struct HeadText {
        var translation: String?
        var translationReplaces = false
        var romanisation: String?
        var backgroundTranslation: String?
        var backgroundRomanisation: String?
    }

    /// One `<p>`.
    struct Line {
        var begin: Int?
        var end: Int?
        var key: String?
        var agent: String?
        var main = Run()
        /// One run per `x-bg` span, in document order.
        var backgrounds: [Run] = []
    }

    /// The syllables and text of a line or of its backing vocals, in document order.
    struct Run {
        var pieces: [Piece] = []
        var begin: Int?
        var end: Int?
        /// The first inline translation (what a line shows when the file names no language).
        var translation: String?
        /// Every inline translation with its `xml:lang`, in document order.
        var translations: [LyricLine.Translation] = []
        var romanisation: String?
        /// How many pieces are timed words (bounded by ``Limits/maxWords``).
        var wordCount = 0
        /// Whether an `x-bg` span opened this run (not only a translation's part of it).
        var opened = false
    }

    enum Piece {
        /// A timed syllable.
        case word(text: String, begin: Int, end: Int)
        /// Text outside any timed syllable: whitespace between spans, or untimed text.
        case text(String)
    }

    /// A TTML time expression in milliseconds: `S`, `S.fff`, `M:SS.fff`, `H:MM:SS.fff`, `12.3s`,
    /// `1500ms` (fraction truncated to milliseconds); `nil` for anything else or past 100 hours.
    static func milliseconds(_ text: String) -> Int? {
        var value = Substring(text.trimmingWhitespace())
        guard !value.isEmpty, value.count <= 32 else { return nil }
        if value.hasSuffix("ms") {
            let number = value.dropLast(2)
            guard !number.isEmpty, number.count <= 9, number.allSatisfy(\.isASCIIDigit), let ms = Int(number) else { return nil }
            return ms <= maxMilliseconds ? ms : nil
        }
        if value.hasSuffix("s") { value = value.dropLast() }
        let groups = value.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(groups.count) else { return nil }
        var total = 0
        for (index, group) in groups.enumerated() {
            let isLast = index == groups.count - 1
            let parts = group.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard let whole = parts.first, (1...6).contains(whole.count), whole.allSatisfy(\.isASCIIDigit),
                  let number = Int(whole) else { return nil }
            total = total * 60 + number
            if parts.count == 2 {
                guard isLast, parts[1].allSatisfy(\.isASCIIDigit) else { return nil }
                var millis = total * 1000
                var scale = 100
                for digit in parts[1].prefix(3) {
                    millis += (digit.wholeNumberValue ?? 0) * scale
                    scale /= 10
                }
                return millis <= maxMilliseconds ? millis : nil
            }
        }
        let millis = total * 1000
        return millis <= maxMilliseconds ? millis : nil
    }

    /// 100 hours: nothing sung lasts longer.
    static let maxMilliseconds = 100 * 3_600_000
}
