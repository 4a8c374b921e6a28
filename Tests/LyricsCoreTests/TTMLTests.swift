import Foundation
import Testing
@testable import LyricsCore
import TestSupport

/// TTML as Apple Music and AMLL write it: the cases their suites document, in our own words.
@Suite struct TTMLTests {
    /// A document with the usual namespaces around `body`.
    static func tt(_ body: String, head: String = "", attributes: String = "") -> String {
        """
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttm="http://www.w3.org/ns/ttml#metadata" \
        xmlns:itunes="http://music.apple.com/lyric-ttml-internal" \(attributes)>\
        <head><metadata>\(head)</metadata></head><body>\(body)</body></tt>
        """
    }

    static func parse(_ text: String) throws(LyricsError) -> Lyrics { try TTML.parse(text) }

    // MARK: Times

    @Test(arguments: [
        ("12.3s", 12_300), ("10.24", 10_240), ("00:00.088", 88), ("00:45:12.2", 2_712_200), ("00:00:10.254", 10_254),
        ("00:01:10", 70_000), ("1500ms", 1500), ("5.1234", 5123), ("7", 7000), (" 1:02.5 ", 62_500), ("0.5s", 500),
    ])
    func times(text: String, ms: Int) {
        #expect(TTML.milliseconds(text) == ms, "\(text)")
    }

    @Test(arguments: ["", "abc", "-1", "1:2:3:4", "1.2.3", "1:", ":5", "999999:00:00", "12.3x", "1e5", "ms", "1.2s3"])
    func rejectedTimes(text: String) {
        #expect(TTML.milliseconds(text) == nil, "\(text)")
    }

    // MARK: Lines and syllables

