// swift-tools-version: 6.0
import PackageDescription

// The benchmarks: one release-built `bench` executable (see README.md for
// why not ordo-one/benchmark). It links the main package's libraries for the
// in-process measurements and runs the `navscript` CLI, built from the same
// dependency graph, for the whole-suite ones.
let package = Package(
    name: "navscript-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "navscript", path: ".."),
    ],
    targets: [
        // Counts malloc-family calls (interposed in the executable).
        .target(name: "CBenchSupport"),
        // Runs one command and reports its exit status, wall time and peak
        // RSS (a tiny C process, so the bench's own memory is not counted).
        .executableTarget(name: "bench-spawn"),
        .executableTarget(
            name: "bench",
            dependencies: [
                "CBenchSupport",
                .product(name: "NavigationCore", package: "navscript"),
                .product(name: "ShopApp", package: "navscript"),
                .product(name: "NavScript", package: "navscript"),
                .product(name: "NavScriptRuntime", package: "navscript"),
                .product(name: "NavScriptRunner", package: "navscript"),
                .product(name: "ShopHost", package: "navscript"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
