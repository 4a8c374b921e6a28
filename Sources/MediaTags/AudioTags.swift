import CTagLibShim
import Foundation

/// What an audio file's tags say, read by TagLib: the song's title, artist, album and length,
/// its embedded lyrics (plain texts and a synchronised SYLT timeline) and its pictures.
package struct AudioTags: Sendable {
    package var title: String?
    package var artist: String?
    package var album: String?
    /// The audio length in milliseconds; `nil` when TagLib could not tell.
    package var lengthMs: Int?
    /// Every embedded lyric text, in the order found (`USLT` frames, `TXXX:LYRICS`, Vorbis
    /// `LYRICS`/`UNSYNCEDLYRICS`, MP4 `©lyr`).
    package var lyrics: [Text]
    /// The first ID3 `SYLT` frame, times in milliseconds; empty when there is none (or it counts
    /// MPEG frames, which are not converted).
    package var synced: [SyncedText]
    /// Whether a SYLT frame was there but counted MPEG frames (not read).
    package var syncedInFrames: Bool
    /// Embedded pictures, front covers first.
    package var pictures: [Picture]
    /// Pictures larger than the byte limit, left out.
    package var picturesSkipped: Int

    package struct Text: Sendable, Hashable {
        /// Where it was found: `uslt`, `txxx:LYRICS`, `vorbis:LYRICS`, `mp4:©lyr`.
        package var source: String
        package var text: String

        package init(source: String, text: String) {
            self.source = source
            self.text = text
        }
    }

    package struct SyncedText: Sendable, Hashable {
        package var ms: Int
        package var text: String
    }

    package struct Picture: Sendable, Hashable {
        /// `apic`, `flac:picture`, `vorbis:METADATA_BLOCK_PICTURE`, `mp4:covr`.
        package var source: String
        /// The ID3/FLAC picture type (3 is the front cover); `nil` for MP4.
        package var type: Int?
        package var mime: String
        package var data: Data
    }
}

/// Why an audio file's tags could not be read.
package struct MediaTagsError: Error, Sendable, Equatable, CustomStringConvertible {
    package var reason: String
    package var description: String { reason }
}

/// Reads audio files' tags through TagLib.
package enum MediaTags {
    /// File name extensions of the audio files LyricPoster reads (lower case).
    package static let audioExtensions: Set<String> = ["mp3", "flac", "ogg", "oga", "opus", "m4a", "mp4", "aac", "alac"]

    /// Whether `path` names an audio file by its extension.
    package static func isAudioFile(_ path: String) -> Bool {
        audioExtensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// Reads the tags of the audio file at `path`.
    ///
    /// - Parameters:
    ///   - maxPictureBytes: pictures larger than this are left out (counted in `picturesSkipped`).
    ///   - maxItems: at most this many lyric texts, SYLT entries and pictures are kept each.
    package static func read(_ path: String, maxPictureBytes: Int = 64 * 1024 * 1024,
                            maxItems: Int = 20_000) throws(MediaTagsError) -> AudioTags {
        var raw = lp_tags()
        let status = lp_tags_read(path, max(0, maxPictureBytes), max(0, maxItems), &raw)
        defer { lp_tags_free(&raw) }
        guard status == 0 else {
            let message = withUnsafeBytes(of: &raw.message) { bytes -> String in
                let chars = bytes.bindMemory(to: UInt8.self)
                return String(decoding: chars.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw MediaTagsError(reason: message.isEmpty ? "not an audio file TagLib can read" : message)
        }
        func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
            guard let pointer else { return nil }
            let value = String(cString: pointer)  // invalid UTF-8 becomes U+FFFD
            return value.isEmpty ? nil : value
        }
        var tags = AudioTags(title: string(raw.title), artist: string(raw.artist), album: string(raw.album),
                             lengthMs: raw.length_ms > 0 ? Int(raw.length_ms) : nil,
                             lyrics: [], synced: [], syncedInFrames: raw.sylt_in_frames != 0, pictures: [],
                             picturesSkipped: Int(raw.pictures_skipped))
        for i in 0..<raw.lyrics_count {
            let item = raw.lyrics[i]
            if let text = string(item.text) { tags.lyrics.append(.init(source: string(item.source) ?? "", text: text)) }
        }
        if raw.sylt_in_frames == 0 {
            for i in 0..<raw.sylt_count {
                let entry = raw.sylt[i]
                tags.synced.append(.init(ms: Int(entry.time), text: string(entry.text) ?? ""))
            }
        }
        for i in 0..<raw.picture_count {
            let picture = raw.pictures[i]
            guard let data = picture.data else { continue }
            tags.pictures.append(.init(source: string(picture.source) ?? "", type: picture.type >= 0 ? Int(picture.type) : nil,
                                       mime: string(picture.mime) ?? "", data: Data(bytes: data, count: picture.size)))
        }
        return tags
    }
}
