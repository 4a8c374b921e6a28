/// Minimal JSON writing for output whose key order is part of a contract (JSONSerialization sorts
/// or scrambles keys and escapes `/`).
public enum JSONText {
    /// `value` as a JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t`, … or
    /// `\u00XX`; everything else, including non-ASCII, written as UTF-8.
    public static func quoted(_ value: String) -> String {
        var out = "\""
        out.unicodeScalars.reserveCapacity(value.unicodeScalars.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
        return out
    }

    /// `value` quoted, or `null`.
    public static func quoted(_ value: String?) -> String {
        value.map { quoted($0) } ?? "null"
    }
}
