/// Lyricify's convention for backing vocals in line-by-line formats that have no mark for them
/// (QRC, Lyricify Syllable with an unset role): a line wrapped in parentheses, `(…)` or `（…）`,
/// whose neighbours are not wrapped, is sung under the line before it.
enum BackingLines {
    /// Whether `text` is wrapped in one pair of ASCII or full-width parentheses.
    static func isWrapped(_ text: String) -> Bool {
        guard let first = text.first, let last = text.last, text.count >= 2 else { return false }
        return (first == "(" || first == "（") && (last == ")" || last == "）")
    }

    /// `text` without one wrapping pair of parentheses, trimmed.
    static func unwrapped(_ text: String) -> String {
        guard isWrapped(text) else { return text }
        return String(text.dropFirst().dropLast().trimmingWhitespace())
    }

    /// Words with the wrapping parentheses taken off the first and last word (and a word that held
    /// only a parenthesis dropped), so that they still join into ``unwrapped(_:)``.
    static func unwrapped(_ words: [Word]) -> [Word] {
        guard !words.isEmpty else { return words }
        var result = words
        result[0].text = String(result[0].text.dropFirst())
        while let first = result.first, first.text.trimmingWhitespace().isEmpty { result.removeFirst() }
        if let lead = result.first?.text.prefix(while: \.isWhitespace), !lead.isEmpty { result[0].text.removeFirst(lead.count) }
        guard !result.isEmpty else { return [] }
        result[result.count - 1].text = String(result[result.count - 1].text.dropLast())
        while let last = result.last, last.text.trimmingWhitespace().isEmpty { result.removeLast() }
        if !result.isEmpty { result[result.count - 1].text = String(result[result.count - 1].text.trimmingWhitespace()) }
        return result
    }

    /// Moves each wrapped line between two unwrapped ones (in file order) under the line before it,
    /// as a backing run. `lines` are in file order.
    static func attach(_ lines: [LyricLine]) -> [LyricLine] {
        var result: [LyricLine] = []
        for (index, line) in lines.enumerated() {
            let wrapped = isWrapped(line.text)
            let nextWrapped = index + 1 < lines.count && isWrapped(lines[index + 1].text)
            if wrapped, !nextWrapped, let previous = result.indices.last, !isWrapped(result[previous].text),
               result[previous].backgrounds.isEmpty, line.role == .lyric, result[previous].role == .lyric {
                let words = unwrapped(line.words)
                let text = unwrapped(line.text)
                result[previous].backgrounds.append(LyricLine.Backing(
                    start: line.start, end: line.end, text: text,
                    words: words.map(\.text).joined() == text ? words : []))
                continue
            }
            result.append(line)
        }
        return result
    }
}
