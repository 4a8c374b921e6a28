import Testing
@testable import LyricsCore

/// `Timestamp.parse`: the CLI time forms, and everything it must refuse.
@Suite struct TimestampTests {
    @Test(arguments: [
        ("83.45", 83_450), ("1:23.45", 83_450), ("01:23.450", 83_450), ("1:02:03.5", 3_723_500),
        ("83450ms", 83_450), ("0", 0), ("5s", 5000), ("2.5s", 2500), ("0ms", 0), ("  7  ", 7000),
        ("0:00", 0), ("59:59.999", 3_599_999), ("120:00", 7_200_000), ("1:00:00", 3_600_000),
        ("83,45", 83_450), ("1.123456789", 1123), ("00:05", 5000), ("1:2.5", 62_500), ("10:00:00.001", 36_000_001),
    ])
    func accepts(text: String, ms: Int) {
        #expect(Timestamp.parse(text) == Timestamp(milliseconds: ms), "\(text)")
    }

    @Test(arguments: [
        "", " ", "-1", "-0:01", "+5", "abc", "1:", ":30", "1::2", "1:60", "1:2:60", "1:60:00", "1:23:45:67",
        "5 s", "5sec", "1.2.3", "1.", ".5", "12ms5", "1.5ms", "ms", "s", "1:23.", "0x10", "1e3", "٣", "1:2:3.1234567890",
        "99999999999999999999", "1:5a", "[00:01.00]",
    ])
    func rejects(text: String) {
        #expect(Timestamp.parse(text) == nil, "\(text)")
    }

    @Test(arguments: [
        (0, "00:00.000"), (83_450, "01:23.450"), (3_599_999, "59:59.999"), (3_600_000, "1:00:00.000"),
        (3_723_500, "1:02:03.500"), (36_000_001, "10:00:00.001"), (-1500, "-00:01.500"), (7, "00:00.007"),
    ])
    func describes(ms: Int, text: String) {
        #expect(Timestamp(milliseconds: ms).description == text)
    }

    @Test func descriptionParsesBack() {
        for ms in [0, 1, 999, 1000, 59_999, 60_000, 3_599_999, 3_600_000, 86_399_999, 123_456_789] {
            #expect(Timestamp.parse(Timestamp(milliseconds: ms).description)?.milliseconds == ms)
        }
    }

    @Test func ordersByMilliseconds() {
        #expect(Timestamp(milliseconds: 1) < Timestamp(milliseconds: 2))
        #expect([3, 1, 2].map(Timestamp.init(milliseconds:)).sorted().map(\.milliseconds) == [1, 2, 3])
        #expect(Timestamp.zero.advanced(by: 1500).seconds == 1.5)
    }
}
