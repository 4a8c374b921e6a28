import Foundation

/// The audio fixtures of Tests/Fixtures/make-audio.py (ffmpeg + Debian's python3-mutagen),
/// generated once per test process and shared by every test target that reads audio files.
public enum AudioFixtures {
    public static let folder: Result<URL, Error> = Result {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let out = root.appendingPathComponent(".build/audio-fixtures")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [root.appendingPathComponent("Tests/Fixtures/make-audio.py").path, out.path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "AudioFixtures", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: "make-audio.py failed (needs ffmpeg and python3-mutagen: make test installs them)"])
        }
        return out
    }

    public static func path(_ name: String) throws -> String { try folder.get().appendingPathComponent(name).path }
}
