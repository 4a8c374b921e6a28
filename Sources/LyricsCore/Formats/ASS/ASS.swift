/// ASS/SSA subtitles read as karaoke lyrics.
///
/// ```
/// [Script Info]
/// ScriptType: v4.00+
///
/// [Events]
/// Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
/// Dialogue: 0,0:00:12.00,0:00:15.00,orig,v1,0,0,0,,{\k50}Paper {\k50}kites {\k200}climb
/// Dialogue: 0,0:00:12.00,0:00:15.00,ts,v1,0,0,0,,纸风筝飞起
/// ```
///
/// What the parser reads (see ``Events``, ``Karaoke`` and ``Assembly`` for the choices made where
/// libass and peer readers differ):
///
/// - **Events**: `Dialogue:` lines of the `[Events]` section, split by its `Format:` line (libass's
///   default column order when there is none); `Comment:` lines and every other section are
///   skipped. Start and End are `H:MM:SS.cc`.
/// - **Karaoke**: `{\k}`, `{\K}`, `{\kf}`, `{\ko}` give the following syllable its duration in
///   centiseconds, syllables following each other from the event's Start; `{\kt}` sets the next
///   syllable's start. A line with karaoke tags gets ``LyricLine/words``; one without is line-timed.
/// - **Text**: every other override block (`{\b1}`, `{\pos(…)}`) is removed; `\N` and `\n` become a
///   space (a poster line is one line), `\h` a space, `\{` and `\}` braces.
/// - **Roles** from the Style and Name fields, as AMLL and LDDC write them: `v1`/`v2` name the
///   agent; `-bg` (or a Style `bg`) is backing vocals, `-trans` (Style `ts`/`trans`) a translation,
///   `-roman` (Style `roma`) a romanisation, each joined to its main line.
/// - **Tags**: the `[Script Info]` fields into ``Lyrics/tags`` (keys lower-cased); `Title` is also
///   the title in ``Lyrics/metadata``, unless it is an editor's placeholder (`Default Aegisub file`,
///   `<untitled>`, `untitled`).
///
/// Bounds (``Limits``) keep hostile files cheap: the whole text is refused past 8 MiB, an
/// over-long line is ignored, extra events and karaoke syllables are dropped or folded, a `Format:`
/// with too many fields is refused. Scanning is linear in the input.
public enum ASS {
    /// Bounds on what the parser accepts, so that hostile files cost bounded time and memory.
    enum Limits {
        /// Largest text, in bytes of UTF-8; more is refused with ``LyricsError/tooLarge(_:)``.
        static let maxBytes = 8 * 1024 * 1024
        /// Longest physical line, in bytes of UTF-8; a longer line is ignored.
        static let maxLineBytes = 64 * 1024
        /// Most `Dialogue:` events kept (the first ones in file order).
        static let maxEvents = 20_000
        /// Most words per line; later syllables fold into the last kept word.
        static let maxWords = 2_000
        /// Most fields a `Format:` line may name.
        static let maxFields = 64
        /// Most `[Script Info]` fields kept.
        static let maxInfoFields = 64
        /// Most digits in one number (hours, a `\k` value): larger values are held at ``maxTimeMs``.
        static let maxDigits = 12
        /// Latest time, in milliseconds, that karaoke arithmetic reaches (about 31 years).
        static let maxTimeMs = 999_999_999_999
        /// Most backing runs attached to one line; a further backing event becomes a line of its own.
        static let maxBackings = 16
    }

    /// Parses an ASS/SSA script.
    ///
    /// Lines come back sorted stably by start. A line lasts from its event's Start to its End,
    /// widened to cover its syllables and backing runs when they run past it.
    ///
    /// - Parameters:
    ///   - text: the whole file. Line ends may be LF, CRLF or CR; a BOM is ignored.
    ///   - encoding: the label to report in ``Lyrics/encoding``; not used for parsing.
    /// - Throws: ``LyricsError/empty`` for empty text, ``LyricsError/tooLarge(_:)`` past 8 MiB,
    ///   ``LyricsError/invalid(_:)`` (`"not valid ASS: …"`) for a script without an `[Events]`
    ///   section, a `Format:` that cannot be used, or, when nothing could be read, the first
    ///   malformed `Dialogue:`; otherwise ``LyricsError/noTimedLines`` when no event has text.
    public static func parse(_ text: String, encoding: String = "utf-8") throws(LyricsError) -> Lyrics {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= Limits.maxBytes else {
            throw .tooLarge("ASS larger than the limit of \(Limits.maxBytes) bytes")
        }
        let script = try Events.read(text)
        let lines = Assembly.lines(script.events)
        guard !lines.isEmpty else {
            if let broken = script.broken { throw .invalid("not valid ASS: line \(broken.line): \(broken.reason)") }
            throw .noTimedLines
        }
        let agents = lines.namedAgents
        var sorted = lines.sortedByStart()
        Credits.mark(&sorted)
        let title = script.info["title"].flatMap { placeholderTitles.contains($0.lowercased()) ? nil : $0 }
        return Lyrics(format: .ass, encoding: encoding, tags: script.info, metadata: Lyrics.Metadata(title: title),
                      agents: agents, lines: sorted)
    }

    /// Titles that editors write into a new script; they name no song.
    static let placeholderTitles: Set<String> = ["default aegisub file", "<untitled>", "untitled"]

    /// Whether `lines` (the first lines of a text) are an ASS/SSA script: the first section header
    /// is `[Script Info]` (blank lines and `;` comments may come before it), or an `[Events]` header
    /// and a `Dialogue:` line both appear. Used by ``LyricsFormat/sniff(_:)``.
    static func isScript(_ lines: [Substring]) -> Bool {
        var sawEvents = false
        var sawDialogue = false
        var firstSection = true
        for line in lines.prefix(400) where line.utf8.count <= Limits.maxLineBytes {
            let trimmed = String(line.unicodeScalars.drop { $0 == "\u{FEFF}" }).trimmingWhitespace()
            guard !trimmed.isEmpty, !trimmed.hasPrefix(";") else { continue }
            if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
                let name = trimmed.dropFirst().dropLast().trimmingWhitespace().lowercased()
                if firstSection, name == "script info" { return true }
                firstSection = false
                if name == "events" { sawEvents = true }
            } else if trimmed.lowercased().hasPrefix("dialogue:") {
                sawDialogue = true
            }
            if sawEvents, sawDialogue { return true }
        }
        return false
    }
}
