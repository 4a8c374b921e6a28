import Foundation
import Testing
@testable import LyricsCore
import TestSupport

/// QQ Music's QRC: the body, the XML wrapper, encrypted hex, client cache files, and hostile input.
/// Lyrics are made up for the tests; encrypted fixtures come from the test encoder.
@Suite struct QRCTests {
    static let cases: [TimedCase] = [
        TimedCase("words absolute, text before its stamp", "[1000,1000]Tin (1000,500)roof(1500,500)",
                  [TimedLine(1000, 2000, "Tin roof", [W(1000, 1500, "Tin "), W(1500, 2000, "roof")])]),
        TimedCase("a parenthesis that is not a stamp is text", "[0,10]A(x)B(0,10)",
                  [TimedLine(0, 10, "A(x)B", [W(0, 10, "A(x)B")])]),
        TimedCase("a word that is only a parenthesis", "[0,300]say ((0,100)so)(100,200)",
                  [TimedLine(0, 300, "say (so)", [W(0, 100, "say ("), W(100, 300, "so)")])]),
        TimedCase("timed spaces fold into the word before", "[0,600]Low(0,200) (200,100)tide(300,300)",
                  [TimedLine(0, 600, "Low tide", [W(0, 200, "Low "), W(300, 600, "tide")])]),
        TimedCase("empty words are dropped", "[0,500](0,0)Sea(0,250)(250,0)salt(250,250)",
                  [TimedLine(0, 500, "Seasalt", [W(0, 250, "Sea"), W(250, 500, "salt")])]),
        TimedCase("a line covers its words past its header", "[1000,100]far(1000,900)",
                  [TimedLine(1000, 1900, "far", [W(1000, 1900, "far")])]),
        TimedCase("a header longer than its words keeps its end", "[0,9000]hum(0,500)",
                  [TimedLine(0, 9000, "hum", [W(0, 500, "hum")])]),
        TimedCase("lines sorted by start, stable", "[5000,100]b(5000,100)\n[1000,100]a(1000,100)\n[1000,100]c(1000,100)",
                  [TimedLine(1000, 1100, "a", [W(1000, 1100, "a")]), TimedLine(1000, 1100, "c", [W(1000, 1100, "c")]),
                   TimedLine(5000, 5100, "b", [W(5000, 5100, "b")])]),
        TimedCase("CRLF and a BOM", "\u{FEFF}[ti:x]\r\n[0,100]one(0,100)\r\n",
                  [TimedLine(0, 100, "one", [W(0, 100, "one")])]),
        TimedCase("a kana tag holding stamps is not a line", "[kana:1か(0,10)1わ(10,10)]\n[0,100]川(0,100)",
                  [TimedLine(0, 100, "川", [W(0, 100, "川")])]),
        TimedCase("negative and broken headers are skipped", "[-1,100]no(0,100)\n[5,]no(5,1)\n[0,100]yes(0,100)",
                  [TimedLine(0, 100, "yes", [W(0, 100, "yes")])]),
        TimedCase("a negative duration is not a stamp", "[0,100]a(1000,-10)b(0,100)",
                  [TimedLine(0, 100, "a(1000,-10)b", [W(0, 100, "a(1000,-10)b")])]),
        TimedCase("text after the last stamp joins the last word", "[0,100]a(0,100)tail",
                  [TimedLine(0, 100, "atail", [W(0, 100, "atail")])]),
        TimedCase("a header with text and no stamps", "[2000,500]plain words",
                  [TimedLine(2000, 2500, "plain words", [W(2000, 2500, "plain words")])]),
        TimedCase("offset subtracted", "[offset:500]\n[1000,100]x(1000,100)",
                  [TimedLine(500, 600, "x", [W(500, 600, "x")])]),
        TimedCase("20-digit numbers are not stamps", "[99999999999999999999,1]x(0,1)\n[0,1]ok(99999999999999999999,1)",
                  [TimedLine(0, 1, "ok(99999999999999999999,1)", [W(0, 1, "ok(99999999999999999999,1)")])]),
        TimedCase("CJK, Arabic and emoji words", "[0,900]月(0,300)光(300,300)🌙(600,300)\n[1000,400]مرحبا (1000,200)يا(1200,200)",
                  [TimedLine(0, 900, "月光🌙", [W(0, 300, "月"), W(300, 600, "光"), W(600, 900, "🌙")]),
                   TimedLine(1000, 1400, "مرحبا يا", [W(1000, 1200, "مرحبا "), W(1200, 1400, "يا")])]),
        TimedCase("a stamp with spaces inside", "[0,100]sp( 0 , 100 )",
                  [TimedLine(0, 100, "sp", [W(0, 100, "sp")])]),
    ]

    @Test(arguments: cases) func table(_ test: TimedCase) throws {
        let lyrics = try QRC.parse(test.input)
        #expect(lyrics.format == .qrc)
        #expect(lyrics.lines.map(TimedLine.init) == test.expected)
        #expect(invariantViolations(lyrics).isEmpty, "\(invariantViolations(lyrics))")
    }

