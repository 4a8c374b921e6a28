import Foundation

/// TTML lyrics as Apple Music and AMLL write them: `<p>` lines with `begin`/`end`, timed `<span>`
/// syllables, inline or head translations and romanisations, backing vocals (`x-bg`) and duet
/// agents (`ttm:agent`).
///
/// The XML is read by libxml2 (through FoundationXML's `XMLParser`). Elements and attributes are
/// matched by their local name, whatever their prefix or namespace: real files use two different
/// `itunes:` namespaces, and some none. Before parsing, the text is checked against the limits in
/// ``Limits``; a document type declaration (`<!DOCTYPE`, `<!ENTITY`) is refused outright, so no
/// entity is ever expanded (no "billion laughs", no external files). What the parser reads:
///
/// - **Lines**: every `<p>`. Its times are `begin`/`end`, widened to cover its syllables and
///   backing vocals (a missing `begin` or `end` comes from them); a `<p>` with no time at all is
///   skipped. A `ttm:agent` on the `<p>` (or its `<div>`) names the singer.
/// - **Syllables**: `<span begin end>` inside a line; their text, with the whitespace between spans
///   (a space between two spans on one line of the file; pretty-printing newlines count for
///   nothing), becomes the line's words. Without timed spans the line's text is its plain text.
///   Ruby (`tts:ruby`) keeps the base text and drops the annotation.
/// - **Roles**: `ttm:role="x-translation"` and `"x-roman"` spans are the line's translation and
///   romanisation (the first of each); when any translation names its `xml:lang`, every one is
///   also kept with its language (``LyricLine/translations``). Each `"x-bg"` span is a run of
///   backing vocals, with its own syllables, times (from the syllables when missing) and nested
///   translation/romanisation, one pair of enclosing parentheses removed.
/// - **Head**: `ttm:agent` (`xml:id`, `type` person/group/other, `ttm:name`); `ttm:title`;
///   `iTunesMetadata` translations and transliterations (`<text for="key">`, matched to the
///   line's `itunes:key`; a `type="replacement"` translation replaces the inline one, any other
///   type is used where the line has none); songwriters; AMLL's `<amll:meta key value>`
///   (`musicName`, `artists`, `album`). `xml:lang` on `<tt>` is the song's language and `dur` on
///   `<body>` its length.
/// - **Times**: `12.345`, `1:02.5`, `1:02:03.25`, `12.3s`, `1500ms`; fractions past milliseconds
///   are truncated.
public enum TTML {
    /// Bounds on what the parser accepts, so that hostile files cost bounded time and memory.
    public struct Limits: Hashable, Sendable {
        /// Largest document, in bytes of UTF-8.
        public var maxBytes = 8 * 1024 * 1024
        /// Deepest element nesting.
        public var maxDepth = 64
        /// Most lines kept.
        public var maxLines = 20_000
        /// Most syllables per line.
        public var maxWords = 2_000

        public init() {}
    }

    /// Parses TTML text that is already decoded.
    ///
    /// - Parameter encoding: the label to report in ``Lyrics/encoding``.
    /// - Throws: ``LyricsError/tooLarge(_:)`` past ``Limits/maxBytes``, ``LyricsError/invalid(_:)``
    ///   for malformed XML, a document type declaration, or nesting past ``Limits/maxDepth``;
    ///   ``LyricsError/noTimedLines`` when no `<p>` has a time.
    public static func parse(_ text: String, encoding: String = "utf-8", limits: Limits = Limits()) throws(LyricsError) -> Lyrics {
        guard !text.isEmpty else { throw .empty }
        var body = Substring(text)
        while let first = body.unicodeScalars.first, first == "\u{FEFF}" || first.properties.isWhitespace {
            body = body.dropFirst()
        }
        // The declaration names the file's encoding; the text is already decoded and goes on as UTF-8.
        if body.hasPrefix("<?xml"), let close = body.range(of: "?>") { body = body[close.upperBound...] }
        let data = Data(body.utf8)
        guard data.count <= limits.maxBytes else {
            throw .tooLarge("TTML larger than the limit of \(limits.maxBytes) bytes")
        }
        if let position = data.firstRange(of: Data("<!DOCTYPE".utf8)) ?? data.firstRange(of: Data("<!ENTITY".utf8)) {
            throw .invalid("not valid TTML: line \(line(of: position.lowerBound, in: data)): document type declarations are not allowed")
        }
        let document = try Reader.read(data, limits: limits)
        return try Assembly.lyrics(from: document, encoding: encoding, limits: limits)
    }

    /// The 1-based line number of byte `offset`.
    static func line(of offset: Int, in data: Data) -> Int {
        data.prefix(offset).reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }
}
