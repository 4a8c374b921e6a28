import Foundation

/// Whether the tests run under a sanitizer (`make test-sanitized` sets its options): each process
/// is then several times slower, and the heaviest tables run a smaller share of their cases.
public enum Sanitizers {
    public static var active: Bool {
        ["ASAN_OPTIONS", "TSAN_OPTIONS"].contains { ProcessInfo.processInfo.environment[$0] != nil }
    }

    /// Whether ThreadSanitizer runs (`make test-sanitized`'s second pass). A table whose cases
    /// differ in what they draw, not in how threads share the work, runs a few of them there: the
    /// AddressSanitizer pass runs them all.
    public static var thread: Bool { ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil }

    /// How many times longer a guard against runaway work (a parser that went quadratic, a decoder
    /// that did not refuse early) waits than in a plain debug build: ThreadSanitizer makes such
    /// loops 5–10× slower. These bounds catch work that takes hours, not a slow second.
    public static var allowance: Double { active ? 8 : 1 }
}
