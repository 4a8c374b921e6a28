extension TTML {
    /// Writes ``Lyrics`` as TTML in the Apple Music / AMLL flavour, so that ``TTML/parse(_:encoding:limits:)``
    /// reads back the same lines.
    ///
    /// ```
    /// <tt xmlns=… xmlns:ttm=… xmlns:itunes=… xmlns:amll=… itunes:timing="Word" xml:lang="ja">
    ///   <head><metadata>
    ///     <ttm:title>…</ttm:title> <amll:meta key="musicName|artists|album" value="…"/>
    ///     <ttm:agent type="person" xml:id="v1"><ttm:name type="full">…</ttm:name></ttm:agent>
    ///   </metadata></head>
    ///   <body dur="03:05.000"><div>
    ///     <p begin="00:12.000" end="00:15.500" itunes:key="L1" ttm:agent="v1"><span begin=… end=…>Every</span>
    ///       <span …>night</span><span ttm:role="x-translation" xml:lang="en">…</span><span ttm:role="x-roman">…</span>
    ///       <span ttm:role="x-bg" begin=… end=…><span …>(echo</span> <span …>night)</span></span></p>
    /// ```
    ///
    /// Each `<p>` is written on one line (whitespace between spans is a space of the text; the
    /// indentation between lines counts for nothing). Backing vocals are one `x-bg` span per run,
    /// their text in parentheses as Apple writes them; translations one `x-translation` span each,
    /// with its `xml:lang` when known. Times are `mm:ss.mmm` (`h:mm:ss.mmm` from an hour on).
    /// Text and attributes are XML-escaped; characters XML 1.0 forbids are left out; line breaks
    /// inside a text become spaces (TTML text is read with its whitespace collapsed).
    ///
    /// Not written: gap lines and credit lines (AMLL's database rules: neither belongs in the
    /// body), ruby.
    enum Writer {
        static let namespaces = #"xmlns="http://www.w3.org/ns/ttml" xmlns:ttm="http://www.w3.org/ns/ttml#metadata" "#
            + #"xmlns:itunes="http://music.apple.com/lyric-ttml-internal" xmlns:amll="http://www.example.com/ns/amll""#

        static func write(_ lyrics: Lyrics) -> String {
            let lines = lyrics.lines.filter { $0.role == .lyric && !$0.text.isEmpty }
            let timing = lines.contains { !$0.words.isEmpty } ? "Word" : "Line"
            var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            out += "<tt \(namespaces) itunes:timing=\"\(timing)\""
            if let language = lyrics.language { out += " xml:lang=\"\(attribute(language))\"" }
            out += ">\n  <head>\n    <metadata>\n"
            if let title = lyrics.title {
                out += "      <ttm:title>\(text(title))</ttm:title>\n"
                out += "      <amll:meta key=\"musicName\" value=\"\(attribute(title))\"/>\n"
            }
            if let artist = lyrics.artist { out += "      <amll:meta key=\"artists\" value=\"\(attribute(artist))\"/>\n" }
            if let album = lyrics.album { out += "      <amll:meta key=\"album\" value=\"\(attribute(album))\"/>\n" }
            for agent in lyrics.agents {
                out += "      <ttm:agent type=\"\(agent.kind.rawValue)\" xml:id=\"\(attribute(agent.id))\""
                if let name = agent.name {
                    out += "><ttm:name type=\"full\">\(text(name))</ttm:name></ttm:agent>\n"
                } else {
                    out += "/>\n"
                }
            }
            out += "    </metadata>\n  </head>\n"
            out += "  <body" + (lyrics.length.map { " dur=\"\(time($0))\"" } ?? "") + ">\n    <div>\n"
            for (index, line) in lines.enumerated() {
                out += "      <p begin=\"\(time(line.start))\" end=\"\(time(line.end))\" itunes:key=\"L\(index + 1)\""
                if let agent = line.agent { out += " ttm:agent=\"\(attribute(agent))\"" }
                out += ">" + run(line.words, text: line.text, parenthesised: false)
                let translations = line.translations.isEmpty
                    ? line.translation.map { [LyricLine.Translation(language: nil, text: $0)] } ?? []
                    : line.translations
                for translation in translations {
                    let language = translation.language.map { " xml:lang=\"\(attribute($0))\"" } ?? ""
                    out += "<span ttm:role=\"x-translation\"\(language)>\(text(translation.text))</span>"
                }
                if let romanisation = line.romanisation { out += "<span ttm:role=\"x-roman\">\(text(romanisation))</span>" }
                for backing in line.backgrounds where !backing.text.isEmpty {
                    out += "<span ttm:role=\"x-bg\" begin=\"\(time(backing.start))\" end=\"\(time(backing.end))\">"
                    out += run(backing.words, text: backing.text, parenthesised: true)
                    if let translation = backing.translation { out += "<span ttm:role=\"x-translation\">\(text(translation))</span>" }
                    if let romanisation = backing.romanisation { out += "<span ttm:role=\"x-roman\">\(text(romanisation))</span>" }
                    out += "</span>"
                }
                out += "</p>\n"
            }
            out += "    </div>\n  </body>\n</tt>\n"
            return out
        }

        /// A line's (or a backing run's) text: one timed span per word with the space after it
        /// between spans, or the plain text when it has no words.
        private static func run(_ words: [Word], text plain: String, parenthesised: Bool) -> String {
            let kept = words.filter { !$0.text.trimmingWhitespace().isEmpty }
            guard !kept.isEmpty else { return text(parenthesised ? "(" + plain + ")" : plain) }
            var out = ""
            for (index, word) in kept.enumerated() {
                var core = word.text.trimmed
                if parenthesised, index == 0 { core = "(" + core }
                if parenthesised, index == kept.count - 1 { core += ")" }
                out += "<span begin=\"\(time(word.start))\" end=\"\(time(word.end))\">\(text(core))</span>"
                if index < kept.count - 1, word.text.last?.isWhitespace == true { out += " " }
            }
            return out
        }

        /// `mm:ss.mmm`, or `h:mm:ss.mmm` from an hour on; negative times as zero.
        static func time(_ time: Timestamp) -> String {
            Timestamp(milliseconds: WrittenTime.milliseconds(time)).description
        }

        /// Character data: `&`, `<`, `>` escaped, line breaks as spaces, forbidden characters left out.
        static func text(_ value: String) -> String {
            escaped(value, quotes: false)
        }

        /// An attribute value in double quotes.
        static func attribute(_ value: String) -> String {
            escaped(value, quotes: true)
        }

        private static func escaped(_ value: String, quotes: Bool) -> String {
            var out = ""
            out.reserveCapacity(value.utf8.count)
            for scalar in value.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"" where quotes: out += "&quot;"
                case "\n", "\r", "\t", "\u{85}", "\u{2028}", "\u{2029}": out += " "
                default:
                    // XML 1.0 allows no other control characters, no surrogates (Swift has none) and not U+FFFE/U+FFFF.
                    guard scalar.value >= 0x20, scalar.value != 0xFFFE, scalar.value != 0xFFFF else { continue }
                    out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
    }
}
