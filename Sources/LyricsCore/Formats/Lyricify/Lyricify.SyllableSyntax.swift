extension Lyricify {
    /// The grammar of one physical Lyricify Syllable row, on its Unicode scalars.
    ///
    /// ```
    /// row   = blank* "[" prop "]" (text stamp)* tail
    /// prop  = any scalars but "]", "[" and ":" (at most 64); read as a number when 1–12 digits
    /// stamp = "(" digit{1,12} "," digit{1,12} ")"          start and duration, absolute ms
    /// text  = anything, up to the next stamp (lazily: `A(x)B(0,10)` is the one word `A(x)B`)
    /// ```
    ///
    /// Stamps are strict, as every peer reads them: no blanks, signs or fractions, so `(1000,-10)`
    /// and `( 1 , 2 )` are text. Trying a stamp reads at most ``maxStampLength`` scalars, so a row
    /// is scanned in time linear in its length, whatever `((((` it holds.
    enum SyllableSyntax {
        /// A stamp and the text written before it.
        struct Segment {
            var text = String.UnicodeScalarView()
            var start: Int
            var duration: Int
        }

        /// A scanned row body: its stamped segments, and the text after the last stamp.
        struct Words {
            var segments: [Segment] = []
            var tail = String.UnicodeScalarView()
            var stamps: Int { segments.count }
        }

        /// Longest stamp, in scalars: `(` + 12 digits + `,` + 12 digits + `)`.
        static let maxStampLength = 2 * Limits.maxDigits + 3
        /// Longest prop worth reading, in scalars.
        static let maxPropLength = 64

        /// The `[prop]` that opens a row (after blanks): its value when it is 1–12 digits (blanks
        /// around them allowed), `nil` for any other content (`[]`, `[-1]`, QRC's `[1000,500]`),
        /// and the index just past the `]`. `nil` altogether for tags (`[ti:…]`), LRC stamps
        /// (`[00:01.00]`) and lines that do not start with `[`.
        static func prop(_ scalars: [Unicode.Scalar]) -> (value: Int?, end: Int)? {
            var open = 0
            while open < scalars.count, scalars[open] == " " || scalars[open] == "\t" { open += 1 }
            guard open < scalars.count, scalars[open] == "[" else { return nil }
            var index = open + 1
            let limit = min(scalars.count, index + maxPropLength)
            var digits = 0
            var value = 0
            var onlyDigits = true
            while index < limit, scalars[index] != "]" {
                let scalar = scalars[index]
                guard scalar != "[", scalar != ":" else { return nil }
                if ("0"..."9").contains(scalar) {
                    digits += 1
                    if digits <= Limits.maxDigits { value = value * 10 + Int(scalar.value - 48) }
                } else if scalar != " " && scalar != "\t" {
                    onlyDigits = false
                }
                index += 1
            }
            guard index < limit else { return nil }
            let number = onlyDigits && (1...Limits.maxDigits).contains(digits) && !hasInnerBlank(scalars[(open + 1)..<index])
            return (number ? value : nil, index + 1)
        }

        /// Reads the words of a row body from `start`. The number of segments is bounded by the
        /// line limit; words past ``Limits/maxWords`` are folded later, when the words are settled.
        static func scanWords(_ scalars: [Unicode.Scalar], from start: Int) -> Words {
            var words = Words()
            var text = String.UnicodeScalarView()
            var index = start
            while index < scalars.count {
                if scalars[index] == "(", let stamp = stamp(scalars, at: index) {
                    words.segments.append(Segment(text: text, start: stamp.start, duration: stamp.duration))
                    text = String.UnicodeScalarView()
                    index = stamp.end
                    continue
                }
                text.append(scalars[index])
                index += 1
            }
            words.tail = text
            return words
        }

        /// `(start,duration)` at `index`: the two numbers and the index just past the `)`.
        static func stamp(_ scalars: [Unicode.Scalar], at index: Int) -> (start: Int, duration: Int, end: Int)? {
            guard index < scalars.count, scalars[index] == "(" else { return nil }
            let limit = min(scalars.count, index + maxStampLength)
            var position = index + 1
            var values = [0, 0]
            for number in 0..<2 {
                var digits = 0
                while position < limit, ("0"..."9").contains(scalars[position]) {
                    digits += 1
                    guard digits <= Limits.maxDigits else { return nil }
                    values[number] = values[number] * 10 + Int(scalars[position].value - 48)
                    position += 1
                }
                guard digits > 0, position < limit, scalars[position] == (number == 0 ? "," : ")") else { return nil }
                position += 1
            }
            return (values[0], values[1], position)
        }

        /// Whether blanks stand between two digits (`[1 2]` is no number).
        private static func hasInnerBlank(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
            guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
                  let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return false }
            return scalars[first...last].contains { $0 == " " || $0 == "\t" }
        }
    }
}
