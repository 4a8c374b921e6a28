import Foundation
import LyricPoster
import Testing

/// The checkout this example sits in, for its samples.
let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let coverFile = checkout.appendingPathComponent("samples/night-drive/cover.jpg").path
let lyricsFile = checkout.appendingPathComponent("samples/night-drive/night-drive.lrc").path
/// The command's release build, which `make test` makes first.
let command = checkout.appendingPathComponent(".build/release/lyricposter").path

/// Runs `executable` (a path, or the name of one of this package's programs, built beside the
/// tests) to its end: its exit status and what it printed.
func run(_ executable: String, _ arguments: [String] = [], in folder: URL? = nil,
         environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
    let program = Process()
    program.executableURL = executable.hasPrefix("/") ? URL(fileURLWithPath: executable)
        : URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(executable)
    program.arguments = arguments
    program.currentDirectoryURL = folder
    program.environment = environment
    let output = Pipe()
    program.standardOutput = output
    try program.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    program.waitUntilExit()
    return (program.terminationStatus, text)
}

/// LyricPoster as another package uses it: the `LyricPoster` product alone, by path.
@Suite struct PosterClientTests {
    let renderer: PosterRenderer
    let cover: Data

    init() throws {
        renderer = try PosterRenderer()
        cover = try Data(contentsOf: URL(fileURLWithPath: coverFile))
    }

    /// A song held in memory, as a server receives it: no file, no made-up path, and the title
    /// drawn is the one given or the lyrics' own, never the name the bytes were given.
    @Test func rendersFromBytes() async throws {
        let lyrics = Data("[00:01.00]only the words\n[00:05.00]and more words\n".utf8)
        let untitled = try Song(lyrics: lyrics, cover: cover, lyricsName: "upload-7f3a.lrc")
        let poster = try await renderer.render(untitled, at: .seconds(2), style: PosterStyle(preset: .square))
        #expect(try poster.pngData().starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(poster.report.boxes.contains { $0.text == "only the words" })
        #expect(!poster.report.boxes.contains { $0.text.contains("upload") }, "\(poster.report.boxes.map(\.text))")
        let pixels = poster.pixels()
        #expect(pixels.width == 1080 && pixels.height == 1080 && pixels.rgba.count == 1080 * 1080 * 4)
        let alphas: Set<UInt8> = Set(stride(from: 3, to: pixels.rgba.count, by: 4 * 997).map { pixels.rgba[$0] })
        #expect(alphas == [255], "opaque")
        #expect(try poster.jpegData().starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(try poster.webpData(quality: 80).starts(with: Array("RIFF".utf8)))

        let titled = try Song(lyrics: lyrics, cover: cover, title: "Night Drive", artist: "The Examples")
        let report = try await renderer.render(titled, at: .seconds(2), style: PosterStyle(preset: .square)).report
        #expect(report.boxes.contains { $0.text.contains("Night Drive") }, "\(report.boxes.map(\.text))")
    }

