// swift-tools-version: 6.0
import PackageDescription

// Bistro: a food-delivery app adopting navscript as a team would — its own
// package, depending on navscript by path and using only its public API.
// Three feature modules that never see each other (catalog, orders,
// account), one composition root, a host and a one-line main.
let package = Package(
    name: "bistro",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "navscript", path: "../.."),
    ],
    targets: [
        .target(name: "BistroCatalog", dependencies: [.product(name: "NavigationCore", package: "navscript")]),
        .target(name: "BistroOrders", dependencies: [.product(name: "NavigationCore", package: "navscript")]),
        .target(name: "BistroAccount", dependencies: [.product(name: "NavigationCore", package: "navscript")]),
        // The only target that imports every module.
        .target(name: "BistroApp", dependencies: [
            "BistroCatalog", "BistroOrders", "BistroAccount",
            .product(name: "NavigationCore", package: "navscript"),
        ]),
        .target(name: "BistroHost", dependencies: [
            "BistroApp",
            .product(name: "NavigationCore", package: "navscript"),
            .product(name: "NavScript", package: "navscript"),
        ]),
        .executableTarget(name: "bistro-navscript", dependencies: [
            "BistroHost",
            .product(name: "NavScriptCLI", package: "navscript"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
