/// A parsed lyric file in any format: what the song is, who sings, and its timed lines, fully
/// resolved.
///
/// Produced by ``LyricsReader/load(_:format:encoding:options:)`` (or one format's parser).
/// Nothing downstream re-reads the file: translations, romanisations and backing vocals are
/// attached to their lines, word timing split off, any offset applied, every line's end filled in.
public struct Lyrics: Hashable, Sendable {
    /// The format the lines were read from.
    public var format: LyricsFormat
    /// The text encoding that was actually used to decode the file, as a canonical name from
    /// ``TextDecoding/knownEncodings`` (`"utf-8"`, `"utf-16le"`, `"gb18030"`, `"shift_jis"`, …), or
    /// the label given to the parser.
    public var encoding: String
    /// The file's own metadata as written, for `inspect`: LRC ID tags (`ti`, `ar`, `offset`, …, keys
    /// lower-cased, last occurrence wins), TTML head metadata, WebVTT header fields. What the
    /// renderer needs from them is resolved into ``metadata``.
    public var tags: [String: String]
    /// The song as the file describes it: title, artist, album, language, length.
    public var metadata: Metadata
    /// The offset the file asked for in milliseconds (LRC `[offset:]`, as written), `0` when none.
    /// Already applied to every time in ``lines``; kept for reporting.
    public var offsetMs: Int
    /// The singers the file names (TTML `ttm:agent`), in the file's order; empty when it names none.
    public var agents: [Agent]
    /// The lines in display order: sorted stably by start, gaps included, every `end` filled in.
    public var lines: [LyricLine]
    /// One-line notes about how the file was read that a user may want to act on (an encoding
    /// that was a guess between two); empty when there is nothing to say.
    public var notes: [String] = []
    /// The song has no words to sing: LRCLIB's `[au: instrumental]`, a Lyricsfile's
    /// `instrumental: true`, or an LRCLIB dump's instrumental row. Such lyrics have no lines; a
    /// poster of them shows the cover, the title and "Instrumental".
    public var isInstrumental = false

    public init(format: LyricsFormat = .lrc, encoding: String = "utf-8", tags: [String: String] = [:],
                metadata: Metadata = Metadata(), offsetMs: Int = 0, agents: [Agent] = [], lines: [LyricLine] = []) {
        self.format = format
        self.encoding = encoding
        self.tags = tags
        self.metadata = metadata
        self.offsetMs = offsetMs
        self.agents = agents
        self.lines = lines
    }

    /// The title, or `nil` when the file gives none.
    public var title: String? { metadata.title }
    /// The artist, or `nil` when the file gives none.
    public var artist: String? { metadata.artist }
    /// The album, or `nil` when the file gives none.
    public var album: String? { metadata.album }
    /// The song's language (a BCP 47 code such as `ja` or `zh-Hant`), or `nil` when the file gives none.
    public var language: String? { metadata.language }
    /// The song's length, or `nil` when the file gives none.
    public var length: Timestamp? { metadata.length }

    /// What the file says about the song itself.
    public struct Metadata: Hashable, Sendable {
        public var title: String?
        public var artist: String?
        public var album: String?
        public var language: String?
        public var length: Timestamp?

        public init(title: String? = nil, artist: String? = nil, album: String? = nil,
                    language: String? = nil, length: Timestamp? = nil) {
            func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
            self.title = nonEmpty(title)
            self.artist = nonEmpty(artist)
            self.album = nonEmpty(album)
            self.language = nonEmpty(language)
            self.length = length
        }
    }

    /// A singer or group of singers named by the file.
    public struct Agent: Hashable, Sendable {
        /// The id lines refer to (``LyricLine/agent``).
        public var id: String
        public var kind: Kind
        /// The name the file gives, if any.
        public var name: String?

        public init(id: String, kind: Kind, name: String? = nil) {
            self.id = id
            self.kind = kind
            self.name = name
        }

        public enum Kind: String, Hashable, Sendable {
            case person, group, other
        }
    }

    /// The agent with `id`, if the file declared it.
    public func agent(_ id: String?) -> Agent? {
        guard let id else { return nil }
        return agents.first { $0.id == id }
    }
}
