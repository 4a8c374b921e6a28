import Foundation
import Yams

/// LRCLIB's Lyricsfile: one YAML document that holds a song's lyrics whatever they are — timed by
/// line, timed by word, plain text only, or instrumental (LRCGET's `LYRICSFILE_CONCEPT.md`,
/// version `"1.0"`):
///
/// ```yaml
/// version: '1.0'
/// metadata:
///   title: Paper Moon
///   artist: The Lanterns
///   album: Night Songs        # optional
///   duration_ms: 200000       # optional
///   offset_ms: 0              # optional
///   language: en              # optional, ISO 639-1
///   instrumental: false       # optional
/// lines:                      # optional (omitted or empty when unsynced or instrumental)
///   - text: Paper moon
///     start_ms: 1000
///     end_ms: 4000            # optional
///     words:                  # optional
///       - {text: 'Paper ', start_ms: 1000, end_ms: 1500}
///       - {text: moon, start_ms: 1500, end_ms: 2200}
/// plain: |                    # optional
///   Paper moon
/// ```
///
/// Decisions (the specification leaves these open):
/// - **Words** carry their trailing space (the spec: "word text including trailing space, except
///   the last word"); when their texts do not join into the line's text, the line's text wins and
///   the words are dropped, as a display must show one or the other.
/// - **Ends.** A line without `end_ms` ends where the next line starts (the last one, at
///   `duration_ms`, else 5 s after it starts); a word without one at the next word's start.
/// - **Stray words** follow ``Word/place(_:lineStart:lineEnd:)``, as in every reader.
/// - **Offset.** `offset_ms` is applied as LRC's `[offset:]` is (``ReadOptions/offsetSign``; a
///   positive offset shows lyrics sooner), since the spec does not say and LRCGET never applies it.
/// - **Plain only.** A file with `plain` text and no timed line reads as unsynchronised
///   (``LyricsError/noTimedLines``), like an LRC file without stamps.
/// - **Instrumental.** `instrumental: true` reads as lyrics with no lines and
///   ``Lyrics/isInstrumental`` set.
///
/// Bounds (``Limits``) keep hostile files cheap: YAML that nests deeper than a Lyricsfile can, or
/// that is larger than 8 MiB, is refused before it is parsed; lines, words and text lengths are
/// capped; anchors and aliases are read but cannot multiply the work (every walk is bounded).
public enum Lyricsfile {
    enum Limits {
        static let maxBytes = 8 << 20
        static let maxLines = 20_000
        static let maxWordsPerLine = 512
        static let maxWords = 200_000
        static let maxTextBytes = 4096
        /// Flow brackets, indentation columns and `- ` marks a line may open: a Lyricsfile nests
        /// five deep; libyaml's composer recurses once per level.
        static let maxDepth = 32
    }

    /// Whether `text` reads as a Lyricsfile: a YAML mapping whose top-level keys include
    /// `version:` and `metadata:` (and no other lyric format's syntax opens it).
    static func sniff(_ lines: [Substring]) -> Bool {
        var version = false, metadata = false
        for line in lines.prefix(200) {
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed == "---" { continue }
            guard line.first?.isWhitespace == false else { continue }
            if line.hasPrefix("version:") { version = true } else if line.hasPrefix("metadata:") { metadata = true }
            else if !(line.hasPrefix("lines:") || line.hasPrefix("plain:")) { return false }
            if version && metadata { return true }
        }
        return false
    }

