import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

extension TTML {
    /// Reads the XML into a ``Document`` with libxml2's streaming parser: one pass, a stack of what
    /// each open element means, text routed to the innermost element that keeps it.
    final class Reader: NSObject, XMLParserDelegate {
        private let limits: Limits
        private var document = Document()
        private var stack: [Frame] = []
        private var line: Line?
        /// Inside `x-bg`: syllables and text go to the line's backing vocals.
        private var inBackground = 0
        /// Text being gathered for a head element or a role span.
        private var buffer = ""
        /// Why reading stopped early (a limit), if it did.
        private var stopped: String?

        /// What an open element means for the text inside it.
        private enum Frame {
            case other
            case divAgent(String?)
            case line
            case syllable
            /// A `<span>` with neither role nor times: its text is plain text of the line.
            case plainSpan
            case background
            /// An inline translation, with its `xml:lang`.
            case translation(String?)
            case romanisation
            /// A span inside a translation or romanisation: more of its text.
            case roleText
            /// The backing vocals' part of a translation (`true`) or romanisation (`false`).
            case roleBackground(Bool)
            /// Ruby annotation text, not shown.
            case ignored
            /// A ruby container: one syllable whose times come from its annotations.
            case rubyContainer
            case agent(Int)
            case agentName(Int)
            case title
            case songwriter
            case headTranslation(replaces: Bool)
            case headTransliteration
            case headText(key: String, kind: HeadKind)
            case headBackground
        }

        private enum HeadKind { case translation(replaces: Bool), romanisation }

        private init(limits: Limits) {
            self.limits = limits
        }

        static func read(_ data: Data, limits: Limits) throws(LyricsError) -> Document {
            let reader = Reader(limits: limits)
            let parser = XMLParser(data: data)
            parser.delegate = reader
            parser.shouldProcessNamespaces = false
            parser.shouldResolveExternalEntities = false
            let finished = parser.parse()
            if let stopped = reader.stopped {
                throw .invalid("not valid TTML: line \(parser.lineNumber): \(stopped)")
            }
            if !finished || parser.parserError != nil {
                let code = (parser.parserError as NSError?)?.code ?? 0
                throw .invalid("not valid TTML: line \(parser.lineNumber):\(parser.columnNumber): malformed XML (libxml2 error \(code))")
            }
            return reader.document
        }

        // MARK: - Elements

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes: [String: String] = [:]) {
            guard stack.count < limits.maxDepth else {
                return stop(parser, "elements nested deeper than \(limits.maxDepth)")
            }
            let name = Self.local(elementName)
            var attribute: [String: String] = [:]
            for (key, value) in attributes { attribute[Self.local(key)] = value }
            stack.append(frame(for: name, attribute, parser))
        }

        private func frame(for name: String, _ attribute: [String: String], _ parser: XMLParser) -> Frame {
            let parent = stack.last
            switch name {
            case "tt":
                document.language = attribute["lang"]
                if let timing = attribute["timing"] { document.tags["timing"] = timing }
                return .other
            case "body":
                document.length = attribute["dur"].flatMap(TTML.milliseconds)
                return .other
            case "div":
                return .divAgent(attribute["agent"])
            case "p":
                guard document.lines.count < limits.maxLines else {
                    stop(parser, "more than \(limits.maxLines) lines")
                    return .other
                }
                var divAgent: String?
                for frame in stack.reversed() { if case .divAgent(let agent) = frame { divAgent = agent; break } }
                line = Line(begin: attribute["begin"].flatMap(TTML.milliseconds), end: attribute["end"].flatMap(TTML.milliseconds),
                            key: attribute["key"], agent: attribute["agent"] ?? divAgent)
                inBackground = 0
                return .line
            case "span" where line != nil:
                // Spans inside a translation or romanisation (word-timed ones) are its text; a
                // backing-vocal span there is the backing vocals' part of it.
                if let role = openRole() {
                    return attribute["role"] == "x-bg" ? .roleBackground(role) : .roleText
                }
                return lineSpan(attribute)
            case "br" where line != nil:
                appendText(" ")
                return .other
            case "agent":
                let kind = attribute["type"].flatMap(Lyrics.Agent.Kind.init(rawValue:)) ?? .other
                guard let id = attribute["id"], !id.isEmpty, document.agents.count < 64 else { return .other }
                document.agents.append(Lyrics.Agent(id: id, kind: kind))
                return .agent(document.agents.count - 1)
            case "name":
                if case .agent(let index) = parent { buffer = ""; return .agentName(index) }
                return .other
            case "title":
                buffer = ""
                return .title
            case "songwriter":
                buffer = ""
                return .songwriter
            case "meta":
                if let key = attribute["key"], let value = attribute["value"], !key.isEmpty, document.tags.count < 256 {
                    document.tags[key] = value
                }
                return .other
            case "translation":
                return .headTranslation(replaces: attribute["type"] == "replacement")
            case "transliteration":
                return .headTransliteration
            case "text":
                guard let key = attribute["for"] else { return .other }
                buffer = ""
                switch parent {
                case .headTranslation(let replaces)?: return .headText(key: key, kind: .translation(replaces: replaces))
                case .headTransliteration?: return .headText(key: key, kind: .romanisation)
                default: return .other
                }
            case "span":
                // Inside a head text: backing vocals' part of the translation, or its syllables.
                if stack.contains(where: { if case .headText = $0 { return true } else { return false } }) {
                    if attribute["role"] == "x-bg" {
                        return .headBackground
                    }
                    // Syllables of a timed head romanisation: their text and spaces are the text.
                    return .other
                }
                return .other
            default:
                return .other
            }
        }

