extension Lyrics {
    /// The JSON printed by `lyricposter inspect`, a contract other tools parse.
    ///
    /// ```
    /// {"encoding": "utf-8", "format": "lrc" | "ttml" | "yrc" | "srt" | "vtt", "tags": {"ti": "…"},
    ///  "offset_ms": 0, "agents": [{"id": "v1", "type": "person", "name": "…" | null}],
    ///  "lines": [{"start_ms": 5200, "end_ms": 11850, "text": "…", "translation": "…" | null,
    ///             "words": [{"start_ms": 5200, "end_ms": 5600, "text": "Every "}],
    ///             "role": "lyric" | "credit", "romanisation": "…" | null,
    ///             "background": null | {"start_ms", "end_ms", "text", "translation", "romanisation", "words"},
    ///             "agent": "v1" | null,
    ///             "translations": [{"language": "en" | null, "text": "…"}],   (only when the file tags languages)
    ///             "backgrounds": [{…as background…}]}]}                       (only when a line has several)
    /// ```
    ///
    /// A word carries `"ruby": "…"` after its text when the file gives it a reading.
    ///
    /// Keys appear in exactly this order; tags are sorted by key; times are display times (offset
    /// applied) in milliseconds and may be negative; blank lines appear with `"text": ""`; non-ASCII
    /// text is written as UTF-8, not `\u` escapes. The output is deterministic and ends without a
    /// newline. `format`, `agents`, `role`, `romanisation`, `background` and `agent` were added after
    /// the first version of the contract, `translations`, `backgrounds` and `ruby` later still (and only
    /// when present); the other keys keep their meaning.
    ///
    /// This is the pretty form; see ``inspectJSON(pretty:)``.
    public func inspectJSON() -> String {
        inspectJSON(pretty: true)
    }

    /// The `inspect` JSON (see ``inspectJSON()``), pretty or compact.
    ///
    /// - Parameter pretty: `true` puts the top-level keys, each tag and each line on its own line (a
    ///   line's object, words included, stays on one line); `false` writes everything on one line
    ///   with no optional whitespace. Both parse to the same value.
    public func inspectJSON(pretty: Bool) -> String {
        let colon = pretty ? ": " : ":"
        let comma = pretty ? ", " : ","
        func field(_ key: String, _ value: String) -> String { JSONText.quoted(key) + colon + value }

        let tagFields = tags.keys.sorted().map { field($0, JSONText.quoted(tags[$0] ?? "")) }
        func object(_ fields: [String]) -> String { "{" + fields.joined(separator: comma) + "}" }
        func words(_ words: [Word]) -> String {
            "[" + words.map { word in
                object([
                    field("start_ms", String(word.start.milliseconds)),
                    field("end_ms", String(word.end.milliseconds)),
                    field("text", JSONText.quoted(word.text)),
                ] + (word.ruby.map { [field("ruby", JSONText.quoted($0))] } ?? []))
            }.joined(separator: comma) + "]"
        }
        let lineObjects = lines.map { line -> String in
            func backingObject(_ backing: LyricLine.Backing) -> String {
                object([
                    field("start_ms", String(backing.start.milliseconds)),
                    field("end_ms", String(backing.end.milliseconds)),
                    field("text", JSONText.quoted(backing.text)),
                    field("translation", JSONText.quoted(backing.translation)),
                    field("romanisation", JSONText.quoted(backing.romanisation)),
                    field("words", words(backing.words)),
                ])
            }
            let background = line.background.map(backingObject) ?? "null"
            var extra: [String] = []
            if !line.translations.isEmpty {
                extra.append(field("translations", "[" + line.translations.map {
                    object([field("language", JSONText.quoted($0.language)), field("text", JSONText.quoted($0.text))])
                }.joined(separator: comma) + "]"))
            }
            if line.backgrounds.count > 1 {
                extra.append(field("backgrounds", "[" + line.backgrounds.map(backingObject).joined(separator: comma) + "]"))
            }
            return object([
                field("start_ms", String(line.start.milliseconds)),
                field("end_ms", String(line.end.milliseconds)),
                field("text", JSONText.quoted(line.text)),
                field("translation", JSONText.quoted(line.translation)),
                field("words", words(line.words)),
                field("role", JSONText.quoted(line.role.rawValue)),
                field("romanisation", JSONText.quoted(line.romanisation)),
                field("background", background),
                field("agent", JSONText.quoted(line.agent)),
            ] + extra)
        }
        let agentObjects = agents.map { agent in
            object([
                field("id", JSONText.quoted(agent.id)),
                field("type", JSONText.quoted(agent.kind.rawValue)),
                field("name", JSONText.quoted(agent.name)),
            ])
        }

        // Only instrumental lyrics say so: every other file's JSON stays as it was.
        let instrumental = isInstrumental ? [field("instrumental", "true")] : []
        guard pretty else {
            return "{" + ([
                field("encoding", JSONText.quoted(encoding)),
                field("format", JSONText.quoted(format.rawValue)),
                field("tags", "{" + tagFields.joined(separator: ",") + "}"),
                field("offset_ms", String(offsetMs)),
                field("agents", "[" + agentObjects.joined(separator: ",") + "]"),
            ] + instrumental + [
                field("lines", "[" + lineObjects.joined(separator: ",") + "]"),
            ]).joined(separator: ",") + "}"
        }
        func block(_ open: String, _ items: [String], _ close: String) -> String {
            items.isEmpty ? open + close : open + "\n    " + items.joined(separator: ",\n    ") + "\n  " + close
        }
        return "{\n  " + ([
            field("encoding", JSONText.quoted(encoding)),
            field("format", JSONText.quoted(format.rawValue)),
            field("tags", block("{", tagFields, "}")),
            field("offset_ms", String(offsetMs)),
            field("agents", block("[", agentObjects, "]")),
        ] + instrumental + [
            field("lines", block("[", lineObjects, "]")),
        ]).joined(separator: ",\n  ") + "\n}"
    }