    /// Parses a Lyricsfile.
    ///
    /// - Throws: ``LyricsError``: not YAML, not a Lyricsfile (a missing or wrong `version`, no
    ///   `metadata`), a bad value (with the line's number), too large or too deep, or nothing
    ///   timed (plain text only).
    public static func parse(_ text: String, encoding: String = "utf-8", options: ReadOptions = .init()) throws(LyricsError) -> Lyrics {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= Limits.maxBytes else { throw .tooLarge("Lyricsfile larger than the limit of \(Limits.maxBytes) bytes") }
        try checkDepth(text)
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else { throw LyricsError.invalid("not a Lyricsfile: the YAML document is empty") }
            root = node
        } catch let error as LyricsError {
            throw error
        } catch let error as YamlError {
            throw .invalid("not a Lyricsfile: \(describe(error))")
        } catch {
            throw .invalid("not a Lyricsfile: \(error)")
        }
        return try Reading(root: root, encoding: encoding, options: options).lyrics()
    }

    /// One line of the YAML error libyaml gives (`line 3: mapping values are not allowed here`).
    private static func describe(_ error: YamlError) -> String {
        let text = "\(error)"
        return String(text.split(separator: "\n").first ?? Substring(text))
    }

    /// Refuses YAML nested deeper than ``Limits/maxDepth`` (flow brackets, indentation, `- `
    /// marks), so that the composer's recursion stays shallow.
    static func checkDepth(_ text: String) throws(LyricsError) {
        var depth = 0
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var indent = 0
            var dashes = 0
            var quote: Character?
            var atStart = true
            var previous: Character = " "
            for character in line {
                if let open = quote {
                    if character == open { quote = nil }
                } else {
                    switch character {
                    case " " where atStart: indent += 1
                    case "-" where atStart: dashes += 1
                    case "\"" where opensScalar(previous), "'" where opensScalar(previous):
                        quote = character
                    case "[", "{": depth += 1
                    case "]", "}": depth = max(0, depth - 1)
                    case "#" where previous == " ": break
                    default: break
                    }
                    if character != " " && character != "-" { atStart = false }
                }
                previous = character
            }
            if depth > Limits.maxDepth || indent / 2 + dashes > Limits.maxDepth * 2 || dashes > Limits.maxDepth {
                throw .invalid("not a Lyricsfile: line \(number) nests deeper than \(Limits.maxDepth) levels")
            }
        }
    }

    /// Whether a quote after `previous` opens a quoted scalar (rather than being part of a plain one).
    private static func opensScalar(_ previous: Character) -> Bool {
        previous == " " || previous == "[" || previous == "{" || previous == ":" || previous == "," || previous == "-"
    }

    /// Reads the composed document into ``Lyrics``.
    private struct Reading {
        var root: Node
        var encoding: String
        var options: ReadOptions

        func lyrics() throws(LyricsError) -> Lyrics {
            guard root.mapping != nil else { throw .invalid("not a Lyricsfile: the document is not a mapping of keys") }
            guard let version = root["version"]?.scalar?.string else { throw .invalid("not a Lyricsfile: no `version`") }
            guard version.split(separator: ".").first == "1" else {
                throw .invalid("Lyricsfile version \(version) is not read (only 1.x)")
            }
            guard let metadata = root["metadata"], metadata.mapping != nil else { throw .invalid("not a Lyricsfile: no `metadata` mapping") }
            func text(_ key: String) throws(LyricsError) -> String? {
                guard let node = metadata[key] else { return nil }
                if node.null != nil { return nil }
                guard let value = node.scalar?.string else { throw bad("metadata.\(key)", node, "is not text") }
                // The format requires a title and an artist: an unknown one is written empty.
                return value.isEmpty ? nil : String(value.prefix(Limits.maxTextBytes))
            }
            func number(_ key: String) throws(LyricsError) -> Int? {
                guard let node = metadata[key], node.null == nil else { return nil }
                guard let value = node.int, abs(value) <= 86_400_000 else { throw bad("metadata.\(key)", node, "is not a whole number of milliseconds") }
                return value
            }
            var tags: [String: String] = ["lyricsfile": version]
            let title = try text("title"), artist = try text("artist"), album = try text("album"), language = try text("language")
            let duration = try number("duration_ms"), offset = try number("offset_ms") ?? 0
            var instrumental = false
            if let node = metadata["instrumental"], node.null == nil {
                guard let value = node.bool else { throw bad("metadata.instrumental", node, "is not true or false") }
                instrumental = value
            }
            if let title { tags["ti"] = title }
            if let artist { tags["ar"] = artist }
            if let album { tags["al"] = album }
            if let language { tags["la"] = language }
            if offset != 0 { tags["offset"] = String(offset) }
            let meta = Lyrics.Metadata(title: title, artist: artist, album: album, language: language,
                                       length: duration.map(Timestamp.init))
            var lines = try timedLines(duration: duration)
            if lines.isEmpty {
                if instrumental {
                    var lyrics = Lyrics(format: .lyricsfile, encoding: encoding, tags: tags, metadata: meta, lines: [])
                    lyrics.isInstrumental = true
                    return lyrics
                }
                throw .noTimedLines
            }
            Credits.mark(&lines)
            lines = lines.sortedByStart()
            return Lyrics(format: .lyricsfile, encoding: encoding, tags: tags, metadata: meta, lines: lines)
                .applyingOffset(offset, sign: options.offsetSign)
        }

        private func timedLines(duration: Int?) throws(LyricsError) -> [LyricLine] {
            guard let node = root["lines"], node.null == nil else { return [] }
            guard let sequence = node.sequence else { throw bad("lines", node, "is not a list") }
            guard sequence.count <= Limits.maxLines else { throw .tooLarge("Lyricsfile with more than \(Limits.maxLines) lines") }
            var read: [(start: Int, end: Int?, text: String, words: [Word.Stamp], texts: [String])] = []
            var wordBudget = Limits.maxWords
            for item in sequence {
                guard item.mapping != nil else { throw bad("lines", item, "holds an entry that is not a mapping") }
                guard let textNode = item["text"], let text = textNode.scalar?.string else { throw bad("lines", item, "has a line without `text`") }
                guard let start = item["start_ms"]?.int, (-86_400_000...86_400_000).contains(start) else {
                    throw bad("lines", item, "has a line without a whole-number `start_ms`")
                }
                let end = try optionalMs(item["end_ms"], "end_ms")
                var stamps: [Word.Stamp] = [], texts: [String] = []
                if let wordsNode = item["words"], wordsNode.null == nil {
                    guard let words = wordsNode.sequence else { throw bad("words", wordsNode, "is not a list") }
                    guard words.count <= Limits.maxWordsPerLine, words.count <= wordBudget else {
                        throw .tooLarge("Lyricsfile with more than \(Limits.maxWordsPerLine) words in a line or \(Limits.maxWords) in all")
                    }
                    wordBudget -= words.count
                    for word in words {
                        guard word.mapping != nil, let wordText = word["text"]?.scalar?.string,
                              let wordStart = word["start_ms"]?.int, (-86_400_000...86_400_000).contains(wordStart) else {
                            throw bad("words", word, "holds a word without `text` and a whole-number `start_ms`")
                        }
                        stamps.append(Word.Stamp(start: wordStart, end: try optionalMs(word["end_ms"], "end_ms"), text: wordText.unicodeScalars))
                        texts.append(String(wordText.prefix(Limits.maxTextBytes)))
                    }
                }
                read.append((start, end, String(text.prefix(Limits.maxTextBytes)), stamps, texts))
            }
            var lines: [LyricLine] = []
            let order = read.indices.sorted { (read[$0].start, $0) < (read[$1].start, $1) }
            // The next later start after each position, in one pass from the end.
            var nextLater = [Int?](repeating: nil, count: order.count)
            for position in order.indices.dropLast().reversed() {
                let following = read[order[position + 1]].start
                nextLater[position] = following > read[order[position]].start ? following : nextLater[position + 1]
            }
            for (position, index) in order.enumerated() {
                let item = read[index]
                let next = nextLater[position]
                let end = max(item.start, item.end ?? next ?? duration ?? item.start + 5000)
                let display = item.text.trimmingWhitespace()
                var words: [Word] = []
                if !item.words.isEmpty {
                    let placed = Word.place(item.words, lineStart: item.start, lineEnd: end)
                    words = zip(placed, item.texts).map { Word(start: Timestamp(milliseconds: $0.start), end: Timestamp(milliseconds: $0.end), text: $1) }
                    words = words.filter { !$0.text.isEmpty }
                    if let last = words.indices.last { words[last].text = String(words[last].text.trimmingWhitespace()) }
                    if words.map(\.text).joined() != display { words = [] }
                }
                lines.append(LyricLine(start: Timestamp(milliseconds: item.start), end: Timestamp(milliseconds: end),
                                       text: String(display), words: words))
            }
            return lines
        }

        private func optionalMs(_ node: Node?, _ key: String) throws(LyricsError) -> Int? {
            guard let node, node.null == nil else { return nil }
            guard let value = node.int, (-86_400_000...86_400_000).contains(value) else { throw bad(key, node, "is not a whole number of milliseconds") }
            return value
        }

        private func bad(_ key: String, _ node: Node, _ reason: String) -> LyricsError {
            let line = node.mark.map { " (line \($0.line))" } ?? ""
            return .invalid("Lyricsfile: `\(key)` \(reason)\(line)")
        }
    }
}
