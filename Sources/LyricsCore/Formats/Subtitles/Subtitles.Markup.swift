extension Subtitles {
    /// Cue text markup, removed from one text line: tags, override blocks and entities, with the
    /// inline timestamps and the voice kept aside.
    ///
    /// - Tags `<i> <b> <u> <s> <font …> <c.class> <lang xx> <ruby>` and their closers are removed,
    ///   their text kept; `<rt>`/`<rp>` text (ruby annotations) is dropped up to `</rt>`/`</rp>`
    ///   or `</ruby>`. Tag names are case-insensitive.
    /// - `<v Name>` (also `<v.class Name>`) is removed; the first name in the line is its voice.
    /// - `<mm:ss.mmm>` and `<hh:mm:ss.mmm>` start a new ``Run``.
    /// - `{\…}` blocks (ASS overrides such as `{\an8}` that SubRip files carry) are removed.
    /// - `&amp; &lt; &gt; &nbsp; &lrm; &rlm; &quot; &apos;` are decoded.
    /// - Anything else is text: `a < b`, `<unknown>`, `{plain braces}`, `&other;`.
    ///
    /// A `<…>` or `{\…}` counts only when it closes within ``maxTagLength`` scalars. Recognising a
    /// tag reads at most a few dozen scalars past its `<`, and closing brackets are found with a
    /// cursor that only moves forward, so a line is read in linear time.
    enum Markup {
        /// Text that starts at an inline timestamp, or before the first one (`stamp` `nil`).
        struct Run {
            var stamp: Int?
            var text = String.UnicodeScalarView()
        }

        /// A text line with its markup removed.
        struct Line {
            /// The runs in order; the first has no stamp (it may be empty).
            var runs: [Run]
            /// The first `<v>` voice name in the line, if any.
            var voice: String?

            /// The text without timestamps.
            var plain: String { runs.map { String($0.text) }.joined() }
        }

        /// Longest tag or override block worth reading, in scalars.
        static let maxTagLength = 512

        static func read(_ line: Substring) -> Line {
            let scalars = Array(line.unicodeScalars)
            var runs = [Run(stamp: nil)]
            var voice: String?
            var inAnnotation = false  // inside <rt> or <rp>: text dropped
            var nextAngle = -1        // cursors: the first `>` / `}` at or after the last position asked
            var nextBrace = -1
            func next(_ target: Unicode.Scalar, after index: Int, cursor: inout Int) -> Int? {
                if cursor <= index {
                    cursor = index + 1
                    while cursor < scalars.count, scalars[cursor] != target { cursor += 1 }
                }
                return cursor < scalars.count && cursor - index <= maxTagLength ? cursor : nil
            }
            func emit(_ scalar: Unicode.Scalar) {
                if !inAnnotation { runs[runs.count - 1].text.append(scalar) }
            }

            var index = 0
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "<", let close = next(">", after: index, cursor: &nextAngle) {
                    if let stamp = CueTiming.time(scalars, from: index + 1), stamp.end == close {
                        if !inAnnotation { runs.append(Run(stamp: stamp.ms)) }
                        index = close + 1
                        continue
                    }
                    if let tag = tag(scalars, from: index + 1, close: close) {
                        switch (tag.name, tag.closing) {
                        case ("rt", false), ("rp", false): inAnnotation = true
                        case ("rt", true), ("rp", true), ("ruby", true): inAnnotation = false
                        case ("v", false) where voice == nil:
                            let name = String(String(String.UnicodeScalarView(scalars[tag.end..<close])).trimmingWhitespace())
                            voice = name.isEmpty ? nil : name
                        default: break
                        }
                        index = close + 1
                        continue
                    }
                } else if scalar == "{", index + 1 < scalars.count, scalars[index + 1] == "\\",
                          let close = next("}", after: index, cursor: &nextBrace) {
                    index = close + 1
                    continue
                } else if scalar == "&", let (decoded, end) = entity(scalars, at: index) {
                    emit(decoded)
                    index = end
                    continue
                }
                emit(scalar)
                index += 1
            }
            return Line(runs: runs, voice: voice)
        }

        /// Tags removed from cue text.
        private static let tagNames: Set<String> = ["i", "b", "u", "s", "c", "v", "font", "lang", "ruby", "rt", "rp"]

        /// A known tag between `index` (just past `<`) and `close` (the `>`): its lower-cased name,
        /// whether it closes, and the index just past its name and classes (where a voice name starts).
        private static func tag(_ scalars: [Unicode.Scalar], from index: Int, close: Int) -> (name: String, closing: Bool, end: Int)? {
            var position = index
            let closing = position < close && scalars[position] == "/"
            if closing { position += 1 }
            var name = String.UnicodeScalarView()
            while position < close, name.count < 5, ("a"..."z").contains(scalars[position]) || ("A"..."Z").contains(scalars[position]) {
                name.append(scalars[position])
                position += 1
            }
            let lowered = String(name).lowercased()
            guard tagNames.contains(lowered) else { return nil }
            guard position == close || scalars[position] == "." || scalars[position] == " " || scalars[position] == "\t"
            else { return nil }
            // `.class.other` annotations run up to the first blank.
            while position < close, scalars[position] != " ", scalars[position] != "\t" { position += 1 }
            return (lowered, closing, position)
        }

        private static let entities: [String: Unicode.Scalar] = [
            "amp": "&", "lt": "<", "gt": ">", "nbsp": "\u{A0}", "lrm": "\u{200E}", "rlm": "\u{200F}",
            "quot": "\"", "apos": "'",
        ]

        /// A named entity at `index` (the `&`): the character and the index just past the `;`.
        private static func entity(_ scalars: [Unicode.Scalar], at index: Int) -> (Unicode.Scalar, Int)? {
            let limit = min(scalars.count, index + 6)
            var position = index + 1
            var name = String.UnicodeScalarView()
            while position < limit, scalars[position] != ";" {
                name.append(scalars[position])
                position += 1
            }
            guard position < limit, let decoded = entities[String(name)] else { return nil }
            return (decoded, position + 1)
        }
    }
}
