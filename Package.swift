// swift-tools-version: 6.0
import PackageDescription

// Dependency direction (DESIGN.md §2): navscript → {NavScript, ShopApp} (through ShopHost);
// {NavScript, ShopApp} → NavigationCore. NavScript never imports ShopApp, so
// any team's headless core can be plugged in through its host protocol.
let package = Package(
    name: "navscript",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "navscript", targets: ["navscript"]),
        .library(name: "NavigationCore", targets: ["NavigationCore"]),
        .library(name: "NavScript", targets: ["NavScript"]),
        .library(name: "ShopApp", targets: ["ShopApp"]),
        .library(name: "ShopHost", targets: ["ShopHost"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLua",
            path: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        .target(name: "NavigationCore"),
        .target(
            name: "ShopApp",
            dependencies: ["NavigationCore"],
            resources: [.copy("Resources/routes.json")]
        ),
        .target(name: "NavScript", dependencies: ["CLua", "NavigationCore"]),
        // The one place ShopApp meets the scenario language (the composition
        // root's adapter), shared by the CLI and the benchmarks.
        .target(name: "ShopHost", dependencies: ["NavScript", "ShopApp"]),
        .executableTarget(
            name: "navscript",
            dependencies: [
                "NavScript", "ShopHost",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "NavigationCoreTests", dependencies: ["NavigationCore"]),
        .testTarget(name: "ShopAppTests", dependencies: ["ShopApp"]),
        // Helpers shared by test targets (xmllint validation of JUnit reports).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "NavScriptTests", dependencies: ["NavScript", "TestSupport"], exclude: ["Reporting/Fixtures"]),
        .testTarget(name: "navscriptTests", dependencies: ["navscript", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