    @Test func tagsAndMetadata() throws {
        let lyrics = try QRC.parse("[ti:Tin Roof]\n[ar:Nobody]\n[al:Rain]\n[by:]\n[offset:0]\n[0,100]a(0,100)")
        #expect(lyrics.title == "Tin Roof")
        #expect(lyrics.artist == "Nobody")
        #expect(lyrics.album == "Rain")
    }

    @Test func backingLineBetweenUnwrappedOnes() throws {
        let lyrics = try QRC.parse("""
            [1000,1000]Lead (1000,500)line(1500,500)
            [1200,600](echo (1200,300)back)(1500,300)
            [3000,500]next(3000,500)
            [4000,200](alone)(4000,200)
            [4300,200](twice)(4300,200)
            """)
        #expect(lyrics.lines.map(\.text) == ["Lead line", "next", "(alone)", "(twice)"])
        let backing = try #require(lyrics.lines[0].background)
        #expect(backing.text == "echo back")
        #expect(backing.words.map(W.init) == [W(1200, 1500, "echo "), W(1500, 1800, "back")])
        #expect(backing.start.milliseconds == 1200 && backing.end.milliseconds == 1800)
    }

    static let body = "[ti:Paper Kites]\n[ar:Nobody]\n[offset:0]\n[1000,1000]Paper (1000,500)kites(1500,500)\n[2500,800]climb(2500,800)\n"
    static let wrapped = """
        <?xml version="1.0" encoding="utf-8"?>
        <QrcInfos>
        <QrcHeadInfo SaveTime="200" Version="100"/>
        <LyricInfo LyricCount="1">
        <Lyric_1 LyricType="1" LyricContent="\(body)"/>
        </LyricInfo>
        </QrcInfos>
        """

    @Test func xmlWrapperKeepsLineBreaks() throws {
        let lyrics = try LyricsReader.parse(Self.wrapped)
        #expect(lyrics.format == .qrc)
        #expect(lyrics.lines.map(\.text) == ["Paper kites", "climb"])
        #expect(lyrics.title == "Paper Kites")
    }

    @Test func xmlWrapperEntitiesAndStrayQuotes() throws {
        let xml = #"<QrcInfos><LyricInfo LyricCount="1"><Lyric_1 LyricType="1" LyricContent="[0,300]Rock &amp; (0,100)"roll"(100,100)&#10;[500,100]&lt;3(500,100)"/></LyricInfo></QrcInfos>"#
        let lyrics = try LyricsReader.parse(xml)
        #expect(lyrics.lines.map(\.text) == ["Rock & \"roll\"", "<3"])
    }

