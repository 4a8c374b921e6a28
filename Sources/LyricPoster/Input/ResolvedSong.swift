import Foundation
import LyricsCore
import PosterGraphics

/// A song's inputs, found and read: the parsed lyrics and the cover's bytes, and where each came from.
package struct ResolvedSong: Sendable {
    package var lyrics: Lyrics
    /// The bytes the lyrics were read from (for digests).
    package var lyricsData: Data
    /// The file errors about the lyrics name (the lyrics file, or the audio file).
    package var lyricsPath: String
    /// `file:…`, `sidecar:…`, or the tag: `uslt`, `sylt`, `txxx:…`, `vorbis:LYRICS`, `mp4:©lyr`.
    package var lyricsSource: String
    package var coverData: Data {
        didSet { madeCoverDigest = nil }
    }
    /// `coverData`'s SHA-256, once `coverDigest()` has made it; forgotten when the bytes change.
    package private(set) var madeCoverDigest: String?
    /// What errors about the cover name: the image file, or `song.mp3: apic`.
    package var coverPath: String
    /// `file:…`, or the tag: `apic`, `flac:picture`, `vorbis:METADATA_BLOCK_PICTURE`, `mp4:covr`.
    package var coverSource: String
    /// What the audio file's tags say, when the song is an audio file.
    package var audio: AudioSummary?

    package init(lyrics: Lyrics, lyricsData: Data, lyricsPath: String, lyricsSource: String, coverData: Data, coverPath: String,
                coverSource: String, audio: AudioSummary?) {
        self.lyrics = lyrics
        self.lyricsData = lyricsData
        self.lyricsPath = lyricsPath
        self.lyricsSource = lyricsSource
        self.coverData = coverData
        self.coverPath = coverPath
        self.coverSource = coverSource
        self.audio = audio
    }

    /// The SHA-256 of `coverData`, made once and kept with the song: a catalogue's key and the
    /// song's session both need it, and a photograph's bytes take milliseconds to hash.
    package mutating func coverDigest() -> String {
        if let made = madeCoverDigest { return made }
        let made = Digest.sha256(coverData)
        madeCoverDigest = made
        return made
    }
}

/// What a song's audio file says of itself: the tags a poster or a catalogue uses.
package struct AudioSummary: Sendable, Hashable {
    package var title: String?
    package var artist: String?
    package var album: String?
    /// The audio's length in milliseconds, when the file says.
    package var lengthMs: Int?

    package init(title: String?, artist: String?, album: String?, lengthMs: Int?) {
        self.title = title
        self.artist = artist
        self.album = album
        self.lengthMs = lengthMs
    }
}
