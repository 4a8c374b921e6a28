import Foundation
import LyricPoster
import LyricsCore
import NowPlaying
import Locks

/// Everything `follow` does after a poster is in place: the events log, the `--exec` command
/// (never two at once), and the published player with a fresh art file per poster.
final class FollowOutputs: Sendable {
    private let events: FileHandle?
    private let exec: ExecRunner?
    private let published: PublishedPlayer?
    private let output: String
    private let waybar: Bool
    private let textFile: String?
    /// What the bar and the text file show: the current line, the next, the player's status.
    private let shown = Guarded<(line: String, next: String, status: String)>(("", "", "waiting"))
    /// The art file the published player points at (a hard link to a poster), and a counter.
    private let art = Guarded<(path: String?, count: Int, line: String?)>((nil, 0, nil))

    init(options: FollowOptions, bus: Bus?) throws(PosterError) {
        output = options.output
        waybar = options.waybar
        textFile = options.textFile
        let folder = (options.output as NSString).deletingLastPathComponent
        if options.writesPosters, !folder.isEmpty {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw PosterError(path: options.output, reason: "cannot make its folder: \(error.localizedDescription)")
            }
        }
        if let path = options.events {
            guard FileManager.default.fileExists(atPath: path) || FileManager.default.createFile(atPath: path, contents: nil),
                  let handle = FileHandle(forWritingAtPath: path) else {
                throw PosterError(path: path, reason: "cannot open the events file for writing")
            }
            handle.seekToEndOfFile()
            events = handle
        } else {
            events = nil
        }
        exec = options.exec.map(ExecRunner.init)
        if options.publish {
            guard let bus else { throw PosterError(path: "--publish", reason: "needs the D-Bus session bus") }
            do { published = try PublishedPlayer(bus: bus) } catch {
                throw PosterError(path: "--publish", reason: error.description)
            }
        } else {
            published = nil
        }
    }

    /// One JSON line: `wall_ms`, `event`, then `fields` (values already JSON).
    func event(_ kind: String, _ fields: KeyValuePairs<String, String>) {
        guard let events else { return }
        let wall = Int((Date().timeIntervalSince1970 * 1000).rounded())
        var parts = ["\"wall_ms\": \(wall)", "\"event\": \(JSONText.quoted(kind))"]
        for (key, value) in fields { parts.append("\(JSONText.quoted(key)): \(value)") }
        // A full disk or a removed file must not end the loop: the line is lost, the poster is not.
        try? events.write(contentsOf: Data(("{" + parts.joined(separator: ", ") + "}\n").utf8))
    }

    /// A poster was put in place at the output.
    func placed(frame: PlannedFrame, index: Int, position: Int, player: PlayerState, track: String, line: String?, next: String?) {
        let status = player.status.rawValue.lowercased()
        shown.withLock { $0 = (line ?? "", next ?? "", status) }
        announce()
        event("poster", ["position_ms": "\(position)", "start_ms": "\(frame.startMs)", "player": JSONText.quoted(player.name),
                         "track": JSONText.quoted(track),
                         "line_index": frame.scene.lineIndex.map(String.init) ?? "null", "frame": "\(index)",
                         "file": JSONText.quoted(output)])
        exec?.run(output)
        mirror(player, line: line ?? track, poster: true)
    }

    /// The player's status changed (`clear`: no player, no line).
    func status(_ status: String, clear: Bool = false) {
        let changed = shown.withLock { shown -> Bool in
            let before = shown
            shown.status = status
            if clear { (shown.line, shown.next) = ("", "") }
            return before.status != shown.status || before.line != shown.line
        }
        if changed { announce() }
    }

    /// The text file and the status bar line, after a change.
    private func announce() {
        let (line, next, status) = shown.withLock { $0 }
        if let textFile {
            // A text source reads it at any moment: written whole, then renamed.
            do { try OutputFile.writeAtomically(Array((line + "\n").utf8), to: textFile) } catch {
                try? FileHandle.standardError.write(contentsOf: Data("lyricposter: \(error.description)\n".utf8))
            }
        }
        if waybar {
            let tooltip = [line, next].filter { !$0.isEmpty }.joined(separator: "\n")
            let json = "{\"text\": \(JSONText.quoted(line)), \"tooltip\": \(JSONText.quoted(tooltip)), \"class\": \(JSONText.quoted(status)), \"alt\": \(JSONText.quoted(status))}\n"
            try? FileHandle.standardOutput.write(contentsOf: Data(json.utf8))
        }
    }

    /// Updates the published player (when publishing): `poster` true links a new art file for the
    /// poster just placed and shows `line` as the title; false mirrors a status, rate or position
    /// change with the current line and art.
    func mirror(_ player: PlayerState?, line: String?, poster: Bool = false) {
        guard let published else { return }
        guard let player else {
            published.mirror(nil, title: nil, artURL: nil)
            return
        }
        let (title, url) = art.withLock { art -> (String?, String?) in
            if poster {
                art.line = line
                art.count += 1
                let stem = (output as NSString).deletingPathExtension
                let path = "\(stem)-\(getpid())-\(art.count).png"
                if link(output, path) == 0 || (try? FileManager.default.copyItem(atPath: output, toPath: path)) != nil {
                    if let old = art.path { unlink(old) }
                    art.path = path
                }
            }
            return (art.line, art.path.map { URL(fileURLWithPath: $0).absoluteString })
        }
        published.mirror(player, title: title, artURL: url)
    }

    func finish() {
        published?.withdraw()
        art.withLock { art in
            if let path = art.path { unlink(path) }
            art.path = nil
        }
        try? events?.synchronize()
    }
}

