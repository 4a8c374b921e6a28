/// Why a lyric file could not be turned into ``Lyrics``.
///
/// The descriptions are one short lower-case reason, without the file name; the CLI prints
/// `error: <path>: <description>`.
public enum LyricsError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The input has no bytes (or, for ``LRC/parse(_:encoding:options:)``, no characters).
    case empty
    /// The caller forced an encoding name that ``TextDecoding`` does not know. Carries the name as given.
    case unknownEncoding(String)
    /// The bytes are not valid text in the encoding named by the payload (or in any encoding tried,
    /// `"utf-8, gb18030 or windows-1252"`, when none was forced). Typical for binary files.
    case undecodable(String)
    /// The text decoded, but not one line carries a valid time tag.
    case noTimedLines
    /// The text is not valid in its format; the payload names the format and says where and why
    /// (`"not valid TTML: line 3: …"`).
    case invalid(String)
    /// The file is larger than its format's parser accepts; the payload says which limit.
    case tooLarge(String)

    public var description: String {
        switch self {
        case .empty:
            return "file is empty"
        case .unknownEncoding(let name):
            return "unknown encoding '\(name)' (known: \(TextDecoding.knownEncodings.joined(separator: ", ")))"
        case .undecodable(let name):
            return "not valid \(name) text (binary data, or another encoding)"
        case .noTimedLines:
            return "no timed lyric lines (not a lyric file?)"
        case .invalid(let reason):
            return reason
        case .tooLarge(let reason):
            return reason
        }
    }
}
