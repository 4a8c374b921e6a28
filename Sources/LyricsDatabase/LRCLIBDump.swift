import CSQLite
import Foundation
import Locks
import LyricsCore

/// A local dump of LRCLIB's lyrics database (the SQLite file lrclib.net publishes), opened
/// read-only, in which a song is looked up as LRCLIB's own `GET /api/get` does: by normalised
/// title and artist, within ±2 s of the song's duration when it is known, and by album when one
/// is given (``lookup(title:artist:album:durationMs:)``).
///
/// A dump is 40–100 GB: it is never read whole. Opening reads the schema only, and refuses a
/// file that is not LRCLIB's (the `tracks` and `lyrics` tables with the columns a lookup reads)
/// or that lacks the index on `tracks(name_lower)` a lookup needs, since without it every lookup
/// would read the whole table. A lookup reads a handful of index and table pages.
///
/// Thread-safe: one connection, each lookup under its lock. The corresponding C type is `sqlite3`.
public final class LRCLIBDump: Sendable {
    /// Why a dump cannot be used; each names the file.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The file cannot be opened (missing, unreadable, not SQLite).
        case unreadable(path: String, reason: String)
        /// A SQLite file, but not LRCLIB's schema: what is missing.
        case notLRCLIB(path: String, missing: String)
        /// A query failed (a damaged file).
        case query(path: String, reason: String)

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): "\(path): cannot open the LRCLIB database: \(reason)"
            case .notLRCLIB(let path, let missing): "\(path): not an LRCLIB database dump: \(missing)"
            case .query(let path, let reason): "\(path): LRCLIB database lookup failed: \(reason)"
            }
        }
    }

    /// What a lookup found for a song.
    public struct Found: Hashable, Sendable {
        /// `tracks.id`, for messages (`lrclib:1234`).
        public var trackID: Int64
        public var title: String
        public var artist: String
        public var album: String?
        /// The track's duration in milliseconds.
        public var durationMs: Int
        /// LRC text with times, or `nil`.
        public var synced: String?
        /// The text without times, or `nil`.
        public var plain: String?
        public var instrumental: Bool
    }

    public let path: String
    private let connection: Guarded<Connection>

    /// Opens `path` read-only and checks that it is an LRCLIB dump.
    public init(path: String) throws(Failure) {
        self.path = path
        var handle: OpaquePointer?
        // Read-only, no shared-cache, no mutex of SQLite's own: our lock serialises every use.
        let status = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(handle)
            throw .unreadable(path: path, reason: FileManager.default.fileExists(atPath: path) ? reason : "no such file")
        }
        let connection = Connection(handle: handle)
        try Self.checkSchema(connection, path: path)
        self.connection = Guarded(connection)
    }

    /// The columns a lookup reads, by table.
    static let needed: [(table: String, columns: [String])] = [
        ("tracks", ["id", "name", "name_lower", "artist_name", "artist_name_lower", "album_name", "album_name_lower", "duration", "last_lyrics_id"]),
        ("lyrics", ["id", "plain_lyrics", "synced_lyrics", "instrumental"]),
    ]

    private static func checkSchema(_ connection: Connection, path: String) throws(Failure) {
        do {
            for (table, columns) in needed {
                let present = Set(try connection.rows("SELECT name FROM pragma_table_info(?)", [table]).compactMap { $0.first ?? nil })
                guard !present.isEmpty else { throw Failure.notLRCLIB(path: path, missing: "no `\(table)` table") }
                let missing = columns.filter { !present.contains($0) }
                guard missing.isEmpty else {
                    throw Failure.notLRCLIB(path: path, missing: "table `\(table)` has no column \(missing.map { "`\($0)`" }.joined(separator: ", "))")
                }
            }
            let indexed = try connection.rows("SELECT name FROM pragma_index_list('tracks')", []).compactMap { $0.first ?? nil }
            var covered = false
            for index in indexed {
                let first = try connection.rows("SELECT name FROM pragma_index_info(?) ORDER BY seqno LIMIT 1", [index]).first?.first ?? nil
                if first == "name_lower" { covered = true }
            }
            guard covered else {
                throw Failure.notLRCLIB(path: path, missing: "no index on tracks(name_lower): every lookup would read the whole file")
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .notLRCLIB(path: path, missing: "\(error)")
        }
    }

    /// The song's lyrics, looked up as LRCLIB's `/api/get` does: `name_lower` and
    /// `artist_name_lower` equal to the normalised title and artist (``normalised(_:)``), the
    /// duration within ±2 s when `durationMs` is given, `album_name_lower` equal to the
    /// normalised album when `album` is given and not empty. Of the tracks that match, one with
    /// synced lyrics wins, then one marked instrumental, then any (lowest id first within each,
    /// as LRCLIB orders them); `nil` when none matches.
    public func lookup(title: String, artist: String, album: String? = nil, durationMs: Int? = nil) throws(Failure) -> Found? {
        let name = Self.normalised(title), artistName = Self.normalised(artist)
        guard !name.isEmpty, !artistName.isEmpty else { return nil }
        var sql = """
            SELECT tracks.id, tracks.name, tracks.artist_name, tracks.album_name, tracks.duration,
                   lyrics.instrumental, lyrics.plain_lyrics, lyrics.synced_lyrics
            FROM tracks LEFT JOIN lyrics ON tracks.last_lyrics_id = lyrics.id
            WHERE tracks.name_lower = ? AND tracks.artist_name_lower = ?
            """
        var values: [Connection.Value] = [.text(name), .text(artistName)]
        if let durationMs {
            sql += " AND tracks.duration >= ? AND tracks.duration <= ?"
            values += [.real(Double(durationMs) / 1000 - 2), .real(Double(durationMs) / 1000 + 2)]
        }
        if let album, case let albumName = Self.normalised(album), !albumName.isEmpty {
            sql += " AND tracks.album_name_lower = ?"
            values.append(.text(albumName))
        }
        sql += """
             ORDER BY (lyrics.synced_lyrics IS NOT NULL AND lyrics.synced_lyrics != '') DESC,
                      COALESCE(lyrics.instrumental, 0) DESC, tracks.id LIMIT 1
            """
        let path = self.path
        return try connection.withLock { connection throws(Failure) -> Found? in
            do {
                guard let row = try connection.row(sql, values) else { return nil }
                guard case .integer(let id) = row[0] else { return nil }
                return Found(trackID: id, title: row[1].text ?? title, artist: row[2].text ?? artist, album: row[3].text,
                             durationMs: Int(((row[4].real ?? 0) * 1000).rounded()), synced: row[7].text.flatMap { $0.isEmpty ? nil : $0 },
                             plain: row[6].text.flatMap { $0.isEmpty ? nil : $0 }, instrumental: (row[5].integer ?? 0) != 0)
            } catch {
                throw .query(path: path, reason: "\(error)")
            }
        }
    }

    /// A title, artist or album as LRCLIB stores it in `*_lower` (its `prepare_input`): each
    /// character lower-cased and, for Latin letters, stripped of diacritics as the `secular`
    /// crate does (`é` → `e`, `ß` → `s`; other scripts keep their marks: `が` stays); each of
    /// `` `~!@#$%^&*()_|+-=?;:",.<>{}[]\/ `` a space; apostrophes (`'`, `’`) removed; runs of
    /// whitespace one space, trimmed. The text is composed (NFC) first, as tags from some systems
    /// arrive decomposed.
    public static func normalised(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        func space() { if let last = out.last, last != " " { out.append(" ") } }
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar == "'" || scalar == "\u{2019}" { continue }
            if punctuation.contains(scalar) || scalar.properties.isWhitespace { space(); continue }
            if let lay = layLetter(scalar) {
                out.append(lay)
            } else {
                for lower in String(scalar).lowercased().unicodeScalars {
                    if lower.properties.isWhitespace { space() } else { out.append(lower) }
                }
            }
        }
        while out.last == " " { out.removeLast() }
        return String(out)
    }

    /// The plain lower-case letter of a Latin letter with diacritics (by its Unicode name:
    /// `LATIN SMALL LETTER E WITH ACUTE` → `e`, circled and full-width forms too), or of the few
    /// letters `secular` folds besides; `nil` for anything else.
    static func layLetter(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        if let extra = layExtras[scalar] { return extra }
        guard scalar.value < 0x10000, let name = scalar.properties.name else { return nil }
        for prefix in ["LATIN CAPITAL LETTER ", "LATIN SMALL LETTER ", "CIRCLED LATIN CAPITAL LETTER ", "CIRCLED LATIN SMALL LETTER ",
                       "FULLWIDTH LATIN CAPITAL LETTER ", "FULLWIDTH LATIN SMALL LETTER "] where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count).unicodeScalars
            guard let letter = rest.first, ("A"..."Z").contains(letter) else { return nil }
            let tail = String(String.UnicodeScalarView(rest.dropFirst()))
            guard tail.isEmpty || (tail.hasPrefix(" WITH ") && !tail.hasPrefix(" WITH SMALL LETTER")) else { return nil }
            return Unicode.Scalar(letter.value + 32)
        }
        return nil
    }

    private static let layExtras: [Unicode.Scalar: Unicode.Scalar] = [
        "ß": "s", "ẞ": "s", "ı": "i", "ŉ": "n", "ẛ": "s", "ſ": "l", "Ɛ": "e", "ɛ": "e", "Ǝ": "e", "ǝ": "e",
        "Ɔ": "o", "ɔ": "o", "ɵ": "o", "Ɐ": "a", "ɐ": "a", "Ʌ": "v", "ʌ": "v", "Ʉ": "u", "ʉ": "u", "Ɖ": "d",
        "Ɯ": "m", "ɯ": "m", "Ɋ": "q",
    ]

    private static let punctuation = Set("`~!@#$%^&*()_|+-=?;:\",.<>{}[]\\/".unicodeScalars)
}

