// swift-tools-version:6.1
// The figures a LyricPoster user sees, measured on the built binaries with checked-in thresholds
// (Thresholds/). A package of its own, so that clients of the library never resolve the benchmark
// package. Run from the repository: `make bench-check` (or see docs/performance.md).
import PackageDescription

let package = Package(
    name: "LyricPosterBenchmarks",
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "Figures",
            dependencies: [.product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/Figures",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
