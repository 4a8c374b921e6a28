import Foundation

/// The lyric file formats LyricPoster reads.
public enum LyricsFormat: String, Hashable, Sendable, CaseIterable {
    /// LRC, with its enhanced (word-timed), bilingual and LRCX variants.
    case lrc
    /// TTML as Apple Music and AMLL write it: syllables, translations, romanisations, backing
    /// vocals, duet agents.
    case ttml
    /// NetEase's word-timed YRC.
    case yrc
    /// SubRip subtitles.
    case srt
    /// WebVTT subtitles.
    case vtt
    /// ID3 synchronised lyrics (`SYLT`), read from an MP3's tag only (see ``SYLT``).
    case sylt
    /// QQ Music's word-timed QRC: plain, in its XML wrapper, encrypted hex or a local cache file.
    case qrc
    /// Kugou's word-timed KRC (`krc1`, XOR, zlib), with its translation and romanisation.
    case krc
    /// Lyricify Syllable: QRC-like word timing with duet side and backing-vocal roles.
    case lys
    /// Lyricify Lines: line-timed rows with start and end.
    case lyl
    /// Lyricify Quick Export: a Lyricify Syllable body with LRC translation and pronunciation sections.
    case lqe
    /// ESLyric's word LRC: a stamp after each word is that word's end.
    case eslrc
    /// ASS/SSA subtitles with karaoke tags (`\k`, `\kf`, `\ko`).
    case ass
    /// LRCLIB's Lyricsfile (YAML): line and word timing, plain text, or instrumental.
    case lyricsfile

    /// The formats a lyrics file can be in (and `--format` can name).
    public static let fileFormats: [LyricsFormat] = [.lrc, .ttml, .yrc, .srt, .vtt, .qrc, .krc, .lys, .lyl, .lqe, .eslrc, .ass, .lyricsfile]

    /// Which format `text` is in, judged from its content (a file's name is not trusted: lyric
    /// sites save TTML and YRC as `.lrc`, `.txt` or `.xml`).
    ///
    /// In this order:
    /// - QRC in QQ's XML wrapper (`<QrcInfos`, `LyricContent="`) or as encrypted hex, before TTML:
    ///   a decrypted QRC opens with `<?xml` too.
    /// - TTML: the first markup is an XML declaration or a `<tt` element (after a BOM, whitespace
    ///   and comments).
    /// - WebVTT: the text starts with `WEBVTT`.
    /// - ASS: a first section `[Script Info]`, or `[Events]` with `Dialogue:` lines.
    /// - Lyricsfile: top-level YAML keys `version:` and `metadata:` (``Lyricsfile``).
    /// - Line by line: YRC, a line `[digits,digits]` holding `(digits,digits,digits)` word timing
    ///   (JSON credit lines alone do not decide: NetEase's LRC opens with them too); KRC,
    ///   `[digits,digits]<digits,digits,digits>`; QRC, `[digits,digits]` with a `text(digits,digits)`
    ///   word; SRT, a cue timing `hh:mm:ss,mmm --> hh:mm:ss,mmm`.
    /// - Lyricify: the `[Lyricify Quick Export]` mark, `[type:LyricifyLines]` or `[digits,digits]text`
    ///   rows without word stamps, `[prop]text(digits,digits)` Syllable rows (``Lyricify/sniff(_:)``).
    /// - ESLyric word LRC: most of the first timed lines are `[t]word[t]word[t]` (no `<t>`).
    /// - LRC: anything else (its parser reports when nothing in it is timed).
    public static func sniff(_ text: String) -> LyricsFormat {
        let end = text.unicodeScalars.index(text.startIndex, offsetBy: 65_536, limitedBy: text.endIndex) ?? text.endIndex
        var trimmed = Substring(text.unicodeScalars[..<end])
        while let first = trimmed.unicodeScalars.first, first == "\u{FEFF}" || first.properties.isWhitespace {
            trimmed = trimmed.dropFirst()
        }
        if QRC.Container.isWrapped(trimmed) || trimmed.first?.isHexDigit == true && QRC.isEncryptedHex(String(trimmed)) {
            return .qrc
        }
        if trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<tt") || trimmed.hasPrefix("<!--") && ByteSearch.contains(trimmed, "<tt") {
            return .ttml
        }
        if trimmed.hasPrefix("WEBVTT") { return .vtt }
        let lines = Array(trimmed.split(whereSeparator: \.isNewline).prefix(400))
        if ASS.isScript(lines) { return .ass }
        if Lyricsfile.sniff(lines) { return .lyricsfile }
        for line in lines {
            // JSON credit lines open NetEase's LRC as well as its YRC: only a timed YRC line decides.
            if YRC.isLineHeader(line), line.drop(while: \.isWhitespace).first != "{" { return .yrc }
            if KRC.isLyricLine(line) { return .krc }
            if QRC.isLyricLine(line) { return .qrc }
            if Subtitles.isCueTiming(line) { return .srt }
        }
        // After YRC, KRC and QRC: Lyricify Lines rows look like their line headers.
        if let lyricify = Lyricify.sniff(lines) { return lyricify }
        // ESLyric's word LRC: most word-timed lines end each word with a [stamp].
        let timed = lines.filter { $0.first == "[" && $0.dropFirst().first?.isASCIIDigit == true }.prefix(40)
        let worded = timed.filter { line in
            guard line.utf8.count <= 65_536, case .text(let body) = LRC.LineScanner.scan(line).content else { return false }
            return !body.words.isEmpty
        }
        if !worded.isEmpty, worded.filter({ LRC.isESLyricLine($0) }).count * 2 > worded.count { return .eslrc }
        return .lrc
    }
}