        /// A `<span>` inside a `<p>`.
        private func lineSpan(_ attribute: [String: String]) -> Frame {
            switch attribute["role"] {
            case "x-translation":
                buffer = ""
                return .translation(attribute["lang"])
            case "x-roman":
                buffer = ""
                return .romanisation
            case "x-bg":
                if inBackground == 0, var current = line {
                    // Each x-bg span is a run of its own, except that a translation read earlier
                    // may have started the first run with its part.
                    if current.backgrounds.last?.opened ?? true { current.backgrounds.append(Run()) }
                    let last = current.backgrounds.count - 1
                    current.backgrounds[last].opened = true
                    current.backgrounds[last].begin = attribute["begin"].flatMap(TTML.milliseconds)
                    current.backgrounds[last].end = attribute["end"].flatMap(TTML.milliseconds)
                    line = current
                }
                inBackground += 1
                return .background
            default:
                break
            }
            switch attribute["ruby"] {
            case "text", "textContainer":
                // An annotation: its times time the container's syllable; its text is not shown.
                if let begin = attribute["begin"].flatMap(TTML.milliseconds), let end = attribute["end"].flatMap(TTML.milliseconds) {
                    widenLastWord(begin: begin, end: end)
                }
                return .ignored
            case "container":
                guard addWord(begin: Int.max, end: Int.min) else { return .ignored }
                return .rubyContainer
            case "base":
                return .syllable
            default:
                break
            }
            if let begin = attribute["begin"].flatMap(TTML.milliseconds), let end = attribute["end"].flatMap(TTML.milliseconds) {
                return addWord(begin: begin, end: max(begin, end)) ? .syllable : .ignored
            }
            return .plainSpan
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard let frame = stack.popLast() else { return }
            let text = buffer
            switch frame {
            case .line:
                if let line { document.lines.append(line) }
                line = nil
            case .background:
                inBackground = max(0, inBackground - 1)
            case .translation(let language):
                setRole(translation: text, language: language)
            case .romanisation:
                setRole(romanisation: text)
            case .roleBackground(let isTranslation):
                let value = Self.collapsed(roleBackgroundText)
                roleBackgroundText = ""
                if !value.isEmpty {
                    let saved = inBackground
                    inBackground = 1
                    mutateRun { run in
                        if isTranslation, run.translation == nil { run.translation = value }
                        if !isTranslation, run.romanisation == nil { run.romanisation = value }
                    }
                    inBackground = saved
                }
            case .rubyContainer:
                // A container whose annotations carried no times is no syllable.
                if case .word(let wordText, let begin, _)? = currentRun?.pieces.last, begin == Int.max {
                    mutateRun { run in
                        run.pieces[run.pieces.count - 1] = .text(wordText)
                        run.wordCount -= 1
                    }
                }
            case .agentName(let index):
                let name = Self.collapsed(text)
                if !name.isEmpty, document.agents[index].name == nil { document.agents[index].name = name }
            case .title:
                let title = Self.collapsed(text)
                if !title.isEmpty, document.title == nil { document.title = title }
            case .songwriter:
                let name = Self.collapsed(text)
                if !name.isEmpty {
                    let list = document.tags["songwriters"].map { $0 + ", " + name } ?? name
                    if list.count <= 4096 { document.tags["songwriters"] = list }
                }
            case .headText(let key, let kind):
                let value = Self.collapsed(text)
                var head = document.head[key] ?? HeadText()
                switch kind {
                case .translation(let replaces):
                    if !value.isEmpty, head.translation == nil || (replaces && !head.translationReplaces) {
                        head.translation = value
                        head.translationReplaces = replaces
                    }
                case .romanisation:
                    if !value.isEmpty, head.romanisation == nil { head.romanisation = value }
                }
                if document.head.count < limits.maxLines || document.head[key] != nil { document.head[key] = head }
            case .headBackground:
                // The backing vocals' part of a head text: set aside under the key of the text.
                let value = Self.collapsed(headBackgroundText)
                headBackgroundText = ""
                if let (key, kind) = openHeadText(), !value.isEmpty {
                    var head = document.head[key] ?? HeadText()
                    switch kind {
                    case .translation: if head.backgroundTranslation == nil { head.backgroundTranslation = value }
                    case .romanisation: if head.backgroundRomanisation == nil { head.backgroundRomanisation = value }
                    }
                    if document.head.count < limits.maxLines || document.head[key] != nil { document.head[key] = head }
                }
            default:
                break
            }
        }

