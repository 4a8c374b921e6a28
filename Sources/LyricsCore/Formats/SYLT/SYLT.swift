/// ID3 synchronised lyrics (`SYLT`): a list of (milliseconds, text) entries read from an MP3's tag
/// (the tag reader hands them over; there is no SYLT file format).
///
/// Taggers write either one entry per line, or one entry per syllable or word with a line break
/// at the start (or end) of the text that opens (or closes) a line. Both become lines; in the
/// second form the entries are the line's words. A line ends where the next one starts; the last
/// one lasts five seconds (or up to `length`).
public enum SYLT {
    /// The lyrics in `entries` (sorted by time first; entries with no text are gaps).
    ///
    /// - Throws: ``LyricsError/noTimedLines`` when no entry has text.
    public static func lyrics(_ entries: [(ms: Int, text: String)], length: Timestamp? = nil) throws(LyricsError) -> Lyrics {
        let sorted = entries.enumerated().sorted { ($0.element.ms, $0.offset) < ($1.element.ms, $1.offset) }.map(\.element)
        let perWord = sorted.contains { $0.text.contains(where: \.isNewline) } && sorted.count > 1
        // Groups of (start, text) pieces, one group per line.
        var groups: [[(ms: Int, text: String)]] = []
        var breakBefore = true
        for entry in sorted {
            if !perWord {
                groups.append([(entry.ms, entry.text)])
                continue
            }
            let startsLine = entry.text.first?.isNewline ?? false
            if breakBefore || startsLine || groups.isEmpty { groups.append([]) }
            let text = entry.text.split(whereSeparator: \.isNewline).joined(separator: " ")
            groups[groups.count - 1].append((entry.ms, text))
            breakBefore = entry.text.last?.isNewline ?? false
        }
        var lines: [LyricLine] = []
        for (index, group) in groups.enumerated() {
            guard let first = group.first else { continue }
            let nextStart = index + 1 < groups.count ? groups[index + 1].first?.ms : nil
            let end = nextStart ?? max(first.ms + 5000, length?.milliseconds ?? 0)
            var words: [Word] = []
            if perWord, group.count > 1 {
                for (k, piece) in group.enumerated() where !piece.text.isEmpty {
                    let wordEnd = k + 1 < group.count ? group[k + 1].ms : end
                    words.append(Word(start: Timestamp(milliseconds: piece.ms), end: Timestamp(milliseconds: max(piece.ms, wordEnd)),
                                      text: piece.text))
                }
                // Words join into the text: trim the outer spaces of the line.
                if let firstWord = words.indices.first { words[firstWord].text = String(words[firstWord].text.drop(while: \.isWhitespace)) }
                if let lastWord = words.indices.last { words[lastWord].text = String(words[lastWord].text.trimmingWhitespace()) }
                words.removeAll { $0.text.isEmpty }
            }
            let text = words.isEmpty ? String(group.map(\.text).joined().trimmingWhitespace()) : words.map(\.text).joined()
            lines.append(LyricLine(start: Timestamp(milliseconds: first.ms), end: Timestamp(milliseconds: max(first.ms, end)),
                                   text: text, words: words))
        }
        guard lines.contains(where: { !$0.text.isEmpty }) else { throw .noTimedLines }
        Credits.mark(&lines)
        return Lyrics(format: .sylt, metadata: Lyrics.Metadata(length: length), lines: lines)
    }
}
