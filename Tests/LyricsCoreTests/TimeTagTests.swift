import Testing
@testable import LyricsCore

/// The body of an LRC time tag, every spelling in LRC.md §3.
@Suite struct TimeTagTests {
    static func ms(_ body: String) -> Int? { LRC.TimeTag.milliseconds(Array(body.unicodeScalars)) }

    @Test(arguments: [
        ("00:12.34", 12_340),            // mm:ss.xx
        ("00:10.254", 10_254),           // mm:ss.xxx
        ("00:00.1", 100),                // one digit is tenths (SPL), not 1 ms
        ("00:13", 13_000),               // no fraction
        ("1:10.10", 70_100), ("3:1", 181_000),             // short minutes and seconds
        ("103:3.405", 6_183_405), ("999:59.999", 59_999_999), ("123456:00", 7_407_360_000),  // long minutes
        ("0:02.1234", 2123), ("01:36.490005", 96_490), ("02:53.70999", 173_709), ("00:00.000001", 0),  // 4–6 digits truncate
        ("00:46.9", 46_900), ("00:00.0", 0),
        ("00:15:83", 15_830), ("00:01:500", 1500), ("01:02:03", 62_030), ("0:00:01", 10),  // a:b:c = mm:ss:ff
        ("1:02:33.45", 3_753_450), ("0:00:01.5", 1500), ("10:00:00,25", 36_000_250),  // h:mm:ss.f
        ("01:23,45", 83_450),            // comma decimal
        ("00:99.00", 99_000), ("0:60", 60_000),            // seconds ≥ 60 taken literally
        (" 1 : 10 . 10 ", 70_100), ("1:00 ", 60_000), ("  2:00", 120_000), ("\t0:01.5\t", 1500),  // blanks inside
        ("00:12.", 12_000),              // empty fraction
    ])
    func accepts(body: String, expected: Int) {
        #expect(Self.ms(body) == expected, "[\(body)]")
    }

    @Test(arguments: [
        "", ":", "10.00", "12", "-1:30.00", "00:-1.00", "+1:00", "1:2:3:4", "00:1x.00", "00:12.3456789",
        "00:123", "1234567:00", "1.5:00", "1:2.5:00", "1:02:03.45.6", "00:12:34:56", "00:00:1234567",
        "ti:x", "offset:100", "00：12.34", "０1:00", "00:12.34]", "1:2:3.4 x", "1:", ":30", "1::2", "00:1,2,3",
        "1234:00:00.00", "1:123:00.00",
    ])
    func rejects(body: String) {
        #expect(Self.ms(body) == nil, "[\(body)]")
    }
}
