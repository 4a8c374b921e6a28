import Foundation

/// Programs this tool starts (ffmpeg, ffprobe, xdg-open), found on $PATH.
package enum Executable {
    /// `name`'s full path in the first $PATH folder that has it as an executable file.
    package static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
