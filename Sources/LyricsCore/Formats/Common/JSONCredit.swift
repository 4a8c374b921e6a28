import Foundation

/// A JSON credit line, as NetEase's newer API puts before the lyrics, in YRC and in LRC alike:
/// `{"t":0,"c":[{"tx":"作词: "},{"tx":"Somebody","li":"…","or":"…"}]}`.
///
/// `t` is the start in milliseconds (a whole, non-negative number of at most twelve digits; a
/// fraction is truncated); `c` is a list of fragments whose `tx` strings are joined. Other keys
/// (`li` images, `or` links) are ignored.
struct JSONCredit: Hashable {
    var start: Int
    var text: String

    /// The credit in `line`, or `nil` when it is not a JSON object with a usable `t` and some
    /// `tx` text (junk is skipped, never reported).
    init?(_ line: Substring) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let start = Self.milliseconds(object["t"]),
              let fragments = object["c"] as? [Any]
        else { return nil }
        var text = ""
        for case let fragment as [String: Any] in fragments {
            if let piece = fragment["tx"] as? String { text += piece }
        }
        // A credit is one display line: fragments that carry line breaks are joined with spaces.
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        let trimmed = String(flat.trimmingWhitespace())
        guard !trimmed.isEmpty else { return nil }
        self.start = start
        self.text = trimmed
    }

    /// A JSON number as whole milliseconds, or `nil` when missing, negative, not finite or too large.
    private static func milliseconds(_ value: Any?) -> Int? {
        let limit = 999_999_999_999
        if let whole = value as? Int { return (0...limit).contains(whole) ? whole : nil }
        if let real = value as? Double, real.isFinite, real >= 0, real <= Double(limit) { return Int(real) }
        return nil
    }
}
