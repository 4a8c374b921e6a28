import Foundation

extension Lyrics {
    /// The languages of the translations the file carries, in the order they first appear.
    public var translationLanguages: [String] {
        var seen: [String] = []
        for line in lines {
            for translation in line.translations {
                if let language = translation.language, !seen.contains(language) { seen.append(language) }
            }
        }
        return seen
    }

    /// The lyrics showing the translation in `tag` on every line that carries several languages.
    ///
    /// A line's translation is the one whose language is `tag` (case-insensitive, `_` read as
    /// `-`), else the first whose language has the same primary subtag (`zh` for `zh-Hans`, or a
    /// `tag` of `zh-CN` matching `zh-Hans`), else the line's first. `nil` shows each line's first.
    ///
    /// A line whose only translation names no language keeps it as ``LyricLine/translation``
    /// alone (``LyricLine/translations`` is for files that name languages or carry several).
    public func choosingTranslation(_ tag: String?) -> Lyrics {
        var result = self
        for index in result.lines.indices {
            let translations = result.lines[index].translations
            if translations.count == 1, translations[0].language == nil { result.lines[index].translations = [] }
        }
        guard result.lines.contains(where: { $0.translations.count > 1 }) else { return result }
        for index in result.lines.indices where !result.lines[index].translations.isEmpty {
            let translations = result.lines[index].translations
            result.lines[index].translation = (tag.flatMap { Self.best(translations, for: $0) } ?? translations[0]).text
        }
        return result
    }

    private static func best(_ translations: [LyricLine.Translation], for tag: String) -> LyricLine.Translation? {
        func normalised(_ value: String) -> String { value.replacingOccurrences(of: "_", with: "-").lowercased() }
        let wanted = normalised(tag)
        if let exact = translations.first(where: { $0.language.map(normalised) == wanted }) { return exact }
        let primary = wanted.split(separator: "-").first.map(String.init) ?? wanted
        return translations.first { $0.language.map(normalised)?.split(separator: "-").first.map(String.init) == primary }
    }
}
