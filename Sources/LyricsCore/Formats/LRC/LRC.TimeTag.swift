extension LRC {
    /// The grammar of the time inside an LRC time tag (`[…]` or `<…>`), in all its real-world spellings.
    ///
    /// | form | example | ms |
    /// |---|---|---|
    /// | `m:s.f`, 1–6 fraction digits, truncated | `[00:12.34]`, `[0:02.1234]`, `[00:00.1]` | 12340, 2123, 100 |
    /// | `m:s` | `[00:13]`, `[3:1]` | 13000, 181000 |
    /// | `m:s:f` (colon fraction) | `[00:15:83]`, `[00:01:500]` | 15830, 1500 |
    /// | `h:m:s.f` (hours: three groups *and* a fraction separator) | `[1:02:33.45]` | 3753450 |
    /// | comma decimal | `[01:23,45]` | 83450 |
    /// | spaces and tabs anywhere | `[ 1 : 10 . 10 ]` | 70100 |
    /// | long minutes, seconds ≥ 60 (literal) | `[103:3.405]`, `[00:99.00]` | 6183405, 99000 |
    ///
    /// Rejected: negative stamps, stamps without minutes (`[10.00]`), any other character. Minutes
    /// have 1–6 digits, hours 1–3, seconds 1–2 (3 when a fraction follows, `[01:010.010]`); an empty
    /// fraction (`[00:12.]`) counts as zero.
    enum TimeTag {
        /// Longest tag body worth trying, in scalars (a generous bound so scanning stays linear).
        static let maxBodyLength = 48

        /// Two leading time tags at most this far apart are a line and its delayed first word, not
        /// one text repeated at two times (a chorus repeats seconds apart, not within one).
        static let delayedWordWindowMs = 500

        /// The time in milliseconds written in `body` (the text between the brackets), or `nil`.
        static func milliseconds<Body: Collection<Unicode.Scalar>>(_ body: Body) -> Int? {
            guard body.count <= maxBodyLength else { return nil }
            // Split into colon groups, dropping blanks; every other scalar must be a digit or separator.
            var groups: [[Unicode.Scalar]] = [[]]
            for scalar in body {
                switch scalar {
                case " ", "\t":
                    continue
                case ":":
                    groups.append([])
                case "0"..."9", ".", ",":
                    groups[groups.count - 1].append(scalar)
                default:
                    return nil
                }
            }
            func isDecimal(_ scalar: Unicode.Scalar) -> Bool { scalar == "." || scalar == "," }
            // Only the last group may hold a decimal separator.
            guard groups.dropLast().allSatisfy({ !$0.contains(where: isDecimal) }) else { return nil }

            switch groups.count {
            case 2:
                guard let minutes = integer(groups[0], digits: 1...6),
                      let seconds = secondsAndFraction(groups[1])
                else { return nil }
                return minutes * 60_000 + seconds
            case 3 where groups[2].contains(where: isDecimal):
                guard let hours = integer(groups[0], digits: 1...3),
                      let minutes = integer(groups[1], digits: 1...2),
                      let seconds = secondsAndFraction(groups[2])
                else { return nil }
                return (hours * 60 + minutes) * 60_000 + seconds
            case 3:
                // a:b:c without a decimal point is mm:ss:ff, the fraction after a colon (LRC.md §3).
                guard let minutes = integer(groups[0], digits: 1...6),
                      let seconds = integer(groups[1], digits: 1...2),
                      (1...6).contains(groups[2].count)
                else { return nil }
                return minutes * 60_000 + seconds * 1000 + fractionMilliseconds(groups[2])
            default:
                return nil
            }
        }

        /// The first three digits of a decimal fraction of a second, as milliseconds (`"1"` → 100,
        /// `"4567"` → 456). Expects digits only.
        static func fractionMilliseconds<Digits: Sequence<Unicode.Scalar>>(_ digits: Digits) -> Int {
            var millis = 0
            var scale = 100
            for digit in digits {
                guard scale > 0 else { break }
                millis += Int(digit.value - 48) * scale
                scale /= 10
            }
            return millis
        }

        /// `ss`, `ss.f` or `ss,f` → milliseconds.
        private static func secondsAndFraction(_ group: [Unicode.Scalar]) -> Int? {
            guard let separator = group.firstIndex(where: { $0 == "." || $0 == "," }) else {
                return integer(group[...], digits: 1...2).map { $0 * 1000 }
            }
            let fraction = group[(separator + 1)...]
            // Three-digit seconds (`[01:010.010]`) occur in real files, always with a fraction.
            guard let seconds = integer(group[..<separator], digits: 1...3),
                  fraction.count <= 6, fraction.allSatisfy({ $0 != "." && $0 != "," })
            else { return nil }
            return seconds * 1000 + fractionMilliseconds(fraction)
        }

        private static func integer(_ digits: some Collection<Unicode.Scalar>, digits range: ClosedRange<Int>) -> Int? {
            guard range.contains(digits.count) else { return nil }
            var value = 0
            for digit in digits {
                guard ("0"..."9").contains(digit) else { return nil }
                value = value * 10 + Int(digit.value - 48)
            }
            return value
        }
    }
}
