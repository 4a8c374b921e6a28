import Foundation
import Testing
@testable import LyricsCore

/// The sniffer's byte search: the same answers as the standard library's search on the bytes,
/// at every edge (start, end, a partial match running off the end, the limit cutting a match).
@Suite struct ByteSearchTests {
    @Test func findsWhatTheStandardLibraryFinds() {
        let texts = ["", "-", "--", "-->", "a-->", "-->b", "a --> b", "-- >", "->->-->", "—-->", "雨-->晴",
                     "--", "---", "--->", "<t", "<tt", "x<ttx", "<!-- c --><tt>"]
        for text in texts {
            for needle in ["-->", "<tt"] as [StaticString] {
                let expected = text.utf8.firstRange(of: Array(needle.description.utf8)) != nil
                #expect(ByteSearch.contains(text, needle) == expected, "\(text) / \(needle)")
                #expect(ByteSearch.contains(Substring(text), needle) == expected, "substring \(text) / \(needle)")
            }
        }
    }

    @Test func theLimitCountsBytes() {
        let text = String(repeating: "é", count: 10) + "<QrcInfos>"  // 20 bytes before the mark
        #expect(!ByteSearch.contains(text, "<QrcInfos", inFirst: 20))
        #expect(!ByteSearch.contains(text, "<QrcInfos", inFirst: 28))  // cut inside the mark
        #expect(ByteSearch.contains(text, "<QrcInfos", inFirst: 29))
        #expect(ByteSearch.contains(text, "<QrcInfos"))
        // In a substring, the limit counts from the substring's start.
        let tail = text.dropFirst(5)
        #expect(ByteSearch.contains(tail, "<QrcInfos", inFirst: 19))
        #expect(!ByteSearch.contains(tail, "<QrcInfos", inFirst: 18))
    }

    @Test func theSnifferStillTellsTheFormsThatUseIt() {
        #expect(LyricsFormat.sniff("  <QrcInfos><LyricInfo/></QrcInfos>") == .qrc)
        #expect(LyricsFormat.sniff("<?xml version=\"1.0\"?>\n<Lyric_1 LyricType=\"1\" LyricContent=\"[0,300]a(0,300)\"/>") == .qrc)
        #expect(LyricsFormat.sniff("<!-- made by hand -->\n<tt xmlns=\"http://www.w3.org/ns/ttml\">") == .ttml)
        #expect(LyricsFormat.sniff("1\n00:00:01,000 --> 00:00:02,000\nRain\n") == .srt)
        #expect(LyricsFormat.sniff("[00:01.00]a --> b\n[00:02.00]c\n") == .lrc)
        // Past the first 64 Ki scalars, nothing decides.
        let padded = String(repeating: "[00:01.00]x\n", count: 6_000) + "1\n00:00:01,000 --> 00:00:02,000\nRain\n"
        #expect(padded.unicodeScalars.count > 65_536)
        #expect(LyricsFormat.sniff(padded) == .lrc)
    }
}
