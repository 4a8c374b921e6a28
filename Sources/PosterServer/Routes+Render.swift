import Foundation
import HTTPTypes
import Hummingbird
import LyricPoster
import SongSources
import LyricsCore
import MediaTags
import MultipartKit
import NIOCore

/// `POST /api/render`: a stateless renderer for apps. A multipart form with `cover` and `lyrics`
/// files (or one `audio` file) and the frame's or card's parameters as fields; the answer is the
/// PNG `lyricposter frame` (with `at`) or `lyricposter card` (with `lines` or `quote`) writes for
/// the same files and options. Nothing is kept: the files live in a private temporary folder for
/// the length of the request.
extension Routes {
    static let uploadFields: Set<String> = ["cover", "lyrics", "audio"]
    static let maxParts = 32

    func render(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let form = try await Self.readForm(request, limit: configuration.maxUploadBytes)
        let sent = Set(form.files.keys)
        guard sent == ["cover", "lyrics"] || sent == ["audio"] else { throw APIError(.badRequest, "send the files cover and lyrics, or audio") }
        var query: [(String, String)] = []
        for (name, value) in form.fields {
            guard Self.renderParameters.contains(name) || ["at", "lines", "quote", "karaoke"].contains(name) else {
                throw APIError(.badRequest, "\(name): not a render field (cover, lyrics or audio, at, lines or quote, \(Self.renderParameters.joined(separator: ", ")), karaoke)")
            }
            query.append((name, value))
        }
        let fields = Dictionary(query, uniquingKeysWith: { first, _ in first })
        let parameters = try checkedParameters { fields[$0] }
        let choice: LineChoice? = fields["at"] == nil ? try Self.choice(lines: fields["lines"], quote: fields["quote"]) : nil
        var options = try makeOptions(parameters, timed: choice == nil)
        if choice == nil {
            guard let at = fields["at"] else { throw APIError(.badRequest, "give at=MS for a frame, or lines=A-B or quote=TEXT for a card") }
            _ = try Self.integer(at, name: "at", in: -Self.maxTimeMs...Self.maxTimeMs)
            if try Self.flag(fields["karaoke"], name: "karaoke") == false { options = try makeOptions(parameters + [("karaoke", "false")], timed: true) }
        }
        let at = fields["at"].flatMap { Int($0) } ?? 0

        // The files, under the names they were sent with (a lyrics file's name is a title of last
        // resort, as on the command line), in a folder only this request uses.
        let folder = try Self.privateFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source: SongSource
        switch (form.files["cover"], form.files["lyrics"], form.files["audio"]) {
        case (let cover?, let lyrics?, nil):
            let coverPath = folder + "/" + Self.safeName(cover.filename, fallback: "cover")
            let lyricsPath = folder + "/lyrics-" + Self.safeName(lyrics.filename, fallback: "lyrics.lrc")
            try Self.write(cover.bytes, to: coverPath)
            try Self.write(lyrics.bytes, to: lyricsPath)
            source = .files(cover: coverPath, lyrics: lyricsPath)
        case (nil, nil, let audio?):
            let name = Self.safeName(audio.filename, fallback: "")
            guard MediaTags.isAudioFile(name) else {
                throw APIError(.unsupportedMediaType, "audio: the file name must end in one of \(MediaTags.audioExtensions.sorted().joined(separator: ", "))")
            }
            let path = folder + "/" + name
            try Self.write(audio.bytes, to: path)
            source = .audio(path, cover: nil, lyrics: nil)
        default:
            throw APIError(.badRequest, "send the files cover and lyrics, or audio")
        }
        let chosen = options
        let png = try await renderer.render { () throws -> [UInt8] in
            let options = chosen
            do {
                let session = try PosterSession(source: source, options: options)
                if let choice { return try session.renderCard(choice).png }
                return try session.render(at: Timestamp(milliseconds: at)).png
            } catch let error as PosterError {
                // Name the form field, not the temporary path.
                throw APIError(.unprocessableContent, Self.fieldName(error, folder: folder))
            }
        }
        return Response(status: .ok, headers: [.contentType: "image/png", .contentLength: String(png.count), .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: png)))
    }

    static func choice(lines: String?, quote: String?) throws -> LineChoice {
        switch (lines, quote) {
        case (let lines?, nil):
            guard let ranges = LineChoice.parseNumbers(lines) else {
                throw APIError(.badRequest, "lines: line numbers or ranges such as 7, 7-9 or 3,7-8, ascending")
            }
            guard LineChoice.count(ranges) <= LineChoice.maxLines else { throw APIError(.badRequest, "lines: at most \(LineChoice.maxLines)") }
            return .numbers(ranges)
        case (nil, let quote?):
            guard !LineChoice.normalise(quote).isEmpty, quote.utf8.count <= 1024 else {
                throw APIError(.badRequest, "quote: some text, at most 1024 bytes")
            }
            return .quote(quote)
        default:
            throw APIError(.badRequest, "give lines=A-B or quote=TEXT")
        }
    }

    /// A client's file name made safe as a name in the private folder: its last component, no
    /// control characters, at most 100 bytes, not hidden.
    static func safeName(_ name: String?, fallback: String) -> String {
        let last = (name ?? "").split(separator: "/").last.map(String.init) ?? ""
        var cleaned = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && $0 != "\\" }.map(Character.init))
        // Shortened from the front (keeping the extension), then no leading dots.
        while cleaned.utf8.count > 100 { cleaned.removeFirst() }
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        return cleaned.isEmpty ? fallback : cleaned
    }

    static func privateFolder() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/lyricposter-render-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw APIError(.internalServerError, "cannot make a temporary folder") }
        return String(cString: made)
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            throw APIError(.internalServerError, "cannot keep the upload")
        }
    }

    /// An error's message with the temporary path replaced by the form field it came from.
    static func fieldName(_ error: PosterError, folder: String) -> String {
        let text = error.description
        guard text.hasPrefix(folder + "/") else { return error.reason }
        let name = String(text.dropFirst(folder.count + 1))
        let field = name.hasPrefix("lyrics-") ? "lyrics" : (MediaTags.isAudioFile(name.components(separatedBy: ":").first ?? "") ? "audio" : "cover")
        return "\(field): \(error.reason)"
    }

    // MARK: The form

    struct Upload {
        var filename: String?
        var bytes: [UInt8]
    }

    struct Form {
        var fields: [(String, String)] = []
        var files: [String: Upload] = [:]
    }

    /// Reads a `multipart/form-data` body of at most `limit` bytes (413 beyond it) with
    /// MultipartKit's parser: files by field name, the other fields as text (at most 1 KiB each).
    /// The request's body, at most `limit` bytes: refused (413, `tooLarge`) from its stated length,
    /// or as soon as more arrives.
    static func readBody(_ request: Request, limit: Int, tooLarge: String) async throws -> [UInt8] {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw APIError(.contentTooLarge, tooLarge)
        }
        var body: [UInt8] = []
        for try await chunk in request.body {
            guard body.count + chunk.readableBytes <= limit else { throw APIError(.contentTooLarge, tooLarge) }
            body.append(contentsOf: chunk.readableBytesView)
        }
        return body
    }

    static func readForm(_ request: Request, limit: Int) async throws -> Form {
        guard let type = request.headers[.contentType], type.lowercased().hasPrefix("multipart/form-data") else {
            throw APIError(.unsupportedMediaType, "send multipart/form-data")
        }
        guard let boundary = boundary(type) else { throw APIError(.badRequest, "Content-Type: no multipart boundary") }
        let body = try await readBody(request, limit: limit, tooLarge: "the body is larger than \(limit >> 20) MiB")
        let reader = FormReader(boundary: boundary)
        try reader.feed(ByteBuffer(bytes: body))
        return try reader.finish()
    }

    /// The `boundary` parameter of a multipart Content-Type (1 to 70 characters, as RFC 2046 allows).
    static func boundary(_ contentType: String) -> String? {
        guard let value = parameter("boundary", in: contentType), (1...70).contains(value.utf8.count) else { return nil }
        return value
    }

    /// A `name=value` or `name="value"` parameter of a header value.
    static func parameter(_ name: String, in header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let pair = piece.trimmingCharacters(in: .whitespaces)
            guard let equals = pair.firstIndex(of: "="), pair[..<equals].lowercased() == name else { continue }
            var value = String(pair[pair.index(after: equals)...])
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }
}

