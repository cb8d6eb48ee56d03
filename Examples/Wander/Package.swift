// swift-tools-version: 6.0
import PackageDescription

// Wander: a travel app built the SwiftUI way, adopting navscript as a team
// would — its own package, depending on navscript by path. Three feature
// modules that never see each other (places, trips, profile), each with
// its route values, its `@Observable` coordinator holding a path, and the
// destinations it shows; an application layer (`WanderApp`) whose
// `@Observable` app coordinator holds the tab selection, the sheet and the
// alert, routes links through the engine and composes the window; a host
// and a one-line main. Nothing here imports SwiftUI: the real app's views
// bind the same key paths.
let package = Package(
    name: "wander",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "navscript", path: "../.."),
    ],
    targets: [
        .target(name: "WanderPlaces", dependencies: [.product(name: "NavigationCore", package: "navscript")]),
        .target(name: "WanderTrips", dependencies: [.product(name: "NavigationCore", package: "navscript")]),
        .target(name: "WanderProfile", dependencies: [.product(name: "NavigationCore", package: "navscript")]),
        // The only target that imports every module.
        .target(name: "WanderApp", dependencies: [
            "WanderPlaces", "WanderTrips", "WanderProfile",
            .product(name: "NavigationCore", package: "navscript"),
        ]),
        .target(name: "WanderHost", dependencies: [
            "WanderApp",
            .product(name: "NavigationCore", package: "navscript"),
            .product(name: "NavScript", package: "navscript"),
        ]),
        .executableTarget(name: "wander-navscript", dependencies: [
            "WanderHost",
            .product(name: "NavScriptCLI", package: "navscript"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
