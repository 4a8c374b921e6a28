import Foundation
import Hummingbird
import NIOCore

/// The JSON the API answers with, as `Encodable` values: keys in snake_case and sorted, `/` and
/// non-ASCII written as they are, so that an answer is the same bytes for the same state.
enum API {
    static func encoded(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        // The values are plain structs of strings, numbers and arrays: encoding cannot fail.
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// An optional the clients read as `null` when absent (synthesised `Encodable` would leave
    /// the key out).
    struct OrNull<Wrapped: Encodable & Sendable>: Encodable, Sendable {
        let value: Wrapped?
        init(_ value: Wrapped?) { self.value = value }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let value { try container.encode(value) } else { try container.encodeNil() }
        }
    }

    /// Every 4xx and 5xx answer.
    struct Failure: Encodable, Sendable { let error: String }

    /// `GET /api/themes`.
    struct Themes: Encodable, Sendable {
        let defaultPreset: String, defaultTheme: String, defaultTranslations: String
        /// Whether the server follows a player (`--follow`): the live routes answer.
        let following: Bool
        let presets: [String], themes: [String]
    }

    /// `POST /api/rescan`.
    struct Scanning: Encodable, Sendable { let scanning: Bool }

    /// `GET /api/songs`: one page of the library.
    struct Songs: Encodable, Sendable {
        struct Item: Encodable, Sendable {
            let album: OrNull<String>, artist: OrNull<String>, durationMs: OrNull<Int>
            let file: String, format: String, id: String, lineCount: Int
            /// Why the song's posters cannot be made (`null` when they can, or until its lyrics are read).
            let problem: OrNull<String>, title: OrNull<String>
        }
        let scanning: Bool, songs: [Item], total: Int
    }

    /// `GET /api/songs/{id}/plan`.
    struct Plan: Encodable, Sendable {
        struct Frame: Encodable, Sendable { let line: OrNull<Int>, startMs: Int, text: OrNull<String> }
        struct Line: Encodable, Sendable { let endMs: Int, number: Int, startMs: Int, text: String, translation: OrNull<String> }
        let album: OrNull<String>, artist: OrNull<String>, audio: Bool, durationMs: OrNull<Int>
        let frames: [Frame], id: String, lines: [Line], title: OrNull<String>
    }

    /// `GET /now.json` (`serve --follow`): the player, and the song and poster once there are.
    struct Now: Encodable, Sendable {
        let status: String, player: OrNull<String>, playing: Bool
        /// The controls this request may use on the player now (`null`: none may be used here —
        /// a read-only server or token, or a source that cannot be controlled); the track's length.
        let controls: OrNull<[String]>, durationMs: OrNull<Int>
        /// With a song only.
        var track: String?, artist: OrNull<String>?
        /// With a poster only; `poster` is `null` without one.
        var line: OrNull<Int>?, text: OrNull<String>?, translation: OrNull<String>?, startMs: Int?, endMs: Int?
        var positionMs: OrNull<Int>?, nextChangeMs: OrNull<Int>?
        var poster: OrNull<String>
    }

    /// The `data:` of each server-sent event on `/events`.
    struct StatusEvent: Encodable, Sendable {
        let controls: OrNull<[String]>, durationMs: OrNull<Int>, player: OrNull<String>
        /// Where playback was when the event was sent, and how fast it moves (0 when not playing).
        let positionMs: OrNull<Int>, rate: Double, status: String
    }
    struct SongEvent: Encodable, Sendable { let artist: OrNull<String>, frames: Int, track: OrNull<String> }
    struct PosterEvent: Encodable, Sendable {
        let line: OrNull<Int>, next: OrNull<String>, poster: String, startMs: Int, text: OrNull<String>, track: String
    }
}
