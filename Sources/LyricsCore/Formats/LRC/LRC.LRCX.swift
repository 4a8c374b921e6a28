extension LRC {
    /// LyricsX's LRCX attachments that time and annotate a line: `[t][tt]<ms,index>…<ms>` (word
    /// timing) and `[t][fu]<kana,lower,upper>…` (furigana). Both count in UTF-16 code units of the
    /// line's text, as LyricsKit does; `ms` is from the line's stamp. They attach to the line at
    /// their stamp wherever they stand in the file, before or after it (LyricsKit's second pass).
    enum LRCX {
        /// The most `<…>` groups read from one attachment (longer values are cut there): a line's
        /// characters, at one a group, rarely reach a hundred.
        static let maxGroups = 512
        /// The most groups of `[tt]` and `[fu]` read in one file; attachments beyond are dropped.
        /// Furigana costs groups × words, so this bounds a hostile file's work.
        static let maxGroupsPerFile = 50_000

        /// What an attachment's value costs of the file's budget: its groups, at most ``maxGroups``.
        static func cost(_ value: String) -> Int {
            min(maxGroups, value.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "<") ? 1 : 0) })
        }

        /// The `<…>` groups of an attachment's value, each split at its commas (at most `limit`).
        static func groups(_ value: String, limit: Int) -> [[Substring]] {
            var result: [[Substring]] = []
            var rest = Substring(value)
            while result.count < limit, let open = rest.firstIndex(of: "<"),
                  let close = rest[open...].firstIndex(of: ">") {
                result.append(rest[rest.index(after: open)..<close].split(separator: ",", omittingEmptySubsequences: false))
                rest = rest[rest.index(after: close)...]
            }
            return result
        }

        /// Words from a `[tt]` value for `text` at `stamp`: each `<ms,index>` starts a word at that
        /// UTF-16 index, which lasts until the next one; a closing `<ms>` (or an index at the text's
        /// end) ends the last word. Text before the first index joins the first word. `nil` when the
        /// value gives no usable word (indices out of order or past the text, or not numbers).
        static func timedWords(_ value: String, text: String, stamp: Int) -> [Parser.PendingWord]? {
            let utf16 = Array(text.utf16)
            var starts: [(ms: Int, index: Int)] = []
            var end: Int?
            for group in groups(value, limit: maxGroups) {
                guard let ms = group.first.flatMap({ Int($0.trimmingWhitespace()) }), ms >= 0, ms <= 86_400_000 else { return nil }
                if group.count == 1 || (group.count == 2 && Int(group[1].trimmingWhitespace()) == utf16.count) {
                    end = stamp + ms
                    break
                }
                guard group.count == 2, let index = Int(group[1].trimmingWhitespace()) else { return nil }
                let previous = starts.last.map { $0.index } ?? -1
                guard (0..<utf16.count).contains(index), index > previous else { return nil }
                starts.append((ms, index))
            }
            guard !starts.isEmpty else { return nil }
            var words: [Parser.PendingWord] = []
            for (position, start) in starts.enumerated() {
                let from = position == 0 ? 0 : start.index
                let to = position + 1 < starts.count ? starts[position + 1].index : utf16.count
                let piece = String(decoding: utf16[from..<to], as: UTF16.self)
                let wordEnd = position + 1 < starts.count ? stamp + starts[position + 1].ms : end
                words.append(.init(start: stamp + start.ms, end: wordEnd, text: piece))
            }
            return settled(words)
        }

        /// `words` with furigana from a `[fu]` value laid over `text`: the words covering each
        /// `<kana,lower,upper>` range become one word with that reading (a word cut by a range's
        /// edge is split, its time shared by length). A line without word timing gets words from
        /// the ranges, timed as the whole line. Ranges out of order or past the text are ignored.
        static func furigana(_ value: String, text: String, words: [Parser.PendingWord], stamp: Int) -> [Parser.PendingWord] {
            let length = text.utf16.count
            let given = words
            var words = words.isEmpty ? [Parser.PendingWord(start: stamp, end: nil, text: text)] : words
            var annotated = false
            for group in groups(value, limit: maxGroups) {
                guard group.count == 3, let lower = Int(group[1].trimmingWhitespace()), let upper = Int(group[2].trimmingWhitespace()),
                      lower >= 0, lower < upper, upper <= length else { continue }
                let reading = String(group[0].trimmingWhitespace())
                guard !reading.isEmpty, reading.utf16.count <= 256 else { continue }
                words = split(words, at: lower)
                words = split(words, at: upper)
                var offset = 0
                var first: Int?, last: Int?
                for (index, word) in words.enumerated() {
                    let count = word.text.utf16.count
                    if offset >= lower, offset + count <= upper { first = first ?? index; last = index }
                    offset += count
                }
                guard let first, let last, words[first...last].allSatisfy({ $0.ruby == nil }) else { continue }
                let merged = Parser.PendingWord(start: words[first].start, end: words[last].end,
                                                text: words[first...last].map(\.text).joined(), ruby: reading)
                words.replaceSubrange(first...last, with: [merged])
                annotated = true
            }
            return annotated ? words : given
        }

        /// `words` with the word that holds UTF-16 position `position` strictly inside cut in two.
        private static func split(_ words: [Parser.PendingWord], at position: Int) -> [Parser.PendingWord] {
            var offset = 0
            for (index, word) in words.enumerated() {
                let units = Array(word.text.utf16)
                if position > offset, position < offset + units.count {
                    let cut = position - offset
                    let head = String(decoding: units[..<cut], as: UTF16.self)
                    let tail = String(decoding: units[cut...], as: UTF16.self)
                    guard head.utf16.count == cut, tail.utf16.count == units.count - cut else { return words }  // never cut a surrogate pair
                    let middle = word.end.map { end in word.start + (end - word.start) * cut / units.count }
                    var result = words
                    result.replaceSubrange(index...index, with: [
                        .init(start: word.start, end: middle ?? word.end, text: head, ruby: nil),
                        .init(start: middle ?? word.start, end: word.end, text: tail, ruby: nil),
                    ])
                    return result
                }
                offset += units.count
            }
            return words
        }

        /// Whitespace at a word's start moves to the end of the word before it; a word of only
        /// whitespace joins the word before it.
        private static func settled(_ words: [Parser.PendingWord]) -> [Parser.PendingWord] {
            var result: [Parser.PendingWord] = []
            for var word in words {
                let lead = word.text.prefix(while: \.isWhitespace)
                if !lead.isEmpty, !result.isEmpty {
                    result[result.count - 1].text += lead
                    word.text.removeFirst(lead.count)
                }
                if word.text.isEmpty { continue }
                result.append(word)
            }
            return result
        }
    }
}
