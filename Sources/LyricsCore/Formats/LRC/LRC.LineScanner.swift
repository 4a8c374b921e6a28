extension LRC {
    /// Reads one physical line (no line break inside, BOM already removed) into ``LineSyntax``.
    ///
    /// Grammar: `ws* (group ws*)* body`, where the leading groups are ID tags (only before the first
    /// time tag) and time tags. The first thing that is neither ends the groups; everything from there
    /// on is the body, in which `<time>` and `[time]` are word tags and any other bracket is text
    /// (`[00:00.00][Intro: piano]` keeps `[Intro: piano]`, `a < b > c` stays as it is).
    ///
    /// Every bracket search looks at most ``TimeTag/maxBodyLength`` scalars ahead, except the
    /// balanced search for an ID tag value, which consumes what it scans; scanning is linear.
    enum LineScanner {
        static func scan(_ line: Substring) -> LineSyntax {
            let scalars = Array(line.unicodeScalars)
            var syntax = LineSyntax()
            var index = skipWhitespace(scalars, from: 0)
            if index < scalars.count, scalars[index] == "#" { return syntax }  // comment line

            groups: while true {
                index = skipWhitespace(scalars, from: index)
                guard index < scalars.count, scalars[index] == "[" else { break }
                let close = closing("]", in: scalars, openingAt: index)
                if let close, let stamp = TimeTag.milliseconds(scalars[(index + 1)..<close]) {
                    syntax.stamps.append(stamp)
                    index = close + 1
                    continue
                }
                if syntax.stamps.isEmpty {
                    // ID tags count only before the first time tag; after it, `[…]` is lyric text.
                    if close == index + 2, scalars[index + 1] == ":" { return syntax }  // `[:]` comment
                    guard let (tag, end) = idTag(scalars, openingAt: index) else { break groups }
                    syntax.tags.append(tag)
                    index = end
                    continue
                }
                if let close, let attachment = attachment(scalars[(index + 1)..<close]) {
                    let payload = String(String(String.UnicodeScalarView(scalars[(close + 1)...])).trimmingWhitespace())
                    switch attachment {
                    case .translation(let language):
                        syntax.content = .translation(payload, language: language)
                    case .romanisation:
                        syntax.content = .romanisation(payload)
                    case .timing:
                        syntax.content = .timing(payload)
                    case .furigana:
                        syntax.content = .furigana(payload)
                    }
                    return syntax
                }
                break
            }
            guard !syntax.stamps.isEmpty else {
                // Untimed text: kept for the parser, which may read it as the translation of the line above.
                if syntax.tags.isEmpty {
                    let text = String(String.UnicodeScalarView(scalars[index...])).trimmingWhitespace()
                    if !text.isEmpty { syntax.content = .untimed(String(text)) }
                }
                return syntax
            }
            var body = Self.body(scalars[index...])
            // `[t1][t2]text` with t2 just after t1 is one line whose first word waits (AMLL, SPL);
            // a repeated line (fan-out) is never this close to its first time.
            if syntax.stamps.count == 2, case let delay = syntax.stamps[1] - syntax.stamps[0],
               delay > 0, delay <= TimeTag.delayedWordWindowMs {
                body.firstWordStart = syntax.stamps[1]
                syntax.stamps.removeLast()
            }
            syntax.content = .text(body)
            return syntax
        }

        /// Splits the body at its word time tags.
        private static func body(_ scalars: ArraySlice<Unicode.Scalar>) -> LineSyntax.Body {
            var leading = String.UnicodeScalarView()
            var words: [(stamp: Int, text: String.UnicodeScalarView)] = []
            // The next `]` and `>` from each position, found in one backward pass, so that a line of
            // thousands of brackets costs one look each.
            var nextSquare = [Int](repeating: scalars.endIndex, count: scalars.count + 1)
            var nextAngle = nextSquare
            for offset in stride(from: scalars.count - 1, through: 0, by: -1) {
                let scalar = scalars[scalars.startIndex + offset]
                nextSquare[offset] = scalar == "]" ? scalars.startIndex + offset : nextSquare[offset + 1]
                nextAngle[offset] = scalar == ">" ? scalars.startIndex + offset : nextAngle[offset + 1]
            }
            var index = scalars.startIndex
            while index < scalars.endIndex {
                let scalar = scalars[index]
                let offset = index - scalars.startIndex
                if scalar == "[" || scalar == "<",
                   case let close = scalar == "[" ? nextSquare[offset + 1] : nextAngle[offset + 1],
                   close < scalars.endIndex, close - index - 1 <= TimeTag.maxBodyLength,
                   let stamp = TimeTag.milliseconds(scalars[(index + 1)..<close]) {
                    words.append((stamp, String.UnicodeScalarView()))
                    index = close + 1
                    continue
                }
                if words.isEmpty {
                    leading.append(scalar)
                } else {
                    words[words.count - 1].text.append(scalar)
                }
                index += 1
            }
            return LineSyntax.Body(
                leading: String(leading),
                words: words.map { LineSyntax.WordTag(stamp: $0.stamp, text: String($0.text)) }
            )
        }

        /// `[key:value]` starting at `open`: key = ASCII letter then letters, digits, `_`, `-`; spaces
        /// allowed around the key; the value runs to the *balanced* closing bracket
        /// (`[ti: X [Explicit]]` → `X [Explicit]`), or to the last `]` of the line when unbalanced.
        /// Returns the tag and the index just past it.
        private static func idTag(_ scalars: [Unicode.Scalar], openingAt open: Int) -> (LineSyntax.Tag, Int)? {
            var index = skipBlanks(scalars, from: open + 1)
            let keyStart = index
            guard index < scalars.count, isASCIILetter(scalars[index]) else { return nil }
            while index < scalars.count, isKeyScalar(scalars[index]) { index += 1 }
            let key = String(String.UnicodeScalarView(scalars[keyStart..<index])).lowercased()
            index = skipBlanks(scalars, from: index)
            guard index < scalars.count, scalars[index] == ":" else { return nil }
            let valueStart = index + 1
            var depth = 1
            var cursor = valueStart
            while cursor < scalars.count {
                if scalars[cursor] == "[" {
                    depth += 1
                } else if scalars[cursor] == "]" {
                    depth -= 1
                    if depth == 0 { break }
                }
                cursor += 1
            }
            if cursor == scalars.count {
                guard let last = scalars.lastIndex(of: "]"), last >= valueStart else { return nil }
                cursor = last
            }
            let value = String(String.UnicodeScalarView(scalars[valueStart..<cursor])).trimmingWhitespace()
            return (LineSyntax.Tag(key: key, value: String(value)), cursor + 1)
        }

        private enum Attachment { case translation(language: String?), romanisation, timing, furigana }

        /// LyricsX LRCX attachment tags, recognised only right after a time tag:
        /// `[tr]`, `[tr:lang]`, `[tt]`, `[fu]`, `[roma]` (lower case, as LyricsKit writes them).
        private static func attachment(_ body: ArraySlice<Unicode.Scalar>) -> Attachment? {
            let name = String(String.UnicodeScalarView(body))
            switch name {
            case "tr":
                return .translation(language: nil)
            case "roma":
                return .romanisation
            case "tt":
                return .timing
            case "fu":
                return .furigana
            default:
                guard name.hasPrefix("tr:") else { return nil }
                let language = name.unicodeScalars.dropFirst(3)
                guard !language.isEmpty, language.allSatisfy({ isKeyScalar($0) }) else { return nil }
                return .translation(language: String(String.UnicodeScalarView(language)))
            }
        }

        /// The index of the first `close` after `open`, looking at most ``TimeTag/maxBodyLength`` + 1
        /// scalars ahead (anything longer cannot be a time tag).
        private static func closing<C: RandomAccessCollection<Unicode.Scalar>>(
            _ close: Unicode.Scalar, in scalars: C, openingAt open: C.Index
        ) -> C.Index? where C.Index == Int {
            let limit = min(scalars.endIndex, open + TimeTag.maxBodyLength + 2)
            var index = open + 1
            while index < limit {
                if scalars[index] == close { return index }
                index += 1
            }
            return nil
        }

        private static func skipWhitespace(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
            var index = start
            while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
            return index
        }

        private static func skipBlanks(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
            var index = start
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
            return index
        }

        private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        }

        private static func isKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
            isASCIILetter(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
        }
    }
}
