// swift-tools-version:6.0
import Foundation
import PackageDescription

/// The fonts in fonts/ (and their licence), copied into the BundledFonts resource bundle.
let bundledFonts = ((try? FileManager.default.contentsOfDirectory(atPath: Context.packageDirectory + "/fonts")) ?? [])
    .filter { $0.hasSuffix(".ttf") || $0 == "OFL.txt" }.sorted()

let package = Package(
    name: "LyricPoster",
    products: [
        .library(name: "LyricsCore", targets: ["LyricsCore"]),
        .library(name: "LyricPoster", targets: ["LyricPoster"]),
        .executable(name: "lyricposter", targets: ["lyricposter"]),
        .executable(name: "lyricposter-bench", targets: ["lyricposter-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // HTTP for `serve`, in the PosterServer target only.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        // Graceful shutdown of server-sent event streams (Hummingbird runs on it).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // The server's own log level (Hummingbird logs through swift-log).
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        // multipart/form-data for POST /api/render.
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.0"),
        // /metrics: swift-metrics with its Prometheus backend.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        // The library's documentation (Sources/LyricPoster/LyricPoster.docc): make docs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // YAML for LRCLIB's Lyricsfile format, in LyricsCore.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // Cover art by http(s) URL for `follow`, in the PosterLive target only.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // System libraries, found through pkg-config. Only PosterGraphics imports them.
        .systemLibrary(
            name: "CCairoPango",
            pkgConfig: "pangocairo pangoft2 cairo fontconfig freetype2",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev", "libfontconfig-dev", "libfreetype-dev"])]
        ),
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebp libwebpdemux",
            providers: [.apt(["libwebp-dev"])]
        ),
        .systemLibrary(
            name: "CGio",
            pkgConfig: "gio-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // libqrencode: the QR code of a URL a share card may carry (card --qr), in PosterGraphics.
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // SQLite: a local dump of LRCLIB's lyrics database (--lrclib-db), in LyricsDatabase only.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // zlib: QRC and KRC lyric files are zlib streams (LyricsCore inflates them with a size cap).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The PNG codec. libpng reports errors with longjmp, which Swift cannot unwind through; this
        // small C target keeps every setjmp on the C side and hands Swift plain status codes. It also
        // holds the PNG writers around libdeflate and ISA-L (the fast encoders) and their checksums.
        .target(
            name: "CPNG",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("deflate"), .linkedLibrary("isal")]
        ),
        // Pixel loops (blurs, luminance, halving, area reduction, ARGB32 to RGB): plain C, no library.
        .target(name: "CPixels"),
        // glibc's malloc settings, for the tool's many-song commands only (never the library).
        .target(name: "CMallocTuning"),

        // TagLib is C++ that Swift cannot import here: this shim reads tags, lyrics and pictures and
        // hands them over as plain C structs.
        .target(
            name: "CTagLibShim",
            linkerSettings: [.linkedLibrary("tag"), .linkedLibrary("stdc++")]
        ),
        // Audio files: their tags, embedded lyrics and pictures, as Swift values (TagLib behind CTagLibShim).
        .target(name: "MediaTags", dependencies: ["CTagLibShim"]),

        // The session bus (GDBus): MPRIS players followed and published, as Swift values.
        .target(name: "NowPlaying", dependencies: ["CGio", "Locks"]),

        // The one lock type (`Guarded`) and fork-join (`Fork.both`) that every target shares.
        .target(name: "Locks"),

        // Timestamps, lyric formats (decoding and parsing, writers), timeline: Swift, plus zlib for
        // the compressed formats (QRC, KRC).
        .target(name: "LyricsCore", dependencies: ["CZlib", .product(name: "Yams", package: "Yams")]),
        // The only target that touches C: Cairo, Pango, fontconfig, image codecs.
        .target(name: "PosterGraphics", dependencies: ["Locks", "CCairoPango", "CTurboJPEG", "CPNG", "CPixels", "CCrypto", "CWebP", "CQRencode"]),
        // The bundled fonts as a package resource (Bundle.module), for programs built with the
        // library; an installed binary reads them from share/lyricposter/fonts.
        .target(name: "BundledFonts", path: "fonts", exclude: ["README.md"], resources: bundledFonts.map { .copy($0) }),
        // The engine: scenes, layout, rendering and output, built from values. It knows nothing of
        // audio tags, D-Bus or HTTP: a renderer-only client links Cairo, Pango and the codecs alone.
        .target(name: "LyricPoster", dependencies: ["Locks", "LyricsCore", "PosterGraphics", "BundledFonts"]),
        // Finding a song's parts: files, audio tags (TagLib), sidecars, folder covers.
        .target(name: "SongSources", dependencies: ["Locks", "LyricPoster", "LyricsCore", "PosterGraphics", "MediaTags", "LyricsDatabase"]),
        // Lyrics looked up in a local LRCLIB database dump (SQLite, read-only); owns CSQLite.
        .target(name: "LyricsDatabase", dependencies: ["Locks", "LyricsCore", "CSQLite"]),
        // Batches, catalogues and videos: plans of many frames and the sinks they go to (folders,
        // manifests, contact sheets, ffmpeg).
        .target(name: "PosterBatch", dependencies: ["Locks", "LyricPoster", "SongSources", "LyricsCore", "PosterGraphics", "MediaTags", "CMallocTuning"]),
        // `serve`: the library, frames and cards over HTTP (Hummingbird 2 on SwiftNIO). The only
        // target that imports the HTTP framework; its handlers make the same requests as the CLI.
        .target(
            name: "PosterServer",
            dependencies: ["Locks", "LyricPoster", "SongSources", "PosterBatch", "PosterLive", "LyricsCore", "PosterGraphics", "MediaTags", "NowPlaying",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "MultipartKit", package: "multipart-kit"),
                           .product(name: "Metrics", package: "swift-metrics"),
                           .product(name: "Prometheus", package: "swift-prometheus")],
            // The browser app, compiled into the binary (no files to install, nothing read from disk).
            resources: [.embedInCode("Assets/index.html"), .embedInCode("Assets/app.js"), .embedInCode("Assets/app.css"),
                        .embedInCode("Assets/overlay.html"), .embedInCode("Assets/overlay.js")]
        ),
        // Live posters: a now-playing source (MPRIS today) followed line by line on the engine;
        // `follow` and, later, `serve --follow` consume it.
        .target(name: "PosterLive", dependencies: ["Locks", "LyricPoster", "SongSources", "LyricsCore", "PosterGraphics", "MediaTags", "NowPlaying",
                                                 .product(name: "AsyncHTTPClient", package: "async-http-client")]),
        .executableTarget(
            name: "lyricposter",
            dependencies: [
                "Locks", "LyricPoster", "SongSources", "PosterBatch", "PosterLive", "PosterServer", "LyricsCore", "MediaTags", "NowPlaying",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // libFuzzer targets (lyrics path, cover decoders), instrumented and run only by `make fuzz`.
        .executableTarget(name: "lyricposter-fuzz", dependencies: ["LyricPoster", "SongSources", "PosterBatch", "PosterLive", "PosterServer", "LyricsCore", "LyricsDatabase", "PosterGraphics", "CPNG", "MediaTags", "NowPlaying"]),
        // Measures the built `lyricposter` (make bench); prints numbers, asserts nothing.
        .executableTarget(name: "lyricposter-bench", dependencies: ["LyricPoster", "SongSources", "PosterBatch", "LyricsCore", "LyricsDatabase", "PosterGraphics", "CTurboJPEG"]),

        .testTarget(name: "LyricsCoreTests", dependencies: ["LyricsCore", "CZlib", "TestSupport"]),
        .testTarget(name: "LayoutTests", dependencies: ["LyricPoster", "LyricsCore"]),
        .testTarget(
            name: "RenderTests",
            dependencies: ["Locks", "LyricPoster", "SongSources", "LyricsCore", "PosterGraphics", "CPNG", "CPixels", "CZlib", "TestSupport"],
            resources: [.copy("Goldens")]
        ),
        // Fixtures shared by the test targets (generated once per test process).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "CLITests", dependencies: ["Locks", "LyricsCore", "LyricPoster", "SongSources", "PosterBatch", "TestSupport"]),
        .testTarget(name: "MediaTagsTests", dependencies: ["MediaTags", "TestSupport"]),
        // The package's shape: what the LyricPoster product's clients build and link.
        .testTarget(name: "PackageTests"),
        .testTarget(name: "NowPlayingTests", dependencies: ["Locks", "NowPlaying", "LyricPoster", "SongSources", "PosterLive"]),
        // Lyrics found beyond the audio file: the LRCLIB dump and the lyrics folder index, in process.
        .testTarget(name: "SongSourcesTests", dependencies: ["SongSources", "LyricsDatabase", "LyricsCore"]),
        // serve's routes in process (HummingbirdTesting), with the CLI's own request options.
        .testTarget(name: "ServerTests", dependencies: ["PosterServer", "LyricPoster", "PosterGraphics", "lyricposter",
                                                        .product(name: "HummingbirdTesting", package: "hummingbird")]),
    ]
)
