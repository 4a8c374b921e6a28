import ArgumentParser
import Foundation
import LyricPoster
import SongSources
import LyricsCore
import MediaTags
import PosterGraphics

/// The song a command renders: `<cover> <lyrics>`, or one audio file whose tags, sidecar lyrics
/// and folder cover supply the parts (`--cover`/`--lyrics` override either).
struct SongArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("An audio file (mp3, flac, ogg, opus, m4a: its tags, sidecar lyrics and folder cover), or a cover image (PNG, JPEG, WebP) and a lyrics file (LRC, TTML, YRC, SRT, WebVTT).",
                                 valueName: "audio | cover lyrics"), completion: .file(extensions: Completions.songFiles))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("The cover image to use instead of the audio file's picture or folder image.", valueName: "file"),
            completion: .file(extensions: Completions.images))
    var cover: String?

    @Option(help: ArgumentHelp("The lyrics file to use instead of the audio file's sidecar or tags.", valueName: "file"),
            completion: .file(extensions: Completions.lyrics))
    var lyrics: String?

    @OptionGroup var lookup: LyricsPlacesOptions

    /// Where an audio file's lyrics are looked for beyond the file.
    var places: LyricsPlaces { lookup.places }

    func validate() throws {
        try lookup.checkFolders()
        if isMany {
            if cover != nil || lyrics != nil { throw ValidationError("--cover and --lyrics go with one audio file, not several songs") }
            return
        }
        switch inputs.count {
        case 1:
            if !MediaTags.isAudioFile(inputs[0]), Self.isLyricsFile(inputs[0]), cover == nil, lyrics == nil {
                throw ValidationError("\(inputs[0]) is a lyrics file: give its cover first (COVER LYRICS), or an audio file alone")
            }
            if !MediaTags.isAudioFile(inputs[0]), Self.isImage(inputs[0]), cover == nil, lyrics == nil {
                throw ValidationError("\(inputs[0]) is a cover image: give the lyrics after it (COVER LYRICS), or an audio file alone")
            }
        case 2:
            if cover != nil || lyrics != nil {
                throw ValidationError("--cover and --lyrics go with an audio file, not with <cover> <lyrics>")
            }
            if MediaTags.isAudioFile(inputs[0]) {
                throw ValidationError("an audio file goes alone: to use \(inputs[1]) with it, give --lyrics \(inputs[1]) (or --cover)")
            }
            if Self.isImage(inputs[1]), !Self.isImage(inputs[0]) {
                throw ValidationError("did you swap them? \(inputs[1]) is the image: give the cover first (COVER LYRICS)")
            }
        case 0:
            throw ValidationError("give an audio file, or a cover image and a lyrics file")
        default:
            throw ValidationError("too many inputs: give an audio file, or a cover image and a lyrics file")
        }
        if inputs.contains(where: \.isEmpty) || cover == "" || lyrics == "" { throw ValidationError("input paths must not be empty") }
    }

    /// Several songs: a folder, or two or more audio files (`lines` and `sheet` render each).
    var isMany: Bool {
        // (A folder beside a lyrics file is the two-file form with a bad cover, said as such.)
        inputs.allSatisfy { MediaTags.isAudioFile($0) || Self.isFolder($0) }
            && (inputs.count >= 2 || inputs.contains(where: Self.isFolder))
    }

    /// The audio files named, folders replaced by their audio files in name order.
    func songs() throws(PosterError) -> [String] {
        var songs: [String] = []
        for input in inputs {
            guard Self.isFolder(input) else { songs.append(input); continue }
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: input) } catch {
                throw PosterError(path: input, reason: "cannot read the folder: \(error.localizedDescription)")
            }
            let audio = names.filter(MediaTags.isAudioFile).sorted { $0.localizedStandardCompare($1) == .orderedAscending }
            if audio.isEmpty { throw PosterError(path: input, reason: "no audio files (\(MediaTags.audioExtensions.sorted().joined(separator: ", "))) in this folder") }
            songs += audio.map { (input as NSString).appendingPathComponent($0) }
        }
        return songs
    }

    /// True when the file starts as a PNG, JPEG or WebP does (whatever its name).
    static func isImage(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 16) else { return false }
        return ImageDecoder.sniff(head) != nil
    }

    /// True when the name says lyrics (`.lrc`, `.ttml`, …) and the file is not an image.
    static func isLyricsFile(_ path: String) -> Bool {
        Completions.lyrics.contains((path as NSString).pathExtension.lowercased()) && !isImage(path)
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// For commands that render one song.
    func validateOne(_ command: String) throws {
        if isMany { throw ValidationError("\(command) renders one song: give one audio file, or a cover image and a lyrics file") }
    }

    var source: SongSource {
        inputs.count == 2 ? .files(cover: inputs[0], lyrics: inputs[1]) : .audio(inputs[0], cover: cover, lyrics: lyrics)
    }
}

/// `--lyrics-dir` and `--lrclib-db`: where an audio file's lyrics are looked for beyond its
/// sidecar and tags (every command that takes an audio file, `follow`, `serve` and `catalog`).
struct LyricsPlacesOptions: ParsableArguments {
    @Option(name: .customLong("lyrics-dir"), help: ArgumentHelp("A folder of lyrics for audio files, found by name ('Artist - Title.lrc', 'Title.lrc') or by the [ar:]/[ti:] tags inside (repeatable).", valueName: "dir"),
            completion: .directory)
    var lyricsDirs: [String] = []

    @Option(name: .customLong("lrclib-db"), help: ArgumentHelp("A local LRCLIB database dump (SQLite) to look audio files' lyrics up in, by title, artist, album and duration.", valueName: "file"),
            completion: .file(extensions: ["sqlite3", "sqlite", "db"]))
    var lrclibDatabase: String?

    var places: LyricsPlaces { LyricsPlaces(folders: lyricsDirs, lrclibDatabase: lrclibDatabase) }

    /// For commands that run once: each `--lyrics-dir` exists (a typo is a flag error).
    func checkFolders() throws {
        for folder in lyricsDirs where !SongArguments.isFolder(folder) {
            throw ValidationError("--lyrics-dir \(folder): no such folder")
        }
    }

    /// The dump opens and is LRCLIB's (a file that is not is bad input: exit 1 naming it, not a
    /// bad flag). Folders are checked by ``checkFolders()`` where a command runs once: `follow`
    /// and `serve` look in a folder that appears later.
    func validate() throws {
        if let lrclibDatabase {
            do { _ = try LyricsPlaces.openDump(lrclibDatabase) } catch {
                throw PosterError(path: lrclibDatabase, reason: LyricsPlaces.reason(error, path: lrclibDatabase))
            }
        }
    }
}

/// What the shell completes for inputs and named values (bash, zsh and fish scripts from
/// `--generate-completion-script`, installed by `make install`).
enum Completions {
    static let audio = ["mp3", "flac", "ogg", "oga", "opus", "m4a", "wav", "aac"]
    static let images = ["png", "jpg", "jpeg", "webp"]
    static let lyrics = Array(Set(LyricsFormat.fileFormats.map(\.rawValue) + ["txt", "xml", "yaml", "yml"])).sorted()
    static let songFiles = Array(Set(audio + images + lyrics)).sorted()
    static let videos = ["mp4", "m4v", "mov", "mkv", "webm", "webp", "gif"]
    static var presets: [String] { Preset.all.map(\.name) }
    static var themes: [String] { Theme.builtIn.map(\.name) }
}
