import Foundation

/// The blurred layers of text blocks a renderer drew recently: a block drawn again the next frame
/// (the neighbours, the current line's shadow while it is sung) reuses its layer instead of
/// blurring it again. Layouts are immutable and kept alive by their entry, so their identity is a
/// safe key. Not thread-safe: one per renderer.
package final class BlurCache {
    struct Key: Hashable {
        var layout: ObjectIdentifier
        var pad: Double
        var boxRadius: Int
        var scale: Double
        var colour: Color?
    }

    package static let capacity = 8
    private var entries: [(key: Key, bitmap: Bitmap, layout: TextLayout)] = []

    package init() {}

    func bitmap(for key: Key) -> Bitmap? {
        guard let i = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: i)
        entries.append(entry)
        return entry.bitmap
    }

    func store(_ bitmap: Bitmap, for key: Key, layout: TextLayout) {
        entries.append((key, bitmap, layout))
        if entries.count > Self.capacity { entries.removeFirst() }
    }
}

/// Luminance measurements of the frames a renderer draws, replayed in order: frames drawn the same
/// way up to a measurement (the same base, the same layout but for how far the current line has
/// been sung — the ticks of one line in a `sequence`) ask the same questions of the same pixels,
/// in the same order. The renderer draws a frame inside `replaying(_:_:)` with a key for
/// everything drawn before the measurements, and says when it draws something the key does not
/// cover (`stop()`).
/// A question that differs from the one recorded at its place drops the rest of the record.
/// Not thread-safe: one per renderer.
package final class LuminanceMemo {
    struct Query: Equatable {
        var rect: Rect
        var quantile: Double
        var overlay: Color?
    }

    private var key: AnyHashable?
    private var recorded: [(query: Query, value: Double)] = []
    private var index = 0
    private var active = false

    /// How many measurements were answered from the record.
    package private(set) var replayed = 0

    package init() {}

    /// Runs `body`, a frame's drawing, with its measurements replayed from the frame before
    /// when `key` (a value equal for frames that draw the same up to their measurements) is the
    /// one that frame had, and recorded for the next otherwise; until ``stop()``.
    package func replaying<T, E: Error>(_ key: some Hashable & Sendable, _ body: () throws(E) -> T) throws(E) -> T {
        let key = AnyHashable(key)
        if key != self.key {
            self.key = key
            recorded = []
        }
        index = 0
        active = true
        defer { active = false }
        return try body()
    }

    /// What the frame draws from here on depends on more than the key (how far a line is sung,
    /// the progress bar): nothing measured after this is replayed or recorded.
    package func stop() { active = false }

    func lookup(_ query: Query) -> Double? {
        guard active, index < recorded.count else { return nil }
        guard recorded[index].query == query else {
            recorded.removeSubrange(index...)
            return nil
        }
        index += 1
        replayed += 1
        return recorded[index - 1].value
    }

    func record(_ query: Query, _ value: Double) {
        guard active, index == recorded.count else { return }
        recorded.append((query, value))
        index += 1
    }
}