/// `--exec COMMAND`: run after each new poster, one at a time (a poster placed while the command
/// runs is passed to the next run; in between ones are skipped). The poster's path is the last
/// argument, or stands where the command says `{path}`: then it is a fresh name for each poster (a
/// hard link beside the output, `<name>-<ms>-<n>.png`), for desktops that cache a wallpaper by its
/// path, and the one before is removed once the command has run with the new one.
final class ExecRunner: Sendable {
    private let command: String
    /// `{path}` in the command: a fresh name per poster.
    private let freshNames: Bool
    private let state = Guarded<(running: Bool, pending: String?, count: Int, shown: String?)>((false, nil, 0, nil))
    /// Names the fresh files of this run.
    private let stamp = Int((Date().timeIntervalSince1970 * 1000).rounded())

    init(_ command: String) {
        freshNames = command.contains("{path}")
        // The path is passed as "$1", never spliced into the shell text.
        self.command = freshNames ? command.replacingOccurrences(of: "{path}", with: "\"$1\"") : command + " \"$1\""
    }

    func run(_ path: String) {
        let start = state.withLock { state -> Bool in
            if state.running { state.pending = path; return false }
            state.running = true
            return true
        }
        if start { launch(path) }
    }

    private func launch(_ output: String) {
        var path = output
        if freshNames {
            let n = state.withLock { state -> Int in state.count += 1; return state.count }
            let base = (output as NSString).deletingPathExtension
            let ext = (output as NSString).pathExtension
            path = "\(base)-\(stamp)-\(n)" + (ext.isEmpty ? "" : "." + ext)
            // A hard link costs nothing; a folder that refuses links gets a copy.
            if link(output, path) != 0 {
                do { try FileManager.default.copyItem(atPath: output, toPath: path) } catch {
                    try? FileHandle.standardError.write(contentsOf: Data("lyricposter: --exec: cannot make \(path): \(error.localizedDescription)\n".utf8))
                    finished(nil)
                    return
                }
            }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command, "lyricposter-exec", path]
        let fresh = freshNames ? path : nil
        process.terminationHandler = { [weak self] _ in self?.finished(fresh) }
        do { try process.run() } catch {
            try? FileHandle.standardError.write(contentsOf: Data("lyricposter: --exec: cannot run /bin/sh: \(error.localizedDescription)\n".utf8))
            finished(fresh)
        }
    }

    /// A run ended (`fresh`: the name it was given, now the one shown; the one before goes).
    private func finished(_ fresh: String?) {
        let (next, old) = state.withLock { state -> (String?, String?) in
            var old: String?
            if let fresh {
                old = state.shown
                state.shown = fresh
            }
            guard let pending = state.pending else { state.running = false; return (nil, old) }
            state.pending = nil
            return (pending, old)
        }
        if let old { unlink(old) }
        if let next { launch(next) }
    }
}
