import Foundation
import LyricPoster
import SongSources
import LyricsCore
import MediaTags
import NowPlaying

/// Finds the lyrics and cover of the song a player reports (`follow`), in this order:
///
/// | part | 1 | 2 | 3 | 4 |
/// |---|---|---|---|---|
/// | lyrics | a sidecar beside `xesam:url` with the same stem (any lyric format, case-insensitive) | the player's own `xesam:asText` (`--player-lyrics first`, the default; `last` moves it after everything, `off` ignores it) | embedded in the audio file (as ``SongResolver``) | a Lyricsfile beside it, then `--lyrics-dir` (`Artist - Title.*`, `Title.*`, then by the tags inside the files), then `--lrclib-db` (``SongResolver/elsewhere(audioPath:song:places:options:)``), else none: a title poster |
/// | cover | `mpris:artUrl` (`file://`, `data:` or `http(s)://`) | the embedded picture | `cover`/`folder`/`front`/`album`/`albumart` image in the song's folder | the source's own (MPD's `readpicture`, then `albumart`), when the file is not reachable; else ``PlaceholderCover`` |
///
/// Title, artist and album come from the audio file's tags, then the lyrics, then the player.
package enum NowPlayingSong {
    /// A song found for a player's metadata; never fails: what is missing is said in `problems`.
    package struct Found: Sendable {
        package var song: ResolvedSong
        /// Why the lyrics (or the cover) could not be used, one line each.
        package var problems: [String]
        /// Where lyrics were looked for ("a sidecar, --lyrics-dir, the tags").
        package var searched: String
        package var hasLyrics: Bool { song.lyrics.lines.contains(where: \.isSung) }
    }

    /// Where the player's own lyrics (`xesam:asText`) come in the search.
    package enum PlayerLyrics: String, Sendable, CaseIterable {
        /// After a sidecar, before `--lyrics-dir` and the tags (the default).
        case first
        /// After everything else.
        case last
        /// Never.
        case off
    }

    /// - Parameter sourceCover: the source's own cover for the track, given the cover byte limit.
    package static func find(_ metadata: MPRIS.Metadata, places: LyricsPlaces, playerLyrics: PlayerLyrics = .first,
                            options: RenderOptions,
                            sourceCover: (Int) -> Result<(Data, String), PlayerSourceError>? = { _ in nil }) -> Found {
        var problems: [String] = []
        let local = metadata.localPath.flatMap { path -> String? in
            var info = stat()
            return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? path : nil
        }
        if let path = metadata.localPath, local == nil { problems.append("\(path): no such file (from xesam:url)") }
        var tags: AudioTags?
        if let local, MediaTags.isAudioFile(local) {
            do { tags = try MediaTags.read(local, maxPictureBytes: SongResolver.coverByteLimit(options)) } catch {
                problems.append("\(local): \(error.description)")
            }
        }

        // Lyrics.
        let empty = Data()
        var song = ResolvedSong(lyrics: Lyrics(), lyricsData: empty, lyricsPath: local ?? metadata.url ?? "", lyricsSource: "none",
                                coverData: empty, coverPath: "", coverSource: "none", audio: tags.map(AudioSummary.init))
        let title = metadata.title ?? tags?.title, artist = metadata.artist ?? tags?.artist
        let sidecar = local.flatMap(SongResolver.sidecar(of:))
        /// Lyrics the player itself sends (`xesam:asText`), when they have timed lines.
        func fromPlayer() -> Bool {
            guard playerLyrics != .off, let text = metadata.asText, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return false }
            let data = Data(text.utf8)
            guard data.count <= options.maxLyricsBytes else {
                problems.append("xesam:asText: \(data.count) bytes, more than the limit of \(options.maxLyricsBytes)")
                return false
            }
            do {
                let lyrics = try Inputs.lyrics(data, path: "xesam:asText", format: options.format, encoding: nil, offsetSign: options.offsetSign,
                                                translationLanguage: options.readOptions.translationLanguage)
                guard lyrics.lines.contains(where: \.isSung) else {
                    problems.append("xesam:asText: no timed lines (plain text)")
                    return false
                }
                (song.lyrics, song.lyricsData, song.lyricsSource) = (lyrics, data, metadata.asTextSource ?? "player:xesam:asText")
                return true
            } catch {
                problems.append(error.description)
                return false
            }
        }
        func fromFile(_ file: String) -> Bool {
            do {
                let (lyrics, data) = try SongResolver.readLyrics(file, options: options)
                (song.lyrics, song.lyricsData, song.lyricsPath) = (lyrics, data, file)
                song.lyricsSource = (sidecar == file ? "sidecar:" : "file:") + (file as NSString).lastPathComponent
                return true
            } catch {
                problems.append(error.description)
                return false
            }
        }
        func fromTags() -> Bool {
            guard let local, let tags else { return false }
            do {
                // The tags only: what lies beyond the file comes after them, from `elsewhere`.
                switch try SongResolver.findLyrics(local, tags: tags, override: nil, options: options, places: LyricsPlaces(), beyond: false) {
                case .timed(let found):
                    (song.lyrics, song.lyricsData, song.lyricsSource) = (found.lyrics, found.lyricsData, found.lyricsSource)
                    return true
                case .unsynced(let source, _):
                    problems.append("\(local): \(source): the lyrics are plain text without times")
                }
            } catch {
                if !error.reason.hasPrefix("no lyrics") { problems.append(error.description) }
            }
            return false
        }
        /// A Lyricsfile beside the file, the lyrics folders, the LRCLIB dump.
        func fromElsewhere() -> Bool {
            let named = LyricsPlaces.Song(title: tags?.title ?? metadata.title, artist: tags?.artist ?? metadata.artist,
                                          album: tags?.album ?? metadata.album,
                                          durationMs: tags?.lengthMs ?? metadata.length.map { Int($0 / 1000) })
            do {
                switch try SongResolver.elsewhere(audioPath: local, song: named, places: places, options: options) {
                case .timed(let found):
                    (song.lyrics, song.lyricsData, song.lyricsPath, song.lyricsSource) = (found.lyrics, found.lyricsData, found.lyricsPath, found.lyricsSource)
                    return true
                case .unsynced(let source, _):
                    problems.append("\(source): the lyrics are plain text without times")
                case nil:
                    break
                }
            } catch {
                problems.append(error.description)
            }
            return false
        }
        // A sidecar first; then the player's own lyrics (or last, with --player-lyrics last);
        // then the file's tags, a Lyricsfile beside it, --lyrics-dir and --lrclib-db.
        let found = (sidecar.map(fromFile) ?? false)
            || (playerLyrics == .first && fromPlayer())
            || fromTags()
            || fromElsewhere()
            || (playerLyrics == .last && fromPlayer())
        _ = found
        if song.lyrics.lines.count > options.maxLyricsLines {
            problems.append("\(song.lyricsPath): has \(song.lyrics.lines.count) timed lines, more than the limit of \(options.maxLyricsLines)")
            song.lyrics = Lyrics()
        }

        // Cover.
        if let art = metadata.artURL, let (data, source) = artwork(art, options: options, problems: &problems) {
            (song.coverData, song.coverPath, song.coverSource) = (data, source, source)
        } else if let local {
            do {
                if let found = try SongResolver.embeddedOrFolderCover(local, tags: tags, options: options) {
                    (song.coverData, song.coverPath, song.coverSource) = found
                }
            } catch {
                problems.append(error.description)
            }
        } else {
            switch sourceCover(SongResolver.coverByteLimit(options)) {
            case .success(let (data, source)): (song.coverData, song.coverPath, song.coverSource) = (data, source, source)
            case .failure(let error): problems.append(error.description)
            case nil: break
            }
        }

        // Captions: the file's tags win (as for every other command), then the lyrics, then the player.
        var known = SongResolver.metadata(song.lyrics.metadata, tags: tags)
        known.title = known.title ?? metadata.title
        known.artist = known.artist ?? metadata.artist
        known.album = known.album ?? metadata.album
        known.length = known.length ?? metadata.length.map { Timestamp(milliseconds: Int($0 / 1000)) }
        song.lyrics.metadata = known
        let looked = [local == nil ? nil : "no sidecar", playerLyrics == .off ? nil : "none from the player",
                      tags == nil ? nil : "none in the tags",
                      places.folders.isEmpty ? nil : "nothing in --lyrics-dir",
                      places.lrclibDatabase == nil ? nil : "not in the LRCLIB database"].compactMap { $0 }
        return Found(song: song, problems: problems, searched: looked.isEmpty ? "no local file and no --lyrics-dir" : looked.joined(separator: ", "))
    }

    /// The bytes of an `mpris:artUrl`: a local file, a `data:` URL, or an `http(s)://` URL fetched
    /// (with a short timeout and the cover size limit, kept per URL); other schemes are not read.
    static func artwork(_ url: String, options: RenderOptions, problems: inout [String]) -> (Data, String)? {
        let lowered = url.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            switch CoverFetcher.shared.fetch(url, maxBytes: SongResolver.coverByteLimit(options)) {
            case .success(let data): return (data, url)
            case .failure(let reason):
                problems.append("\(url): \(reason.message) (from mpris:artUrl)")
                return nil
            }
        }
        if let path = MPRIS.localPath(fromFileURL: url) {
            guard Inputs.exists(path) else {
                problems.append("\(path): no such file (from mpris:artUrl)")
                return nil
            }
            do { return (try SongResolver.readCover(path, options: options), path) } catch {
                problems.append(error.description)
                return nil
            }
        }
        guard url.lowercased().hasPrefix("data:"), let comma = url.firstIndex(of: ",") else { return nil }
        let header = url[url.index(url.startIndex, offsetBy: 5)..<comma].lowercased()
        let payload = url[url.index(after: comma)...]
        guard payload.utf8.count <= SongResolver.coverByteLimit(options) * 4 / 3 + 4 else {
            problems.append("mpris:artUrl: data URL larger than the cover limit")
            return nil
        }
        let data = header.hasSuffix(";base64")
            ? Data(base64Encoded: String(payload).filter { !$0.isWhitespace })
            : String(payload).removingPercentEncoding.map { Data($0.utf8) }
        guard let data, !data.isEmpty else {
            problems.append("mpris:artUrl: a data URL that does not decode")
            return nil
        }
        return (data, "mpris:artUrl (data)")
    }
}
