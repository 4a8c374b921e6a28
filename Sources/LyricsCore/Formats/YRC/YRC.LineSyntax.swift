extension YRC {
    /// The grammar of one physical YRC line, on its Unicode scalars.
    ///
    /// ```
    /// line   = blank* header body
    /// header = "[" number "," number "]"
    /// body   = text? (group text?)*
    /// group  = "(" number "," number "," "-"? number ")"
    /// number = blank* digit{1,12} blank*         (blank = space or tab)
    /// ```
    ///
    /// A `(` that does not open a valid group is text. Every group search reads a bounded number of
    /// scalars, so scanning a line is linear in its length.
    enum LineSyntax {
        /// A line header: start and duration in milliseconds, and the index just past its `]`.
        struct Header: Hashable {
            var start: Int
            var duration: Int
            var end: Int
        }

        /// A word group and the text that follows it, up to the next group.
        typealias Group = TimedSegment

        /// A scanned line: its header, the text before the first group, and the groups.
        struct Body {
            var header: Header
            var leading = String.UnicodeScalarView()
            var groups: [Group] = []
        }

        /// Longest group or header worth reading, in scalars (`[` + two 12-digit numbers + blanks).
        static let maxGroupLength = 96

        /// Reads a header and its body, or `nil` when the line does not start with a valid header.
        ///
        /// At most ``Limits/maxWords`` groups are kept; the text of later groups joins the last
        /// kept word, whose end grows to cover them.
        static func scan(_ scalars: [Unicode.Scalar]) -> Body? {
            let first = skipBlanks(scalars, from: 0)
            guard let header = header(scalars, at: first) else { return nil }
            var body = Body(header: header)
            var index = header.end
            while index < scalars.count {
                if scalars[index] == "(", let group = wordGroup(scalars, at: index) {
                    if body.groups.count < Limits.maxWords {
                        body.groups.append(Group(start: group.start, end: group.start + group.duration, text: .init()))
                    } else {
                        let last = body.groups.count - 1
                        body.groups[last].end = max(body.groups[last].end, group.start + group.duration)
                    }
                    index = group.end
                    continue
                }
                if body.groups.isEmpty {
                    body.leading.append(scalars[index])
                } else {
                    body.groups[body.groups.count - 1].text.append(scalars[index])
                }
                index += 1
            }
            return body
        }

        /// `[start,duration]` at `index`.
        static func header(_ scalars: [Unicode.Scalar], at index: Int) -> Header? {
            guard index < scalars.count, scalars[index] == "[" else { return nil }
            guard let numbers = numbers(scalars, from: index + 1, count: 2, close: "]") else { return nil }
            return Header(start: numbers.values[0], duration: numbers.values[1], end: numbers.end)
        }

        /// `(start,duration,flag)` at `index`: start, duration, and the index just past the `)`.
        static func wordGroup(_ scalars: [Unicode.Scalar], at index: Int) -> (start: Int, duration: Int, end: Int)? {
            guard index < scalars.count, scalars[index] == "(" else { return nil }
            guard let numbers = numbers(scalars, from: index + 1, count: 3, close: ")", signedLast: true) else { return nil }
            return (numbers.values[0], numbers.values[1], numbers.end)
        }

        /// `count` comma-separated numbers then `close`, starting at `index`; the values and the
        /// index just past `close`. Reads at most ``maxGroupLength`` scalars.
        static func numbers(_ scalars: [Unicode.Scalar], from index: Int, count: Int, close: Unicode.Scalar,
                                    signedLast: Bool = false) -> (values: [Int], end: Int)? {
            let limit = min(scalars.count, index + maxGroupLength)
            var values: [Int] = []
            var position = index
            for number in 0..<count {
                position = skipBlanks(scalars, from: position, limit: limit)
                var negative = false
                if signedLast, number == count - 1, position < limit, scalars[position] == "-" {
                    negative = true
                    position += 1
                }
                var value = 0
                var digits = 0
                while position < limit, ("0"..."9").contains(scalars[position]) {
                    digits += 1
                    guard digits <= Limits.maxDigits else { return nil }
                    value = value * 10 + Int(scalars[position].value - 48)
                    position += 1
                }
                guard digits > 0 else { return nil }
                values.append(negative ? -value : value)
                position = skipBlanks(scalars, from: position, limit: limit)
                let separator: Unicode.Scalar = number == count - 1 ? close : ","
                guard position < limit, scalars[position] == separator else { return nil }
                position += 1
            }
            return (values, position)
        }

        /// Whether the line starts like a header (`[` then a digit or sign, a comma before the `]`)
        /// without being one; the bracketed part, shortened, as evidence.
        static func brokenHeader(_ scalars: [Unicode.Scalar]) -> String? {
            let open = skipBlanks(scalars, from: 0)
            guard open + 1 < scalars.count, scalars[open] == "[",
                  ("0"..."9").contains(scalars[open + 1]) || scalars[open + 1] == "-" || scalars[open + 1] == " ",
                  header(scalars, at: open) == nil else { return nil }
            let window = scalars[open..<min(scalars.count, open + 40)]
            let end = window.firstIndex(of: "]").map { $0 + 1 } ?? window.endIndex
            guard scalars[open..<end].contains(",") else { return nil }
            return String(String.UnicodeScalarView(scalars[open..<end]))
        }

        static func skipBlanks(_ scalars: [Unicode.Scalar], from index: Int, limit: Int? = nil) -> Int {
            let limit = limit ?? scalars.count
            var index = index
            while index < limit, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
            return index
        }
    }
}
