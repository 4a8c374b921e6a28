/// The last steps the line-based readers share once their lines are read.
extension Array where Element == LyricLine {
    /// The lines sorted by start; lines that start together keep their file order.
    func sortedByStart() -> [LyricLine] {
        enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }

    /// The singers the lines name (``LyricLine/agent``), as people, in the order first named.
    var namedAgents: [Lyrics.Agent] {
        var agents: [Lyrics.Agent] = []
        for id in compactMap(\.agent) where !agents.contains(where: { $0.id == id }) {
            agents.append(Lyrics.Agent(id: id, kind: .person))
        }
        return agents
    }
}

extension Lyrics.Metadata {
    /// The song as LRC-style tags describe it: `[ti:]`, `[ar:]`, `[al:]`, `[la:]` and `[length:]`.
    init(tags: [String: String]) {
        self.init(title: tags["ti"], artist: tags["ar"], album: tags["al"], language: tags["la"],
                  length: tags["length"].flatMap(LRC.TagValue.length))
    }
}
