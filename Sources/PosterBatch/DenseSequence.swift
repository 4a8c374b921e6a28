import Foundation
import LyricPoster

/// `<dir>/dense/00000.png …`: one file per tick, for tools that read `%05d.png`. Each is a hard
/// link to its frame where the file system allows, a copy otherwise.
package enum DenseSequence {
    package static let folder = "dense"

    package static func write(_ manifest: Manifest, in directory: String) throws(PosterError) {
        guard let ticks = manifest.ticks else { return }
        let dense = directory + "/" + folder
        do {
            try FileManager.default.createDirectory(atPath: dense, withIntermediateDirectories: true)
        } catch {
            throw PosterError(path: dense, reason: "cannot create the folder: \(OutputFile.errnoReason(errno))")
        }
        // Remove numbered files an earlier run made (only names of our own pattern).
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: dense)) ?? []
        for name in existing where name.range(of: "^[0-9]{5,}\\.png$", options: .regularExpression) != nil {
            unlink(dense + "/" + name)
        }
        let files = Dictionary(manifest.frames.map { ($0.index, $0.file) }, uniquingKeysWith: { a, _ in a })
        for tick in ticks {
            guard let file = files[tick.frame] else { continue }
            let source = directory + "/" + file
            let name = String(format: "%05d.png", tick.index)
            let target = dense + "/" + name
            if link(source, target) != 0 {
                guard let data = FileManager.default.contents(atPath: source) else {
                    throw PosterError(path: source, reason: "cannot read")
                }
                try OutputFile.writeAtomically([UInt8](data), to: target)
            }
        }
    }
}