    static let lineCases: [WordCase] = [
        WordCase("spaces between spans on one line", #"<p begin="1" end="3"><span begin="1" end="1.5">Salt</span> <span begin="1.5" end="2">and</span> <span begin="2" end="3">stone</span></p>"#,
             "Salt and stone", [W(1000, 1500, "Salt "), W(1500, 2000, "and "), W(2000, 3000, "stone")]),
        WordCase("pretty-printing newlines are no spaces", "<p begin=\"1\" end=\"2\">\n  <span begin=\"1\" end=\"1.5\">雨</span>\n  <span begin=\"1.5\" end=\"2\">音</span>\n</p>",
             "雨音", [W(1000, 1500, "雨"), W(1500, 2000, "音")]),
        WordCase("space inside a span's end", #"<p begin="1" end="2"><span begin="1" end="1.5">Tin </span><span begin="1.5" end="2">roof</span></p>"#,
             "Tin roof", [W(1000, 1500, "Tin "), W(1500, 2000, "roof")]),
        WordCase("space inside a span's start belongs to the word before", #"<p begin="1" end="2"><span begin="1" end="1.5">Tin</span><span begin="1.5" end="2"> roof</span></p>"#,
             "Tin roof", [W(1000, 1500, "Tin "), W(1500, 2000, "roof")]),
        WordCase("syllables of one word", #"<p begin="1" end="2"><span begin="1" end="1.3">Lan</span><span begin="1.3" end="1.6">tern</span><span begin="1.6" end="2">s</span></p>"#,
             "Lanterns", [W(1000, 1300, "Lan"), W(1300, 1600, "tern"), W(1600, 2000, "s")]),
        WordCase("plain text line, whitespace collapsed", "<p begin=\"4\" end=\"6\">Only a\n      plain   line</p>", "Only a plain line", []),
        WordCase("entities decoded", #"<p begin="1" end="2"><span begin="1" end="2">Salt &amp; pepper &lt;3</span></p>"#,
             "Salt & pepper <3", [W(1000, 2000, "Salt & pepper <3")]),
        WordCase("untimed span text joins the syllable before it", #"<p begin="1" end="3"><span begin="1" end="2">Rain</span><span>,</span> <span begin="2" end="3">again</span></p>"#,
             "Rain, again", [W(1000, 2000, "Rain, "), W(2000, 3000, "again")]),
        WordCase("ruby keeps the base, times from the annotations",
             #"<p begin="1" end="3"><span begin="1" end="1.5">この</span><span tts:ruby="container" xmlns:tts="http://www.w3.org/ns/ttml#styling"><span tts:ruby="base">漢字</span><span tts:ruby="textContainer"><span tts:ruby="text" begin="1.5" end="2">かん</span><span tts:ruby="text" begin="2" end="2.5">じ</span></span></span></p>"#,
             "この漢字", [W(1000, 1500, "この"), W(1500, 2500, "漢字")]),
        WordCase("a br is a space", #"<p begin="1" end="2">Two<br/>halves</p>"#, "Two halves", []),
    ]

    @Test(arguments: lineCases)
    func lines(_ testCase: WordCase) throws {
        let lyrics = try Self.parse(Self.tt(testCase.input))
        let line = try #require(lyrics.lines.first)
        #expect(line.text == testCase.text)
        #expect(line.words.map(W.init) == testCase.words)
        #expect(invariantViolations(lyrics) == [])
        #expect(lyrics.format == .ttml)
    }

    @Test func lineTimesComeFromSyllablesAndBackingVocals() throws {
        let lyrics = try Self.parse(Self.tt("""
            <p><span begin="2" end="3">no</span><span begin="3" end="4">times</span></p>\
            <p begin="10" end="11"><span begin="10" end="11">short</span><span ttm:role="x-bg"><span begin="11" end="13">(echo)</span></span></p>\
            <p>untimed, skipped</p>
            """))
        #expect(lyrics.lines.map(\.start.milliseconds) == [2000, 10_000])
        #expect(lyrics.lines.map(\.end.milliseconds) == [4000, 13_000])
    }

    @Test func linesAreSortedAndGapsKept() throws {
        let lyrics = try Self.parse(Self.tt(#"<p begin="20" end="22">b</p><p begin="5" end="7">a</p>"#))
        #expect(lyrics.lines.map(\.text) == ["a", "b"])
        #expect(lyrics.lines[0].end.milliseconds == 7000)  // the 13 s until "b" is a gap, not stretched
    }

    // MARK: Roles

    @Test func inlineTranslationAndRomanisation() throws {
        let lyrics = try Self.parse(Self.tt("""
            <p begin="1" end="3"><span begin="1" end="2">雨</span><span begin="2" end="3">音</span>\
            <span ttm:role="x-translation" xml:lang="en">Sound of rain</span>\
            <span ttm:role="x-translation" xml:lang="fr">Bruit de pluie</span>\
            <span ttm:role="x-roman">ama oto</span></p>
            """))
        let line = try #require(lyrics.lines.first)
        #expect(line.text == "雨音")
        #expect(line.translation == "Sound of rain")  // the first of several
        #expect(line.translations == [.init(language: "en", text: "Sound of rain"), .init(language: "fr", text: "Bruit de pluie")])
        #expect(line.romanisation == "ama oto")
        // One translation without a language is only the translation.
        let plain = try Self.parse(Self.tt(#"<p begin="1" end="2">a<span ttm:role="x-translation">b</span></p>"#))
        #expect(plain.lines[0].translation == "b" && plain.lines[0].translations.isEmpty)
    }

    static let head = """
        <iTunesMetadata xmlns="http://music.apple.com/lyric-ttml-internal">\
        <translations><translation type="subtitle" xml:lang="en"><text for="L1">From the head</text>\
        <text for="L2">Head, not inline</text></translation>\
        <translation type="replacement" xml:lang="en"><text for="L3">Replacement wins</text></translation></translations>\
        <transliterations><transliteration xml:lang="ja-Latn"><text for="L1"><span begin="1" end="2">ame</span> <span begin="2" end="3">oto</span></text>\
        <text for="L4">ushiro <span ttm:role="x-bg">(koe)</span></text></transliteration></transliterations>\
        <translations><translation xml:lang="en"><text for="L4">behind <span ttm:role="x-bg">(voice)</span></text></translation></translations>\
        </iTunesMetadata>
        """

    @Test func headTranslationsAndTransliterations() throws {
        let lyrics = try Self.parse(Self.tt("""
            <p begin="1" end="3" itunes:key="L1">雨音</p>\
            <p begin="4" end="5" itunes:key="L2">二<span ttm:role="x-translation">Inline first</span></p>\
            <p begin="6" end="7" itunes:key="L3">三<span ttm:role="x-translation">Inline loses</span></p>\
            <p begin="8" end="9" itunes:key="L4">後ろ<span ttm:role="x-bg"><span begin="8.5" end="9">(声)</span></span></p>
            """, head: Self.head))
        #expect(lyrics.lines.map(\.translation) == ["From the head", "Inline first", "Replacement wins", "behind"])
        #expect(lyrics.lines[0].romanisation == "ame oto")
        #expect(lyrics.lines[3].romanisation == "ushiro")
        #expect(lyrics.lines[3].background?.text == "声")
        #expect(lyrics.lines[3].background?.translation == "(voice)")
        #expect(lyrics.lines[3].background?.romanisation == "(koe)")
    }

    @Test func backingVocals() throws {
        let lyrics = try Self.parse(Self.tt("""
            <p begin="1" end="4"><span begin="1" end="2">Hold</span> <span begin="2" end="3">on</span>\
            <span ttm:role="x-bg"><span begin="3" end="3.5">(hold</span> <span begin="3.5" end="4">on)</span>\
            <span ttm:role="x-translation">aguanta</span></span></p>\
            <p begin="5" end="6">b<span ttm:role="x-bg" begin="5" end="7">（ええ）</span></p>\
            <p begin="8" end="9">c<span ttm:role="x-bg" begin="8" end="9">(one) two (three)</span></p>
            """))
        let first = try #require(lyrics.lines.first?.background)
        #expect(first.text == "hold on")
        #expect(first.words.map(W.init) == [W(3000, 3500, "hold "), W(3500, 4000, "on")])
        #expect(first.start.milliseconds == 3000 && first.end.milliseconds == 4000)
        #expect(first.translation == "aguanta")
        #expect(lyrics.lines[0].text == "Hold on")
        #expect(lyrics.lines[0].translation == nil)
        #expect(lyrics.lines[1].background?.text == "ええ")
        #expect(lyrics.lines[1].end.milliseconds == 7000)  // widened to its backing vocals
        #expect(lyrics.lines[2].background?.text == "(one) two (three)")
        #expect(lyrics.inspectJSON().contains(#""background": {"start_ms": 3000, "end_ms": 4000, "text": "hold on""#))
    }

    @Test func eachBackingSpanIsARunOfItsOwn() throws {
        let lyrics = try Self.parse(Self.tt("""
            <p begin="1" end="6"><span begin="1" end="2">Call</span>\
            <span ttm:role="x-bg" begin="2" end="3"><span begin="2" end="3">(oh)</span></span> \
            <span ttm:role="x-bg"><span begin="4" end="5">(la</span> <span begin="5" end="6">la)</span>\
            <span ttm:role="x-translation">tra la</span></span></p>\
            <p begin="7" end="8"><span ttm:role="x-bg"><span begin="7" end="8">(alone)</span></span>\
            <span ttm:role="x-bg"><span begin="8" end="9">(after)</span></span></p>
            """))
        let runs = lyrics.lines[0].backgrounds
        #expect(runs.map(\.text) == ["oh", "la la"])
        #expect(runs.map(\.start.milliseconds) == [2000, 4000] && runs.map(\.end.milliseconds) == [3000, 6000])
        #expect(runs[1].words.map(W.init) == [W(4000, 5000, "la "), W(5000, 6000, "la")])
        #expect(runs.map(\.translation) == [nil, "tra la"])
        #expect(lyrics.lines[0].text == "Call")
        #expect(lyrics.lines[0].background?.text == "oh la la")  // the merged view
        // A line of backing vocals alone: the first run is the line, the others stay backing runs.
        #expect(lyrics.lines[1].text == "alone" && lyrics.lines[1].backgrounds.map(\.text) == ["after"])
        #expect(lyrics.lines[1].end.milliseconds == 9000)
    }

    @Test func agents() throws {
        let lyrics = try Self.parse(Self.tt("""
            <div ttm:agent="v2"><p begin="1" end="2" ttm:agent="v1">a</p><p begin="3" end="4">b</p></div>\
            <p begin="5" end="6" ttm:agent="v1000">c</p><p begin="7" end="8" ttm:agent="v9">d</p><p begin="9" end="10">e</p>
            """, head: """
            <ttm:agent type="person" xml:id="v1"><ttm:name type="full">Ren</ttm:name></ttm:agent>\
            <ttm:agent type="person" xml:id="v2"/><ttm:agent type="group" xml:id="v1000"/>
            """))
        #expect(lyrics.lines.map(\.agent) == ["v1", "v2", "v1000", "v9", nil])
        #expect(lyrics.agents.map(\.id) == ["v1", "v2", "v1000", "v9"])
        #expect(lyrics.agents.map(\.kind) == [.person, .person, .group, .person])
        #expect(lyrics.agents[0].name == "Ren")
        #expect(lyrics.inspectJSON(pretty: false).contains(#""agents":[{"id":"v1","type":"person","name":"Ren"}"#))
    }

    @Test func metadata() throws {
        let lyrics = try Self.parse(Self.tt(#"<p begin="1" end="2">a</p>"#, head: """
            <ttm:title>Harbour</ttm:title><amll:meta xmlns:amll="http://www.example.com/ns/amll" key="artists" value="Two Boats"/>\
            <amll:meta xmlns:amll="http://www.example.com/ns/amll" key="album" value="Tide"/>
            """, attributes: #"xml:lang="ja""#).replacingOccurrences(of: "<body>", with: #"<body dur="3:05.5">"#))
        #expect(lyrics.title == "Harbour")
        #expect(lyrics.artist == "Two Boats")
        #expect(lyrics.album == "Tide")
        #expect(lyrics.language == "ja")
        #expect(lyrics.length?.milliseconds == 185_500)
    }

    @Test func otherNamespacesAndNoPrefixes() throws {
        // The older itunes namespace, and a file that writes the attributes without prefixes.
        let old = try Self.parse("""
            <tt xmlns="http://www.w3.org/ns/ttml" xmlns:itunes="http://itunes.apple.com/lyric-ttml-extensions" \
            xmlns:ttm="http://www.w3.org/ns/ttml#metadata"><head><metadata><iTunesMetadata><translations><translation>\
            <text for="K">old namespace</text></translation></translations></iTunesMetadata></metadata></head>\
            <body><p begin="1" end="2" itunes:key="K">a</p></body></tt>
            """)
        #expect(old.lines.first?.translation == "old namespace")
        let bare = try Self.parse(#"<tt><body><p begin="1" end="2" agent="v2"><span begin="1" end="2">a</span><span role="x-roman">ah</span></p></body></tt>"#)
        #expect(bare.lines.first?.agent == "v2")
        #expect(bare.lines.first?.romanisation == "ah")
    }

    // MARK: Reading and sniffing

    @Test func readerSniffsTTMLInEveryEncodingAndSpelling() throws {
        let document = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<!-- made by hand -->\n" + Self.tt(#"<p begin="1" end="2">雨</p>"#)
        var utf16 = Data([0xFF, 0xFE])
        for unit in document.utf16 { utf16.append(UInt8(unit & 0xFF)); utf16.append(UInt8(unit >> 8)) }
        let lyrics = try LyricsReader.load(utf16)
        #expect(lyrics.format == .ttml)
        #expect(lyrics.encoding == "utf-16le")
        #expect(lyrics.lines.map(\.text) == ["雨"])
        #expect(LyricsFormat.sniff("\u{FEFF}  \n<tt xmlns='x'></tt>") == .ttml)
        #expect(LyricsFormat.sniff("<!-- c -->\n<tt>") == .ttml)
        #expect(LyricsFormat.sniff("[00:01.00]<b>not xml</b>") == .lrc)
        // Forced: an LRC file read as TTML is malformed XML, said so.
        #expect(throws: LyricsError.self) { try LyricsReader.parse("[00:01.00]a", format: .ttml) }
    }

    @Test func sampleSong() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("samples/river-lights/river-lights.ttml")
        let lyrics = try LyricsReader.load(Data(contentsOf: url))
        #expect(lyrics.format == .ttml)
        #expect(lyrics.lines.count == 12)
        #expect(lyrics.lines.allSatisfy { $0.translation != nil && $0.romanisation != nil && !$0.words.isEmpty })
        #expect(lyrics.lines.filter { $0.background != nil }.count == 5)
        #expect(Set(lyrics.lines.compactMap(\.agent)) == ["v1", "v2", "v1000"])
        #expect(lyrics.title == "川の灯 (River Lights)")
        #expect(invariantViolations(lyrics) == [])
    }

    // MARK: Hostile and broken input

    @Test(arguments: [
        ("unclosed element", "<tt><body><p begin=\"1\" end=\"2\">a</body></tt>", "malformed XML"),
        ("not XML at all", "<tt <<<", "malformed XML"),
        ("a DTD", "<?xml version=\"1.0\"?>\n<!DOCTYPE tt [<!ELEMENT tt ANY>]>\n<tt/>", "document type declarations are not allowed"),
        ("an external entity", "<!DOCTYPE tt [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><tt><body><p begin=\"1\">&x;</p></body></tt>",
         "document type declarations are not allowed"),
    ])
    func broken(name: String, text: String, reason: String) {
        do {
            _ = try Self.parse(text)
            Issue.record("\(name): parsed")
        } catch {
            #expect(error.description.hasPrefix("not valid TTML: line "), "\(name): \(error)")
            #expect(error.description.contains(reason), "\(name): \(error)")
        }
    }

    @Test func billionLaughsIsRefusedAtOnce() {
        var entities = "<!ENTITY lol \"lol\">"
        for level in 1...9 { entities += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">" }
        let bomb = "<?xml version=\"1.0\"?><!DOCTYPE tt [\(entities)]><tt><body><p begin=\"1\" end=\"2\">&lol9;</p></body></tt>"
        let clock = ContinuousClock.now
        #expect(throws: LyricsError.self) { try Self.parse(bomb) }
        #expect(ContinuousClock.now - clock < .seconds(2 * Sanitizers.allowance))
    }

    @Test func deepNestingStops() {
        let depth = 5000
        let text = "<tt><body><p begin=\"1\" end=\"2\">" + String(repeating: "<span>", count: depth) + "x"
            + String(repeating: "</span>", count: depth) + "</p></body></tt>"
        do {
            _ = try Self.parse(text)
            Issue.record("parsed")
        } catch {
            #expect(error.description.contains("nested deeper than 64") || error.description.contains("malformed XML"), "\(error)")
        }
    }

    @Test func sizeAndCountLimits() throws {
        let big = Self.tt("<p begin=\"1\" end=\"2\">" + String(repeating: "a", count: 9 * 1024 * 1024) + "</p>")
        #expect(throws: LyricsError.tooLarge("TTML larger than the limit of 8388608 bytes")) { try Self.parse(big) }
        var limits = TTML.Limits()
        limits.maxLines = 3
        limits.maxWords = 2
        let many = Self.tt((0..<5).map { "<p begin=\"\($0)\" end=\"\($0).5\">l\($0)</p>" }.joined())
        #expect(throws: LyricsError.self) { try TTML.parse(many, limits: limits) }
        let wordy = Self.tt(#"<p begin="1" end="4"><span begin="1" end="2">a</span><span begin="2" end="3">b</span><span begin="3" end="4">c</span></p>"#)
        let kept = try TTML.parse(wordy, limits: limits)
        #expect(kept.lines[0].words.count == 2)
    }

    @Test func claimedHugeTimesAreIgnored() throws {
        // Times past 100 hours are not times: the line falls back to its syllables, or is skipped.
        let lyrics = try Self.parse(Self.tt("""
            <p begin="999999999:00:00" end="1000000000:00:00">skipped</p>\
            <p begin="1" end="99999999999999999999"><span begin="1" end="2">kept</span></p>
            """))
        #expect(lyrics.lines.map(\.text) == ["kept"])
        #expect(lyrics.lines[0].end.milliseconds == 2000)
    }

    @Test func emptyDocumentsHaveNoLines() {
        #expect(throws: LyricsError.noTimedLines) { try Self.parse(Self.tt("")) }
        #expect(throws: LyricsError.noTimedLines) { try Self.parse(#"<tt><body><p>no time</p></body></tt>"#) }
    }

    @Test func seededRandomDocumentsNeverCrash() {
        var random = SplitMix64(seed: 0x7713)
        let pieces = ["<p begin=\"1\" end=\"2\">", "</p>", "<span begin=\"1.5\" end=\"3\">", "</span>", "<span ttm:role=\"x-bg\">",
                      "<span ttm:role=\"x-translation\">", "<span ttm:role=\"x-roman\">", "(", ")", " ", "\n", "a", "雨", "&amp;",
                      "<br/>", "<div>", "</div>", "<p>", "<span tts:ruby=\"container\">", "<span tts:ruby=\"text\" begin=\"2\" end=\"1\">"]
        for _ in 0..<400 {
            var body = ""
            for _ in 0..<Int.random(in: 1...60, using: &random) { body += pieces[Int.random(in: 0..<pieces.count, using: &random)] }
            if let lyrics = try? Self.parse(Self.tt(body)) {
                #expect(invariantViolations(lyrics) == [], "\(body)")
                _ = lyrics.inspectJSON()
            }
        }
    }
}

extension TTMLTests {
    @Test func wordTimedTranslationsAreTextNotSyllables() throws {
        let lyrics = try Self.parse(Self.tt("""
            <p begin="1" end="3"><span begin="1" end="3">雨</span>\
            <span ttm:role="x-translation"><span begin="1" end="2">The</span> <span begin="2" end="3">rain</span>\
            <span ttm:role="x-bg">(yes)</span></span>\
            <span ttm:role="x-bg"><span begin="2" end="3">(うん)</span></span></p>
            """))
        let line = try #require(lyrics.lines.first)
        #expect(line.text == "雨")
        #expect(line.words.count == 1)
        #expect(line.translation == "The rain")
        #expect(line.background?.text == "うん")
        #expect(line.background?.translation == "(yes)")
    }
}