/// A `multipart/form-data` body read part by part with MultipartKit's parser: files by field
/// name (cover, lyrics, audio), other fields as text of at most 1 KiB, at most 32 parts, no field
/// twice. Any violation is a 400 naming it.
final class FormReader {
    private let parser: MultipartParser
    private var form = Routes.Form()
    private var name: String?, filename: String?, bytes: [UInt8] = [], count = 0
    private var failure: APIError?
    private var complete = false

    /// `boundary`: 1 to 70 characters (the parser requires one).
    private let boundary: String

    init(boundary: String) {
        self.boundary = boundary
        parser = MultipartParser(boundary: boundary)
        parser.onHeader = { [unowned self] field, value in
            guard field.lowercased() == "content-disposition" else { return }
            name = Routes.parameter("name", in: value)
            filename = Routes.parameter("filename", in: value)
        }
        parser.onBody = { [unowned self] buffer in
            bytes.append(contentsOf: buffer.readableBytesView)
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        }
        parser.onPartComplete = { [unowned self] in partComplete() }
    }

    /// The whole body, or one piece of it.
    func feed(_ chunk: ByteBuffer) throws {
        // MultipartKit 4.7.1 traps (an index out of range) on a byte above 0x7F in a part's
        // header name: refuse those before its parser sees them. A header name is ASCII anyway.
        guard Self.headerNamesAreASCII(Array(chunk.readableBytesView), boundary: boundary) else {
            throw APIError(.badRequest, "a form part's header name is not ASCII")
        }
        do { try parser.execute(chunk) } catch { throw APIError(.badRequest, "the form is not valid multipart/form-data") }
        if let failure { throw failure }
    }