        private var headBackgroundText = ""
        /// The backing vocals' part of the inline translation or romanisation being read.
        private var roleBackgroundText = ""

        /// Whether an inline translation (`true`) or romanisation (`false`) is open.
        private func openRole() -> Bool? {
            for frame in stack.reversed() {
                if case .translation = frame { return true }
                if case .romanisation = frame { return false }
            }
            return nil
        }

        private func openHeadText() -> (String, HeadKind)? {
            for frame in stack.reversed() {
                if case .headText(let key, let kind) = frame { return (key, kind) }
            }
            return nil
        }

        // MARK: - Text

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard let frame = stack.last else { return }
            switch frame {
            case .ignored:
                return
            case .syllable:
                appendToWord(string)
            case .rubyContainer:
                return
            case .line, .background, .plainSpan:
                appendText(string)
            case .translation, .romanisation, .roleText, .agentName, .title, .songwriter, .headText:
                if buffer.utf8.count < 65_536 { buffer += string }
            case .roleBackground:
                if roleBackgroundText.utf8.count < 65_536 { roleBackgroundText += string }
            case .headBackground:
                if headBackgroundText.utf8.count < 65_536 { headBackgroundText += string }
            case .other:
                // Syllable spans inside a head text (a timed romanisation) keep their text.
                if openHeadText() != nil {
                    if stack.contains(where: { if case .headBackground = $0 { return true } else { return false } }) {
                        if headBackgroundText.utf8.count < 65_536 { headBackgroundText += string }
                    } else if buffer.utf8.count < 65_536 {
                        buffer += string
                    }
                }
            default:
                return
            }
        }

        // MARK: - Building runs

        private var currentRun: Run? {
            guard let line else { return nil }
            return inBackground > 0 ? line.backgrounds.last : line.main
        }

        private func mutateRun(_ body: (inout Run) -> Void) {
            // Taken out and put back so that the arrays inside are uniquely referenced (no copy).
            guard var current = line else { return }
            line = nil
            if inBackground > 0 {
                var runs = current.backgrounds
                current.backgrounds = []
                if runs.isEmpty { runs.append(Run()) }
                body(&runs[runs.count - 1])
                current.backgrounds = runs
            } else {
                body(&current.main)
            }
            line = current
        }

        /// Adds an empty syllable; `false` (and nothing added) past the word limit.
        private func addWord(begin: Int, end: Int) -> Bool {
            guard (currentRun?.wordCount ?? 0) < limits.maxWords else { return false }
            mutateRun { run in
                run.pieces.append(.word(text: "", begin: begin, end: end))
                run.wordCount += 1
            }
            return true
        }

        private func appendToWord(_ string: String) {
            mutateRun { run in
                guard case .word(let text, let begin, let end)? = run.pieces.last, text.utf8.count < 65_536 else { return }
                run.pieces[run.pieces.count - 1] = .word(text: text + string, begin: begin, end: end)
            }
        }

        private func widenLastWord(begin: Int, end: Int) {
            mutateRun { run in
                guard case .word(let text, let oldBegin, let oldEnd)? = run.pieces.last else { return }
                run.pieces[run.pieces.count - 1] = .word(text: text, begin: min(oldBegin, begin), end: max(oldEnd, max(begin, end)))
            }
        }

        private func appendText(_ string: String) {
            mutateRun { run in
                if case .text(let text)? = run.pieces.last {
                    if text.utf8.count < 65_536 { run.pieces[run.pieces.count - 1] = .text(text + string) }
                } else if run.pieces.count < 2 * limits.maxWords + 2 {
                    run.pieces.append(.text(string))
                }
            }
        }

        private func setRole(translation: String? = nil, language: String? = nil, romanisation: String? = nil) {
            mutateRun { run in
                if let translation, case let text = Self.collapsed(translation), !text.isEmpty {
                    if run.translation == nil { run.translation = text }
                    if run.translations.count < 64 { run.translations.append(LyricLine.Translation(language: language, text: text)) }
                }
                if let romanisation, run.romanisation == nil, !Self.collapsed(romanisation).isEmpty { run.romanisation = Self.collapsed(romanisation) }
            }
            buffer = ""
        }

        private func stop(_ parser: XMLParser, _ reason: String) {
            if stopped == nil { stopped = reason }
            parser.abortParsing()
        }

        /// `ttm:agent` → `agent`, `xml:lang` → `lang`.
        static func local(_ name: String) -> String {
            guard let colon = name.lastIndex(of: ":") else { return name }
            return String(name[name.index(after: colon)...])
        }

        /// Whitespace runs as one space, trimmed.
        static func collapsed(_ text: String) -> String {
            text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
    }
}
