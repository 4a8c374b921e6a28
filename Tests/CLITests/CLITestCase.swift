import Foundation
import XCTest

/// Runs the built `lyricposter` binary in a scratch folder per test.
class CLITestCase: XCTestCase {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The binary next to the test bundle (`swift test` builds it into the same folder).
    static var binary: URL {
        let bundle = Bundle(for: CLITestCase.self).bundleURL
        let candidates = [bundle, bundle.deletingLastPathComponent(), bundle.appendingPathComponent("debug"),
                          package.appendingPathComponent(".build/debug")]
        return candidates.map { $0.appendingPathComponent("lyricposter") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0].appendingPathComponent("lyricposter")
    }

    var work: URL!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("lyricposter-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: work.path)
        if ProcessInfo.processInfo.environment["LYRICPOSTER_KEEP_WORK"] == nil {
            try? FileManager.default.removeItem(at: work)
            try? FileManager.default.removeItem(atPath: cacheHome)
        }
    }

    /// The test's cache folder (`XDG_CACHE_HOME`), beside the scratch folder so tests that list
    /// the scratch folder see only what they wrote.
    var cacheHome: String { work.path + "-cache" }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs with the backdrop cache in the test's scratch folder (never the user's), plus `environment`.
    /// `executable` runs instead of the binary when given (e.g. a shell that sets limits first);
    /// `directory`: the folder it runs in (the package's by default).
    func start(_ arguments: [String], environment: [String: String] = [:], executable: String? = nil,
               directory: String? = nil) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = executable.map { URL(fileURLWithPath: $0) } ?? Self.binary
        process.arguments = arguments
        var inherited = ProcessInfo.processInfo.environment
        inherited.removeValue(forKey: "LYRICPOSTER_NO_CACHE")
        process.environment = inherited.merging(["XDG_CACHE_HOME": cacheHome].merging(environment) { $1 }) { $1 }
        process.currentDirectoryURL = directory.map { URL(fileURLWithPath: $0) } ?? Self.package
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }

    @discardableResult
    func run(_ arguments: [String], environment: [String: String] = [:], executable: String? = nil, directory: String? = nil) throws -> Run {
        let (process, out, err) = try start(arguments, environment: environment, executable: executable, directory: directory)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
    }

    let cover = "samples/night-drive/cover.jpg"
    let lyrics = "samples/night-drive/night-drive.lrc"
    func fixture(_ name: String) -> String { "Tests/Fixtures/covers/\(name)" }
    func temp(_ name: String) -> String { work.appendingPathComponent(name).path }

    func write(_ text: String, to name: String) throws -> String {
        let path = temp(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func files(_ folder: String? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder ?? work.path).sorted()
    }

    func json(_ path: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        return try XCTUnwrap(object as? [String: Any])
    }

    /// Runs `/usr/bin/<name>` (ffmpeg, ffprobe, …): its exit status, standard output and error.
    func tool(_ name: String, _ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + name)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, data, error)
    }

    /// The file's SHA-256 in hex (coreutils' sha256sum).
    func sha256(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: out, as: UTF8.self).prefix(64))
    }
}
