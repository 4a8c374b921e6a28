import Foundation

extension KRC {
    /// Turns KRC text into ``Lyrics``.
    enum Parser {
        static func parse(_ text: String, encoding: String, options: ReadOptions) throws(LyricsError) -> Lyrics {
            var tags: [String: String] = [:]
            var lines: [LyricLine] = []
            var language: Language?
            for (_, line) in NumberedLines.of(text) {
                guard line.utf8.count <= Limits.maxLineBytes else { continue }
                let scalars = Array(line.unicodeScalars)
                if let lyric = lyricLine(scalars) {
                    // Every header counts for the [language:] rows, kept or not.
                    lines.append(lyric)
                } else if let tag = MetadataTag.parse(scalars) {
                    if tag.key == "language" {
                        language = Language(base64: tag.value)
                    } else {
                        tags[tag.key] = tag.value
                    }
                }
                if lines.count >= Limits.maxLines { break }
            }
            if let language { language.apply(to: &lines) }
            lines.removeAll { $0.text.isEmpty }
            guard !lines.isEmpty else { throw .noTimedLines }
            Credits.mark(&lines)
            lines = lines.sortedByStart()
            // Kugou gives the song's length as [total:], in milliseconds (0 when unknown).
            var metadata = Lyrics.Metadata(tags: tags)
            metadata.length = tags["total"].flatMap(LRC.TagValue.milliseconds).flatMap { $0 > 0 ? Timestamp(milliseconds: $0) : nil }
            let lyrics = Lyrics(format: .krc, encoding: encoding, tags: tags, metadata: metadata, lines: lines)
            return lyrics.applyingOffset(tags["offset"].flatMap(LRC.TagValue.offset) ?? 0, sign: options.offsetSign)
        }

        /// A `[start,duration]` line and its syllables; a line with a header and no text gives an
        /// empty line (kept until the `[language:]` rows are matched), `nil` when not a lyric line.
        static func lyricLine(_ scalars: [Unicode.Scalar]) -> LyricLine? {
            let first = YRC.LineSyntax.skipBlanks(scalars, from: 0)
            guard let header = YRC.LineSyntax.header(scalars, at: first) else { return nil }
            var segments: [TimedSegment] = []
            var leading = String.UnicodeScalarView()
            var index = header.end
            while index < scalars.count {
                if scalars[index] == "<", let stamp = syllableStamp(scalars, at: index) {
                    let start = header.start + stamp.offset
                    if segments.count < Limits.maxWords {
                        segments.append(TimedSegment(start: start, end: start + stamp.duration, text: .init()))
                    } else {
                        segments[segments.count - 1].end = max(segments[segments.count - 1].end, start + stamp.duration)
                    }
                    index = stamp.end
                    continue
                }
                if segments.isEmpty { leading.append(scalars[index]) } else { segments[segments.count - 1].text.append(scalars[index]) }
                index += 1
            }
            let headerEnd = header.start + header.duration
            guard !segments.isEmpty else {
                let text = String(String(leading).trimmingWhitespace())
                return LyricLine(start: Timestamp(milliseconds: header.start), end: Timestamp(milliseconds: headerEnd), text: text)
            }
            if !String(leading).trimmingWhitespace().isEmpty {
                segments.insert(TimedSegment(start: header.start, end: segments[0].start, text: leading), at: 0)
            }
            let words = TimedSegment.words(segments, maxWords: Limits.maxWords)
            guard let firstStart = words.map(\.start.milliseconds).min(), let lastEnd = words.map(\.end.milliseconds).max() else {
                return LyricLine(start: Timestamp(milliseconds: header.start), end: Timestamp(milliseconds: headerEnd), text: "")
            }
            let start = min(header.start, firstStart)
            return LyricLine(start: Timestamp(milliseconds: start), end: Timestamp(milliseconds: max(start, lastEnd)),
                             text: words.map(\.text).joined(), words: words)
        }
    }

    /// The `[language:]` tag: base64 of JSON with translation and romanisation rows.
    struct Language {
        /// Largest tag value read, in bytes of base64.
        static let maxBase64Bytes = 4 * 1024 * 1024

        var translations: [String?] = []
        var romanisations: [String?] = []

        /// The rows of a `[language:]` value, or `nil` when it is not base64 of the expected JSON.
        init?(base64: String) {
            guard base64.utf8.count <= Self.maxBase64Bytes else { return nil }
            var cleaned = base64.filter { !$0.isWhitespace }.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while cleaned.utf8.count % 4 != 0 { cleaned += "=" }
            guard let data = Data(base64Encoded: cleaned),
                  let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let content = json["content"] as? [[String: Any]] else { return nil }
            for entry in content {
                guard let type = entry["type"] as? Int, let rows = entry["lyricContent"] as? [Any] else { continue }
                let texts: [String?] = rows.map { row in
                    guard let parts = row as? [Any] else { return nil }
                    let strings = parts.compactMap { $0 as? String }
                    return strings.isEmpty ? nil : strings.joined()
                }
                if type == 1, translations.isEmpty { translations = texts }
                if type == 0, romanisations.isEmpty { romanisations = texts }
            }
            guard !translations.isEmpty || !romanisations.isEmpty else { return nil }
        }

        /// Sets each lyric line's translation and romanisation from the row of the same index.
        func apply(to lines: inout [LyricLine]) {
            func clean(_ text: String?) -> String? {
                guard let trimmed = text.map({ String($0.trimmingWhitespace()) }), !trimmed.isEmpty, trimmed != "//" else { return nil }
                return trimmed.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            }
            for index in lines.indices {
                if index < translations.count, let text = clean(translations[index]) {
                    lines[index].translation = text
                }
                if index < romanisations.count, let text = clean(romanisations[index]) {
                    lines[index].romanisation = text
                }
            }
        }
    }
}
