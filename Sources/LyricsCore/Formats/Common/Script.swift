/// The writing system a line of lyrics is in, coarsely: enough to tell a line from its translation
/// or its romanisation when a file puts them side by side without saying which is which.
enum Script: Hashable, Sendable {
    /// Han characters without kana or Hangul (Chinese).
    case han
    /// Any kana (Japanese, with or without kanji).
    case japanese
    /// Any Hangul (Korean).
    case korean
    case latin, cyrillic, greek, arabic, hebrew, thai, devanagari
    /// Letters of some other script.
    case other
    /// No letters at all: digits, punctuation, symbols, emoji.
    case none

    /// The script of `text`: kana or Hangul anywhere decide first; otherwise Han when any Han
    /// character is present; otherwise the script of the most frequent kind of letter.
    static func of(_ text: String) -> Script {
        var counts: [Script: Int] = [:]
        for scalar in text.unicodeScalars {
            let kind = kind(of: scalar)
            if kind != .none { counts[kind, default: 0] += 1 }
        }
        if counts[.japanese] != nil { return .japanese }
        if counts[.korean] != nil { return .korean }
        if counts[.han] != nil { return .han }
        return counts.max { ($0.value, $0.key.rank) < ($1.value, $1.key.rank) }?.key ?? .none
    }

    /// The share of `text`'s letters that are of `script` (0 when it has none), letter by letter
    /// (kanji count as Han, not Japanese).
    static func share(of script: Script, in text: String) -> Double {
        var letters = 0, matching = 0
        for scalar in text.unicodeScalars {
            let kind = kind(of: scalar)
            guard kind != .none else { continue }
            letters += 1
            if kind == script { matching += 1 }
        }
        return letters == 0 ? 0 : Double(matching) / Double(letters)
    }

    /// Han, kana or Hangul.
    var isCJK: Bool { self == .han || self == .japanese || self == .korean }

    /// `true` when every letter of `text` is Latin (at least one letter): a candidate romanisation.
    static func isLatinOnly(_ text: String) -> Bool {
        var letters = 0
        for scalar in text.unicodeScalars {
            switch kind(of: scalar) {
            case .latin: letters += 1
            case .none: continue
            default: return false
            }
        }
        return letters > 0
    }

