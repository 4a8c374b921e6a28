import Foundation
import LyricsCore
import MediaTags
import LyricPoster
import PosterGraphics

/// Where a song's cover and lyrics come from: two files, or an audio file (with either part
/// overridden by a file).
package enum SongSource: Sendable, Hashable {
    case files(cover: String, lyrics: String)
    case audio(String, cover: String?, lyrics: String?)

    /// Every input path named (for "output would overwrite the input" checks).
    package var paths: [String] {
        switch self {
        case .files(let cover, let lyrics): return [cover, lyrics]
        case .audio(let audio, let cover, let lyrics): return [audio] + [cover, lyrics].compactMap { $0 }
        }
    }

    /// The name outputs are called after by default: the lyrics file's or the audio file's stem
    /// (the cover's, when the lyrics come from standard input).
    package var stem: String {
        switch self {
        case .files(let cover, let lyrics) where lyrics == "-":
            return URL(fileURLWithPath: cover).deletingPathExtension().lastPathComponent
        case .files(_, let lyrics): return URL(fileURLWithPath: lyrics).deletingPathExtension().lastPathComponent
        case .audio(let audio, _, _): return URL(fileURLWithPath: audio).deletingPathExtension().lastPathComponent
        }
    }
}

/// Finds and reads a song's parts, in this order (docs/inputs.md's precedence table):
///
/// | part | 1 | 2 | 3 | 4 | 5 | 6 |
/// |---|---|---|---|---|---|---|
/// | lyrics | `--lyrics FILE` | a sidecar with the audio file's stem (any lyric format but Lyricsfile, case-insensitive) | embedded: SYLT when it agrees in time span with the text lyrics (or there are none), else USLT / TXXX / Vorbis `LYRICS` / MP4 `©lyr` (timed) | a Lyricsfile beside it (`<stem>.lyricsfile.yaml`, `.yaml`, …) | `--lyrics-dir`: `Artist - Title.*`, `Title.*`, then the files whose `[ar:]`/`[ti:]`/`[al:]`/`[length:]` name the song | `--lrclib-db`: the dump's row for the tags' title, artist, album and duration (±2 s) |
/// | cover | `--cover FILE` | the embedded picture (the front cover first) | `cover`, `folder`, `front`, `album`, `albumart` `.jpg/.jpeg/.png/.webp` in the audio file's folder, case-insensitive | — | — | — |
///
/// Untimed (plain) lyrics from the tags or the dump count only when nothing timed is found.
package enum SongResolver {
    /// Lyric sidecar extensions, in the order tried.
    package static let sidecarExtensions = ["lrc", "ttml", "yrc", "qrc", "krc", "lys", "lqe", "lyl", "ass", "srt", "vtt", "txt"]
    /// Folder cover names, in the order tried.
    package static let folderCoverNames = ["cover", "folder", "front", "album", "albumart"]
    package static let folderCoverExtensions = ["jpg", "jpeg", "png", "webp"]

    /// - Parameter needCover: `false` for `inspect`: a song without a cover is not an error.
    /// - Parameter needLyrics: `false` for a cover-only card: an audio file without lyrics (or
    ///   with plain ones) gives a song of no lines, named by its tags.
    package static func resolve(_ source: SongSource, options: RenderOptions, places: LyricsPlaces = LyricsPlaces(),
                                needCover: Bool = true, needLyrics: Bool = true) throws(PosterError) -> ResolvedSong {
        switch source {
        case .files(let cover, let lyrics):
            return try files(cover: cover, lyrics: lyrics, options: options) { () throws(PosterError) in
                needCover ? try readCover(cover, options: options) : Data()
            }
        case .audio(let audioPath, let coverOverride, let lyricsOverride):
            let tags: AudioTags
            do {
                tags = try MediaTags.read(audioPath, maxPictureBytes: coverByteLimit(options))
            } catch {
                throw PosterError(path: audioPath, reason: Inputs.exists(audioPath) ? error.description : "no such file")
            }
            var song: ResolvedSong
            do {
                song = try lyricsOf(audioPath, tags: tags, override: lyricsOverride, options: options, places: places)
            } catch where !needLyrics && lyricsOverride == nil {
                song = Self.song(Lyrics(format: .lrc, tags: [:], metadata: Lyrics.Metadata(), lines: []), Data(), audioPath, "none")
            }
            do {
                try coverOf(audioPath, tags: tags, override: coverOverride, options: options, into: &song)
            } catch {
                if needCover { throw error }
            }
            song.lyrics.metadata = metadata(song.lyrics.metadata, tags: tags)
            song.audio = AudioSummary(tags)
            return song
        }
    }

    // MARK: - Lyrics

    /// The audio file's lyrics, or its unsynchronised text (which time-based commands refuse).
    package enum Found: Sendable {
        case timed(ResolvedSong)
        case unsynced(source: String, text: String)
    }

    private static func lyricsOf(_ audioPath: String, tags: AudioTags, override: String?,
                                 options: RenderOptions, places: LyricsPlaces) throws(PosterError) -> ResolvedSong {
        switch try findLyrics(audioPath, tags: tags, override: override, options: options, places: places) {
        case .timed(let song):
            return song
        case .unsynced(let source, _):
            throw PosterError(path: audioPath, reason: "\(source): the lyrics are plain text without times (unsynchronised); give timed lyrics with --lyrics")
        }
    }

    /// - Parameter beyond: `false` looks in the file only (its sidecar and tags), not for a
    ///   Lyricsfile beside it or in `places` (`follow` puts the player's lyrics between them).
    package static func findLyrics(_ audioPath: String, tags: AudioTags, override: String?,
                                   options: RenderOptions, places: LyricsPlaces = LyricsPlaces(), beyond: Bool = true) throws(PosterError) -> Found {
        if let override {
            let (parsed, data) = try readLyrics(override, options: options)
            return .timed(song(parsed, data, override, "file:" + override))
        }
        if let sidecar = sidecar(of: audioPath) {
            let (parsed, data) = try readLyrics(sidecar, options: options)
            return .timed(song(parsed, data, sidecar, "sidecar:" + (sidecar as NSString).lastPathComponent))
        }
        // Embedded: the text lyrics parsed with the same engine as files; SYLT where it agrees.
        var text: (lyrics: Lyrics, data: Data, source: String)?
        var unsynced: AudioTags.Text?
        var firstError: String?
        for item in tags.lyrics {
            let data = Data(item.text.utf8)
            do {
                let parsed = try LyricsReader.load(data, format: options.format, encoding: nil,
                                                   options: options.readOptions)
                text = (parsed, data, item.source)
                break
            } catch {
                if error == .noTimedLines { unsynced = unsynced ?? item } else { firstError = firstError ?? "\(item.source): \(error)" }
            }
        }
        let length = tags.lengthMs.map(Timestamp.init)
        let synced = tags.synced.isEmpty ? nil : try? SYLT.lyrics(tags.synced.map { ($0.ms, $0.text) }, length: length)
        if let synced {
            let data = Data(tags.synced.map { "\($0.ms)\t\($0.text)" }.joined(separator: "\n").utf8)
            if let text, !agree(synced, text.lyrics) {
                return .timed(song(text.lyrics, text.data, audioPath, text.source))
            }
            return .timed(song(synced, data, audioPath, "sylt"))
        }
        if let text { return .timed(song(text.lyrics, text.data, audioPath, text.source)) }
        // Beyond the file: a Lyricsfile beside it, the lyrics folders, the LRCLIB dump.
        let named = LyricsPlaces.Song(title: tags.title, artist: tags.artist, album: tags.album, durationMs: tags.lengthMs)
        if beyond, let found = try elsewhere(audioPath: audioPath, song: named, places: places, options: options) {
            // Timed lyrics win; plain ones only when the tags had none.
            if case .timed = found { return found }
            if unsynced == nil { return found }
        }
        if let unsynced { return .unsynced(source: unsynced.source, text: unsynced.text) }
        if let firstError { throw PosterError(path: audioPath, reason: firstError) }
        if tags.syncedInFrames {
            throw PosterError(path: audioPath, reason: "sylt: timed in MPEG frames, which is not read; give the lyrics with --lyrics")
        }
        var looked = "none embedded and no sidecar (\(sidecarExtensions.map { "." + $0 }.joined(separator: ", ")))"
        if !places.folders.isEmpty { looked += ", nothing in --lyrics-dir" }
        if places.lrclibDatabase != nil { looked += ", not in the LRCLIB database" }
        throw PosterError(path: audioPath, reason: "no lyrics: \(looked); give them with --lyrics")
    }

    /// A song of lyrics alone (the cover is found after them).
    private static func song(_ lyrics: Lyrics, _ data: Data, _ path: String, _ source: String) -> ResolvedSong {
        ResolvedSong(lyrics: lyrics, lyricsData: data, lyricsPath: path, lyricsSource: source,
                     coverData: Data(), coverPath: "", coverSource: "", audio: nil)
    }

    /// Lyrics found beyond the audio file, in the precedence order: a Lyricsfile beside it (when
    /// there is a file), the lyrics folders, then the LRCLIB dump; `nil` when none has them. A
    /// file found but unreadable is an error naming it; plain (untimed) lyrics from the dump come
    /// as ``Found/unsynced(source:text:)``.
    package static func elsewhere(audioPath: String?, song named: LyricsPlaces.Song, places: LyricsPlaces,
                                   options: RenderOptions) throws(PosterError) -> Found? {
        if let audioPath, let file = LyricsPlaces.lyricsfile(beside: audioPath) {
            let (parsed, data) = try readLyrics(file, options: options)
            return .timed(song(parsed, data, file, "lyricsfile:" + (file as NSString).lastPathComponent))
        }
        if let file = places.file(for: named) {
            let (parsed, data) = try readLyrics(file, options: options)
            return .timed(song(parsed, data, file, "lyrics-dir:" + (file as NSString).lastPathComponent))
        }
        guard let found = try places.lrclib(named), let database = places.lrclibDatabase else { return nil }
        let source = "lrclib:\(found.trackID)"
        let origin = "\(database) (track \(found.trackID))"
        let metadata = Lyrics.Metadata(title: found.title, artist: found.artist, album: found.album,
                                       length: found.durationMs > 0 ? Timestamp(milliseconds: found.durationMs) : nil)
        if let synced = found.synced {
            let data = Data(synced.utf8)
            guard data.count <= options.maxLyricsBytes else {
                throw PosterError(path: origin, reason: "synced lyrics of \(data.count) bytes, more than the limit of \(options.maxLyricsBytes)")
            }
            do {
                var lyrics = try LyricsReader.parse(synced, format: .lrc, options: options.readOptions)
                lyrics.metadata = Lyrics.Metadata(title: lyrics.title ?? metadata.title, artist: lyrics.artist ?? metadata.artist,
                                                  album: lyrics.album ?? metadata.album, language: lyrics.language,
                                                  length: lyrics.length ?? metadata.length)
                if lyrics.lines.contains(where: \.isSung) || lyrics.isInstrumental {
                    return .timed(song(lyrics, data, origin, source))
                }
            } catch {
                if error != .noTimedLines { throw PosterError(path: origin, reason: "synced lyrics: \(error)") }
            }
        }
        if found.instrumental {
            var lyrics = Lyrics(format: .lrc, tags: [:], metadata: metadata, lines: [])
            lyrics.isInstrumental = true
            return .timed(song(lyrics, Data("[au: instrumental]\n".utf8), origin, source))
        }
        if let plain = found.plain { return .unsynced(source: source, text: plain) }
        return nil
    }

    /// Whether SYLT and text lyrics cover the same stretch of the song: their first and last
    /// lines start within 10 % of the longer span (at least 2 s) of each other.
    static func agree(_ a: Lyrics, _ b: Lyrics) -> Bool {
        func span(_ lyrics: Lyrics) -> (Int, Int)? {
            let starts = lyrics.lines.filter(\.isSung).map(\.start.milliseconds)
            guard let first = starts.first, let last = starts.last else { return nil }
            return (first, last)
        }
        guard let x = span(a), let y = span(b) else { return false }
        let tolerance = max(2000, (max(x.1 - x.0, y.1 - y.0)) / 10)
        return abs(x.0 - y.0) <= tolerance && abs(x.1 - y.1) <= tolerance
    }

    /// The lyrics file beside `audioPath` with the same stem, case-insensitively.
    package static func sidecar(of audioPath: String) -> String? {
        beside(audioPath, suffixes: sidecarExtensions.map { "." + $0 })
    }

    /// The file beside `audioPath` named its stem and the first of `suffixes` that one has,
    /// case-insensitively.
    package static func beside(_ audioPath: String, suffixes: [String]) -> String? {
        let url = URL(fileURLWithPath: audioPath)
        let stem = url.deletingPathExtension().lastPathComponent.lowercased()
        return firstFile(in: url.deletingLastPathComponent().path, named: suffixes.map { stem + $0 })
    }

    /// The first of `names` (lower case, in order) that `folder` holds, compared case-insensitively
    /// (of several that differ only in case, the first in sorted order); `nil` when it holds none
    /// or cannot be read.
    package static func firstFile(in folder: String, named names: [String]) -> String? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? []
        for name in names {
            if let match = entries.first(where: { $0.lowercased() == name }) {
                return (folder as NSString).appendingPathComponent(match)
            }
        }
        return nil
    }

    // MARK: - Cover

    private static func coverOf(_ audioPath: String, tags: AudioTags, override: String?, options: RenderOptions,
                                into song: inout ResolvedSong) throws(PosterError) {
        if let override {
            song.coverData = try readCover(override, options: options)
            (song.coverPath, song.coverSource) = (override, "file:" + override)
            return
        }
        if let found = try embeddedOrFolderCover(audioPath, tags: tags, options: options) {
            (song.coverData, song.coverPath, song.coverSource) = found
            return
        }
        let skipped = tags.picturesSkipped > 0 ? " (\(tags.picturesSkipped) embedded picture(s) over the size limit)" : ""
        throw PosterError(path: audioPath, reason: "no cover: no embedded picture\(skipped) and no cover.jpg, folder.jpg, front, album or albumart image beside it; give one with --cover")
    }

    /// The audio file's own cover: its embedded picture (the front cover first), else a cover image
    /// in its folder; nil when it has neither. Returns the bytes, the path errors name, and the source.
    package static func embeddedOrFolderCover(_ audioPath: String, tags: AudioTags?,
                                      options: RenderOptions) throws(PosterError) -> (Data, String, String)? {
        if let picture = tags?.pictures.first { return (picture.data, audioPath + ": " + picture.source, picture.source) }
        if let file = folderCover(of: audioPath) {
            return (try readCover(file, options: options), file, "file:" + (file as NSString).lastPathComponent)
        }
        return nil
    }

    /// The song's title, artist, album and length: the audio file knows the song better than its
    /// lyrics, so its tags win where they are set.
    package static func metadata(_ known: Lyrics.Metadata, tags: AudioTags?) -> Lyrics.Metadata {
        Lyrics.Metadata(title: tags?.title ?? known.title, artist: tags?.artist ?? known.artist, album: tags?.album ?? known.album,
                        language: known.language, length: tags?.lengthMs.map(Timestamp.init) ?? known.length)
    }

    /// `cover|folder|front|album|albumart.(jpg|jpeg|png|webp)` in the audio file's folder.
    static func folderCover(of audioPath: String) -> String? {
        firstFile(in: URL(fileURLWithPath: audioPath).deletingLastPathComponent().path,
                  named: folderCoverNames.flatMap { base in folderCoverExtensions.map { base + "." + $0 } })
    }

    // MARK: - Files

    /// A song of a cover file and a lyrics file: the lyrics are read and parsed first (their error
    /// is the one reported when both files are bad), then `coverData` gives the cover's bytes.
    static func files(cover: String, lyrics: String, options: RenderOptions,
                      coverData: () throws(PosterError) -> Data) throws(PosterError) -> ResolvedSong {
        let (parsed, data) = try readLyrics(lyrics, options: options)
        return ResolvedSong(lyrics: parsed, lyricsData: data, lyricsPath: lyrics, lyricsSource: "file:" + lyrics,
                            coverData: try coverData(), coverPath: cover, coverSource: "file:" + cover, audio: nil)
    }

    package static func readLyrics(_ path: String, options: RenderOptions) throws(PosterError) -> (Lyrics, Data) {
        let data = try Inputs.read(path, limit: options.maxLyricsBytes)
        return (try Inputs.lyrics(data, path: path, format: options.format, encoding: options.encoding,
                                  offsetSign: options.offsetSign, translationLanguage: options.readOptions.translationLanguage), data)
    }

    package static func readCover(_ path: String, options: RenderOptions) throws(PosterError) -> Data {
        try Inputs.read(path, limit: coverByteLimit(options))
    }

    /// A compressed cover can never legitimately be larger than its pixel limit uncompressed.
    package static func coverByteLimit(_ options: RenderOptions) -> Int {
        Inputs.coverByteLimit(maxPixels: options.limits.maxPixels)
    }
}