    @Test func xmlWrapperWithoutContentIsNamed() {
        #expect(throws: LyricsError.invalid("not valid QRC: the XML wrapper holds no LyricContent")) {
            try LyricsReader.parse("<?xml version=\"1.0\"?><QrcInfos><LyricInfo LyricCount=\"0\"></LyricInfo></QrcInfos>")
        }
    }

    @Test func encryptedHexReadsAsItsWrapper() throws {
        let hex = LyricEncoders.qrcHex(Self.wrapped)
        let fromBytes = try LyricsReader.load(Data(hex.utf8))
        #expect(fromBytes.format == .qrc)
        #expect(fromBytes.lines == (try LyricsReader.parse(Self.wrapped)).lines)
        // Lower case, line-wrapped hex and a forced format read the same.
        let wrappedHex = stride(from: 0, to: hex.count, by: 64).map { i -> String in
            let start = hex.index(hex.startIndex, offsetBy: i), end = hex.index(start, offsetBy: min(64, hex.count - i))
            return String(hex[start..<end]).lowercased()
        }.joined(separator: "\r\n")
        #expect(try LyricsReader.load(Data(wrappedHex.utf8), format: .qrc).lines == fromBytes.lines)
    }

    @Test func encryptedTranslationIsLRC() throws {
        let hex = LyricEncoders.qrcHex("[ti:x]\n[00:01.00]纸风筝\n[00:02.50]//\n")
        let lyrics = try LyricsReader.load(Data(hex.utf8))
        #expect(lyrics.format == .lrc)
        #expect(lyrics.lines.first?.text == "纸风筝")
    }

    @Test func clientCacheFile() throws {
        let data = LyricEncoders.qrcLocal(Self.wrapped)
        let lyrics = try LyricsReader.load(data)
        #expect(lyrics.format == .qrc)
        #expect(lyrics.lines.map(\.text) == ["Paper kites", "climb"])
    }

    @Test func clientCacheFileOver32KiBUsesQQsIndexRule() throws {
        // Past 0x7FFF the XOR index wraps modulo 0x7FFF: a file this long only reads with the rule.
        var random = SplitMix64(seed: 7)
        var body = ""
        for i in 0..<2_500 { body += "[\(i * 1000),900]w\(i) (\(i * 1000),450)x\(random.next() % 1_000_000_007)(\(i * 1000 + 450),450)\n" }
        let data = LyricEncoders.qrcLocal(body)
        #expect(data.count > 0x8000 + 4096)
        let lyrics = try LyricsReader.load(data)
        #expect(lyrics.lines.count == 2_500)
        #expect(lyrics.lines.last?.text.hasPrefix("w2499 x") == true)
    }

    @Test func damagedEncryptedInputIsNamed() throws {
        var hex = Array(LyricEncoders.qrcHex(Self.wrapped))
        hex[40] = hex[40] == "0" ? "1" : "0"
        #expect(throws: LyricsError.self) { try LyricsReader.load(Data(String(hex).utf8), format: .qrc) }
        do {
            _ = try LyricsReader.load(Data(String(hex).utf8), format: .qrc)
        } catch {
            #expect(error.description.hasPrefix("not valid QRC: the encrypted lyrics do not decrypt"))
        }
        // A truncated cache file: not whole blocks.
        let local = LyricEncoders.qrcLocal(Self.wrapped)
        #expect(throws: LyricsError.self) { try LyricsReader.load(local.prefix(local.count - 3)) }
        // Exactly the header and nothing else.
        #expect(throws: LyricsError.self) { try LyricsReader.load(local.prefix(11)) }
    }

    @Test func streamWithoutPaddingAndWithPadding() throws {
        for text in ["[0,100]a(0,100)", "[0,100]ab(0,100)\n", "[0,100]abc(0,100)\n\n"] {
            let hex = LyricEncoders.qrcHex(text)
            #expect(try LyricsReader.load(Data(hex.utf8)).lines.first?.text.isEmpty == false)
        }
    }

    @Test func decompressionBombStopsAtTheLimit() throws {
        // 64 MiB of a repeated line inflates from well under 1 MiB of hex.
        let line = Array("[0,100]a(0,100)\n".utf8)
        var big = line
        while big.count < 64 << 20 { big += big }  // doubled: 4 M appends take a minute in a sanitized debug build
        var stream = LyricEncoders.deflate(big)
        while stream.count % 8 != 0 { stream.append(0) }
        let hex = LyricEncoders.qqEncrypt(stream).map { String(format: "%02X", $0) }.joined()
        #expect(hex.utf8.count < 1 << 20)
        #expect(throws: LyricsError.tooLarge("QRC inflates past the limit of \(QRC.Limits.maxBytes) bytes")) {
            try LyricsReader.load(Data(hex.utf8))
        }
    }

    @Test func cipherVectors() {
        // K1's first and last round keys as published with Unilyric's decoder; the chain values were
        // checked against QQ's own encrypted files.
        let k1 = QRC.Cipher.schedule(Array("!@#)(*$%".utf8))
        #expect(String(k1[0], radix: 16) == "400c26102808")
        #expect(String(k1[15], radix: 16) == "d02c0400ca82")
        let zero = LyricEncoders.qqEncrypt([UInt8](repeating: 0, count: 8))
        #expect(zero == [0xA2, 0x7B, 0x02, 0xAA, 0x77, 0x9B, 0xF2, 0x26])
        let letters = LyricEncoders.qqEncrypt(Array("ABCDEFGH".utf8))
        #expect(letters == [0xFE, 0x1D, 0xD2, 0xE2, 0x3B, 0xBB, 0xA6, 0xE8])
        #expect(QRC.Cipher.decrypt(letters) == Array("ABCDEFGH".utf8))
    }

    @Test func hostileLinesFinishQuickly() throws {
        let parens = String(repeating: "(1,", count: 100_000)
        let lyrics = try QRC.parse("[0,100]" + parens + "(0,100)\n[0,100]ok(0,100)")
        #expect(lyrics.lines.contains { $0.text == "ok" })
        let manyWords = "[0,1]" + String(repeating: "a(0,1)", count: 10_000)
        let many = try QRC.parse(manyWords)
        #expect(many.lines[0].words.count == QRC.Limits.maxWords)
        #expect(invariantViolations(many).isEmpty)
        #expect(throws: LyricsError.noTimedLines) { try QRC.parse("just text\n(1,2)\n[1,2,3]") }
    }

    @Test func sniffedFromContent() {
        #expect(LyricsFormat.sniff("[ti:a]\n[0,100]a(0,100)") == .qrc)
        #expect(LyricsFormat.sniff(Self.wrapped) == .qrc)
        #expect(LyricsFormat.sniff("[0,100](0,100,0)a") == .yrc)
        #expect(LyricsFormat.sniff(LyricEncoders.qrcHex("[0,100]a(0,100)")) == .qrc)
        #expect(LyricsFormat.sniff("<?xml version=\"1.0\"?><tt xmlns=\"http://www.w3.org/ns/ttml\"></tt>") == .ttml)
    }
}
