/// A point in a song, in whole milliseconds from its start.
///
/// Every time in LyricsCore is an integer number of milliseconds, never a `Double`, so that
/// comparisons and interval arithmetic are exact. Intervals built from timestamps are half-open,
/// `[start, end)`. A timestamp may hold a negative value (the arithmetic allows it), but nothing
/// that the parser produces is negative: display times are clamped to zero.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds from the start of the song.
    public var milliseconds: Int

    /// Creates a timestamp `milliseconds` after the start of the song.
    public init(milliseconds: Int) {
        self.milliseconds = milliseconds
    }

    /// The start of the song.
    public static let zero = Timestamp(milliseconds: 0)

    /// The instant `seconds` after the start, to the nearest millisecond.
    public static func seconds(_ seconds: Double) -> Timestamp {
        Timestamp(milliseconds: Int((seconds * 1000).rounded()))
    }

    /// The time in seconds, for display or for APIs that need floating point.
    public var seconds: Double { Double(milliseconds) / 1000 }

    /// The timestamp `delta` milliseconds later (earlier when negative).
    public func advanced(by delta: Int) -> Timestamp {
        Timestamp(milliseconds: milliseconds + delta)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }

    /// `mm:ss.mmm` below one hour (`"01:23.450"`), `h:mm:ss.mmm` from one hour on
    /// (`"1:02:03.500"`); a leading `-` for negative values.
    public var description: String {
        let sign = milliseconds < 0 ? "-" : ""
        let total = milliseconds.magnitude
        let millis = total % 1000
        let seconds = total / 1000 % 60
        let minutes = total / 60_000 % 60
        let hours = total / 3_600_000
        let tail = "\(Self.pad(seconds, 2)).\(Self.pad(millis, 3))"
        if hours > 0 {
            return "\(sign)\(hours):\(Self.pad(minutes, 2)):\(tail)"
        }
        return "\(sign)\(Self.pad(minutes, 2)):\(tail)"
    }

    /// Parses the time forms a person types on the command line.
    ///
    /// | form | meaning |
    /// |---|---|
    /// | `83.45`, `0`, `5` | seconds, optional fraction |
    /// | `5s`, `2.5s` | seconds with a unit |
    /// | `83450ms` | whole milliseconds |
    /// | `1:23.45`, `01:23.450` | minutes and seconds (seconds below 60) |
    /// | `1:02:03.5` | hours, minutes and seconds (minutes and seconds below 60) |
    ///
    /// The fraction is a decimal fraction of a second (`.5` = 500 ms), `.` or `,`, 1–9 digits,
    /// truncated to milliseconds. Surrounding whitespace is ignored.
    ///
    /// - Returns: `nil` for anything malformed, negative, or too large to be a song position.
    ///   This is the strict CLI parser; LRC time tags have their own, lenient grammar.
    public static func parse(_ text: String) -> Timestamp? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { return nil }
        if trimmed.hasSuffix("ms") {
            let digits = trimmed.dropLast(2)
            guard let value = Self.integer(digits, maxDigits: 12) else { return nil }
            return Timestamp(milliseconds: value)
        }
        if trimmed.hasSuffix("s") {
            return Self.seconds(trimmed.dropLast(), maxDigits: 9).map(Timestamp.init(milliseconds:))
        }
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            return Self.seconds(parts[0], maxDigits: 9).map(Timestamp.init(milliseconds:))
        case 2:
            guard let minutes = Self.integer(parts[0], maxDigits: 6),
                  let seconds = Self.seconds(parts[1], maxDigits: 2), seconds < 60_000
            else { return nil }
            return Timestamp(milliseconds: minutes * 60_000 + seconds)
        case 3:
            guard let hours = Self.integer(parts[0], maxDigits: 4),
                  let minutes = Self.integer(parts[1], maxDigits: 2), minutes < 60,
                  let seconds = Self.seconds(parts[2], maxDigits: 2), seconds < 60_000
            else { return nil }
            return Timestamp(milliseconds: (hours * 60 + minutes) * 60_000 + seconds)
        default:
            return nil
        }
    }

    /// `digits[.fraction]` → milliseconds, or nil.
    private static func seconds(_ text: Substring, maxDigits: Int) -> Int? {
        let separator = text.firstIndex { $0 == "." || $0 == "," }
        let whole = separator.map { text[..<$0] } ?? text
        guard let value = integer(whole, maxDigits: maxDigits) else { return nil }
        var millis = value * 1000
        if let separator {
            let fraction = text[text.index(after: separator)...]
            guard (1...9).contains(fraction.count), fraction.allSatisfy(\.isASCIIDigit) else { return nil }
            millis += LRC.TimeTag.fractionMilliseconds(fraction.unicodeScalars)
        }
        return millis
    }

    private static func integer(_ text: Substring, maxDigits: Int) -> Int? {
        guard (1...maxDigits).contains(text.count), text.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(text)
    }

    private static func pad(_ value: UInt, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension Character {
    /// `0`–`9` only (`isNumber` also accepts other scripts' digits and fractions).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension Substring {
    /// The text without leading and trailing Unicode whitespace (including U+3000 and NBSP).
    func trimmingWhitespace() -> Substring {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return Substring(scalars[first...last])
    }
}

extension String {
    /// The text without leading and trailing Unicode whitespace (including U+3000 and NBSP).
    func trimmingWhitespace() -> Substring { self[...].trimmingWhitespace() }
}
