extension Lyricify {
    /// The last steps every Lyricify reader takes: widen, sort, mark credits, fill in metadata, apply `[offset:]`.
    enum Tags {
        /// The finished ``Lyrics``: each line widened to cover its backing runs (TTML's rule), then
        /// `[offset:]` from `tags` applied to every time (lines, words, backing runs) as `options`
        /// says, lines sorted stably by start, leading and trailing credit lines marked, agents
        /// `v1`/`v2` listed in the order the lines (in file order) use them.
        static func lyrics(_ format: LyricsFormat, encoding: String, tags: [String: String], lines fileOrder: [LyricLine],
                           options: ReadOptions) -> Lyrics {
            let offset = tags["offset"].flatMap(LRC.TagValue.offset) ?? 0
            var lines = fileOrder.map(BackingLines.covering).sortedByStart()
            Credits.mark(&lines)
            return Lyrics(format: format, encoding: encoding, tags: tags, metadata: Lyrics.Metadata(tags: tags),
                          agents: fileOrder.namedAgents, lines: lines)
                .applyingOffset(offset, sign: options.offsetSign)
        }
    }
}