    /// One renderer, and one prepared song, shared by eight concurrent tasks give the bytes of
    /// the same posters rendered one after another.
    @Test func oneRendererSharedByEightTasks() async throws {
        let song = try Song(lyricsFile: lyricsFile, coverFile: coverFile)
        let style = PosterStyle(preset: .square)
        let instants = (0..<8).map { Timestamp.seconds(12 + 9.75 * Double($0)) }
        let (prepared, sequential) = try oneAfterAnother(song, style: style, at: instants)
        #expect(Set(sequential).count == 8, "eight different posters")

        let renderer = self.renderer
        let fromSongs = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for (i, time) in instants.enumerated() {
                group.addTask { (i, try await renderer.render(song, at: time, style: style).pngData()) }
            }
            return try await group.reduce(into: [Data](repeating: Data(), count: 8)) { $0[$1.0] = $1.1 }
        }
        #expect(fromSongs == sequential)
        let fromPrepared = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for (i, time) in (instants + instants).enumerated() {
                group.addTask { (i % 8, try await prepared.render(at: time).pngData()) }
            }
            return try await group.reduce(into: [Data](repeating: Data(), count: 8)) { $0[$1.0] = $1.1 }
        }
        #expect(fromPrepared == sequential)
    }

    /// The library's poster is the command's, byte for byte, for the same song, instant and style.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: command),
                   "SKIPPED: no release build of lyricposter to compare with (make build makes it; make test does first)"))
    func sameBytesAsTheCommand() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("poster-client-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: output) }
        let frame = try run(command, ["frame", coverFile, lyricsFile, "--at", "83.45", "--preset", "square", "--theme", "immersive",
                                      "--quiet", "-o", output.path])
        #expect(frame.status == 0)
        let song = try Song(lyricsFile: lyricsFile, coverFile: coverFile)
        let poster = try await renderer.render(song, at: .seconds(83.45), style: PosterStyle(preset: .square, theme: .immersive))
        #expect(try Data(contentsOf: output) == poster.pngData())
    }

    /// The README's program runs as written, in a folder with the samples, and makes its two pictures.
    @Test func theReadmeProgramRuns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poster-client-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("samples"),
                                                   withDestinationURL: checkout.appendingPathComponent("samples"))
        let example = try run("readme-example", in: folder)
        #expect(example.status == 0, "\(example.output)")
        for name in ["poster.png", "card.png"] {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name)")
        }
    }

    /// A backdrop cache only where the caller gives a folder: entries there, none elsewhere, and the
    /// same bytes from a cold cache, a warm one and none.
    @Test func theBackdropCacheIsInTheCallersFolder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poster-client-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let song = try Song(lyricsFile: lyricsFile, coverFile: coverFile)
        let style = PosterStyle(preset: .square)
        let cold = try await PosterRenderer(backdropCache: folder).render(song, at: .seconds(40), style: style)
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(entries.count == 1, "\(entries)")
        let warm = try await PosterRenderer(backdropCache: folder).render(song, at: .seconds(40), style: style)
        let none = try await renderer.render(song, at: .seconds(40), style: style)
        #expect(try cold.pngData() == warm.pngData())
        #expect(try cold.pngData() == none.pngData())
    }

    /// The synchronous twins: the song prepared, then its posters one after another.
    func oneAfterAnother(_ song: Song, style: PosterStyle, at instants: [Timestamp]) throws -> (PreparedSong, [Data]) {
        let prepared = try renderer.prepareBlocking(song, style: style)
        return (prepared, try instants.map { try prepared.renderBlocking(at: $0).pngData() })
    }

    /// Errors are values with evidence, switched on by case.
    /// A theme naming a font the renderer does not have still draws (with the bundled fonts) and
    /// says so in the library's words: no command-line flag in a library's warning.
    @Test func warningsNameNoFlags() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poster-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("theme.json")
        try Data("{\"base\": \"card\", \"font\": \"No Such Family\"}".utf8).write(to: file)
        let style = PosterStyle(theme: try ThemeFile.load(file.path))
        let prepared = try await renderer.prepare(try Song(lyricsFile: lyricsFile, coverFile: coverFile), style: style)
        let warning = try #require(prepared.warnings.first { $0.contains("No Such Family") }, "\(prepared.warnings)")
        #expect(!warning.contains("--"), "\(warning)")
        _ = try await prepared.render(at: .seconds(20))
    }

    /// A sequence of posters says what changed from one to the next, and each has the pixels of
    /// the poster rendered alone at the same instant.
    @Test func aSequenceSaysWhatChanged() async throws {
        let prepared = try await renderer.prepare(try Song(lyricsFile: lyricsFile, coverFile: coverFile),
                                                  style: PosterStyle(preset: .square))
        let sequence = try PosterSequence(prepared)
        var changes: [PosterChange] = []
        for ms in [31_000, 31_000, 31_400, 31_800, 40_000] {
            let (poster, change) = try sequence.poster(at: Timestamp(milliseconds: ms))
            changes.append(change)
            let alone = try await prepared.render(at: Timestamp(milliseconds: ms))
            #expect(poster.pixels() == alone.pixels(), "the sequence's poster at \(ms) ms is the one drawn alone")
        }
        #expect(changes[0] == .whole, "the first poster: \(changes)")
        #expect(changes[1] == .none, "the same instant again: \(changes)")
        for change in changes[2...] {
            if case .rows(let rows) = change { #expect(!rows.isEmpty && rows.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= 1080 }) }
        }
        #expect(changes[2...].contains { if case .rows = $0 { return true } else { return false } },
                "the sung line moving within a line changes some rows only: \(changes)")
    }

    @Test func errorsCanBeSwitchedOn() async throws {
        do {
            _ = try Song(lyrics: Data("words without any times\n".utf8), cover: cover, lyricsName: "notes.txt")
            Issue.record("lyrics without times were taken")
        } catch {
            switch error {
            case .lyrics(let path, .noTimedLines): #expect(path == "notes.txt")
            default: Issue.record("unexpected \(error)")
            }
        }

        let lyrics = Data("[00:01.00]a line\n[00:03.00]another\n".utf8)
        let strict = try Song(lyrics: lyrics, cover: cover, reading: Song.ReadingOptions(maxCoverPixels: 10_000))
        do {
            _ = try await renderer.render(strict, at: .seconds(2))
            Issue.record("a cover over the pixel limit was decoded")
        } catch {
            switch error {
            case .cover(let path, .tooLarge(let width, let height, let limit)):
                #expect(path == "cover" && limit == 10_000 && width * height > limit)
                #expect(!error.description.contains("--"), "names no flag: \(error)")
            default: Issue.record("unexpected \(error)")
            }
        }

        let long = (1...8).map { "[00:\(String(format: "%02d", $0 * 5)).00]" + String(repeating: "a long line of words ", count: 9) }
        let wordy = try Song(lyrics: Data(long.joined(separator: "\n").utf8), cover: cover)
        do {
            _ = try await renderer.card(wordy, lines: 1...8, style: PosterStyle(preset: .landscape))
            Issue.record("eight long lines fit a landscape card")
        } catch {
            guard case .cardDoesNotFit(_, let lines, let width, let height) = error else { Issue.record("unexpected \(error)"); return }
            #expect(lines == 8 && width == 1920 && height == 1080)
        }
    }

    /// The host's fontconfig configuration and its home folder are left as they were: the
    /// `host-check` program renders with HOME pointed at an empty folder.
    @Test func hostStateIsLeftAlone() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("poster-client-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CACHE_HOME"] = nil
        let (status, text) = try run("host-check", [coverFile], environment: environment)
        #expect(status == 0, "\(text)")
        let fonts: [Substring] = text.split(separator: "\n").first { $0.hasPrefix("fonts before") }?.split(separator: " ") ?? []
        #expect(fonts.count == 5, "\(text)")
        if fonts.count == 5 {
            #expect(fonts[2] == fonts[4], "the host's fonts: \(text)")
            #expect((Int(fonts[2]) ?? 0) > 0, "the host sees fonts: \(text)")
        }
        #expect(text.contains("configuration same"), "\(text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty, "nothing written in HOME")
    }
}
