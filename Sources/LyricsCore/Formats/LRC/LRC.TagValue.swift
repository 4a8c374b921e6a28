extension LRC {
    /// Readers for the ID tag values that carry numbers.
    enum TagValue {
        /// `[offset:]`: whole milliseconds, optionally signed, spaces allowed around the sign
        /// (`+300`, `-300`, ` - 300`). A fraction is truncated (`+175.99` → 175). `nil` when not a number.
        static func offset(_ text: String) -> Int? {
            var rest = text.trimmingWhitespace()
            var negative = false
            if let sign = rest.first, sign == "+" || sign == "-" {
                negative = sign == "-"
                rest = rest.dropFirst().trimmingWhitespace()
            }
            guard let value = milliseconds(String(rest)) else { return nil }
            return negative ? -value : value
        }

        /// An unsigned decimal number of milliseconds, fraction truncated (`375275`, `12.5` → 12).
        static func milliseconds(_ text: String) -> Int? {
            let trimmed = text.trimmingWhitespace()
            let parts = trimmed.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard let whole = parts.first, (1...12).contains(whole.count), whole.allSatisfy(\.isASCIIDigit)
            else { return nil }
            if parts.count == 2 {
                guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCIIDigit) else { return nil }
            }
            return Int(whole)
        }

        /// `[length:]`: any form ``Timestamp/parse(_:)`` accepts; a bare whole number is seconds up
        /// to 3600 and milliseconds above.
        static func length(_ text: String) -> Timestamp? {
            let trimmed = text.trimmingWhitespace()
            if !trimmed.isEmpty, trimmed.count <= 12, trimmed.allSatisfy(\.isASCIIDigit), let value = Int(trimmed) {
                return Timestamp(milliseconds: value <= 3600 ? value * 1000 : value)
            }
            return Timestamp.parse(String(trimmed))
        }
    }
}
