import Foundation
import Locks
import NowPlaying
import PosterGraphics

/// A Subsonic or OpenSubsonic server (Navidrome, Gonic, Supysonic, …) and the user whose playing
/// song is followed: `subsonic+http(s)://USER@HOST[:PORT][/PATH]`; or the server's own jukebox,
/// which that user may control: `subsonic-jukebox+http(s)://USER@HOST[:PORT][/PATH]`. The password
/// comes from a file or the environment, never the command line.
package struct SubsonicAddress: Sendable, Hashable, CustomStringConvertible {
    /// `http(s)://HOST[:PORT][/PATH]`, without a trailing slash.
    package var base: String
    package var user: String
    package var password = ""
    /// Follow (and control) the server's jukebox rather than what the user plays elsewhere.
    package var jukebox = false

    /// Reads `subsonic+http://USER@HOST[:PORT][/PATH]` (or `subsonic+https://`, or either with
    /// `subsonic-jukebox+`); nil for anything else, or a password in it.
    package static func parse(_ text: String) -> SubsonicAddress? {
        let lowered = text.lowercased()
        let prefix = ["subsonic+", "subsonic-jukebox+"].first { lowered.hasPrefix($0 + "http://") || lowered.hasPrefix($0 + "https://") }
        guard let prefix else { return nil }
        let url = String(text.dropFirst(prefix.count))
        guard let parts = URLComponents(string: url), let host = parts.host, !host.isEmpty,
              let user = parts.user, !user.isEmpty, parts.password == nil, parts.query == nil, parts.fragment == nil,
              let scheme = parts.scheme?.lowercased() else { return nil }
        var base = scheme + "://" + (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) + (parts.port.map { ":\($0)" } ?? "")
        let path = parts.percentEncodedPath
        if !path.isEmpty, path != "/" { base += path.hasSuffix("/") ? String(path.dropLast()) : path }
        return SubsonicAddress(base: base, user: user.removingPercentEncoding ?? user, jukebox: prefix == "subsonic-jukebox+")
    }

    /// Shown without the password.
    package var description: String {
        (jukebox ? "subsonic-jukebox+" : "subsonic+") + base.replacingOccurrences(of: "://", with: "://\(user)@")
    }
}

