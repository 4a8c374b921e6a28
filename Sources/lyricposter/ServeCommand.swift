import ArgumentParser
import Foundation
import LyricPoster
import PosterBatch
import PosterGraphics
import PosterServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a library's songs, frames and share cards over HTTP.",
        discussion: """
        Listens on 127.0.0.1 unless told otherwise; any other address needs a token (--token or LYRICPOSTER_TOKEN), which every request then gives as `Authorization: Bearer TOKEN` or `?token=TOKEN`. The rendering options are the defaults; a request's theme, preset, size, translations, romanisation, karaoke, before, after and lang override them.

        With --follow it also follows the playing song over MPRIS (or MPD: --source mpd), as `follow` does: /now.png is its poster now, /now.json what is sung, /events a stream of posters (Server-Sent Events), and /overlay a transparent page for OBS browser sources and second screens (layer=text: the text alone, over transparency). The overlay shows lock-screen controls (play/pause, previous, next, a progress bar to seek), which POST /api/player/ACTION; --read-only turns them off, and a --view-token screen sees posters without them.

        Examples: lyricposter serve ~/Music
                  lyricposter serve ~/Music --listen 0.0.0.0 --token "$TOKEN"
                  lyricposter serve ~/Music --follow --player mpv
        """
    )

    @OptionGroup var quietOption: QuietOptionGroup

    @Argument(help: ArgumentHelp("Library folders (walked as `catalog` walks them) or audio files.", valueName: "library"),
              completion: .directory)
    var library: [String] = []

    @Option(help: ArgumentHelp("The port (0: any free one; the one chosen is printed).", valueName: "port"))
    var port: Int = 8484

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "addr"))
    var listen: String = "127.0.0.1"

    @Option(help: ArgumentHelp("The token every request must give (required beyond loopback; default $LYRICPOSTER_TOKEN).", valueName: "token"))
    var token: String?

    @Option(name: .customLong("view-token"), help: ArgumentHelp("A second token that sees posters but cannot control the player or post anything (for screens you hand out; needs --token; default $LYRICPOSTER_VIEW_TOKEN).", valueName: "token"))
    var viewToken: String?

    @Flag(name: .customLong("read-only"), help: "With --follow: do not let anyone control the player over HTTP (the pages show no controls).")
    var readOnly = false

    @Option(help: ArgumentHelp("Pictures rendered at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Flag(help: "Follow the playing song over MPRIS (as `follow` does) and serve it live: /now.png, /now.json, /events, /overlay.")
    var follow = false

    @Option(help: ArgumentHelp("With --follow: only this player (the name after org.mpris.MediaPlayer2., e.g. mpv).", valueName: "name"))
    var player: String?

    @Option(help: ArgumentHelp("What --follow follows: mpris; mpd, mpd://[PASSWORD@]HOST[:PORT] or mpd:///path/to/socket; subsonic+http(s)://USER@HOST[:PORT] (what USER plays) or subsonic-jukebox+http(s)://USER@HOST[:PORT] (the server's jukebox, which the page can control); or push (POST /api/now-playing from a phone or Home Assistant). A source other than mpris implies --follow.", valueName: "source"))
    var source: String = "mpris"

    @Option(help: ArgumentHelp("With --source push: follow only this device_id (default: the one that pushed last while playing).", valueName: "id"))
    var device: String?

    @Option(help: ArgumentHelp("With --follow: shift every line change by this many milliseconds (positive: later; --offset=-300 reads ahead), as for follow.", valueName: "ms"))
    var offset: Int = 0

    @Option(help: ArgumentHelp("With --follow: how late the source's sound reaches the listener, in milliseconds (Bluetooth, Music Assistant); added to --offset.", valueName: "ms"))
    var latency: Int = 0

    @Option(name: .customLong("stale-after"), help: ArgumentHelp("With --source push: seconds without a push before a playing device counts as paused.", valueName: "seconds"))
    var staleAfter: Double = 30

    @Option(name: .customLong("music-dir"), help: ArgumentHelp("With --source mpd: MPD's music directory (MPD says it itself over a local socket).", valueName: "dir"),
            completion: .directory)
    var musicDir: String?

    @Option(name: .customLong("password-file"), help: ArgumentHelp("With --source mpd or subsonic: a file holding the password.", valueName: "file"),
            completion: .file())
    var passwordFile: String?

    @OptionGroup var lookup: LyricsPlacesOptions

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp("Seconds a connection may stay open without a complete request.", valueName: "seconds"))
    var idleTimeout: Int = 30

    @OptionGroup var render: RenderOptionGroup
    @OptionGroup var karaoke: KaraokeOptionGroup

    /// `--follow`, or a `--source` other than MPRIS (which implies it).
    var following: Bool { follow || source != "mpris" }

    var effectiveToken: String? {
        let value = token ?? ProcessInfo.processInfo.environment["LYRICPOSTER_TOKEN"]
        return value?.isEmpty == false ? value : nil
    }

    var effectiveViewToken: String? {
        let value = viewToken ?? ProcessInfo.processInfo.environment["LYRICPOSTER_VIEW_TOKEN"]
        return value?.isEmpty == false ? value : nil
    }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be from 1 to 256") }
        guard (1...3600).contains(idleTimeout) else { throw ValidationError("--idle-timeout must be from 1 to 3600 seconds") }
        if !following, player != nil { throw ValidationError("--player goes with --follow") }
        guard abs(offset) <= 60_000 else { throw ValidationError("--offset must be within +/-60000 ms") }
        guard (0...10_000).contains(latency) else { throw ValidationError("--latency must be from 0 to 10000 ms") }
        if !following, offset != 0 || latency != 0 { throw ValidationError("--offset and --latency go with --follow") }
        if source == "push" {
            if player != nil || musicDir != nil || passwordFile != nil { throw ValidationError("--player, --music-dir and --password-file do not go with --source push") }
            guard (1...3600).contains(staleAfter) else { throw ValidationError("--stale-after must be from 1 to 3600 seconds") }
            if let device, device.isEmpty || device.utf8.count > 128 { throw ValidationError("--device needs an id of 1 to 128 characters") }
        } else {
            if device != nil { throw ValidationError("--device goes with --source push") }
            _ = try FollowSourceChoice(source, passwordFile: nil, player: player, musicDir: musicDir)
        }
        if player == "" { throw ValidationError("--player needs a name") }
        if let token = effectiveToken, token.utf8.count < 8 || token.utf8.count > 256 {
            throw ValidationError("the token must be 8 to 256 bytes")
        }
        if let view = effectiveViewToken {
            guard view.utf8.count >= 8, view.utf8.count <= 256 else { throw ValidationError("the view token must be 8 to 256 bytes") }
            guard let token = effectiveToken else { throw ValidationError("--view-token needs --token (the token that may control)") }
            guard token != view else { throw ValidationError("--view-token must differ from --token") }
        }
        if readOnly, !following { throw ValidationError("--read-only goes with --follow") }
    }

    func run() async throws {
        // Many songs, one after another: each one's pixel buffers stay in the heap for the next's.
        MallocTuning.keepFreedBuffers()
        if !ServerConfiguration.isLoopback(listen), effectiveToken == nil {
            FileHandle.standardError.write(Data("error: --listen \(listen): any address but 127.0.0.1 or localhost needs a token: give --token TOKEN (or LYRICPOSTER_TOKEN)\n".utf8))
            throw ExitCode(64)
        }
        for folder in library where !Inputs.exists(folder) {
            throw fail(PosterError(path: folder, reason: "no such file or folder"))
        }
        let defaults: RenderOptions
        do { defaults = try render.renderOptions() } catch { throw fail(error) }
        let base = render, karaoke = karaoke.karaoke
        var configuration = ServerConfiguration { parameters, timed in
            try Self.options(base: base, karaoke: karaoke, parameters: parameters, timed: timed)
        }
        configuration.host = listen
        configuration.port = port
        configuration.token = effectiveToken
        configuration.viewToken = effectiveViewToken
        configuration.readOnly = readOnly
        configuration.library = library
        configuration.places = lookup.places
        configuration.defaults = defaults
        configuration.jobs = jobs ?? CPUs.available()
        configuration.idleTimeout = idleTimeout
        if following {
            var settings = FollowSettings()
            settings.player = player
            settings.offsetMs = offset + latency
            if source == "push" {
                settings.push = true
                settings.device = device
                settings.staleAfter = staleAfter
            } else {
                let choice: FollowSourceChoice
                do { choice = try FollowSourceChoice(source, passwordFile: passwordFile, player: player, musicDir: musicDir).runnable() } catch let error as PosterError {
                    throw fail(error)
                }
                switch choice {
                case .mpd(let address, let folder):
                    settings.mpd = address
                    settings.musicDirectory = folder
                case .subsonic(let address):
                    settings.subsonic = address
                case .mpris:
                    break
                }
            }
            configuration.follow = settings
        }
        // What the library's walk left out, and the follow loop's news: for the person running it.
        configuration.log = { line in
            FileHandle.standardError.write(Data("lyricposter serve: \(line)\n".utf8))
        }
        configuration.onListening = { host, port in
            let shown = host.contains(":") ? "[\(host)]" : host
            if !Quiet.isOn { FileHandle.standardError.write(Data("lyricposter serve: listening on http://\(shown):\(port)\n".utf8)) }
        }
        do { try await PosterServer.run(configuration) } catch {
            if let error = error as? PosterError { throw fail(error) }
            throw fail(PosterError(path: "\(listen):\(port)", reason: "\(error)"))
        }
    }

    /// A request's rendering parameters over the server's own flags, checked and turned into
    /// options by the same code as the CLI's flags (so a picture matches the CLI's byte for byte).
    static func options(base: RenderOptionGroup, karaoke: Bool, parameters: [(String, String)], timed: Bool) throws -> RenderOptions {
        var group = base
        var karaoke = karaoke
        for (name, value) in parameters {
            switch name {
            case "theme": group.theme = value
            case "preset": group.preset = value; group.size = nil
            case "size": group.size = value; group.preset = nil
            case "translations": group.translations = value
            case "romanisation": group.romanisation = value
            case "karaoke": karaoke = value != "false"
            case "lang": group.lang = value
            case "before", "after":
                guard let n = Int(value) else { throw ValidationError("--\(name) must be a whole number") }
                if name == "before" { group.before = n } else { group.after = n }
            default: throw ValidationError("unknown parameter \(name)")
            }
        }
        do { try group.validate() } catch let error as ValidationError { throw ValidationError(error.message) }
        return try group.renderOptions(karaoke: timed && karaoke)
    }
}