extension SongResolver {
    /// `inspect` for an audio file: the lyrics JSON (see ``Lyrics/inspectJSON(pretty:)``) with
    /// `"source": {"lyrics": …, "cover": …}` and `"audio": {"title", "artist", "album", "length_ms"}`
    /// after `encoding`; unsynchronised lyrics come as `"unsynced": "…"` with no lines.
    package static func inspectJSON(audio: String, lyrics override: String?, options: RenderOptions,
                                    places: LyricsPlaces = LyricsPlaces()) throws(PosterError) -> String {
        let tags: AudioTags
        do { tags = try MediaTags.read(audio, maxPictureBytes: coverByteLimit(options)) } catch {
            throw PosterError(path: audio, reason: Inputs.exists(audio) ? error.description : "no such file")
        }
        var coverSource: String? = tags.pictures.first?.source
        if coverSource == nil, let file = folderCover(of: audio) { coverSource = "file:" + (file as NSString).lastPathComponent }
        func q(_ value: String?) -> String { JSONText.quoted(value) }
        let audioFields = "{\"title\": \(q(tags.title)), \"artist\": \(q(tags.artist)), \"album\": \(q(tags.album)), \"length_ms\": \(tags.lengthMs.map(String.init) ?? "null")}"
        switch try findLyrics(audio, tags: tags, override: override, options: options, places: places) {
        case .timed(var song):
            song.lyrics.metadata.length = tags.lengthMs.map(Timestamp.init) ?? song.lyrics.metadata.length
            let json = song.lyrics.inspectJSON()
            let extra = "\n  \"source\": {\"lyrics\": \(q(song.lyricsSource)), \"cover\": \(q(coverSource))},\n  \"audio\": \(audioFields),"
            guard json.hasPrefix("{") else { return json }
            return "{" + extra + json.dropFirst()
        case .unsynced(let source, let text):
            return "{\n  \"format\": \"text\",\n  \"source\": {\"lyrics\": \(q(source)), \"cover\": \(q(coverSource))},\n  \"audio\": \(audioFields),\n  \"unsynced\": \(q(text)),\n  \"lines\": []\n}"
        }
    }
}

extension AudioSummary {
    /// What a poster or a catalogue uses of an audio file's tags.
    package init(_ tags: AudioTags) {
        self.init(title: tags.title, artist: tags.artist, album: tags.album, lengthMs: tags.lengthMs)
    }
}
