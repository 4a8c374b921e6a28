import Foundation

/// A failure tied to one file: the CLI prints `error: <path>: <reason>` and exits 1.
public struct PosterError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "\(path): \(reason)" }
}

extension PosterError {
    static func reading(_ path: String, _ error: any Error) -> PosterError {
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain {
            switch nsError.code {
            case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return PosterError(path: path, reason: "no such file")
            case NSFileReadNoPermissionError: return PosterError(path: path, reason: "permission denied")
            default: break
            }
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return PosterError(path: path, reason: "is a folder, not a file")
        }
        if !FileManager.default.fileExists(atPath: path) { return PosterError(path: path, reason: "no such file") }
        return PosterError(path: path, reason: "cannot read: \(nsError.localizedDescription)")
    }
}
