import Foundation
import Testing

/// What a renderer-only client of the `LyricPoster` product builds and links: the engine, the
/// lyric formats and the graphics layer over Cairo, Pango and the codecs; never audio tags
/// (TagLib), D-Bus, HTTP, or the applications built on the engine.
@Suite struct LibraryClosureTests {
    struct Description: Decodable {
        struct Target: Decodable {
            let name: String
            let target_dependencies: [String]?
            let product_dependencies: [String]?
        }
        struct Product: Decodable {
            let name: String
            let targets: [String]
        }
        let targets: [Target]
        let products: [Product]
    }

    /// The package as `swift package describe` sees it (it reads the manifest; nothing is built).
    static func describe() throws -> Description {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("describe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let swift = Process()
        swift.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A scratch folder of its own: the one `swift test` holds stays locked meanwhile.
        swift.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "describe", "--type", "json"]
        let output = Pipe()
        swift.standardOutput = output
        swift.standardError = FileHandle.nullDevice
        try swift.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        swift.waitUntilExit()
        #expect(swift.terminationStatus == 0)
        return try JSONDecoder().decode(Description.self, from: data)
    }

    @Test func theLibraryProductNeedsNoTagsBusOrHTTP() throws {
        let description = try Self.describe()
        let targets = Dictionary(description.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let product = try #require(description.products.first { $0.name == "LyricPoster" })
        var closure = Set<String>()
        var products = Set<String>()
        var next = product.targets
        while let name = next.popLast() {
            guard closure.insert(name).inserted, let target = targets[name] else { continue }
            next += target.target_dependencies ?? []
            products.formUnion(target.product_dependencies ?? [])
        }
        #expect(closure == ["LyricPoster", "LyricsCore", "PosterGraphics", "Locks", "BundledFonts", "CCairoPango", "CTurboJPEG", "CPNG", "CPixels", "CCrypto",
                            "CWebP", "CZlib", "CQRencode"], "\(closure.sorted())")
        for forbidden in ["MediaTags", "CTagLibShim", "NowPlaying", "CGio", "CMallocTuning", "SongSources", "PosterLive", "PosterServer",
                          "PosterBatch"] {
            #expect(!closure.contains(forbidden), "\(forbidden) is in the library's closure")
        }
        // Yams reads LRCLIB's Lyricsfile (YAML) in LyricsCore; nothing else: no Hummingbird,
        // AsyncHTTPClient, NIO, ….
        #expect(products == ["Yams"], "package products in the library's closure: \(products.sorted())")
    }
}

/// The README's library program is the one `Examples/PosterClient` builds and runs.
@Suite struct ReadmeLibraryTests {
    @Test func theReadmeProgramIsTheExampleThatRuns() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Use it as a library"), "the README has a library section")
        let rest = readme[section.upperBound...]
        let start = try #require(rest.range(of: "```swift\n"))
        let end = try #require(rest[start.upperBound...].range(of: "\n```"))
        let program = try String(contentsOf: root.appendingPathComponent("Examples/PosterClient/Sources/readme-example/main.swift"),
                                 encoding: .utf8)
        #expect(String(rest[start.upperBound..<end.lowerBound]) == program.trimmingCharacters(in: .newlines))
        #expect(program.split(separator: "\n").count <= 14, "a short program")
    }
}