/// Follows what a user plays on a Subsonic server, by asking it politely: `getNowPlaying` every
/// ``pollInterval`` seconds (5). Servers with OpenSubsonic's `playbackReport` give the position
/// (`positionMs`, `playbackRate`, as of the answer); others say only how many minutes ago the song
/// started, so the poster follows the song, not the line (its title poster, said once per song).
/// Lyrics come from `getLyricsBySongId` (OpenSubsonic `songLyrics`, structured and timed) or
/// `getLyrics` (the text, timed if it is LRC); the cover from `getCoverArt`. Each request is
/// signed with a fresh salt (`t = md5(password + salt)`): the password never travels, unless the
/// server predates tokens (API 1.13; it answers "a required parameter is missing"): then it is sent
/// hex-encoded, as those servers ask, and said once (use https).
///
/// With a jukebox address it follows the server's jukebox instead (`jukeboxControl`, every
/// ``pollInterval``, 1 s by default) and controls it: see SubsonicSource+Jukebox.swift.
///
/// One thread of its own; each request is bounded (3 s, 4 MiB, covers by the cover limit).
package final class SubsonicSource: PlayerSource {
    package let updates: AsyncStream<PlayerState?>
    private let continuation: AsyncStream<PlayerState?>.Continuation
    let address: SubsonicAddress
    let log: @Sendable (String) -> Void
    package let pollInterval: Double
    let state = Guarded(State())

    struct State {
        var stopped = false
        var extensions: Set<String> = []
        /// The song last seen, its lyrics and cover id (fetched once per song).
        var song: (id: String, lyrics: (text: String, source: String)?, cover: String?)?
        var lastSent: PlayerState??
        var notedSongOnly: String?
        var failing = false
        /// The server does not take salted tokens (Subsonic API before 1.13, as Supysonic): the
        /// password is sent hex-encoded (`p=enc:…`).
        var passwordAuth = false
        /// The server has taken a login (``negotiate()``), so that `passwordAuth` is known.
        var negotiated = false
        /// The jukebox as last seen (jukebox addresses only).
        var jukebox = JukeboxState()
    }

    static let maxAnswerBytes = 4 << 20

    /// `pollInterval` defaults to 5 s for what a user plays and 1 s for a jukebox (whose position
    /// comes in whole seconds, and whose songs change without a word).
    package init(address: SubsonicAddress, pollInterval: Double? = nil, log: @escaping @Sendable (String) -> Void) {
        self.address = address
        self.pollInterval = pollInterval ?? (address.jukebox ? 1 : 5)
        self.log = log
        (updates, continuation) = AsyncStream.makeStream(of: PlayerState?.self, bufferingPolicy: .bufferingNewest(64))
    }

    package var waitingMessage: String {
        address.jukebox ? "waiting for the jukebox of \(address) to play something" : "waiting for \(address.user) to play something on \(address)"
    }

    /// A refused user or password is an error now, and so is a jukebox the user may not control;
    /// a server that does not answer is waited for.
    package func open() throws(PlayerSourceError) {
        try negotiate()
        // Not authorised (50) or no such call (70) will not change by waiting; a jukebox that is
        // not running yet (Supysonic's daemon) will.
        if address.jukebox, case .failure(.refused(let code, let message)) = call("jukeboxControl", ["action": "status"]), code == 50 || code == 70 {
            throw PlayerSourceError(address.description, "the server refused jukebox control to \(address.user) (\(message))")
        }
    }

    /// Pings the server, and falls back on hex-encoded passwords for a server without salted tokens.
    /// Returns the reason when the server does not answer (waited for, not an error).
    @discardableResult
    func negotiate() throws(PlayerSourceError) -> String? {
        var answer = call("ping", [:])
        if case .failure(.refused(let code, _)) = answer, code == 10 || code == 41 || code == 42 {
            state.withLock { $0.passwordAuth = true }
            answer = call("ping", [:])
            if case .success = answer {
                log("\(address) does not take salted tokens: the password is sent hex-encoded, as it asks (use https)")
            } else {
                state.withLock { $0.passwordAuth = false }
            }
        }
        switch answer {
        case .success: state.withLock { $0.negotiated = true }
        case .failure(.refused(let code, let message)) where code == 40 || code == 41 || code == 42 || code == 43 || code == 44:
            throw PlayerSourceError(address.description, "the server refused the login (\(message))")
        case .failure(.refused(_, let message)):
            throw PlayerSourceError(address.description, message)
        case .failure(let error):
            return error.description
        }
        return nil
    }

    package func start() {
        let thread = Thread { [self] in address.jukebox ? runJukebox() : run() }
        thread.name = "lyricposter-subsonic"
        thread.start()
    }

    package func finish() {
        state.withLock { $0.stopped = true }
        continuation.finish()
    }

    /// Positions come with each poll (when the server has them): nothing to read in between.
    package func readPosition() -> (owner: String, position: Int64, at: Int64, took: Int64)? { nil }

    package var canBeControlled: Bool { address.jukebox }

    /// A jukebox is controlled (``controlJukebox(_:)``). What a user plays is not: the server
    /// reports what a client plays, and has no call that reaches that client. `jukeboxControl`
    /// drives the server's own jukebox, a player of its own that `getNowPlaying` does not report.
    package func control(_ command: PlayerCommand) throws(ControlError) {
        guard address.jukebox else {
            throw .cannot("\(address) reports what \(address.user)'s player plays but cannot control it (follow the server's jukebox with subsonic-jukebox+\(address.base) to control that)")
        }
        try controlJukebox(command)
    }

    package func cover(for metadata: MPRIS.Metadata, maxBytes: Int) -> Result<(Data, String), PlayerSourceError>? {
        guard let url = metadata.url, url.hasPrefix(Self.trackScheme) else { return nil }
        let id = String(url.dropFirst(Self.trackScheme.count))
        guard let cover = state.withLock({ $0.song?.id == id ? $0.song?.cover : nil }) else { return nil }
        switch Self.get(request("getCoverArt", ["id": cover]), maxBytes: maxBytes) {
        case .success(let data):
            // A server without the picture answers with a JSON (or XML) error, not an image.
            if data.first == UInt8(ascii: "{") || data.first == UInt8(ascii: "<") { return nil }
            return .success((data, "subsonic:getCoverArt"))
        case .failure(let reason): return .failure(PlayerSourceError("\(address) getCoverArt", reason.message))
        }
    }

    // MARK: - Polling

    /// The track's URL: the song's id on the server.
    package static let trackScheme = "subsonic:"

    private func run() {
        readExtensions()
        while !state.withLock({ $0.stopped }) {
            let asked = Monotonic.now()
            switch call("getNowPlaying", [:]) {
            case .success(let answer):
                answered()
                publish(Self.entry(in: answer, user: address.user), at: asked)
            case .failure(let error):
                if failed("getNowPlaying", error.description) { publish(nil, at: asked) }
            }
            Thread.sleep(forTimeInterval: pollInterval)
        }
    }

    /// Notes that a poll was answered, and says so when the server had stopped answering.
    func answered() {
        if state.withLock({ state -> Bool in defer { state.failing = false }; return state.failing }) { log("\(address) answers again") }
    }

    /// Notes that a poll of `method` failed. The first failure in a row is logged and returns true
    /// (the caller then publishes that nothing plays); later ones are quiet.
    func failed(_ method: String, _ reason: String) -> Bool {
        let first = state.withLock { state -> Bool in defer { state.failing = true }; return !state.failing }
        if first { log("\(address): \(method): \(reason); asking again every \(String(format: "%g", pollInterval)) s") }
        return first
    }

    /// Which OpenSubsonic extensions the server has (`songLyrics` matters here).
    func readExtensions() {
        if case .success(let answer) = call("getOpenSubsonicExtensions", [:]),
           let list = answer["openSubsonicExtensions"] as? [[String: Any]] {
            let names = Set(list.compactMap { $0["name"] as? String })
            state.withLock { $0.extensions = names }
        }
    }

    /// The user's entry that started last (the smallest `minutesAgo`).
    package static func entry(in answer: [String: Any], user: String) -> [String: Any]? {
        let entries = (answer["nowPlaying"] as? [String: Any])?["entry"] as? [[String: Any]] ?? []
        return entries.filter { ($0["username"] as? String) == user }
            .min { number($0["minutesAgo"]) ?? .infinity < number($1["minutesAgo"]) ?? .infinity }
    }

    static func number(_ value: Any?) -> Double? {
        if let number = value as? NSNumber { return number.doubleValue }
        if let text = value as? String { return Double(text) }
        return nil
    }

    private func publish(_ entry: [String: Any]?, at asked: Int64) {
        var current: PlayerState?
        if let entry, let id = entry["id"].map({ "\($0)" }) {
            let lyrics = songLyrics(entry, id: id)
            current = Self.playerState(entry, id: id, lyrics: lyrics?.text, user: address.user, at: asked)
            current?.metadata.asTextSource = lyrics?.source
            if entry["positionMs"] == nil, state.withLock({ $0.notedSongOnly != id }) {
                state.withLock { $0.notedSongOnly = id }
                log("\(address) does not report the position (no OpenSubsonic playbackReport): the poster follows the song, not the line")
            }
        }
        send(current)
    }

    /// The lyrics of `entry`'s song: fetched with its cover id when the song is new, once.
    func songLyrics(_ entry: [String: Any], id: String) -> (text: String, source: String)? {
        if state.withLock({ $0.song?.id }) != id {
            let lyrics = lyrics(for: id, artist: entry["artist"] as? String, title: entry["title"] as? String)
            state.withLock { $0.song = (id, lyrics, entry["coverArt"].map { "\($0)" }) }
        }
        return state.withLock { $0.song?.lyrics }
    }

    /// Yields `current` unless it is what was sent last, or unless a jukebox control came since
    /// `generation` (then it is stale).
    func send(_ current: PlayerState?, ifGeneration generation: Int? = nil) {
        state.withLock { state in
            if let generation, state.jukebox.generation != generation { return }
            if let last = state.lastSent, last == current { return }
            state.lastSent = .some(current)
            continuation.yield(current)
        }
    }

    /// The player's state from a now-playing entry read at monotonic `at`.
    package static func playerState(_ entry: [String: Any], id: String, lyrics: String?, user: String, at: Int64) -> PlayerState {
        let metadata = metadata(entry, id: id, lyrics: lyrics)
        let clock: PlaybackClock
        let status: MPRIS.Status
        if let position = number(entry["positionMs"]), position.isFinite, position >= 0 {
            let rate = number(entry["playbackRate"]).flatMap { $0.isFinite && $0 > 0 && $0 < 16 ? $0 : nil } ?? 1
            let paused = (entry["state"] as? String).map { $0 == "paused" || $0 == "stopped" } ?? false
            status = paused ? .paused : .playing
            clock = PlaybackClock(position: Int64(position * 1000), anchor: at, rate: rate, playing: !paused)
        } else {
            // Only when it started: the song's title poster, standing.
            status = .paused
            clock = PlaybackClock(position: 0, anchor: at, rate: 1, playing: false)
        }
        let player = (entry["playerName"] as? String).map { "subsonic:\(user)@\($0)" } ?? "subsonic:\(user)"
        return PlayerState(name: player, owner: player, status: status, metadata: metadata, clock: clock)
    }

    /// A song's metadata from its Subsonic entry (a now-playing entry or a jukebox queue's).
    package static func metadata(_ entry: [String: Any], id: String, lyrics: String?) -> MPRIS.Metadata {
        var metadata = MPRIS.Metadata()
        metadata.url = trackScheme + id
        metadata.trackID = trackScheme + id
        metadata.title = entry["title"] as? String
        metadata.artists = (entry["artist"] as? String).map { [$0] } ?? []
        metadata.album = entry["album"] as? String
        metadata.length = number(entry["duration"]).flatMap { $0.isFinite && $0 >= 0 && $0 < 1e9 ? Int64($0 * 1_000_000) : nil }
        metadata.asText = lyrics
        return metadata
    }

    /// Timed lyrics as LRC text and the call they came from: the server's structured lyrics first
    /// (the first synced set), else its `getLyrics` text. Nil when it has none.
    private func lyrics(for id: String, artist: String?, title: String?) -> (text: String, source: String)? {
        if state.withLock({ $0.extensions.contains("songLyrics") }), case .success(let answer) = call("getLyricsBySongId", ["id": id]),
           let text = Self.lrc(fromStructured: answer) {
            return (text, "subsonic:getLyricsBySongId")
        }
        guard let artist, let title, case .success(let answer) = call("getLyrics", ["artist": artist, "title": title]),
              let value = (answer["lyrics"] as? [String: Any])?["value"] as? String, !value.isEmpty else { return nil }
        return (value, "subsonic:getLyrics")
    }

    /// The first synced set of `lyricsList.structuredLyrics`, as LRC (its offset applied: a
    /// positive offset shows lines sooner).
    package static func lrc(fromStructured answer: [String: Any]) -> String? {
        let sets = (answer["lyricsList"] as? [String: Any])?["structuredLyrics"] as? [[String: Any]] ?? []
        guard let set = sets.first(where: { ($0["synced"] as? Bool) == true }), let lines = set["line"] as? [[String: Any]] else { return nil }
        let offset = number(set["offset"]) ?? 0
        var out: [String] = []
        for line in lines.prefix(100_000) {
            // No number, or a time past 1e10 ms (115 days), is no line's time (Int would trap).
            guard let start = number(line["start"]), case let time = (start - offset).rounded(), time.isFinite, time < 1e10 else { continue }
            let ms = max(0, Int(time))
            let text = (line["value"] as? String ?? "").replacingOccurrences(of: "\n", with: " ")
            out.append(String(format: "[%02d:%02d.%03d]", ms / 60_000, ms / 1000 % 60, ms % 1000) + text)
        }
        return out.isEmpty ? nil : out.joined(separator: "\n")
    }

    // MARK: - Requests

    enum CallError: Error, Sendable, CustomStringConvertible {
        case transport(String)
        case refused(code: Int, message: String)
        case malformed(String)

        var description: String {
            switch self {
            case .transport(let reason): reason
            case .refused(let code, let message): "the server said \(message) (error \(code))"
            case .malformed(let reason): "not a Subsonic answer: \(reason)"
            }
        }
    }

    /// The URL of `method` with `parameters`, signed with a fresh salt.
    func request(_ method: String, _ parameters: [String: String]) -> String {
        var salt = ""
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<12 { salt += String(Int.random(in: 0..<16, using: &generator), radix: 16) }
        var query = ["u": address.user, "v": "1.16.1", "c": "lyricposter", "f": "json"]
        if state.withLock({ $0.passwordAuth }) {
            query["p"] = "enc:" + address.password.utf8.map { String(format: "%02x", $0) }.joined()
        } else {
            query["t"] = Digest.md5(address.password + salt)
            query["s"] = salt
        }
        for (key, value) in parameters { query[key] = value }
        var parts = URLComponents()
        parts.queryItems = query.keys.sorted().map { URLQueryItem(name: $0, value: query[$0]) }
        // `+` is a space in a query: sent escaped.
        let encoded = (parts.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        return address.base + "/rest/" + method + "?" + encoded
    }

    /// Calls `method` and returns its `subsonic-response` object when the status is ok.
    func call(_ method: String, _ parameters: [String: String]) -> Result<[String: Any], CallError> {
        switch Self.get(request(method, parameters), maxBytes: Self.maxAnswerBytes) {
        case .failure(let reason): return .failure(.transport(reason.message))
        case .success(let data):
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let response = object["subsonic-response"] as? [String: Any] else { return .failure(.malformed("no subsonic-response object")) }
            if (response["status"] as? String) == "ok" { return .success(response) }
            let error = response["error"] as? [String: Any]
            return .failure(.refused(code: Int(Self.number(error?["code"]) ?? 0), message: (error?["message"] as? String) ?? "an error"))
        }
    }

    /// One bounded GET (3 s, `maxBytes`), as covers are fetched.
    static func get(_ url: String, maxBytes: Int) -> Result<Data, CoverFetcher.Failure> {
        CoverFetcher.get(url, maxBytes: maxBytes)
    }
}
