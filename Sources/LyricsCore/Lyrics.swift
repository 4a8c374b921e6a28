/// A parsed lyric file: its metadata tags and its timed lines, fully resolved.
///
/// Produced by ``LRC/load(_:encoding:options:)`` and ``LRC/parse(_:encoding:options:)``. Nothing
/// downstream re-reads the file: translations are attached, word tags split off, the offset
/// applied and every line's end filled in.
public struct Lyrics: Hashable, Sendable {
    /// The text encoding that was actually used to decode the file, as a canonical name from
    /// ``TextDecoding/knownEncodings`` (`"utf-8"`, `"utf-16le"`, `"gb18030"`, `"shift_jis"`, …), or
    /// the label given to ``LRC/parse(_:encoding:options:)``.
    public var encoding: String
    /// ID tags (`[ti:…]`, `[ar:…]`, `[offset:…]`, …): keys lower-cased, values trimmed, the last
    /// occurrence wins, empty values kept as `""`.
    public var tags: [String: String]
    /// The `[offset:]` value in milliseconds as written (positive or negative), `0` when absent or not
    /// a number. Already applied to every time in ``lines``; kept for reporting.
    public var offsetMs: Int
    /// The lines in display order: sorted stably by start, one per (time tag, text), gaps included,
    /// every `end` filled in (the next line's start; for the last line see ``LyricLine``).
    public var lines: [LyricLine]

    public init(encoding: String = "utf-8", tags: [String: String] = [:], offsetMs: Int = 0, lines: [LyricLine] = []) {
        self.encoding = encoding
        self.tags = tags
        self.offsetMs = offsetMs
        self.lines = lines
    }

    /// `[ti:]`, or `nil` when absent or empty.
    public var title: String? { nonEmptyTag("ti") }
    /// `[ar:]`, or `nil` when absent or empty.
    public var artist: String? { nonEmptyTag("ar") }
    /// `[al:]`, or `nil` when absent or empty.
    public var album: String? { nonEmptyTag("al") }
    /// `[la:]` (a language code such as `ja` or `zh-Hant`), or `nil` when absent or empty.
    public var language: String? { nonEmptyTag("la") }

    /// The song length from `[length:]`, or from LyricsX's `[total:]` (milliseconds) when there is no
    /// `[length:]`; `nil` when neither is present or readable.
    ///
    /// `[length:]` is free text in the wild: `2:50`, ` 04:54`, `1:02:03`, `245.5`. A bare whole
    /// number is read as seconds up to 3600 and as milliseconds above (`245000` → 4:05, `245` → 4:05).
    public var length: Timestamp? {
        if let text = tags["length"], let value = LRC.TagValue.length(text) { return value }
        if let text = tags["total"], let value = LRC.TagValue.milliseconds(text) { return Timestamp(milliseconds: value) }
        return nil
    }

    private func nonEmptyTag(_ key: String) -> String? {
        guard let value = tags[key], !value.isEmpty else { return nil }
        return value
    }
}
