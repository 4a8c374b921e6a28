import Foundation
@_exported import LyricsCore
import PosterGraphics

/// A song to make posters of: its lyrics, parsed, and its cover's bytes, read from files or
/// handed over in memory.
///
/// Making a song reads and parses the lyrics (errors name the file, or the name given to the
/// bytes); the cover is decoded when a renderer prepares the song. The title, artist and album
/// drawn on a poster are the ones given here, else the lyrics' own tags (`[ti:]`, `[ar:]`,
/// `[al:]`); a song from bytes never takes a title from a name.
public struct Song: Sendable {
    /// How lyrics and covers are read: the text encoding, the sign of `[offset:]`, and the limits
    /// that refuse hostile input before it costs memory.
    public struct ReadingOptions: Sendable, Hashable {
        /// The lyrics' format; nil: detected from the content.
        public var format: LyricsFormat?
        /// The lyrics' text encoding (`gb18030`, `shift_jis`, …); nil: detected.
        public var encoding: String?
        /// How `[offset:]` applies (most players subtract it from every stamp).
        public var offsetSign: OffsetSign
        /// The translation language shown when the lyrics carry several (`zh-Hans`); nil: the
        /// file's first.
        public var translationLanguage: String?
        /// Lyrics larger than this many bytes are refused before they are parsed.
        public var maxLyricsBytes: Int
        /// Lyrics with more timed lines than this are refused.
        public var maxLyricsLines: Int
        /// Covers of more pixels than this are refused before they are decoded.
        public var maxCoverPixels: Int

        public init(format: LyricsFormat? = nil, encoding: String? = nil, offsetSign: OffsetSign = .subtract,
                    translationLanguage: String? = nil, maxLyricsBytes: Int = 16 << 20, maxLyricsLines: Int = 100_000,
                    maxCoverPixels: Int = 100_000_000) {
            self.format = format
            self.encoding = encoding
            self.offsetSign = offsetSign
            self.translationLanguage = translationLanguage
            self.maxLyricsBytes = maxLyricsBytes
            self.maxLyricsLines = maxLyricsLines
            self.maxCoverPixels = maxCoverPixels
        }

        /// The largest cover file accepted: a compressed picture is never larger than its pixel
        /// limit uncompressed (64 MiB at the least).
        var maxCoverBytes: Int { Inputs.coverByteLimit(maxPixels: maxCoverPixels) }
    }

    /// The lyrics, parsed.
    public let lyrics: Lyrics
    /// The cover's bytes (PNG, JPEG or WebP), as read.
    public let coverData: Data
    /// Drawn on the poster; nil: the lyrics' own tag, if any.
    public var title: String?
    public var artist: String?
    public var album: String?
    /// The song's length for the progress bar; nil: the lyrics' `[length:]`, else the end of the
    /// last line.
    public var duration: Timestamp?
    /// How the song was read (its cover limit applies when the cover is decoded).
    public let reading: ReadingOptions
    /// What errors about the lyrics and the cover name.
    public let lyricsName: String
    public let coverName: String
    let lyricsData: Data

    /// A song from bytes in memory (a server's upload, a database's blob).
    ///
    /// - Parameters:
    ///   - lyrics: the lyrics' bytes, in any format LyricPoster reads (detected, or `reading.format`).
    ///   - cover: the cover's bytes: PNG, JPEG or WebP.
    ///   - title: the title drawn; nil: the lyrics' `[ti:]`, if any.
    ///   - artist: the artist drawn; nil: the lyrics' `[ar:]`, if any.
    ///   - album: the album drawn; nil: the lyrics' `[al:]`, if any.
    ///   - reading: how the bytes are read, and their limits.
    ///   - lyricsName: what errors about the lyrics name (a file name, an upload's field).
    ///   - coverName: what errors about the cover name.
    /// - Throws: ``PosterError/input(path:_:)`` for bytes over the limits,
    ///   ``PosterError/lyrics(path:_:)`` for lyrics that cannot be read, and
    ///   ``PosterError/tooManyLines(path:count:limit:)``.
    public init(lyrics: Data, cover: Data, title: String? = nil, artist: String? = nil, album: String? = nil,
                reading: ReadingOptions = ReadingOptions(), lyricsName: String = "lyrics", coverName: String = "cover") throws(PosterError) {
        guard lyrics.count <= reading.maxLyricsBytes else {
            throw .input(path: lyricsName, .tooLarge(bytes: lyrics.count, limit: reading.maxLyricsBytes))
        }
        guard cover.count <= reading.maxCoverBytes else {
            throw .input(path: coverName, .tooLarge(bytes: cover.count, limit: reading.maxCoverBytes))
        }
        let parsed = try Inputs.lyrics(lyrics, path: lyricsName, format: reading.format, encoding: reading.encoding,
                                       offsetSign: reading.offsetSign, translationLanguage: reading.translationLanguage)
        guard parsed.lines.count <= reading.maxLyricsLines else {
            throw .tooManyLines(path: lyricsName, count: parsed.lines.count, limit: reading.maxLyricsLines)
        }
        self.lyrics = parsed
        self.lyricsData = lyrics
        self.coverData = cover
        self.title = title
        self.artist = artist
        self.album = album
        self.reading = reading
        self.lyricsName = lyricsName
        self.coverName = coverName
    }

    /// A song from a lyrics file and a cover file. Errors name the files.
    public init(lyricsFile: String, coverFile: String, title: String? = nil, artist: String? = nil, album: String? = nil,
                reading: ReadingOptions = ReadingOptions()) throws(PosterError) {
        let lyrics = try Inputs.read(lyricsFile, limit: reading.maxLyricsBytes)
        let cover = try Inputs.read(coverFile, limit: reading.maxCoverBytes)
        try self.init(lyrics: lyrics, cover: cover, title: title, artist: artist, album: album, reading: reading,
                      lyricsName: lyricsFile, coverName: coverFile)
    }

    /// The song as the engine's preparation takes it.
    var resolved: ResolvedSong {
        ResolvedSong(lyrics: lyrics, lyricsData: lyricsData, lyricsPath: lyricsName, lyricsSource: "bytes:" + lyricsName,
                     coverData: coverData, coverPath: coverName, coverSource: "bytes:" + coverName, audio: nil)
    }
}
