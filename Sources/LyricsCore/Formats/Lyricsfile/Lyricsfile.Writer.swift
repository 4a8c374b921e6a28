import Yams

extension Lyricsfile {
    /// Writes ``Lyrics`` as a Lyricsfile (version `1.0`), read back by ``Lyricsfile/parse(_:encoding:options:)``.
    ///
    /// - `metadata`: `title` and `artist` (empty when unknown: the format requires them), then
    ///   `album`, `duration_ms` and `language` when known, and `instrumental`.
    /// - `lines`: each line with text (gap lines are not written), its `start_ms` and `end_ms`,
    ///   and `words` with their times when the line is word-timed; texts single-quoted, so that no
    ///   lyric reads back as a number or a boolean. Display times (any offset applied, negative
    ///   times as zero): `offset_ms` is not written.
    /// - `plain`: the sung lines' text, one per line, as a literal block.
    ///
    /// Translations, romanisations, backing vocals and singers have no place in the format.
    enum Writer {
        static func write(_ lyrics: Lyrics) -> String {
            func text(_ value: String) -> Node { Node(value, Tag(.str), .singleQuoted) }
            func number(_ value: Int) -> Node { Node(String(max(0, value)), Tag(.int), .plain) }
            var metadata: [(Node, Node)] = [
                (Node("title"), text(lyrics.metadata.title ?? "")),
                (Node("artist"), text(lyrics.metadata.artist ?? "")),
            ]
            if let album = lyrics.metadata.album { metadata.append((Node("album"), text(album))) }
            if let length = lyrics.metadata.length { metadata.append((Node("duration_ms"), number(length.milliseconds))) }
            if let language = lyrics.metadata.language { metadata.append((Node("language"), text(language))) }
            metadata.append((Node("instrumental"), Node(lyrics.isInstrumental ? "true" : "false", Tag(.bool), .plain)))

            var lines: [Node] = []
            for line in lyrics.lines where !line.text.isEmpty {
                var pairs: [(Node, Node)] = [
                    (Node("text"), text(line.text)),
                    (Node("start_ms"), number(line.start.milliseconds)),
                    (Node("end_ms"), number(line.end.milliseconds)),
                ]
                if !line.words.isEmpty {
                    let words = line.words.map { word in
                        Node([(Node("text"), text(word.text)), (Node("start_ms"), number(word.start.milliseconds)),
                              (Node("end_ms"), number(word.end.milliseconds))], Tag(.implicit), .flow)
                    }
                    pairs.append((Node("words"), Node(words, Tag(.implicit), .block)))
                }
                lines.append(Node(pairs, Tag(.implicit), .block))
            }
            var root: [(Node, Node)] = [
                (Node("version"), text(version)),
                (Node("metadata"), Node(metadata, Tag(.implicit), .block)),
                (Node("lines"), Node(lines, Tag(.implicit), lines.isEmpty ? .flow : .block)),
            ]
            let plain = lyrics.lines.filter(\.isSung).map(\.text).joined(separator: "\n")
            if !plain.isEmpty { root.append((Node("plain"), Node(plain + "\n", Tag(.str), .literal))) }
            // Serialising a tree built of strings cannot fail; a failure would be a Yams bug.
            let yaml = (try? Yams.serialize(node: Node(root, Tag(.implicit), .block), width: -1, allowUnicode: true)) ?? ""
            return yaml.hasSuffix("\n") ? yaml : yaml + "\n"
        }

        /// The version written.
        static let version = "1.0"
    }
}
