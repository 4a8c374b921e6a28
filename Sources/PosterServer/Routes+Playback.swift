import Foundation
import HTTPTypes
import Hummingbird
import LyricPoster
import LyricsCore
import NIOCore

/// What a page needs to play a song with its posters: the frame plan (when each poster starts and
/// which line it shows), the numbered lines, and the audio file with byte ranges.
extension Routes {
    /// `GET /api/songs/{id}/plan`: the posters `lines` would write for these options, as start
    /// times (a page asks `frame.png?at=START` for each), and the sung lines with their numbers.
    func plan(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let song = try self.song(context)
        let options = try makeOptions(try renderParameters(request), timed: false)
        let renderer = self.renderer
        let body = try await renderer.render { () throws -> String in
            let prepared = try renderer.prepared(song, options: options)
            let session = prepared.session
            let lyrics = session.lyrics
            let plan = FramePlan.perLine(session.scenes)
            let numbers = lyrics.lineNumbers
            let frames = plan.map { frame in
                let number = frame.scene.lineIndex.flatMap { $0 < numbers.count ? numbers[$0] : nil }
                return API.Plan.Frame(line: .init(number), startMs: frame.startMs, text: .init(frame.scene.currentText))
            }
            let lines = lyrics.numberedLines.enumerated().map { number, index in
                let line = lyrics.lines[index]
                return API.Plan.Line(endMs: line.end.milliseconds, number: number + 1, startMs: line.start.milliseconds,
                                     text: line.text, translation: .init(line.translation))
            }
            var hasAudio = false
            if case .audio = song.source { hasAudio = true }
            return API.encoded(API.Plan(album: .init(song.album), artist: .init(song.artist), audio: hasAudio,
                                        durationMs: .init(song.durationMs), frames: frames, id: song.id, lines: lines,
                                        title: .init(song.title)))
        }
        return Self.json(body)
    }

    /// `GET /api/songs/{id}/audio`: the song's audio file, whole or one byte range (206), so that
    /// `<audio>` can seek. Pairs of cover and lyrics have none (404).
    func audio(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let song = try self.song(context)
        guard case .audio(let path, _, _) = song.source, let size = Library.regularFileSize(path) else {
            throw APIError(.notFound, "this song has no audio file")
        }
        var headers: HTTPFields = [.contentType: Self.audioType(path), .acceptRanges: "bytes", .cacheControl: "public, max-age=3600"]
        let range: ClosedRange<Int>
        switch Self.byteRange(request.headers[.range], size: size) {
        case .whole:
            guard size > 0 else {
                headers[.contentLength] = "0"
                return Response(status: .ok, headers: headers)
            }
            range = 0...(size - 1)
        case .part(let part):
            range = part
        case .unsatisfiable:
            var error = APIError(.rangeNotSatisfiable, "Range: outside the file's \(size) bytes")
            error.headers[.contentRange] = "bytes */\(size)"
            throw error
        }
        let body = try await FileIO().loadFile(path: path, range: range, context: context)
        headers[.contentLength] = String(range.count)
        if range.count == size { return Response(status: .ok, headers: headers, body: body) }
        headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
        return Response(status: .partialContent, headers: headers, body: body)
    }

    enum ByteRange: Equatable {
        case whole, part(ClosedRange<Int>), unsatisfiable
    }

    /// One `bytes=` range of a `Range` header (`a-b`, `a-`, `-n`), clamped to the file. A header
    /// that is not one byte range is ignored (the whole file), as RFC 9110 allows.
    static func byteRange(_ header: String?, size: Int) -> ByteRange {
        guard let header, header.hasPrefix("bytes="), header.utf8.count <= 64 else { return .whole }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        let digits = { (s: Substring) in !s.isEmpty && s.utf8.count <= 18 && s.allSatisfy(\.isASCII) && s.allSatisfy(\.isNumber) }
        if first.isEmpty {
            guard digits(last), let n = Int(last) else { return .whole }
            guard n > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - n)...(size - 1))
        }
        guard digits(first), let start = Int(first) else { return .whole }
        var end = size - 1
        if !last.isEmpty {
            guard digits(last), let e = Int(last) else { return .whole }
            guard e >= start else { return .whole }
            end = min(e, size - 1)
        }
        guard start < size else { return .unsatisfiable }
        return .part(start...end)
    }

    /// The media type of an audio file, by its extension (the ones the library walks).
    static func audioType(_ path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "mp3": return "audio/mpeg"
        case "flac": return "audio/flac"
        case "ogg", "oga", "opus": return "audio/ogg"
        case "m4a", "mp4", "aac", "alac": return "audio/mp4"
        case "wav": return "audio/wav"
        case "wma", "asf": return "audio/x-ms-wma"
        case "ape": return "audio/ape"
        case "wv": return "audio/wavpack"
        case "aif", "aiff": return "audio/aiff"
        default: return "application/octet-stream"
        }
    }
}
