import Foundation
import LyricsCore
import PosterGraphics

/// Why a song could not be read, prepared or rendered.
///
/// Every case names the input it is about (`path`: a file, or the name a caller gave bytes in
/// memory) and carries its evidence, so that a caller can `switch` on it. ``description`` is one
/// line, `<path>: <reason>`, that names no command-line flag: the `lyricposter` command adds its
/// flag hints itself.
public enum PosterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file or stream could not be read (see ``InputProblem``).
    case input(path: String, InputProblem)
    /// The lyrics could not be decoded or parsed.
    case lyrics(path: String, LyricsError)
    /// The lyrics have more timed lines than the reading options allow.
    case tooManyLines(path: String, count: Int, limit: Int)
    /// No timed line of the lyrics has any text to sing (only gaps or credits).
    case nothingToSing(path: String)
    /// The cover could not be decoded (see ``CoverProblem``).
    case cover(path: String, CoverProblem)
    /// A card's lines do not fit its canvas whole, even at half size: a card never cuts a line.
    case cardDoesNotFit(path: String, lines: Int, width: Int, height: Int)
    /// A card's choice of lines that the lyrics cannot satisfy (see ``LineChoiceProblem``).
    case lineChoice(path: String, LineChoiceProblem)
    /// A card's QR code has no corner free of its text: it never covers a line.
    case qrHasNoRoom(path: String, width: Int, height: Int)
    /// Any other failure, as one line.
    case failed(path: String, reason: String)

    /// A failure described by its input's name and a reason (`failed(path:reason:)`).
    package init(path: String, reason: String) {
        self = .failed(path: path, reason: reason)
    }

    /// The file (or the name of the bytes) the error is about.
    public var path: String {
        switch self {
        case .input(let path, _), .lyrics(let path, _), .tooManyLines(let path, _, _), .nothingToSing(let path),
             .cover(let path, _), .cardDoesNotFit(let path, _, _, _), .lineChoice(let path, _), .failed(let path, _),
             .qrHasNoRoom(let path, _, _):
            return path
        }
    }

    /// Why, in one line, without the path.
    public var reason: String {
        switch self {
        case .input(_, let problem): return problem.description
        case .lyrics(_, let error): return error.description
        case .tooManyLines(_, let count, let limit): return "has \(count) timed lines, more than the limit of \(limit)"
        case .nothingToSing: return "no timed lyric line has any text (only gaps or credits)"
        case .cover(_, let problem): return problem.description
        case .cardDoesNotFit(_, let lines, let width, let height):
            return "the \(lines) chosen line\(lines == 1 ? "" : "s") do not fit a \(width)×\(height) card whole, even at half size; choose fewer lines"
        case .lineChoice(_, let problem): return problem.description
        case .qrHasNoRoom(_, let width, let height):
            return "the QR code finds no corner of the \(width)×\(height) card free of the chosen lines; choose fewer lines"
        case .failed(_, let reason): return reason
        }
    }

    public var description: String { "\(path): \(reason)" }
}

/// Why an input could not be read.
public enum InputProblem: Sendable, Equatable, CustomStringConvertible {
    case noSuchFile
    case isFolder
    case permissionDenied
    /// The input is larger than the reading options allow.
    case tooLarge(bytes: Int, limit: Int)
    /// Any other failure to read, as the system describes it.
    case unreadable(String)

    public var description: String {
        switch self {
        case .noSuchFile: return "no such file"
        case .isFolder: return "is a folder, not a file"
        case .permissionDenied: return "permission denied"
        case .tooLarge(let bytes, let limit): return "file is \(bytes) bytes, more than the limit of \(limit)"
        case .unreadable(let reason): return reason
        }
    }
}

/// Why a cover could not be decoded.
public enum CoverProblem: Sendable, Equatable, CustomStringConvertible {
    case empty
    /// Not a PNG, JPEG or WebP image.
    case unknownFormat
    /// Larger than the reading options' pixel limit.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// The image's bytes are broken; the reason says where.
    case malformed(String)

    package init(_ error: ImageError) {
        switch error {
        case .empty: self = .empty
        case .unknownFormat: self = .unknownFormat
        case .tooLarge(let width, let height, let limit): self = .tooLarge(width: width, height: height, limit: limit)
        case .malformed(let reason): self = .malformed(reason)
        }
    }

    public var description: String {
        switch self {
        case .empty: return ImageError.empty.description
        case .unknownFormat: return ImageError.unknownFormat.description
        case .tooLarge(let width, let height, let limit): return ImageError.tooLarge(width: width, height: height, limit: limit).description
        case .malformed(let reason): return reason
        }
    }
}

/// Why a card's choice of lines cannot be made from the lyrics.
public enum LineChoiceProblem: Sendable, Equatable, CustomStringConvertible {
    /// The lyrics have no numbered line at all.
    case noLines
    /// Lines were asked for past the last one (`available` lines, counted from 1).
    case pastTheEnd(ClosedRange<Int>, available: Int)
    /// No line is sung at or after the instant asked for.
    case nothingSungAfter(Timestamp)
    /// The choice spans more lines than a card takes.
    case tooManyLines(Int, limit: Int)
    /// The quote to find is empty.
    case emptyQuote
    /// Any other reason (a quote that matches nothing, or several places).
    case other(String)

    public var description: String {
        switch self {
        case .noLines: return "has no lyric line to put on a card"
        case .pastTheEnd(let range, let available):
            return "lines \(LineChoice.describe(range)): the lyrics have \(available) line\(available == 1 ? "" : "s")"
        case .nothingSungAfter(let time): return "\(time): no line is sung at or after that time"
        case .tooManyLines(let count, let limit): return "the choice spans \(count) lines, more than the \(limit) a card takes"
        case .emptyQuote: return "the quote is empty"
        case .other(let reason): return reason
        }
    }
}

extension PosterError {
    static func reading(_ path: String, _ error: any Error) -> PosterError {
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain {
            switch nsError.code {
            case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return .input(path: path, .noSuchFile)
            case NSFileReadNoPermissionError: return .input(path: path, .permissionDenied)
            default: break
            }
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return .input(path: path, .isFolder)
        }
        if !FileManager.default.fileExists(atPath: path) { return .input(path: path, .noSuchFile) }
        return .input(path: path, .unreadable("cannot read: \(nsError.localizedDescription)"))
    }
}
