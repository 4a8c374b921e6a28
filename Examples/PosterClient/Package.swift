// swift-tools-version:6.0
// A program of someone else's that uses LyricPoster as a library: it depends on the LyricPoster
// product alone, by path, as a client package would. `make test` builds it and runs its tests;
// `make test-sanitized` runs them under ThreadSanitizer.
import PackageDescription

// SwiftPM names a package found by path after its folder: the checkout this example sits in.
let lyricPoster = Context.packageDirectory.split(separator: "/").dropLast(2).last.map(String.init) ?? "lyricposter"

let package = Package(
    name: "PosterClient",
    dependencies: [.package(path: "../..")],
    targets: [
        // The program of the README's "Use it as a library".
        .executableTarget(name: "readme-example", dependencies: [.product(name: "LyricPoster", package: lyricPoster)]),
        // Renders with HOME pointed at an empty folder, and reports the host's fontconfig state.
        .executableTarget(name: "host-check", dependencies: [.product(name: "LyricPoster", package: lyricPoster), "CFontconfig"]),
        // The host program's own use of fontconfig.
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .testTarget(name: "PosterClientTests", dependencies: [.product(name: "LyricPoster", package: lyricPoster)]),
    ]
)
