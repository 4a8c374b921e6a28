/// Credit lines: the "作词 : …", "Composed by …" lines that lyric sites put before the first sung
/// line. Every text format that carries them as ordinary lines (LRC, YRC's plain lines, subtitles)
/// marks the leading ones ``LyricLine/Role/credit``.
enum Credits {
    /// Marks the credit lines at the start and the end of `lines` (sorted by start): the runs of
    /// lines, gaps skipped, whose text reads as a credit, up to the first (and from the last) sung
    /// line. A credit-like line between sung lines is left a lyric.
    static func mark(_ lines: inout [LyricLine]) {
        var firstLyric = lines.endIndex
        for index in lines.indices where !lines[index].text.isEmpty {
            guard isCredit(lines[index].text) else { firstLyric = index; break }
            lines[index].role = .credit
        }
        for index in lines.indices.reversed() where index > firstLyric && !lines[index].text.isEmpty {
            guard isCredit(lines[index].text) else { return }
            lines[index].role = .credit
        }
    }

    /// Whether `text` reads as a credit: a known role word and a colon (`作词 : 某人`, `Composer: …`),
    /// or an English "… by …" credit (`Lyrics by …`, `Written and composed by …`).
    static func isCredit(_ text: String) -> Bool {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.count <= 120 else { return false }
        if let colon = trimmed.firstIndex(where: { $0 == ":" || $0 == "：" || $0 == "∶" }) {
            let key = trimmed[..<colon].trimmingWhitespace().lowercased()
            let value = trimmed[trimmed.index(after: colon)...].trimmingWhitespace()
            if !value.isEmpty, roleWords.contains(String(key)) { return true }
            // "作词/作曲 : X", "Lyrics & Music: X"
            let parts = key.split { "/&、,，+".contains($0) || $0 == " " }.map(String.init)
                .filter { $0 != "and" && !$0.isEmpty }
            if !value.isEmpty, !parts.isEmpty, parts.allSatisfy(roleWords.contains) { return true }
        }
        let lower = trimmed.lowercased()
        for lead in byLeads where lower.hasPrefix(lead) {
            let rest = lower.dropFirst(lead.count)
            if let by = rest.range(of: " by "), rest[..<by.lowerBound].split(separator: " ").count <= 3 {
                return !rest[by.upperBound...].trimmingWhitespace().isEmpty
            }
            if rest.hasPrefix("by ") { return !rest.dropFirst(3).trimmingWhitespace().isEmpty }
        }
        return false
    }

    /// Whether `text` is a lyric site's note rather than lyrics: a credit, a web address, or one of
    /// the notes old lyric sites append (`欢迎访问…`, `歌词来自…`, `LRC by …`).
    static func isSiteNote(_ text: String) -> Bool {
        let lower = text.lowercased()
        if isCredit(text) { return true }
        if lower.contains("http://") || lower.contains("https://") || lower.contains("www.") || lower.contains(".com") { return true }
        return siteNotes.contains { lower.contains($0) }
    }

    private static let siteNotes = [
        "欢迎访问", "歡迎訪問", "歌词来自", "歌詞來自", "歌词制作", "歌詞製作", "歌词编辑", "歌詞編輯", "lrc by", "lyrics by",
        "qq:", "qq：", "感谢", "感謝",
    ]

    /// Role words that, before a colon, make a line a credit.
    private static let roleWords: Set<String> = [
        // Chinese (simplified and traditional)
        "作词", "作詞", "作曲", "编曲", "編曲", "词", "詞", "曲", "制作人", "製作人", "制作", "製作", "监制", "監製",
        "混音", "母带", "母帶", "录音", "錄音", "和声", "和聲", "和音", "吉他", "贝斯", "貝斯", "鼓", "弦乐", "弦樂",
        "出品", "发行", "發行", "演唱", "原唱", "歌手", "填词", "填詞", "谱曲", "譜曲", "配唱", "混音师", "录音师",
        "作词/作曲", "词曲", "詞曲", "策划", "企划", "統籌", "统筹", "op", "sp", "isrc",
        // Japanese and Korean
        "作詞者", "作曲者", "編曲者", "작사", "작곡", "편곡",
        // English
        "lyrics", "lyricist", "lyric", "words", "music", "composer", "composed", "arranger", "arrangement",
        "producer", "produced", "writer", "writers", "written", "songwriter", "songwriters", "mixing",
        "mixed", "mastering", "mastered", "recording", "vocals", "vocal", "programming",
    ]

    /// Openings of English "… by …" credits.
    private static let byLeads = [
        "lyrics", "lyric", "words", "music", "composed", "written", "arranged", "produced", "mixed",
        "mastered", "recorded", "performed", "songwriting",
    ]
}