/// One SQLite connection: statements prepared, bound, stepped and finalised here only.
final class Connection {
    enum Value {
        case integer(Int64)
        case real(Double)
        case text(String)
        case null

        var text: String? { if case .text(let value) = self { value } else { nil } }
        var real: Double? {
            switch self {
            case .real(let value): value
            case .integer(let value): Double(value)
            default: nil
            }
        }
        var integer: Int64? {
            switch self {
            case .integer(let value): value
            case .real(let value): Int64(value)
            case .text(let value): Int64(value) ?? (value.lowercased() == "true" ? 1 : nil)
            case .null: nil
            }
        }
    }

    struct SQLError: Error, CustomStringConvertible {
        var description: String
    }

    private let handle: OpaquePointer

    init(handle: OpaquePointer) { self.handle = handle }
    deinit { sqlite3_close_v2(handle) }

    /// The first row of `sql` with `values` bound, or `nil`.
    func row(_ sql: String, _ values: [Value]) throws -> [Value]? {
        try rows(sql, values.map { $0 }, limit: 1).first
    }

    /// Rows of text for schema queries (each column as text or `nil`).
    func rows(_ sql: String, _ texts: [String]) throws -> [[String?]] {
        try rows(sql, texts.map { Value.text($0) }, limit: 10_000).map { $0.map(\.text) }
    }

    private func rows(_ sql: String, _ values: [Value], limit: Int) throws -> [[Value]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw SQLError(description: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let status: Int32 = switch value {
            case .integer(let number): sqlite3_bind_int64(statement, position, number)
            case .real(let number): sqlite3_bind_double(statement, position, number)
            case .text(let text): sqlite3_bind_text(statement, position, text, -1, lp_sqlite_transient())
            case .null: sqlite3_bind_null(statement, position)
            }
            guard status == SQLITE_OK else { throw SQLError(description: String(cString: sqlite3_errmsg(handle))) }
        }
        var result: [[Value]] = []
        while result.count < limit {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw SQLError(description: String(cString: sqlite3_errmsg(handle))) }
            var row: [Value] = []
            for column in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
                case SQLITE_FLOAT: row.append(.real(sqlite3_column_double(statement, column)))
                case SQLITE_TEXT, SQLITE_BLOB:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    if let bytes = sqlite3_column_text(statement, column) {
                        row.append(.text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)))
                    } else {
                        row.append(.null)
                    }
                default: row.append(.null)
                }
            }
            result.append(row)
        }
        return result
    }
}
