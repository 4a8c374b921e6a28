extension LRC {
    /// Choices a caller can make about how a file is interpreted.
    public struct Options: Hashable, Sendable {
        /// How `[offset:]` moves the lyrics. Default ``OffsetSign/subtract``.
        public var offsetSign: OffsetSign = .subtract

        public init() {}

        /// Options with the given offset convention.
        public init(offsetSign: OffsetSign) {
            self.offsetSign = offsetSign
        }
    }

    /// The direction in which `[offset:]` shifts the lyrics. Real players disagree (LRC.md §6).
    public enum OffsetSign: Hashable, Sendable {
        /// display = tag − offset: a positive offset makes lyrics appear sooner. This is the
        /// definition on Wikipedia and what LyricsKit, foo_openlyrics, OSD Lyrics, FFmpeg and lemony do.
        case subtract
        /// display = tag + offset: a positive offset makes lyrics appear later (lrc-kit, pylrc,
        /// ModernLrc, several Android players).
        case add
    }
}
