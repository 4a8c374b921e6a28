import Foundation

/// Whether the tests run under a sanitizer (`make test-sanitized` sets its options): each process
/// is then several times slower, and the heaviest tables run a smaller share of their cases.
public enum Sanitizers {
    public static var active: Bool {
        ["ASAN_OPTIONS", "TSAN_OPTIONS"].contains { ProcessInfo.processInfo.environment[$0] != nil }
    }
}
