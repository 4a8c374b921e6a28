/// Lyricify's convention for backing vocals in line-by-line formats that have no mark for them
/// (QRC, Lyricify Syllable with an unset role): a line wrapped in parentheses, `(…)` or `（…）`,
/// whose neighbours are not wrapped, is sung under the line before it.
enum BackingLines {
    /// Moves each wrapped line between two unwrapped ones (in file order) under the line before it,
    /// as a backing run. `lines` are in file order.
    static func attach(_ lines: [LyricLine]) -> [LyricLine] {
        var result: [LyricLine] = []
        for (index, line) in lines.enumerated() {
            let wrapped = Brackets.wrap(line.text)
            let nextWrapped = index + 1 < lines.count && Brackets.wrap(lines[index + 1].text)
            if wrapped, !nextWrapped, let previous = result.indices.last, !Brackets.wrap(result[previous].text),
               result[previous].backgrounds.isEmpty, line.role == .lyric, result[previous].role == .lyric {
                let (text, words) = Brackets.unwrapped(line.text, words: line.words)
                result[previous].backgrounds.append(LyricLine.Backing(start: line.start, end: line.end, text: text, words: words))
                continue
            }
            result.append(line)
        }
        return result
    }

    /// `line` widened to cover its backing runs, so that they are not cut off when it ends
    /// (TTML's rule, which every reader of backing vocals follows).
    static func covering(_ line: LyricLine) -> LyricLine {
        var line = line
        for run in line.backgrounds {
            line.start = min(line.start, run.start)
            line.end = max(line.end, run.end)
        }
        return line
    }
}
