import ArgumentParser
import Foundation
import LyricPoster
import LyricsCore
import NowPlaying
import PosterLive

struct ControlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "control",
        abstract: "Play, pause, skip or seek the player that follow and serve --follow follow.",
        discussion: """
        For keyboard shortcuts and scripts. The player is found as `follow` finds it: an MPRIS player on the session bus (--player NAME, else the one playing), MPD (--source mpd), or a Subsonic server's jukebox (--source subsonic-jukebox+http://USER@HOST). The command returns once the player took the command; a player that cannot do it now (nothing playing, not seekable) or does not answer within a few seconds ends it with exit 1 and the reason.

        Examples: lyricposter control toggle
                  lyricposter control seek 1:23.5 --player mpv
                  lyricposter control next --source mpd
                  lyricposter control pause --source subsonic-jukebox+http://me@music.lan:4533 --password-file ~/.subsonic-password
        """
    )

    @OptionGroup var quietOption: QuietOptionGroup

    @Argument(help: ArgumentHelp("play, pause, toggle, next, previous, or seek.", valueName: "action"))
    var action: String

    @Argument(help: ArgumentHelp("With seek: where to, from the track's start (83.5, 1:23.5 or 83500ms).", valueName: "time"))
    var time: String?

    @Option(help: ArgumentHelp("The player's source: mpris; mpd, mpd://[PASSWORD@]HOST[:PORT] or mpd:///path/to/socket (mpd alone reads $MPD_HOST and $MPD_PORT); or subsonic-jukebox+http(s)://USER@HOST[:PORT] (the server's jukebox; the password from --password-file or $LYRICPOSTER_SUBSONIC_PASSWORD).", valueName: "source"))
    var source: String = "mpris"

    @Option(help: ArgumentHelp("Only this MPRIS player (the name after org.mpris.MediaPlayer2., e.g. mpv).", valueName: "name"))
    var player: String?

    @Option(name: .customLong("password-file"), help: ArgumentHelp("A file holding MPD's or the Subsonic server's password, kept off the command line.", valueName: "file"),
            completion: .file())
    var passwordFile: String?

    func validate() throws {
        guard PlayerCommand(action: action) != nil else {
            throw ValidationError("the action must be one of \(PlayerCommand.actions.joined(separator: ", ")) (not '\(action)')")
        }
        if action == "seek" {
            guard let time else { throw ValidationError("seek needs a time: lyricposter control seek 1:23.5") }
            _ = try Timestamp.instant(time)
        } else if time != nil {
            throw ValidationError("only seek takes a time")
        }
        let refusal = ValidationError("--source \(source.prefix(20)): only MPRIS players, MPD and a Subsonic jukebox (subsonic-jukebox+http://USER@HOST) can be controlled (what a user plays on a Subsonic server, or a pushing device, cannot be told what to do)")
        if source == "push" { throw refusal }
        if case .subsonic(let address) = try FollowSourceChoice(source, passwordFile: nil, player: player, musicDir: nil), !address.jukebox {
            throw refusal
        }
        if player == "" { throw ValidationError("--player needs a name") }
    }

    func run() throws {
        // validate() has checked the action and the time.
        let position = Int64((try? Timestamp.instant(time ?? "0"))?.milliseconds ?? 0) * 1000
        guard let command = PlayerCommand(action: action, position: position) else { throw ExitCode(64) }
        let choice: FollowSourceChoice
        do { choice = try FollowSourceChoice(source, passwordFile: passwordFile, player: player, musicDir: nil) } catch {
            if let error = error as? PosterError { throw fail(error) }
            throw error
        }
        let target: any PlayerSource
        switch choice {
        case .mpris:
            let bus: Bus
            do { bus = try Bus() } catch { throw fail(PosterError(path: "D-Bus", reason: error.description)) }
            let watcher = PlayerWatcher(bus: bus, player: player, excluding: [PublishedPlayer.name])
            // Finds the players already on the bus before returning.
            watcher.start()
            target = watcher
        case .mpd(let address, _):
            target = MPDWatcher(address: address, musicDirectory: nil, log: { _ in })
        case .subsonic(let address):
            target = SubsonicSource(address: address, log: { _ in })
        }
        defer { target.finish() }
        do throws(ControlError) { try target.control(command) } catch {
            FileHandle.standardError.write(Data("error: \(action): \(error.description)\n".utf8))
            throw ExitCode(1)
        }
    }
}
