/// A metadata line `[key:value]` as the bracketed line formats write them (YRC, QRC, KRC,
/// Lyricify): key 1–16 ASCII letters (lower-cased), value up to the last `]` of the line, trimmed.
enum MetadataTag {
    /// The tag on `scalars` (after blanks), or `nil` for anything else (`[4]…`, `[00:01.00]…`).
    static func parse(_ scalars: [Unicode.Scalar]) -> (key: String, value: String)? {
        var open = 0
        while open < scalars.count, scalars[open] == " " || scalars[open] == "\t" { open += 1 }
        guard open < scalars.count, scalars[open] == "[", let close = scalars.lastIndex(of: "]"), close > open
        else { return nil }
        var index = open + 1
        var key = String.UnicodeScalarView()
        while index < close, key.count <= 16, isASCIILetter(scalars[index]) {
            key.append(scalars[index])
            index += 1
        }
        guard (1...16).contains(key.count), index < close, scalars[index] == ":" else { return nil }
        let value = String(String.UnicodeScalarView(scalars[(index + 1)..<close]))
        return (String(key).lowercased(), String(value.trimmingWhitespace()))
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
