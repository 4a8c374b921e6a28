extension LyricsWriter {
    /// Something a song has that a format cannot carry, and how much of it is lost.
    public struct Loss: Hashable, Sendable, CustomStringConvertible {
        public var format: OutputFormat
        public var kind: Kind
        /// How many lines (words for ruby, agents for singers' names, fields for metadata) lose it.
        public var count: Int
        /// For ``Kind/metadata``: the fields lost, in order (`title`, `artist`, …).
        public var fields: [String] = []

        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// Word timing (line-timed LRC, SRT).
            case words
            /// Word ends (WebVTT: a word ends where the next begins).
            case wordEnds
            /// Line ends (LRC: a line lasts until the next stamp unless a silence of 4 s or more follows).
            case lineEnds
            /// Backing vocals.
            case backingVocals
            /// Every translation (Lyricsfile carries none).
            case translations
            /// Translations other than the chosen one.
            case otherTranslations
            case romanisation
            /// Singers (agents).
            case singers
            /// Singers' names and kinds (WebVTT and ASS name a singer by id).
            case singerNames
            case gapLines
            case creditLines
            /// Title, artist, album, language, length.
            case metadata
            /// Readings over words (furigana).
            case ruby
        }

        /// One line for a person: `SRT carries no word timing: 52 lines lose their words`.
        public var description: String {
            let name = format.name
            func lines(_ verb: String) -> String { "\(count) line\(count == 1 ? " \(verb)s" : "s \(verb)")" }
            switch kind {
            case .words: return "\(name) carries no word timing: \(lines("lose")) their words"
            case .wordEnds: return "\(name) carries no word ends: in \(count) line\(count == 1 ? "" : "s") a word now ends where the next begins"
            case .lineEnds:
                return "\(name) keeps a line's end only before a silence of 4 s or more: \(lines("last")) until the next line starts"
            case .backingVocals: return "\(name) carries no backing vocals: \(lines("lose")) theirs"
            case .translations: return "\(name) carries no translations: \(lines("lose")) theirs"
            case .otherTranslations: return "\(name) carries one translation per line: \(lines("keep")) only the chosen one"
            case .romanisation: return "\(name) carries no romanisation: \(lines("lose")) theirs"
            case .singers: return "\(name) carries no singers: \(lines("lose")) their singer"
            case .singerNames: return "\(name) names singers by id only: \(count) singer name\(count == 1 ? " is" : "s are") dropped"
            case .gapLines: return "\(name) has no gap lines: \(count) gap\(count == 1 ? " is" : "s are") dropped"
            case .creditLines: return "\(name) has no credit lines: \(count) credit line\(count == 1 ? " is" : "s are") dropped"
            case .metadata:
                let list = fields.count > 1 ? fields.dropLast().joined(separator: ", ") + " or " + (fields.last ?? "") : fields.joined()
                return "\(name) carries no \(list): dropped"
            case .ruby: return "\(name) carries no ruby: \(count) word\(count == 1 ? " loses its" : "s lose their") reading"
            }
        }
    }

    /// What writing `lyrics` as `format` drops, in the order of ``Loss/Kind``; empty when the
    /// format carries everything the song has. Rounding to centiseconds is not a loss.
    public static func losses(of lyrics: Lyrics, in format: OutputFormat) -> [Loss] {
        let lines = lyrics.lines
        let sung = lines.filter { !$0.text.isEmpty && (format != .ttml || $0.role == .lyric) }
        var losses: [Loss] = []
        func add(_ kind: Loss.Kind, _ count: Int, fields: [String] = []) {
            if count > 0 { losses.append(Loss(format: format, kind: kind, count: count, fields: fields)) }
        }
        let wordTimed = sung.filter { !$0.words.isEmpty }
        if [.lrc, .srt].contains(format) { add(.words, wordTimed.count) }
        if format == .vtt {
            add(.wordEnds, wordTimed.filter { line in
                line.words.indices.contains { index in
                    let next = index + 1 < line.words.count ? line.words[index + 1].start : line.end
                    return line.words[index].end != next
                }
            }.count)
        }
        if format == .lrc || format == .enhancedLRC {
            // A line lasts until the next stamp written, a gap line closing a silence included.
            let stamps = lines.map { WrittenTime.centiseconds($0.start) }
            let written = (Set(stamps).union(LRC.Writer.closingGaps(lines, stamps: stamps, enhanced: format == .enhancedLRC).values)).sorted()
            var next = 0  // the first written stamp after the line's (lines are sorted by start)
            add(.lineEnds, lines.indices.filter { index in
                while next < written.count, written[next] <= stamps[index] { next += 1 }
                let line = lines[index]
                guard !line.text.isEmpty, format == .lrc || line.words.isEmpty else { return false }
                let end = WrittenTime.centiseconds(line.end)
                return end > stamps[index] && (next == written.count || end != written[next])
            }.count)
        }
        if ![.ttml, .ass].contains(format) { add(.backingVocals, sung.filter { !$0.backgrounds.isEmpty }.count) }
        if format == .lyricsfile {
            add(.translations, sung.filter { $0.translation != nil || !$0.translations.isEmpty }.count)
        } else if format != .ttml {
            add(.otherTranslations, sung.filter { $0.translations.count > 1 }.count)
        }
        if [.srt, .vtt, .lyricsfile].contains(format) {
            add(.romanisation, sung.filter { $0.romanisation != nil || $0.backgrounds.contains { $0.romanisation != nil } }.count)
        }
        if [.lrc, .enhancedLRC, .srt, .lyricsfile].contains(format) { add(.singers, sung.filter { $0.agent != nil }.count) }
        if [.vtt, .ass].contains(format) {
            let used = Set(sung.compactMap(\.agent))
            add(.singerNames, lyrics.agents.filter { used.contains($0.id) && $0.name != nil }.count)
        }
        if [.ttml, .srt, .vtt, .ass, .lyricsfile].contains(format) { add(.gapLines, lines.filter(\.text.isEmpty).count) }
        if format == .ttml { add(.creditLines, lines.filter { $0.role == .credit && !$0.text.isEmpty }.count) }
        let carried: Set<String> = switch format {
        case .lrc, .enhancedLRC, .ttml, .lyricsfile: ["title", "artist", "album", "language", "length"]
        case .ass: ["title"]
        case .srt, .vtt: []
        }
        let present = [("title", lyrics.title != nil), ("artist", lyrics.artist != nil), ("album", lyrics.album != nil),
                       ("language", lyrics.language != nil), ("length", lyrics.length != nil)]
        let dropped = present.filter { $0.1 && !carried.contains($0.0) }.map(\.0)
        add(.metadata, dropped.count, fields: dropped)
        // Ruby on the words the format keeps (words it drops are counted above).
        let keptWords: [Word] = switch format {
        case .lrc, .srt: []
        case .enhancedLRC, .vtt, .lyricsfile: sung.flatMap(\.words)
        case .ttml, .ass: sung.flatMap { $0.words + $0.backgrounds.flatMap(\.words) }
        }
        add(.ruby, keptWords.filter { $0.ruby != nil }.count)
        return losses
    }
}
