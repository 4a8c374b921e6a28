import ArgumentParser
import Dispatch
import Foundation
import LyricPoster
import PosterLive
import PosterBatch
import PosterGraphics
import NowPlaying

struct FollowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow",
        abstract: "Follow the playing song (MPRIS or MPD) and keep its poster current, line by line.",
        discussion: """
        Watches the media players on the D-Bus session bus (MPRIS), or an MPD server (--source mpd),
        and rewrites the poster file each time the sung line changes; between changes it sleeps. Lyrics come from a sidecar beside the
        playing file, --lyrics-dir (Artist - Title.lrc, Title.lrc) or the file's tags; the cover from
        the player's artUrl, the file's tags or a cover image in its folder. Runs until SIGINT or
        SIGTERM, leaving the last poster in place.
        Examples: lyricposter follow
                  lyricposter follow --source mpd --music-dir ~/Music
                  lyricposter follow --player mpv --exec 'swaymsg output "*" bg'
                  lyricposter follow --publish --preset square
        """
    )

    @OptionGroup var quietOption: QuietOptionGroup

    @Option(help: ArgumentHelp("Where to learn what plays: mpris; mpd, mpd://[PASSWORD@]HOST[:PORT] or mpd:///path/to/socket (mpd alone reads $MPD_HOST and $MPD_PORT, else localhost:6600); or subsonic+http(s)://USER@HOST[:PORT] (what USER plays, from Navidrome and other Subsonic servers), or subsonic-jukebox+http(s)://USER@HOST[:PORT] (the server's jukebox, which can be controlled); the password from --password-file or $LYRICPOSTER_SUBSONIC_PASSWORD.", valueName: "source"))
    var source: String = "mpris"

    @Option(name: .customLong("music-dir"), help: ArgumentHelp("MPD's music directory, so that its songs' sidecar lyrics, tags and covers are read (MPD says it itself over a local socket).", valueName: "dir"),
            completion: .directory)
    var musicDir: String?

    @Option(name: .customLong("password-file"), help: ArgumentHelp("A file holding the source's password (MPD, Subsonic), kept off the command line.", valueName: "file"),
            completion: .file())
    var passwordFile: String?

    @Option(help: ArgumentHelp("Follow only this player: the name after org.mpris.MediaPlayer2., or its start (mpv finds mpv.instance42). Default: the one playing.", valueName: "name"))
    var player: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("The poster file kept current (default: $XDG_RUNTIME_DIR/lyricposter/now-playing.png, else ~/.cache/lyricposter/now-playing.png).", valueName: "file"))
    var output: String?

    @OptionGroup var lookup: LyricsPlacesOptions

    @Flag(help: "Publish org.mpris.MediaPlayer2.lyricposter: the followed player with the current line as its title and the poster as its art.")
    var publish = false

    @Option(help: ArgumentHelp("A shell command run after each new poster, with the poster's path as its last argument (one at a time), or where it says {path}: then a fresh name for each poster, the one before removed (for desktops that cache a wallpaper by its path).", valueName: "command"))
    var exec: String?

    @Option(help: ArgumentHelp("Append one JSON line per poster and per state change to this file.", valueName: "file"))
    var events: String?

    @Option(name: .customLong("player-lyrics"), help: ArgumentHelp("Where lyrics the player sends (xesam:asText) come in the search: first (after a sidecar, before --lyrics-dir and the tags), last, or off.", valueName: "order"))
    var playerLyrics: String = "first"

    @Flag(help: "Print one JSON line per change for a status bar (Waybar: text, tooltip, class, alt).")
    var waybar = false

    @Option(name: .customLong("text-file"), help: ArgumentHelp("Keep this plain text file holding the current line (for an OBS text source, conky).", valueName: "file"))
    var textFile: String?

    @Option(help: ArgumentHelp("Shift every line change by this many milliseconds: positive for audio that reaches you late (Bluetooth), negative to read ahead (--offset=-300). Separate from the lyrics' own [offset:].", valueName: "ms"))
    var offset: Int = 0

    @Option(help: ArgumentHelp("How late the source's sound reaches you, in milliseconds (Bluetooth speakers, Music Assistant or Snapcast groups): line changes wait this long. Added to --offset.", valueName: "ms"))
    var latency: Int = 0

    @Option(help: ArgumentHelp("How often the poster changes: at every line, at the first line of each verse (after a gap or a blank line), or once a song (e-ink panels take half a minute to refresh).", valueName: "line|verse|song"),
            completion: .list(PreparedSong.Every.allCases.map(\.rawValue)))
    var every: String = "line"

    @OptionGroup var render: RenderOptionGroup

    @OptionGroup var eink: EInkOptionGroup

    func validate() throws {
        guard PreparedSong.Every(rawValue: every) != nil else { throw ValidationError("--every must be line, verse or song") }
        try eink.validate(render: render, output: output, alpha: false)
        if output == "" || events == "" || exec == "" || player == "" { throw ValidationError("-o, --events, --exec and --player need a value") }
        guard abs(offset) <= 60_000 else { throw ValidationError("--offset must be within +/-60000 ms") }
        guard (0...10_000).contains(latency) else { throw ValidationError("--latency must be from 0 to 10000 ms") }
        guard NowPlayingSong.PlayerLyrics(rawValue: playerLyrics) != nil else { throw ValidationError("--player-lyrics must be first, last or off") }
        if textFile == "" { throw ValidationError("--text-file needs a path") }
        _ = try FollowSourceChoice(source, passwordFile: nil, player: player, musicDir: musicDir)
    }

    func run() async throws {
        // Many songs, one after another: each one's pixel buffers stay in the heap for the next's.
        MallocTuning.keepFreedBuffers()
        var options: FollowOptions
        do {
            options = FollowOptions(render: try eink.renderOptions(render, karaoke: false), output: output ?? FollowOptions.defaultOutput)
            options.palette = try eink.resolvedPalette()
        } catch {
            throw fail(error)
        }
        options.every = PreparedSong.Every(rawValue: every) ?? .line
        options.player = player
        options.places = lookup.places
        options.publish = publish
        options.exec = exec
        options.events = events
        options.offsetMs = offset + latency
        options.playerLyrics = NowPlayingSong.PlayerLyrics(rawValue: playerLyrics) ?? .first
        options.waybar = waybar
        options.textFile = textFile
        let choice: FollowSourceChoice
        do { choice = try FollowSourceChoice(source, passwordFile: passwordFile, player: player, musicDir: musicDir).runnable() } catch {
            if let error = error as? PosterError { throw fail(error) }
            throw error
        }
        let log: @Sendable (String) -> Void = { line in
            // The journal going away must not end the loop.
            if !Quiet.isOn { try? FileHandle.standardError.write(contentsOf: Data("lyricposter: \(line)\n".utf8)) }
        }
        // The session bus for MPRIS, and for --publish whatever the source.
        var bus: Bus?
        if choice.needsBus || publish {
            do { bus = try Bus() } catch {
                throw fail(PosterError(path: "D-Bus", reason: error.description))
            }
        }
        let follower: Follower
        switch choice {
        case .mpris:
            follower = Follower(options: options, bus: bus!, log: log)
        case .mpd(let address, let musicDirectory):
            follower = Follower(options: options, source: MPDWatcher(address: address, musicDirectory: musicDirectory, log: log), bus: bus, log: log)
        case .subsonic(let address):
            follower = Follower(options: options, source: SubsonicSource(address: address, log: log), bus: bus, log: log)
        }
        // SIGINT and SIGTERM end the loop; the last complete poster stays in place.
        var sources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { follower.stop() }
            source.resume()
            sources.append(source)
        }
        defer { sources.forEach { $0.cancel() } }
        do throws(PosterError) { try await follower.run() } catch { throw fail(error) }
    }
}