    func finish() throws -> Routes.Form {
        if let failure { throw failure }
        return form
    }

    private func partComplete() {
        defer { name = nil; filename = nil; bytes = [] }
        count += 1
        guard failure == nil else { return }
        guard count <= Routes.maxParts else { failure = APIError(.badRequest, "at most \(Routes.maxParts) form fields"); return }
        guard let name, !name.isEmpty, name.utf8.count <= 64 else { failure = APIError(.badRequest, "a form field without a name"); return }
        if Routes.uploadFields.contains(name) {
            guard form.files[name] == nil else { failure = APIError(.badRequest, "\(name): sent twice"); return }
            form.files[name] = Routes.Upload(filename: filename, bytes: bytes)
        } else {
            guard bytes.count <= 1024, let text = String(validating: bytes, as: UTF8.self) else {
                failure = APIError(.badRequest, "\(name): at most 1 KiB of UTF-8 text"); return
            }
            guard !form.fields.contains(where: { $0.0 == name }) else { failure = APIError(.badRequest, "\(name): sent twice"); return }
            form.fields.append((name, text))
        }
    }

    /// False when a header line of any part (the lines after any `--boundary`, up to the first
    /// empty one) has a byte above 0x7F before its colon. Checks every place a part could start,
    /// more than the parser would, so that nothing it would read as a header name is missed.
    static func headerNamesAreASCII(_ body: [UInt8], boundary: String) -> Bool {
        let delimiter = Array("--\(boundary)".utf8)
        func find(_ needle: [UInt8], from start: Int) -> Int? {
            var i = start
            while i + needle.count <= body.count {
                guard let first = body[i...].firstIndex(of: needle[0]), first + needle.count <= body.count else { return nil }
                if body[first..<first + needle.count].elementsEqual(needle) { return first }
                i = first + 1
            }
            return nil
        }
        var next = 0
        while let found = find(delimiter, from: next) {
            next = found + 1
            guard let lineEnd = find([13, 10], from: found + delimiter.count) else { return true }
            var line = lineEnd + 2
            while line < body.count {
                let end = find([13, 10], from: line) ?? body.count
                if end == line { break }
                for byte in body[line..<end] {
                    if byte == UInt8(ascii: ":") { break }
                    if byte > 0x7F { return false }
                }
                line = end + 2
            }
        }
        return true
    }
}
