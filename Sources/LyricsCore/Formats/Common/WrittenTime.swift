/// Times as the writers put them in files: never negative (a line moved before the song by an
/// offset is written at zero), and, for the formats that count in centiseconds, rounded half up
/// from the time itself, so that a start and an end round the same way wherever they appear and
/// a duration is the difference of two rounded times (no drift along a line).
enum WrittenTime {
    /// Milliseconds, clamped to zero.
    static func milliseconds(_ time: Timestamp) -> Int { max(0, time.milliseconds) }

    /// Whole centiseconds, half up, of the clamped time (1234 ms → 123, 1235 ms → 124).
    static func centiseconds(_ time: Timestamp) -> Int { (milliseconds(time) + 5) / 10 }

    /// The time a centisecond format reads back: the clamped time rounded to 10 ms.
    static func roundedToCentiseconds(_ time: Timestamp) -> Timestamp {
        Timestamp(milliseconds: centiseconds(time) * 10)
    }

    /// `value` in decimal with at least `width` digits.
    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// `hh:mm:ss<separator>mmm` (hours at least two digits), as SubRip and WebVTT write cue times.
    static func clock(_ time: Timestamp, separator: Character) -> String {
        let ms = milliseconds(time)
        return padded(ms / 3_600_000, 2) + ":" + padded(ms / 60_000 % 60, 2) + ":" + padded(ms / 1000 % 60, 2)
            + String(separator) + padded(ms % 1000, 3)
    }
}

extension String {
    /// The text on one line: every line break (and other vertical space) becomes a space.
    var onOneLine: String {
        guard contains(where: \.isNewline) else { return self }
        return String(map { $0.isNewline ? " " : $0 })
    }

    /// The text without leading and trailing Unicode whitespace, as a `String`.
    var trimmed: String { String(trimmingWhitespace()) }
}
