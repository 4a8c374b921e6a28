/// Makes lyric text safe to lay out: no control characters, no runaway stacks of combining marks,
/// and a bounded length, so that no input can stall text shaping or draw outside its box.
package enum DisplayText {
    /// Longest text handed to layout, in characters (grapheme clusters): far more than three
    /// lines can show at the smallest size.
    package static let maxCharacters = 400
    /// Unicode scalars kept per character: enough for the longest emoji ZWJ sequences and real
    /// combining-mark stacks (Vietnamese, Thai, Arabic harakat), not for "zalgo" text.
    package static let maxScalarsPerCharacter = 10
    /// Lines kept in a multi-line text (a translation that gathered several same-stamp lines).
    package static let maxLines = 3

    package static func clean(_ text: String, maxCharacters: Int = DisplayText.maxCharacters) -> String {
        let maxCharacters = max(2, maxCharacters)
        var lines: [String] = []
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(maxLines) {
            var line = ""
            var count = 0
            for character in rawLine {
                if count == maxCharacters - 1 {
                    line.append("…")
                    break
                }
                var scalars = String.UnicodeScalarView()
                for scalar in character.unicodeScalars where scalars.count < maxScalarsPerCharacter {
                    switch scalar.value {
                    case 0x09: scalars.append(" ")
                    case 0x00...0x1F, 0x7F...0x9F: continue  // C0 and C1 controls, DEL
                    default: scalars.append(scalar)
                    }
                }
                guard !scalars.isEmpty else { continue }
                line.unicodeScalars.append(contentsOf: scalars)
                count += 1
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
