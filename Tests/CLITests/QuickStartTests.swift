import Foundation
import XCTest

/// Every shell command in the README's "Quick start", run as written by `sh` (the library snippet
/// is ReadmeLibraryTests'): the first from a folder that holds the checkout's `samples/` and
/// `.build/release/lyricposter` as the README has them; the others with `lyricposter` on `$PATH`,
/// in a folder holding the files they name (`cover.jpg`, `song.lrc`, a real `song.flac` made by
/// ffmpeg with that sidecar and folder cover). `follow` runs against mpv playing `song.flac` on a
/// private session bus until its poster is written. Each command must succeed and leave the
/// picture or video it says it made.
final class QuickStartTests: FollowTestCase {
    var release: String { Self.package.appendingPathComponent(".build/release/lyricposter").path }

    /// The quick start's shell lines, block by block, trailing comments removed.
    static func quickStartCommands(_ readme: String) -> [[String]] {
        guard let start = readme.range(of: "\n## Quick start\n") else { return [] }
        let section = readme[start.upperBound...].components(separatedBy: "\n## ").first ?? ""
        return section.components(separatedBy: "```sh\n").dropFirst().map { block in
            (block.components(separatedBy: "```").first ?? "").split(separator: "\n").map { line in
                String(line.components(separatedBy: "  #").first ?? "").trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
        }
    }

    func testEveryQuickStartCommandRunsAsWritten() throws {
        guard FileManager.default.isExecutableFile(atPath: release) else {
            XCTFail("needs the release build the README names: run `make test`")
            throw XCTSkip("no .build/release/lyricposter")
        }
        let readme = try String(contentsOfFile: Self.package.path + "/README.md", encoding: .utf8)
        let blocks = Self.quickStartCommands(readme)
        XCTAssertEqual(blocks.count, 2, "the quick start has its samples block and its own-files block")
        let first = try XCTUnwrap(blocks.first?.first)
        XCTAssertTrue(first.hasPrefix(".build/release/lyricposter ") && first.contains("samples/"), first)
        let own = blocks.dropFirst().joined()
        for command in ["frame", "card", "video", "follow"] {
            XCTAssertTrue(own.contains { $0.hasPrefix("lyricposter \(command)") }, "the quick start shows \(command)")
        }

        // The checkout as the first command sees it, and a folder of one's own files.
        let checkout = temp("checkout"), mine = temp("mine"), bin = temp("bin")
        for folder in [checkout + "/.build/release", mine, bin, temp("runtime")] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(atPath: checkout + "/samples", withDestinationPath: Self.package.path + "/samples")
        try FileManager.default.createSymbolicLink(atPath: checkout + "/.build/release/lyricposter", withDestinationPath: release)
        try FileManager.default.createSymbolicLink(atPath: bin + "/lyricposter", withDestinationPath: release)
        try FileManager.default.copyItem(atPath: Self.package.path + "/" + cover, toPath: mine + "/cover.jpg")
        try FileManager.default.copyItem(atPath: Self.package.path + "/" + lyrics, toPath: mine + "/song.lrc")
        let made = try command("/usr/bin/ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                                                   "sine=frequency=330:duration=40", "-metadata", "title=Night Drive",
                                                   "-metadata", "artist=LyricPoster", mine + "/song.flac"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: mine + "/song.flac"), "ffmpeg made no song.flac: \(made)")

        var shell = environment
        shell["PATH"] = bin + ":/usr/local/bin:/usr/bin:/bin"
        shell["XDG_RUNTIME_DIR"] = temp("runtime")
        for (index, block) in blocks.enumerated() {
            let folder = index == 0 ? checkout : mine
            for line in block {
                if line.hasPrefix("lyricposter follow") {
                    try runFollow(line, in: folder, environment: shell)
                    continue
                }
                let before = Set(try files(folder))
                let result = try shellRun(line, in: folder, environment: shell)
                XCTAssertEqual(result.status, 0, "\(line)\n\(result.stderr)")
                // What it made: a new file in the folder, a picture or a video, named on stdout.
                let new = Set(try files(folder)).subtracting(before)
                XCTAssertEqual(new.count, 1, "\(line) made \(new.sorted())")
                let said = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
                for name in new {
                    XCTAssertTrue(said.contains(name), "\(line): stdout names \(name): \(result.stdout)")
                    let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
                    let png = Array(data.prefix(4)) == [0x89, 0x50, 0x4E, 0x47]
                    let mp4 = data.count > 12 && String(decoding: data[4..<8], as: UTF8.self) == "ftyp"
                    XCTAssertTrue(png || (name.hasSuffix(".mp4") && mp4), "\(line): \(name) is a PNG or an MP4")
                }
            }
        }
    }

    func shellRun(_ line: String, in folder: String, environment: [String: String]) throws -> Run {
        try run(["-c", line], environment: environment, executable: "/bin/sh", directory: folder)
    }

    /// `follow` as written, with mpv playing the song: its poster appears where it says.
    func runFollow(_ line: String, in folder: String, environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec " + line]
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let log = temp("follow.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        try mpv([folder + "/song.flac"])
        let poster = temp("runtime/lyricposter/now-playing.png")
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, (try? Data(contentsOf: URL(fileURLWithPath: poster)))?.prefix(4) != Data([0x89, 0x50, 0x4E, 0x47]) {
            usleep(50_000)
        }
        let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        XCTAssertTrue(process.isRunning, "\(line) keeps running while the player plays: \(said)")
        XCTAssertEqual((try? Data(contentsOf: URL(fileURLWithPath: poster)))?.prefix(4), Data([0x89, 0x50, 0x4E, 0x47]),
                       "\(line) wrote the poster of what plays to \(poster): \(said)")
    }
}
