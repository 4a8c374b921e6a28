extension Subtitles {
    /// The grammar of cue times and timing lines, shared by SubRip and WebVTT.
    ///
    /// | form | example | ms |
    /// |---|---|---|
    /// | `h:mm:ss,mmm` (SubRip) | `01:02:03,450`, `1:02:03,450` | 3723450 |
    /// | `h:mm:ss.mmm` (WebVTT, or SubRip with a dot) | `00:00:17.500` | 17500 |
    /// | `mm:ss.mmm` (no hours) | `02:03.450` | 123450 |
    /// | short or long fractions, truncated | `00:01.5`, `00:01.2345` | 1500, 1234 |
    ///
    /// Hours and bare minutes have 1–4 digits; minutes after hours and seconds have 1–2 digits and
    /// are below 60; the fraction (1–9 digits, a decimal fraction of a second) is required.
    enum CueTiming {
        /// `start --> end` at the start of `scalars` (spaces and tabs allowed around each part), in
        /// milliseconds; whatever follows the end time after a space or tab (cue settings) is ignored.
        static func parse(_ scalars: [Unicode.Scalar]) -> (start: Int, end: Int)? {
            var index = skipBlanks(scalars, from: 0)
            guard let start = time(scalars, from: index) else { return nil }
            index = skipBlanks(scalars, from: start.end)
            guard index + 3 <= scalars.count, scalars[index] == "-", scalars[index + 1] == "-", scalars[index + 2] == ">"
            else { return nil }
            index = skipBlanks(scalars, from: index + 3)
            guard let end = time(scalars, from: index) else { return nil }
            guard end.end == scalars.count || scalars[end.end] == " " || scalars[end.end] == "\t" else { return nil }
            return (start.ms, end.ms)
        }

        /// A time at `index`: its milliseconds and the index just past it. Reads at most a few dozen
        /// scalars whatever follows.
        static func time(_ scalars: [Unicode.Scalar], from index: Int) -> (ms: Int, end: Int)? {
            var groups: [Int] = []
            var position = index
            while true {
                let maxDigits = groups.isEmpty ? 4 : 2
                var value = 0
                var digits = 0
                while position < scalars.count, digits <= maxDigits, isDigit(scalars[position]) {
                    value = value * 10 + Int(scalars[position].value - 48)
                    digits += 1
                    position += 1
                }
                guard (1...maxDigits).contains(digits), groups.isEmpty || value < 60 else { return nil }
                groups.append(value)
                guard position < scalars.count, scalars[position] == ":", groups.count < 3 else { break }
                position += 1
            }
            guard groups.count >= 2, position < scalars.count, scalars[position] == "." || scalars[position] == ","
            else { return nil }
            position += 1
            let fractionStart = position
            while position < scalars.count, position - fractionStart <= 9, isDigit(scalars[position]) { position += 1 }
            guard (1...9).contains(position - fractionStart) else { return nil }
            let fraction = LRC.TimeTag.fractionMilliseconds(scalars[fractionStart..<position])
            let seconds = groups.count == 3 ? (groups[0] * 60 + groups[1]) * 60 + groups[2] : groups[0] * 60 + groups[1]
            return (seconds * 1000 + fraction, position)
        }

        static func skipBlanks(_ scalars: [Unicode.Scalar], from index: Int) -> Int {
            var index = index
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
            return index
        }

        private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    }
}
