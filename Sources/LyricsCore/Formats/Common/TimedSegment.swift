/// A timed piece of a line's text as a format writes it (a YRC word group, the text after a
/// WebVTT inline stamp), before its whitespace is settled into ``Word``s.
struct TimedSegment {
    var start: Int
    var end: Int
    var text: String.UnicodeScalarView

    /// Words from segments, so that they join into the line's display text: whitespace at a
    /// segment's start moves to the end of the word before it (kept once), whitespace-only
    /// segments are dropped, segments past `maxWords` fold into the last word (widening its
    /// end), and the last word is trimmed at its end. A word never ends before it starts.
    static func words(_ segments: [TimedSegment], maxWords: Int) -> [Word] {
        var kept: [TimedSegment] = []
        for var segment in segments {
            let lead = segment.text.prefix(while: \.properties.isWhitespace)
            if !lead.isEmpty {
                segment.text = String.UnicodeScalarView(segment.text[lead.endIndex...])
                if let last = kept.indices.last, kept[last].text.last?.properties.isWhitespace == false {
                    kept[last].text.append(contentsOf: lead)
                }
            }
            if segment.text.isEmpty { continue }
            kept.append(segment)
        }
        if kept.count > maxWords {
            let last = maxWords - 1
            for extra in kept[(last + 1)...] {
                kept[last].text.append(contentsOf: extra.text)
                kept[last].end = max(kept[last].end, extra.end)
            }
            kept.removeSubrange((last + 1)...)
        }
        if let last = kept.indices.last {
            while let scalar = kept[last].text.last, scalar.properties.isWhitespace { kept[last].text.removeLast() }
        }
        return kept.map { segment in
            Word(start: Timestamp(milliseconds: segment.start), end: Timestamp(milliseconds: max(segment.start, segment.end)),
                 text: String(segment.text))
        }
    }
}
