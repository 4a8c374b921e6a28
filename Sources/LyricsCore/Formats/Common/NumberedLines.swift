/// The physical lines of a text with their 1-based numbers, for the line-based formats whose
/// errors name a line (YRC, SRT, WebVTT).
enum NumberedLines {
    /// Splits at LF, CR and CRLF (CRLF counts as one break, so no blank line appears between its
    /// halves); U+FEFF is removed from the start of each line.
    static func of(_ text: String) -> [(number: Int, text: Substring)] {
        let scalars = text.unicodeScalars
        var result: [(number: Int, text: Substring)] = []
        var lineStart = scalars.startIndex
        var index = lineStart
        var previousWasCR = false
        func emit(upTo end: String.UnicodeScalarView.Index) {
            var line = scalars[lineStart..<end]
            while line.first == "\u{FEFF}" { line.removeFirst() }
            result.append((result.count + 1, Substring(line)))
        }
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "\n" && previousWasCR {
                lineStart = scalars.index(after: index)   // the LF of a CRLF
            } else if scalar == "\n" || scalar == "\r" {
                emit(upTo: index)
                lineStart = scalars.index(after: index)
            }
            previousWasCR = scalar == "\r"
            index = scalars.index(after: index)
        }
        if lineStart < scalars.endIndex { emit(upTo: scalars.endIndex) }
        return result
    }
}