/// Choices a caller can make about how a lyric file is read.
public struct ReadOptions: Hashable, Sendable {
    /// How LRC's `[offset:]` moves the lyrics. Default ``OffsetSign/subtract``.
    public var offsetSign: OffsetSign = .subtract
    /// The translation to show when a file carries several languages (a BCP 47 tag such as
    /// `zh-Hans` or `en`; see ``Lyrics/choosingTranslation(_:)``); `nil` shows the file's first.
    public var translationLanguage: String?

    public init() {}

    /// The user's language as a BCP 47 tag, from `LC_ALL`, `LC_MESSAGES` or `LANG` (`zh_CN.UTF-8`
    /// gives `zh-CN`); `nil` for the C/POSIX locale or none set.
    public static var localeLanguage: String? {
        let environment = ProcessInfo.processInfo.environment
        guard let value = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty })
        else { return nil }
        let name = value.split(separator: ".").first.map(String.init) ?? value
        let base = name.split(separator: "@").first.map(String.init) ?? name
        guard base != "C", base != "POSIX", !base.isEmpty, base.count <= 35 else { return nil }
        return base.replacingOccurrences(of: "_", with: "-")
    }

    /// Options with the given offset convention and translation language.
    public init(offsetSign: OffsetSign, translationLanguage: String? = nil) {
        self.offsetSign = offsetSign
        self.translationLanguage = translationLanguage
    }
}

/// The direction in which LRC's `[offset:]` shifts the lyrics. Real players disagree (LRC.md §6).
public enum OffsetSign: Hashable, Sendable {
    /// display = tag − offset: a positive offset makes lyrics appear sooner. This is the
    /// definition on Wikipedia and what LyricsKit, foo_openlyrics, OSD Lyrics, FFmpeg and lemony do.
    case subtract
    /// display = tag + offset: a positive offset makes lyrics appear later (lrc-kit, pylrc,
    /// ModernLrc, several Android players).
    case add
}

/// Reads lyric files in any format LyricPoster knows: decodes the bytes, picks the format from the
/// content (or takes the one forced) and hands the text to that format's parser.
public enum LyricsReader {
    /// Decodes lyric file bytes and parses them.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - format: the format to read; `nil` detects it (``LyricsFormat/sniff(_:)``).
    ///   - forced: an encoding name (see ``TextDecoding/knownEncodings``); `nil` detects: BOM, then
    ///     strict UTF-8, then GB18030.
    ///   - options: how to apply LRC's `[offset:]`.
    /// - Throws: ``LyricsError``: empty, undecodable, not valid in the format, or nothing timed.
    public static func load(_ data: Data, format: LyricsFormat? = nil, encoding forced: String? = nil,
                            options: ReadOptions = .init()) throws(LyricsError) -> Lyrics {
        // Binary forms first: their bytes would otherwise be misread as legacy-encoded text.
        if KRC.isEncrypted(data) {
            return try parse(KRC.decode(data), format: format ?? .krc, encoding: "utf-8", options: options)
        }
        if let text = try QRC.decodeLocal(data) {
            return try parse(text, format: format, encoding: "utf-8", options: options)
        }
        let decoded = try TextDecoding.decodeNoting(data, forcing: forced)
        var notes: [String] = []
        if let alternative = decoded.alternative {
            notes.append("read as \(decoded.encoding) text, though it also reads as \(alternative): if the lyrics look wrong, name the encoding with --encoding")
        }
        // QQ's encrypted hex: what it holds (a QRC, or an LRC translation) decides the format.
        if format == nil || format == .qrc, QRC.isEncryptedHex(decoded.text) {
            return try parse(QRC.decryptHex(decoded.text), format: format, encoding: decoded.encoding, options: options)
        }
        var lyrics = try parse(decoded.text, format: format, encoding: decoded.encoding, options: options)
        lyrics.notes += notes
        return lyrics
    }

    /// Parses lyric text that is already decoded.
    ///
    /// - Parameters:
    ///   - encoding: the label to report in ``Lyrics/encoding``; not used for parsing.
    public static func parse(_ text: String, format: LyricsFormat? = nil, encoding: String = "utf-8",
                             options: ReadOptions = .init()) throws(LyricsError) -> Lyrics {
        guard !text.isEmpty else { throw .empty }
        return try read(text, format: format, encoding: encoding, options: options)
            .choosingTranslation(options.translationLanguage)
    }

    private static func read(_ text: String, format: LyricsFormat?, encoding: String,
                             options: ReadOptions) throws(LyricsError) -> Lyrics {
        switch format ?? LyricsFormat.sniff(text) {
        case .lrc: return try LRC.parse(text, encoding: encoding, options: options)
        case .ttml: return try TTML.parse(text, encoding: encoding)
        case .yrc: return try YRC.parse(text, encoding: encoding)
        case .srt: return try Subtitles.parse(text, dialect: .srt, encoding: encoding)
        case .vtt: return try Subtitles.parse(text, dialect: .webVTT, encoding: encoding)
        case .sylt: throw .invalid("SYLT lyrics are read from an MP3's tag, not from a file")
        case .qrc: return try QRC.parse(text, encoding: encoding, options: options)
        case .krc: return try KRC.parse(text, encoding: encoding, options: options)
        case .lys: return try Lyricify.parseSyllable(text, encoding: encoding, options: options)
        case .lyl: return try Lyricify.parseLines(text, encoding: encoding, options: options)
        case .lqe: return try Lyricify.parseQuickExport(text, encoding: encoding, options: options)
        case .eslrc: return try LRC.parseESLyric(text, encoding: encoding, options: options)
        case .ass: return try ASS.parse(text, encoding: encoding)
        case .lyricsfile: return try Lyricsfile.parse(text, encoding: encoding, options: options)
        }
    }
}
