import Foundation
import Locks

/// Now-playing reports pushed over HTTP (`serve --source push`, `POST /api/now-playing`), from
/// devices that can only say what they play: a phone, Home Assistant or Music Assistant, a Sonos
/// bridge. Between pushes the position runs on from the last one; a device silent for
/// ``staleAfter`` counts as paused. The device followed is `device` when given, else the one that
/// pushed last among those playing (else the one that pushed last).
///
/// Thread-safe: pushes come from any request; one task (started by ``start()``) ages them.
package final class PushSource: PlayerSource {
    /// One device's report, as pushed and checked.
    package struct Report: Sendable, Hashable {
        package var deviceID: String
        package var title: String?
        package var artist: String?
        package var album: String?
        package var durationMs: Int?
        package var positionMs: Int
        package var isPlaying: Bool
        package var coverURL: String?
        /// The song's lyrics in any format the tool reads.
        package var lyrics: String?
    }

    /// A push: what a device plays, or that it stopped.
    package enum Push: Sendable, Hashable {
        case playing(Report)
        case stopped(deviceID: String)
    }

    /// Why a push was refused (the request's fault: a 4xx).
    package enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// Not a JSON object.
        case malformed(String)
        /// A field this endpoint does not know (a typo is not passed over).
        case unknownField(String)
        /// A known field with a value of the wrong type or out of its range.
        case invalid(field: String, reason: String)

        package var description: String {
            switch self {
            case .malformed(let reason): reason
            case .unknownField(let name): "\(name): not a field of a now-playing report (device_id, title, artist, album, duration_ms, position_ms, is_playing, cover_url, lyrics; or device_id and stopped)"
            case .invalid(let field, let reason): "\(field): \(reason)"
            }
        }
    }

    package let updates: AsyncStream<PlayerState?>
    private let continuation: AsyncStream<PlayerState?>.Continuation
    private let device: String?
    /// Seconds without a push after which a playing device counts as paused.
    package let staleAfter: Double
    private let state = Guarded(State())
    private let ager = Guarded<Task<Void, Never>?>(nil)

    private struct State {
        var devices: [String: (report: Report, at: Int64)] = [:]
        var lastSent: PlayerState??
    }

    /// Longest accepted body, and longest text fields.
    package static let maxBodyBytes = 1 << 20
    static let maxTextBytes = 2048
    static let maxDevices = 64

    /// - Parameters:
    ///   - device: follow only this device id.
    ///   - staleAfter: seconds without a push before a playing device counts as paused.
    package init(device: String?, staleAfter: Double = 30) {
        self.device = device
        self.staleAfter = staleAfter
        (updates, continuation) = AsyncStream.makeStream(of: PlayerState?.self, bufferingPolicy: .bufferingNewest(64))
    }

    package var waitingMessage: String {
        device.map { "waiting for a push from \($0) (POST /api/now-playing)" } ?? "waiting for a push (POST /api/now-playing)"
    }

    package func start() {
        publish(at: Monotonic.now())
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 1_000_000_000)
                guard let self else { return }
                self.publish(at: Monotonic.now())
            }
        }
        ager.withLock { $0 = task }
    }

    package func finish() {
        ager.withLock { $0?.cancel(); $0 = nil }
        continuation.finish()
    }

    package var canBeControlled: Bool { false }

    /// Read-only: a device pushes what it plays, and is told nothing back.
    package func control(_ command: PlayerCommand) throws(ControlError) {
        throw .cannot("the push source is read-only: devices say what they play, and cannot be told what to do")
    }

    /// Positions come only with pushes: there is nothing to read in between.
    package func readPosition() -> (owner: String, position: Int64, at: Int64, took: Int64)? { nil }

    /// Takes a push (at monotonic `now`) and sends the followed device's state when it changed.
    package func receive(_ push: Push, at now: Int64 = Monotonic.now()) throws(Refusal) {
        try state.withLock { state throws(Refusal) in
            switch push {
            case .playing(let report):
                if state.devices[report.deviceID] == nil, state.devices.count >= Self.maxDevices {
                    // The longest silent one makes room.
                    if let oldest = state.devices.min(by: { $0.value.at < $1.value.at })?.key { state.devices[oldest] = nil }
                }
                state.devices[report.deviceID] = (report, now)
            case .stopped(let id):
                state.devices[id] = nil
            }
        }
        publish(at: now)
    }

    /// The followed device's state at `now`, sent when it changed.
    private func publish(at now: Int64) {
        let update = state.withLock { state -> PlayerState?? in
            let current = Self.current(state.devices, wanted: device, now: now, staleAfter: staleAfter)
            if let last = state.lastSent, last == current { return nil }
            state.lastSent = .some(current)
            return .some(current)
        }
        if let update { continuation.yield(update) }
    }

    static func current(_ devices: [String: (report: Report, at: Int64)], wanted: String?, now: Int64, staleAfter: Double) -> PlayerState? {
        let stale = Int64(staleAfter * 1e9)
        let candidates = devices.filter { wanted == nil || $0.key == wanted }
        func fresh(_ entry: (report: Report, at: Int64)) -> Bool { entry.report.isPlaying && now - entry.at < stale }
        let chosen = candidates.filter { fresh($0.value) }.max { ($0.value.at, $0.key) < ($1.value.at, $1.key) }
            ?? candidates.max { ($0.value.at, $0.key) < ($1.value.at, $1.key) }
        guard let (id, entry) = chosen else { return nil }
        let report = entry.report
        var metadata = MPRIS.Metadata()
        metadata.title = report.title
        metadata.artists = report.artist.map { [$0] } ?? []
        metadata.album = report.album
        metadata.length = report.durationMs.map { Int64($0) * 1000 }
        metadata.artURL = report.coverURL
        metadata.asText = report.lyrics
        metadata.asTextSource = report.lyrics == nil ? nil : "push:lyrics"
        let playing = fresh(entry)
        // A playing device gone silent stands where it was when it went stale.
        let position = Int64(report.positionMs) * 1000 + (report.isPlaying && !playing ? stale / 1000 : 0)
        let clock = PlaybackClock(position: position, anchor: entry.at, rate: 1, playing: playing)
        return PlayerState(name: "push:" + id, owner: id, status: playing ? .playing : .paused, metadata: metadata, clock: clock)
    }

    // MARK: - Reading a push

    /// Reads and checks a push body: a JSON object of the known fields, each of its type and in
    /// its range (`device_id` 1 to 128 bytes of letters, digits and `._:@-`; texts at most 2 KiB;
    /// times 0 to 24 h; `cover_url` http or https).
    package static func parse(_ body: Data, maxLyricsBytes: Int) throws(Refusal) -> Push {
        guard body.count <= maxBodyBytes else { throw .malformed("the body is larger than \(maxBodyBytes >> 10) KiB") }
        let fields: Fields
        do { fields = try JSONDecoder().decode(Fields.self, from: body) } catch let refusal as Refusal {
            throw refusal
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let name = context.codingPath.first?.stringValue ?? "the body"
            throw name == "the body" ? .malformed("send one JSON object") : .invalid(field: name, reason: "the wrong type (\(Self.expected[name] ?? "see the docs"))")
        } catch {
            throw .malformed("not a JSON object")
        }
        guard let id = fields.deviceID else { throw .invalid(field: "device_id", reason: "required, a string") }
        guard (1...128).contains(id.utf8.count),
              id.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._:@-".unicodeScalars.contains($0)) }) else {
            throw .invalid(field: "device_id", reason: "1 to 128 letters, digits or ._:@-")
        }
        if let stopped = fields.stopped {
            guard stopped else { throw .invalid(field: "stopped", reason: "true, or leave it out") }
            guard fields.count == 2 else { throw .invalid(field: "stopped", reason: "goes with device_id alone") }
            return .stopped(deviceID: id)
        }
        func text(_ value: String?, _ name: String, limit: Int = maxTextBytes) throws(Refusal) -> String? {
            guard let value else { return nil }
            guard value.utf8.count <= limit else { throw .invalid(field: name, reason: "longer than \(limit) bytes") }
            return value.isEmpty ? nil : value
        }
        func milliseconds(_ value: Double?, _ name: String) throws(Refusal) -> Int? {
            guard let value else { return nil }
            guard value.isFinite, (0...86_400_000).contains(value) else {
                throw .invalid(field: name, reason: "a number of milliseconds from 0 to 86400000")
            }
            return Int(value.rounded())
        }
        guard let isPlaying = fields.isPlaying else { throw .invalid(field: "is_playing", reason: "required, true or false") }
        guard let position = try milliseconds(fields.positionMs, "position_ms") else {
            throw .invalid(field: "position_ms", reason: "required, a number of milliseconds")
        }
        let cover = try text(fields.coverURL, "cover_url")
        if let cover {
            let lowered = cover.lowercased()
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), URL(string: cover)?.host != nil else {
                throw .invalid(field: "cover_url", reason: "an http or https URL")
            }
        }
        return .playing(Report(deviceID: id, title: try text(fields.title, "title"), artist: try text(fields.artist, "artist"),
                               album: try text(fields.album, "album"), durationMs: try milliseconds(fields.durationMs, "duration_ms"),
                               positionMs: position, isPlaying: isPlaying, coverURL: cover,
                               lyrics: try text(fields.lyrics, "lyrics", limit: min(maxLyricsBytes, maxBodyBytes))))
    }

    static let expected = ["device_id": "a string", "title": "a string", "artist": "a string", "album": "a string",
                           "duration_ms": "a number", "position_ms": "a number", "is_playing": "true or false",
                           "cover_url": "a string", "lyrics": "a string", "stopped": "true"]

    /// The body's fields as JSON types them (null reads as absent); an unknown one is refused.
    private struct Fields: Decodable {
        var deviceID, title, artist, album, coverURL, lyrics: String?
        var durationMs, positionMs: Double?
        var isPlaying, stopped: Bool?
        /// How many fields the body has.
        var count = 0

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: JSONFieldKey.self)
            for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where PushSource.expected[key.stringValue] == nil {
                throw Refusal.unknownField(key.stringValue)
            }
            count = container.allKeys.count
            func string(_ name: String) throws -> String? { try container.decodeIfPresent(String.self, forKey: JSONFieldKey(stringValue: name)) }
            func number(_ name: String) throws -> Double? { try container.decodeIfPresent(Double.self, forKey: JSONFieldKey(stringValue: name)) }
            func flag(_ name: String) throws -> Bool? { try container.decodeIfPresent(Bool.self, forKey: JSONFieldKey(stringValue: name)) }
            deviceID = try string("device_id")
            title = try string("title")
            artist = try string("artist")
            album = try string("album")
            coverURL = try string("cover_url")
            lyrics = try string("lyrics")
            durationMs = try number("duration_ms")
            positionMs = try number("position_ms")
            isPlaying = try flag("is_playing")
            stopped = try flag("stopped")
        }
    }
}

/// A JSON object's key by name: for bodies read field by field, whose unknown fields are refused
/// (a push, a seek).
package struct JSONFieldKey: CodingKey {
    package var stringValue: String
    package var intValue: Int? { nil }
    package init(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}