/// What `--source` names, read and checked (shared by `follow` and `serve --follow`).
enum FollowSourceChoice {
    case mpris
    case mpd(MPDAddress, musicDirectory: String?)
    case subsonic(SubsonicAddress)

    /// Where a Subsonic password may come from besides --password-file.
    static let subsonicPasswordVariable = "LYRICPOSTER_SUBSONIC_PASSWORD"

    var needsBus: Bool {
        if case .mpris = self { return true }
        return false
    }

    /// - Throws: `ValidationError` for a bad value (64), `PosterError` for a password file that
    ///   cannot be read (1).
    init(_ text: String, passwordFile: String?, player: String?, musicDir: String?) throws {
        if text == "mpris" {
            if musicDir != nil { throw ValidationError("--music-dir goes with --source mpd") }
            if passwordFile != nil { throw ValidationError("--password-file goes with --source mpd or subsonic+...") }
            self = .mpris
            return
        }
        if text.lowercased().hasPrefix("subsonic") {
            guard var address = SubsonicAddress.parse(text) else {
                throw ValidationError("--source subsonic+http(s)://USER@HOST[:PORT][/PATH] or subsonic-jukebox+http(s)://... (the password from --password-file or $\(Self.subsonicPasswordVariable), never in the address)")
            }
            if player != nil || musicDir != nil { throw ValidationError("--player and --music-dir do not go with a Subsonic source") }
            // Without one the password stays empty: refused when the command runs.
            if let passwordFile {
                address.password = try Self.password(from: passwordFile)
            } else if let password = ProcessInfo.processInfo.environment[Self.subsonicPasswordVariable] {
                address.password = password
            }
            self = .subsonic(address)
            return
        }
        guard var address = MPDAddress.parse(text) else {
            throw ValidationError("--source must be mpris, mpd, mpd://[PASSWORD@]HOST[:PORT], mpd:///path/to/socket or subsonic[-jukebox]+http(s)://USER@HOST[:PORT] (not '\(text)')")
        }
        if player != nil { throw ValidationError("--player picks an MPRIS player; it does not go with --source mpd") }
        if let passwordFile { address.password = try Self.password(from: passwordFile) }
        var isFolder: ObjCBool = false
        if let musicDir, !(FileManager.default.fileExists(atPath: musicDir, isDirectory: &isFolder) && isFolder.boolValue) {
            throw PosterError(path: musicDir, reason: "not a folder (--music-dir)")
        }
        self = .mpd(address, musicDirectory: musicDir.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
    }

    /// The choice, when it can run: a Subsonic source needs its password (which `validate()`,
    /// reading no files, cannot know).
    func runnable() throws(PosterError) -> FollowSourceChoice {
        if case .subsonic(let address) = self, address.password.isEmpty {
            throw PosterError(path: address.description, reason: "give the password in --password-file or $\(Self.subsonicPasswordVariable)")
        }
        return self
    }

    /// The one line of a password file.
    static func password(from file: String) throws -> String {
        let data = try Inputs.read(file, limit: 4096)
        guard let password = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .newlines), !password.isEmpty,
              !password.contains("\n") else {
            throw PosterError(path: file, reason: "not one line of UTF-8 text (the password)")
        }
        return password
    }
}
