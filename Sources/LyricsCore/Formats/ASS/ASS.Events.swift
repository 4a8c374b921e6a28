extension ASS {
    /// Reads a script's sections: the `[Script Info]` fields and the `[Events]` section's
    /// `Dialogue:` lines, split into their fields.
    ///
    /// Decisions (where libass, LDDC and Unilyric differ):
    /// - **Columns.** The `Format:` line names them (case-insensitive, any order; `Name` or `Actor`;
    ///   AMLL's misspelt `Formats:` too). Without one, libass's order is assumed:
    ///   `Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text` (SSA's `Marked`
    ///   sits where `Layer` is, so the same positions serve). A `Format:` that names no Start, End
    ///   or Text, or more than ``Limits/maxFields`` fields, is refused: its events cannot be read.
    /// - **Splitting** (LDDC's rule): a `Dialogue:` is split on its first N − 1 commas, N the number
    ///   of columns, so the last column (Text) may hold commas. Fields are trimmed, so spaces after
    ///   commas (AMLL writes them) are harmless; Text is kept as written. Unilyric's fixed pattern
    ///   reads only the default order.
    /// - **Times** are `H:MM:SS.cc`: hours 1–6 digits, minutes and seconds 1–2, then an optional
    ///   fraction of 1–3 digits read as a decimal fraction (`.5` is 500 ms, `.05` 50 ms, `.123`
    ///   123 ms). libass multiplies the digits by 10 whatever their count (`.5` = 50 ms); LDDC and
    ///   Unilyric accept exactly two. A `Dialogue:` with a malformed time or too few fields is skipped
    ///   and reported only when nothing in the file could be read.
    /// - Lines starting with `;` are comments; `Comment:`, `Picture:`, `Sound:`, `Movie:` and
    ///   `Command:` events are skipped, as are the `[V4+ Styles]`, `[Fonts]` and `[Graphics]` sections.
    enum Events {
        /// One `Dialogue:` event.
        struct Event {
            var line: Int
            var start: Int
            var end: Int
            var style: Substring
            var name: Substring
            var text: Substring
        }

        /// What a script holds: its info fields, its events in file order, and the first malformed
        /// `Dialogue:` (line and reason).
        struct Script {
            var info: [String: String] = [:]
            var events: [Event] = []
            var broken: (line: Int, reason: String)?
        }

        /// libass's columns when a script has no `Format:` line.
        static let defaultFormat = ["layer", "start", "end", "style", "name", "marginl", "marginr", "marginv", "effect", "text"]

        static func read(_ text: String) throws(LyricsError) -> Script {
            var script = Script()
            var section = ""
            var sawEvents = false
            var columns = try Columns(names: defaultFormat, line: 0)
            for (number, line) in NumberedLines.of(text) where line.utf8.count <= Limits.maxLineBytes {
                let trimmed = line.trimmingWhitespace()
                guard !trimmed.isEmpty, !trimmed.hasPrefix(";") else { continue }
                if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
                    section = trimmed.dropFirst().dropLast().trimmingWhitespace().lowercased()
                    if section == "events" {
                        sawEvents = true
                        columns = try Columns(names: defaultFormat, line: number)
                    }
                    continue
                }
                guard let colon = trimmed.firstIndex(of: ":") else { continue }
                let key = trimmed[..<colon].trimmingWhitespace().lowercased()
                let value = trimmed[trimmed.index(after: colon)...]
                switch section {
                case "script info":
                    if script.info.count < Limits.maxInfoFields || script.info[key] != nil {
                        script.info[key] = String(value.trimmingWhitespace())
                    }
                case "events" where key == "format" || key == "formats":
                    let names = value.split(separator: ",", omittingEmptySubsequences: false).prefix(Limits.maxFields + 1)
                    guard names.count <= Limits.maxFields else {
                        throw .invalid("not valid ASS: line \(number): Format names more than \(Limits.maxFields) fields")
                    }
                    columns = try Columns(names: names.map { $0.trimmingWhitespace().lowercased() }, line: number)
                case "events" where key == "dialogue":
                    guard script.events.count < Limits.maxEvents else { continue }
                    switch event(value, columns: columns, line: number) {
                    case .success(let event): script.events.append(event)
                    case .failure(let problem): if script.broken == nil { script.broken = (number, problem.reason) }
                    }
                default:
                    continue
                }
            }
            guard sawEvents else { throw .invalid("not valid ASS: no [Events] section") }
            return script
        }

        /// Where the columns that matter sit in a `Format:`.
        struct Columns {
            var count: Int
            var start: Int
            var end: Int
            var text: Int
            var style: Int?
            var name: Int?

            init(names: [String], line: Int) throws(LyricsError) {
                guard let start = names.firstIndex(of: "start"), let end = names.firstIndex(of: "end"),
                      let text = names.firstIndex(of: "text") else {
                    throw .invalid("not valid ASS: line \(line): Format names no Start, End or Text ('\(names.joined(separator: ", ").prefix(80))')")
                }
                (self.count, self.start, self.end, self.text) = (names.count, start, end, text)
                style = names.firstIndex(of: "style")
                name = names.firstIndex(of: "name") ?? names.firstIndex(of: "actor")
            }
        }

        struct Problem: Error { var reason: String }

        /// The event in the text after `Dialogue:`, or why it cannot be read.
        static func event(_ value: Substring, columns: Columns, line: Int) -> Result<Event, Problem> {
            var fields: [Substring] = []
            fields.reserveCapacity(columns.count)
            var rest = value
            while fields.count < columns.count - 1, let comma = rest.firstIndex(of: ",") {
                fields.append(rest[..<comma])
                rest = rest[rest.index(after: comma)...]
            }
            fields.append(rest)
            guard fields.count == columns.count else {
                return .failure(Problem(reason: "Dialogue has \(fields.count) fields, Format names \(columns.count)"))
            }
            let startField = fields[columns.start].trimmingWhitespace()
            let endField = fields[columns.end].trimmingWhitespace()
            guard let start = time(startField) else {
                return .failure(Problem(reason: "malformed time '\(startField.prefix(40))'"))
            }
            guard let end = time(endField) else {
                return .failure(Problem(reason: "malformed time '\(endField.prefix(40))'"))
            }
            return .success(Event(line: line, start: start, end: end,
                                  style: columns.style.map { fields[$0].trimmingWhitespace() } ?? "",
                                  name: columns.name.map { fields[$0].trimmingWhitespace() } ?? "",
                                  text: fields[columns.text]))
        }

        /// `H:MM:SS.cc` (see the decisions above) in milliseconds, or `nil`.
        static func time(_ text: Substring) -> Int? {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3 else { return nil }
            let seconds = parts[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard let hours = digits(parts[0], 1...6), let minutes = digits(parts[1], 1...2),
                  let whole = digits(seconds[0], 1...2) else { return nil }
            var fraction = 0
            if seconds.count == 2 {
                guard seconds[1].count <= 3, seconds[1].allSatisfy(\.isASCIIDigit) else { return nil }
                fraction = LRC.TimeTag.fractionMilliseconds(seconds[1].unicodeScalars)
            }
            return hours * 3_600_000 + minutes * 60_000 + whole * 1000 + fraction
        }

        private static func digits(_ text: Substring, _ count: ClosedRange<Int>) -> Int? {
            guard count.contains(text.count), text.allSatisfy(\.isASCIIDigit) else { return nil }
            return Int(text)
        }
    }
}
