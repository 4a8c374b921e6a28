extension ASS {
    /// Reads a Dialogue's Text: its karaoke syllables and its display text, override blocks removed.
    ///
    /// Semantics follow libass (`ass_parse.c`, `ass_process_karaoke_effects`): `{\k<cs>}`,
    /// `{\K<cs>}`, `{\kf<cs>}` and `{\ko<cs>}` end the syllable before them and start one that lasts
    /// `cs` centiseconds; syllables follow each other from the event's Start. The fill style (`\k`
    /// switches at once, `\kf`/`\K` sweep, `\ko` outline) makes no difference to the timing.
    ///
    /// Decisions (where libass, LDDC and Unilyric differ):
    /// - **`\kt<cs>`** sets the start of the next syllable to `cs` after the event's Start (libass);
    ///   LDDC adds it to the next duration instead. Without an argument it is 0 (libass).
    /// - **Arguments.** A missing argument (`{\k}`) is 100 cs (libass). A fraction is allowed
    ///   (`\k12.5` is 125 ms; digits past the first are dropped). An argument that is not a number
    ///   (`\kabc`) is 0, as libass's `argtod` reads it (Unilyric refuses the file). A negative value is
    ///   0: time never runs backwards (libass would let it). More than 12 digits, or a running time
    ///   past ``Limits/maxTimeMs``, is held at that limit.
    /// - **Tags with no text between them** (`{\k20}{\k30}word`): the first is a syllable without
    ///   text, so it only moves the next one later, a gap (libass's "`\k12345\k0`" rule; Unilyric).
    /// - **Text before the first karaoke tag** is a syllable of no length at the Start (Unilyric;
    ///   libass shows it sung from the start; LDDC merges it into the first syllable).
    /// - **Other override tags** (`{\b1}`, `{\pos(…)}`, `{\t(…)}`) are removed, with any karaoke tag
    ///   inside parentheses (peers keep them, or their characters, in the text). A `{` without a
    ///   closing `}` is text.
    /// - **Breaks.** `\N` and `\n` become one space (no second space next to whitespace); `\h` a
    ///   space; `\{` and `\}` braces; a tab a space (libass); any other backslash is text.
    enum Karaoke {
        /// A syllable: its start and end in milliseconds after the event's Start, and its text.
        struct Syllable {
            var start: Int
            var end: Int
            var text = String.UnicodeScalarView()
        }

        /// A Dialogue's Text, read.
        struct Reading {
            /// Display text before the first karaoke syllable.
            var leading = String.UnicodeScalarView()
            var syllables: [Syllable] = []
            /// The whole display text.
            var plain = String.UnicodeScalarView()
        }

        /// A karaoke tag: a syllable of a duration, or an absolute start for the next one (ms).
        enum Tag: Equatable {
            case syllable(Int)
            case start(Int)
        }

        /// Reads `text`; `hardBreak` is what `\N` becomes (a space in lyric lines, `"\n"` in
        /// translations, where it separates parts).
        static func read(_ text: Substring, hardBreak: Unicode.Scalar = " ") -> Reading {
            let scalars = Array(text.unicodeScalars)
            var reading = Reading()
            var time = 0
            var index = 0
            var unclosed = false       // no `}` after some `{`: later ones have none either
            var endsInSpace = false
            var afterBreak = false
            func append(_ scalar: Unicode.Scalar) {
                if reading.syllables.isEmpty {
                    reading.leading.append(scalar)
                } else {
                    reading.syllables[reading.syllables.count - 1].text.append(scalar)
                }
                reading.plain.append(scalar)
                endsInSpace = scalar.properties.isWhitespace
            }
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "{", !unclosed {
                    if let close = scalars[(index + 1)...].firstIndex(of: "}") {
                        for tag in tags(scalars[(index + 1)..<close]) {
                            switch tag {
                            case .syllable(let duration):
                                let start = time
                                time = min(time + duration, Limits.maxTimeMs)
                                reading.syllables.append(Syllable(start: start, end: time))
                            case .start(let at):
                                time = at
                            }
                        }
                        index = close + 1
                        continue
                    }
                    unclosed = true
                }
                if scalar == "\\", index + 1 < scalars.count {
                    let next = scalars[index + 1]
                    if next == "N" || next == "n" {
                        if next == "N", hardBreak != " " {
                            append(hardBreak)
                        } else if !endsInSpace {
                            append(" ")
                        }
                        afterBreak = true
                        index += 2
                        continue
                    }
                    if next == "h" || next == "{" || next == "}" {
                        append(next == "h" ? " " : next)
                        afterBreak = false
                        index += 2
                        continue
                    }
                }
                let shown: Unicode.Scalar = scalar == "\t" ? " " : scalar
                if shown.properties.isWhitespace {
                    if !afterBreak { append(shown) }
                } else {
                    afterBreak = false
                    append(shown)
                }
                index += 1
            }
            return reading
        }

        /// The karaoke tags of one override block (its text between `{` and `}`), in order.
        static func tags(_ block: ArraySlice<Unicode.Scalar>) -> [Tag] {
            var tags: [Tag] = []
            var depth = 0
            var index = block.startIndex
            while index < block.endIndex {
                let scalar = block[index]
                index += 1
                if scalar == "(" { depth += 1; continue }
                if scalar == ")" { depth = max(0, depth - 1); continue }
                guard scalar == "\\", depth == 0 else { continue }
                while index < block.endIndex, block[index] == " " || block[index] == "\t" { index += 1 }
                guard index < block.endIndex, block[index] == "k" || block[index] == "K" else { continue }
                var absolute = false
                if block[index] == "k", index + 1 < block.endIndex, "fot".unicodeScalars.contains(block[index + 1]) {
                    absolute = block[index + 1] == "t"
                    index += 2
                } else {
                    index += 1
                }
                let argument = index
                while index < block.endIndex, block[index] != "\\", block[index] != "(" { index += 1 }
                let value = milliseconds(block[argument..<index])
                tags.append(absolute ? .start(value ?? 0) : .syllable(value ?? 1000))
            }
            return tags
        }

        /// A karaoke argument in centiseconds, as milliseconds (see the decisions above); `nil` when
        /// it is missing (only blanks).
        static func milliseconds(_ argument: ArraySlice<Unicode.Scalar>) -> Int? {
            var index = argument.startIndex
            func skipBlanks() { while index < argument.endIndex, argument[index] == " " || argument[index] == "\t" { index += 1 } }
            skipBlanks()
            guard index < argument.endIndex else { return nil }
            var negative = false
            if argument[index] == "-" || argument[index] == "+" {
                negative = argument[index] == "-"
                index += 1
            }
            var whole = 0
            var digits = 0
            while index < argument.endIndex, ("0"..."9").contains(argument[index]) {
                digits += 1
                if digits <= Limits.maxDigits { whole = whole * 10 + Int(argument[index].value - 48) }
                index += 1
            }
            var tenth: Int?
            if index < argument.endIndex, argument[index] == "." {
                index += 1
                if index < argument.endIndex, ("0"..."9").contains(argument[index]) {
                    tenth = Int(argument[index].value - 48)
                }
            }
            guard digits > 0 || tenth != nil, !negative else { return 0 }
            guard digits <= Limits.maxDigits else { return Limits.maxTimeMs }
            return min(whole * 10 + (tenth ?? 0), Limits.maxTimeMs)
        }
    }
}
