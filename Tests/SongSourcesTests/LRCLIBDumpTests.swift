import Foundation
import Testing
@testable import LyricsDatabase
@testable import SongSources

/// The LRCLIB dump and the lyrics folder index in process: LRCLIB's normalisation checked against
/// the dump generator's own (Tests/Fixtures/make-lrclib-db.py, written from LRCLIB's server), and
/// both `Sendable` types used from many tasks at once (ThreadSanitizer runs this).
@Suite struct LRCLIBDumpTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let generator = package.appendingPathComponent("Tests/Fixtures/make-lrclib-db.py").path

    static func python(_ arguments: [String], input: Data? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = arguments
        let out = Pipe(), into = Pipe()
        process.standardOutput = out
        process.standardInput = into
        try process.run()
        if let input { into.fileHandleForWriting.write(input) }
        try into.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return data
    }

    static func dump() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lyricposter-lrclib-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("dump.sqlite3").path
        _ = try python([generator, path])
        return path
    }

    @Test func normalisedAsLRCLIBNormalises() throws {
        let samples = ["Don't Stop (Remix)", "A.B.C.", "Café Señor", "Ünïcode Band", "  Spaces\tand\nlines  ", "Straße", "ÆON Flux",
                       "Ｆｕｌｌｗｉｄｔｈ", "が ぎ ぐ", "Мой Рок-н-ролл", "what’s up?", "C++ & C#", "[Live] {2024}", "Ⓐ circled", "ﬁne",
                       "İstanbul", "ǅemal", "Ñoño", "Ärger über Öl", "mix_of-every=thing|here/and\\there", "東京事変 — 群青日和", "ABBA",
                       "Beyoncé feat. JAY-Z", "Œuvre", "Łódź", "ı dotless", "a    b", "", "’’", "ß",
        ]
        let script = """
            import importlib.util, json, sys
            spec = importlib.util.spec_from_file_location('gen', sys.argv[1]); gen = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(gen)
            print(json.dumps([gen.prepare_input(s) for s in json.load(sys.stdin)]))
            """
        let expected = try JSONSerialization.jsonObject(with: try Self.python(["-c", script, Self.generator],
                                                                               input: try JSONSerialization.data(withJSONObject: samples))) as? [String]
        let got = samples.map(LRCLIBDump.normalised)
        #expect(got == expected, "\(zip(samples, zip(got, expected ?? [])).filter { $1.0 != $1.1 }.map { "\($0): \($1.0) vs \($1.1)" })")
    }

    @Test func oneDumpServesManyTasksAtOnce() async throws {
        let dump = try LRCLIBDump(path: try Self.dump())
        let questions: [(String, String, String?, Int?)] = [
            ("Paper Moon", "The Lanterns", "Night Songs", 200_000), ("Paper Moon", "The Lanterns", "Live at the Harbour", 260_000),
            ("Quiet Field", "The Lanterns", nil, nil), ("Cafe Senor", "Unicode Band", nil, 150_500), ("Nothing", "Nobody", nil, nil),
            ("Second Thoughts", "The Lanterns", nil, 190_000),
        ]
        let expected = try questions.map { try dump.lookup(title: $0.0, artist: $0.1, album: $0.2, durationMs: $0.3) }
        #expect(expected.map { $0?.trackID } == [1, 2, 3, 4, nil, 7])
        #expect(expected[2]?.instrumental == true)
        #expect(expected[5]?.synced == "[00:01.00]New version\n")
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<100 {
                        let index = (task + round) % questions.count
                        let question = questions[index]
                        let found = try dump.lookup(title: question.0, artist: question.1, album: question.2, durationMs: question.3)
                        if found != expected[index] { return false }
                    }
                    return true
                }
            }
            for try await same in group { #expect(same) }
        }
    }

    @Test func theFolderIndexServesManyTasksWhileTheFolderChanges() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lyricposter-lyrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("a"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for index in 0..<50 {
            try Data("[ar:Artist \(index % 5)]\n[ti:Title \(index)]\n[00:01.00]x\n".utf8).write(to: folder.appendingPathComponent("a/\(index).lrc"))
        }
        let index = LyricsFolderIndex()
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<40 {
                        let n = (task * 7 + round) % 50
                        let found = index.match(LyricsPlaces.Song(title: "title \(n)", artist: "ARTIST \(n % 5)"), in: [folder.path])
                        if found != folder.appendingPathComponent("a/\(n).lrc").path { return false }
                    }
                    return true
                }
            }
            // The folder changes while they look: a new file is found afterwards.
            group.addTask {
                try Data("[ar:Someone]\n[ti:Late]\n[00:01.00]x\n".utf8).write(to: folder.appendingPathComponent("a/late.lrc"))
                return true
            }
            for try await same in group { #expect(same) }
        }
        #expect(index.match(LyricsPlaces.Song(title: "Late", artist: "Someone"), in: [folder.path])?.hasSuffix("late.lrc") == true)
    }
}
