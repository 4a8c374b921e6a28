extension Lyricify {
    /// The last steps every Lyricify reader (and the ASS reader) takes: apply `[offset:]`, sort, mark credits, fill in metadata.
    enum Tags {
        /// The finished ``Lyrics``: each line widened to cover its backing runs (TTML's rule), then
        /// `[offset:]` from `tags` applied to every time (lines, words, backing runs) as `options`
        /// says, lines sorted stably by start, leading and trailing credit lines marked, agents
        /// `v1`/`v2` listed in the order the lines (in file order) use them.
        static func lyrics(_ format: LyricsFormat, encoding: String, tags: [String: String], lines fileOrder: [LyricLine],
                           options: ReadOptions) -> Lyrics {
            let offset = tags["offset"].flatMap(LRC.TagValue.offset) ?? 0
            var agents: [Lyrics.Agent] = []
            for id in fileOrder.compactMap(\.agent) where !agents.contains(where: { $0.id == id }) {
                agents.append(Lyrics.Agent(id: id, kind: .person))
            }
            let covering = fileOrder.map(BackingLines.covering)
            var lines = covering.indices
                .sorted { (covering[$0].start, $0) < (covering[$1].start, $1) }
                .map { covering[$0] }
            Credits.mark(&lines)
            let metadata = Lyrics.Metadata(
                title: tags["ti"], artist: tags["ar"], album: tags["al"], language: tags["la"],
                length: tags["length"].flatMap(LRC.TagValue.length))
            return Lyrics(format: format, encoding: encoding, tags: tags, metadata: metadata, agents: agents, lines: lines)
                .applyingOffset(offset, sign: options.offsetSign)
        }
    }
}
