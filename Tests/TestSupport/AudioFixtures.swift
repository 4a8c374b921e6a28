import Foundation

/// The audio fixtures of Tests/Fixtures/make-audio.py (ffmpeg + Debian's python3-mutagen),
/// generated once per test process and shared by every test target that reads audio files.
public enum AudioFixtures {
    public static let folder: Result<URL, Error> = Result { try GeneratedFixtures.make("make-audio.py", into: "audio-fixtures") }

    public static func path(_ name: String) throws -> String { try folder.get().appendingPathComponent(name).path }
}

/// Fixtures made by a script of Tests/Fixtures (ffmpeg + Debian's python3-mutagen) into
/// `.build/<folder>`; callers keep the result in a `static let`, so each is made once per process.
public enum GeneratedFixtures {
    public static func make(_ script: String, into folder: String) throws -> URL {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let out = root.appendingPathComponent(".build/" + folder)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [root.appendingPathComponent("Tests/Fixtures/" + script).path, out.path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "GeneratedFixtures", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: "\(script) failed (needs ffmpeg and python3-mutagen: make test installs them)"])
        }
        return out
    }
}