    /// A human-readable summary for `lyricposter inspect --text`: encoding, offset, tags, then one
    /// row per line (its number as `card --lines` takes it, start, end, text; gaps shown as `·`, and
    /// gaps and credits unnumbered), with the translation and the word count on indented rows below.
    /// Ends with a newline.
    public func inspectTable() -> String {
        var out = "format    \(format.rawValue)\n"
        out += "encoding  \(encoding)\n"
        out += "offset    \(offsetMs > 0 ? "+" : "")\(offsetMs) ms\n"
        if let length { out += "length    \(length)\n" }
        if isInstrumental { out += "song      instrumental (no words)\n" }
        let keys = tags.keys.sorted()
        for (position, key) in keys.enumerated() {
            out += (position == 0 ? "tags      " : "          ") + "\(key): \(Self.singleLine(tags[key] ?? ""))\n"
        }
        let gaps = lines.filter(\.text.isEmpty).count
        out += "lines     \(lines.count) (\(lines.count - gaps) with text, \(gaps) gap\(gaps == 1 ? "" : "s"))\n\n"

        let numbers = lineNumbers
        let numberWidth = max(1, String(numbers.compactMap { $0 }.last ?? 0).count)
        let timeWidth = lines.map { max($0.start.description.count, $0.end.description.count) }.max() ?? 9
        func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
            let fill = String(repeating: " ", count: max(0, width - text.count))
            return right ? fill + text : text + fill
        }
        out += pad("#", numberWidth, right: true) + "  " + pad("start", timeWidth) + "  " + pad("end", timeWidth) + "  text\n"
        let indent = String(repeating: " ", count: numberWidth + 2 * timeWidth + 6)
        for (index, line) in lines.enumerated() {
            out += pad(numbers[index].map(String.init) ?? "", numberWidth, right: true) + "  "
            out += pad(line.start.description, timeWidth) + "  " + pad(line.end.description, timeWidth) + "  "
            let marks = (line.role == .credit ? "[credit] " : "") + (line.agent.map { "[\($0)] " } ?? "")
            out += marks + (line.text.isEmpty ? "·" : Self.singleLine(line.text)) + "\n"
            if let romanisation = line.romanisation {
                out += indent + "~ " + Self.singleLine(romanisation) + "\n"
            }
            if let translation = line.translation {
                out += indent + "↳ " + Self.singleLine(translation) + "\n"
            }
            if let backing = line.background {
                out += indent + "( " + Self.singleLine(backing.text) + " )\n"
            }
            if !line.words.isEmpty {
                out += indent + "  \(line.words.count) word\(line.words.count == 1 ? "" : "s") timed\n"
            }
        }
        return out
    }

    /// Line breaks shown as ` / ` so that each table row stays one row.
    private static func singleLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " / ")
    }
}