    /// Whether `text` reads like Hanyu Pinyin: every word one or more pinyin syllables (tone marks
    /// or tone digits allowed). English lines almost always hold a word that is not.
    static func looksLikePinyin(_ text: String) -> Bool {
        let words = text.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "'" }
        guard !words.isEmpty else { return false }
        return words.allSatisfy { word in
            let plain = String(word.unicodeScalars.map { Self.toneless[$0] ?? Character($0) })
                .filter { !$0.isNumber && $0 != "'" }
            return !plain.isEmpty && pinyinSyllables(plain[...])
        }
    }

    /// Whether `text` reads like a romanisation of a line in `script`: Hanyu Pinyin for Chinese
    /// (and Hepburn for a Japanese line written in kanji alone), Hepburn or Kunrei romaji for
    /// Japanese, the Revised Romanization for Korean. Every word must split into the system's
    /// syllables; an English line almost always holds a word that does not.
    static func looksLikeRomanisation(_ text: String, of script: Script) -> Bool {
        switch script {
        case .han: looksLikePinyin(text) || readsAs(text, syllables: romajiSyllables)
        case .japanese: readsAs(text, syllables: romajiSyllables)
        case .korean: readsAs(text, syllables: koreanSyllables)
        default: false
        }
    }

    // MARK: - Details

    private var rank: Int {
        switch self {
        case .latin: 0
        case .cyrillic: 1
        case .greek: 2
        case .arabic: 3
        case .hebrew: 4
        case .thai: 5
        case .devanagari: 6
        default: 7
        }
    }

    private static func kind(of scalar: Unicode.Scalar) -> Script {
        let v = scalar.value
        switch v {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D: return .japanese
        case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: return .korean
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F: return .han
        default: break
        }
        guard scalar.properties.isAlphabetic else { return .none }
        switch v {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF, 0xFF21...0xFF3A, 0xFF41...0xFF5A: return .latin
        case 0x370...0x3FF, 0x1F00...0x1FFF: return .greek
        case 0x400...0x52F: return .cyrillic
        case 0x590...0x5FF: return .hebrew
        case 0x600...0x6FF, 0x750...0x77F, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return .arabic
        case 0x900...0x97F: return .devanagari
        case 0xE00...0xE7F: return .thai
        case 0x300...0x36F: return .none  // combining marks follow their base letter
        default: return .other
        }
    }

    private static let toneless: [Unicode.Scalar: Character] = {
        var map: [Unicode.Scalar: Character] = [:]
        for (plain, marked) in [("a", "āáǎà"), ("e", "ēéěè"), ("i", "īíǐì"), ("o", "ōóǒò"), ("u", "ūúǔù"), ("v", "ǖǘǚǜü")] {
            for scalar in marked.unicodeScalars { map[scalar] = Character(plain) }
        }
        return map
    }()

    private static let initials = ["zh", "ch", "sh", "b", "p", "m", "f", "d", "t", "n", "l", "g", "k", "h",
                                   "j", "q", "x", "r", "z", "c", "s", "y", "w", ""]
    private static let finals: Set<String> = [
        "a", "o", "e", "i", "u", "v", "ai", "ei", "ao", "ou", "an", "en", "ang", "eng", "ong", "er",
        "ia", "ie", "iao", "iu", "ian", "in", "iang", "ing", "iong", "ua", "uo", "uai", "ui", "uan",
        "un", "uang", "ue", "ve", "van", "vn", "io",
    ]

    /// Whether every word of `text` (lower-cased, accents on vowels removed) splits by `syllables`.
    /// Words of more than 24 letters never do.
    private static func readsAs(_ text: String, syllables: (Substring) -> Bool) -> Bool {
        let words = text.lowercased().split { !$0.isLetter && $0 != "'" }
        guard !words.isEmpty else { return false }
        return words.allSatisfy { word in
            let plain = String(word.unicodeScalars.compactMap { scalar -> Character? in
                if scalar == "'" { return nil }
                return Self.plainVowels[scalar] ?? Character(scalar)
            })
            // No romanised word is longer; the cap also bounds the backtracking.
            return !plain.isEmpty && plain.count <= 24 && plain.allSatisfy { $0.isASCII } && syllables(plain[...])
        }
    }

    /// Long-vowel marks of romaji (ā, â, …) and the tone marks of pinyin, to their plain vowels.
    private static let plainVowels: [Unicode.Scalar: Character] = {
        var map = toneless
        for (plain, marked) in [("a", "â"), ("e", "ê"), ("i", "î"), ("o", "ô"), ("u", "û")] {
            for scalar in marked.unicodeScalars { map[scalar] = Character(plain) }
        }
        map["ü"] = "u"
        return map
    }()

    private static let romajiOnsets = ["ky", "gy", "sh", "sy", "ch", "cy", "ty", "dy", "ts", "ny", "hy", "by", "py", "my",
                                       "ry", "zy", "jy", "j", "f", "k", "g", "s", "z", "t", "d", "n", "h", "b", "p", "m",
                                       "y", "r", "w", "v", ""]

    /// Whether `word` splits into romaji syllables: an onset and a vowel, a syllabic `n`, or the
    /// first of a doubled consonant (`kk`, `tch`, `mb`).
    private static func romajiSyllables(_ word: Substring) -> Bool {
        guard let first = word.first else { return true }
        let rest = word.dropFirst()
        if first == "n", romajiSyllables(rest) { return true }
        if let next = rest.first, "kgsztdbpfhjcmr".contains(first),
           next == first || (first == "t" && next == "c") || (first == "m" && "bpm".contains(next)),
           romajiSyllables(rest) {
            return true
        }
        for onset in romajiOnsets where word.hasPrefix(onset) {
            let after = word.dropFirst(onset.count)
            if let vowel = after.first, "aiueo".contains(vowel), romajiSyllables(after.dropFirst()) { return true }
        }
        return false
    }

    private static let hangulInitials = ["kk", "tt", "pp", "ss", "jj", "ch", "g", "n", "d", "r", "l", "m", "b", "s", "j",
                                         "k", "t", "p", "h", ""]
    private static let hangulVowels = ["yae", "yeo", "wae", "ae", "ya", "eo", "ye", "wa", "oe", "yo", "wo", "we", "wi", "yu",
                                       "eu", "ui", "a", "e", "o", "u", "i"]
    private static let hangulFinals = ["ng", "k", "n", "t", "l", "m", "p", ""]

    /// Whether `word` splits into syllables of the Revised Romanization of Korean (initial, vowel,
    /// final).
    private static func koreanSyllables(_ word: Substring) -> Bool {
        if word.isEmpty { return true }
        for initial in hangulInitials where word.hasPrefix(initial) {
            let afterInitial = word.dropFirst(initial.count)
            for vowel in hangulVowels where afterInitial.hasPrefix(vowel) {
                let afterVowel = afterInitial.dropFirst(vowel.count)
                for final in hangulFinals where afterVowel.hasPrefix(final) {
                    if koreanSyllables(afterVowel.dropFirst(final.count)) { return true }
                }
            }
        }
        return false
    }

    /// Whether `word` splits into pinyin syllables (greedy from the longest final; small and exact
    /// enough for the lines lyrics carry).
    private static func pinyinSyllables(_ word: Substring) -> Bool {
        if word.isEmpty { return true }
        for initial in initials where word.hasPrefix(initial) {
            let rest = word.dropFirst(initial.count)
            for length in stride(from: min(4, rest.count), through: 1, by: -1) {
                let final = String(rest.prefix(length))
                if finals.contains(final), pinyinSyllables(rest.dropFirst(length)) { return true }
            }
        }
        return false
    }
}
