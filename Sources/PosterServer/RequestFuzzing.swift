import Foundation
import LyricPoster
import NIOCore

/// The server's own parsing of what clients send, for the fuzz target (`FUZZ_TARGET=request`):
/// byte ranges, multipart bodies and their headers, query parameters, a seek's position (query or
/// JSON body), uploaded file names. Each
/// must answer or refuse without crashing, and what it answers must hold (a range inside the
/// file, a safe name, a form within its limits).
package enum RequestFuzzing {
    package static func exercise(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let rest = Array(bytes.dropFirst())
        let text = String(decoding: rest, as: UTF8.self)
        switch selector % 5 {
        case 0:
            let size = Int(rest.first ?? 0) * 97
            switch Routes.byteRange(String(text.dropFirst()), size: size) {
            case .part(let range):
                precondition(range.lowerBound >= 0 && range.upperBound < size && !range.isEmpty, "a range inside the file")
            case .whole, .unsatisfiable: break
            }
        case 1:
            let reader = FormReader(boundary: "fuzzboundary")
            // Fed whole, as the route feeds a body.
            do {
                try reader.feed(ByteBuffer(bytes: rest))
                let form = try reader.finish()
                precondition(form.fields.count + form.files.count <= Routes.maxParts, "at most 32 parts")
                precondition(form.fields.allSatisfy { $0.1.utf8.count <= 1024 }, "fields of 1 KiB at most")
                precondition(Set(form.files.keys).isSubset(of: Routes.uploadFields), "only known files")
            } catch {}
        case 2:
            if let boundary = Routes.boundary(text) { precondition((1...70).contains(boundary.utf8.count)) }
            _ = Routes.parameter("filename", in: text)
        case 3:
            let name = Routes.safeName(text, fallback: "cover")
            precondition(!name.isEmpty && !name.contains("/") && !name.hasPrefix(".") && name.utf8.count <= 100, "a safe name: \(name)")
            precondition(!name.unicodeScalars.contains { $0.value < 0x20 }, "no control characters")
        default:
            // A seek's position, from the query and from a JSON body: a day at most, never negative.
            for position in [try? ControlRequest.seekPosition(query: text, body: [], contentType: nil),
                             try? ControlRequest.seekPosition(query: nil, body: rest, contentType: "application/json")] {
                if let position { precondition((0...86_400_000_000).contains(position), "a position within a day: \(position)") }
            }
            // Query values as the routes check them.
            _ = try? Routes.integer(text, name: "at", in: -Routes.maxTimeMs...Routes.maxTimeMs)
            _ = try? Routes.flag(text, name: "karaoke")
            if let choice = try? Routes.choice(lines: text, quote: nil), case .numbers(let ranges) = choice {
                precondition(LineChoice.count(ranges) <= LineChoice.maxLines && ranges.allSatisfy { $0.lowerBound >= 1 },
                             "at most eight lines from 1")
                precondition(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound }, "ascending, apart")
            }
        }
    }
}
