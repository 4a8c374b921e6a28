/// The brackets that mark backing vocals: `(…)` or full-width `（…）` around a whole line, as
/// Lyricify's formats, QRC and ASS karaoke files write them.
enum Brackets {
    static func isOpening(_ scalar: Unicode.Scalar) -> Bool { scalar == "(" || scalar == "（" }
    static func isClosing(_ scalar: Unicode.Scalar) -> Bool { scalar == ")" || scalar == "）" }

    /// Whether one pair of brackets wraps all of `text`: it starts with `(` or `（`, ends with `)`
    /// or `）`, and the first bracket closes only at the very end. So `(oh) yeah (oh)` is not
    /// wrapped (Lyricify's check, start and end alone, would say it is). Mixed widths (`(oh）`)
    /// count as a pair, as in Lyricify.
    static func wrap(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last, scalars.count >= 2,
              isOpening(first), isClosing(last) else { return false }
        var depth = 0
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if isOpening(scalar) { depth += 1 }
            if isClosing(scalar) {
                depth -= 1
                if depth <= 0 { return scalars.index(after: index) == scalars.endIndex && depth == 0 }
            }
            index = scalars.index(after: index)
        }
        return false
    }

    /// `text` without its wrapping pair (see ``wrap(_:)``), trimmed; `text` as it is otherwise.
    static func unwrapped(_ text: String) -> String {
        guard wrap(text) else { return text }
        var scalars = text.unicodeScalars
        scalars.removeFirst()
        scalars.removeLast()
        return String(String(scalars).trimmingWhitespace())
    }

    /// `text` and its `words` (which join into it) without the wrapping pair: the bracket is
    /// taken from the first and the last word, words left empty are dropped and the new edges
    /// trimmed, so the words still join into the text.
    static func unwrapped(_ text: String, words: [Word]) -> (text: String, words: [Word]) {
        guard wrap(text) else { return (text, words) }
        guard !words.isEmpty, words.map(\.text).joined() == text else { return (unwrapped(text), []) }
        var words = words
        words[0].text.unicodeScalars.removeFirst()
        words[words.count - 1].text.unicodeScalars.removeLast()
        // Trim the new edges; a word left with nothing gives way to its neighbour.
        while let first = words.first {
            let trimmed = String(first.text.unicodeScalars.drop(while: \.properties.isWhitespace))
            if trimmed.isEmpty { words.removeFirst(); continue }
            words[0].text = trimmed
            break
        }
        while let last = words.last {
            var scalars = last.text.unicodeScalars
            while let scalar = scalars.last, scalar.properties.isWhitespace { scalars.removeLast() }
            if scalars.isEmpty { words.removeLast(); continue }
            words[words.count - 1].text = String(scalars)
            break
        }
        return (words.map(\.text).joined(), words)
    }
}
