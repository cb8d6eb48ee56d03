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
        // Counts malloc-family calls (interposed in the executable) and reads
        // peak RSS of child processes.
        .target(name: "CBenchSupport"),
        .executableTarget(
            name: "bench",
            dependencies: [
                "CBenchSupport",
                .product(name: "NavigationCore", package: "navscript"),
                .product(name: "ShopApp", package: "navscript"),
                .product(name: "NavScript", package: "navscript"),
                .product(name: "ShopHost", package: "navscript"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
