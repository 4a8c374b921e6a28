extension LRC {
    /// Choices a caller can make about how a file is interpreted (the format-neutral ``ReadOptions``).
    public typealias Options = ReadOptions
    /// The direction in which `[offset:]` shifts the lyrics.
    public typealias OffsetSign = LyricsCore.OffsetSign
}
