// swift-tools-version: 6.0
import PackageDescription

// Dependency direction: the `navscript` executable → {NavScriptCLI, ShopHost};
// NavScriptCLI → NavScriptRunner → NavScriptRuntime → NavScript → {NavScriptLua,
// NavigationCore}; ShopHost → {NavScript, ShopApp}; ShopApp → NavigationCore.
// NavScript is what a host sees (host protocols, the language's declarations,
// the app's vocabulary); the runtime runs one scenario file; the runner runs
// suites (discovery, workers, run events, reporters, explore, mutate). The
// compiler keeps each layer from seeing the ones above it. Nothing generic
// imports ShopApp: a team plugs its own NavigationCore app in with a host and
// a one-line main over NavScriptCLI.
// Every path is unique ignoring letter case (macOS file systems fold case).
let package = Package(
    name: "navscript",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "navscript", targets: ["ShopNavScript"]),
        .library(name: "NavigationCore", targets: ["NavigationCore"]),
        .library(name: "NavScript", targets: ["NavScript"]),
        // The runtime and the runner as libraries, for tools that run suites
        // themselves (the benchmarks); a host needs neither.
        .library(name: "NavScriptRuntime", targets: ["NavScriptRuntime"]),
        .library(name: "NavScriptRunner", targets: ["NavScriptRunner"]),
        .library(name: "NavScriptCLI", targets: ["NavScriptCLI"]),
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
        // The C half of the Lua bridge (trampolines, allocator, budget hook,
        // sandbox helpers, chunk cache, state region), compiled once: each
        // piece of process-wide state has one owner.
        .target(name: "CNavScriptLua", dependencies: ["CLua"]),
        // The worker's protocol buffer, written from a signal handler on a crash.
        .target(name: "CWorkerOutbox"),
        // Living within `ulimit`s: a stack of its own for the main thread, one malloc arena.
        .target(name: "CProcessLimits"),
        // The safe Swift face of Lua: every unsafe pointer lives here.
        .target(name: "NavScriptLua", dependencies: ["CLua", "CNavScriptLua"]),
        // What a host sees: host protocols, the language's declarations, the app's vocabulary.
        .target(name: "NavScript", dependencies: ["NavScriptLua", "NavigationCore"]),
        // One scenario file run: sandbox, bindings, assertions, invariants.
        .target(name: "NavScriptRuntime", dependencies: ["NavScript", "NavScriptLua", "NavigationCore"]),
        // Suites: discovery, workers, run events, reporters, exploration, mutation, manifests.
        .target(name: "NavScriptRunner",
                dependencies: ["NavScriptRuntime", "NavScript", "NavScriptLua", "NavigationCore", "CWorkerOutbox"]),
        // Every command, taking the app's host as a parameter.
        .target(
            name: "NavScriptCLI",
            dependencies: [
                "NavScriptRunner", "NavScriptRuntime", "NavScript", "NavigationCore", "CProcessLimits",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "ShopApp",
            dependencies: ["NavigationCore"],
            resources: [.copy("Resources/routes.json")]
        ),
        // The one place ShopApp meets the scenario language.
        .target(name: "ShopHost", dependencies: ["NavScript", "ShopApp"]),
        // ShopApp's `navscript`: one line over the CLI library.
        .executableTarget(name: "ShopNavScript", dependencies: ["NavScriptCLI", "ShopHost"]),

        // A second, tiny app plugged in through public API only, as a team
        // would (its host included): the CLI tests drive it end to end.
        .target(name: "NotesApp", dependencies: ["NavigationCore", "NavScript"], path: "Tests/Fixtures/NotesApp",
                resources: [.copy("routes.json")]),
        .executableTarget(name: "NotesNavScript", dependencies: ["NavScriptCLI", "NotesApp"],
                          path: "Tests/Fixtures/NotesNavScript"),

        .testTarget(name: "NavigationCoreTests", dependencies: ["NavigationCore"]),
        .testTarget(name: "ShopAppTests", dependencies: ["ShopApp"]),
        .testTarget(name: "ShopHostTests", dependencies: ["ShopHost"]),
        // Helpers shared by test targets (xmllint validation of JUnit reports).
        .target(name: "TestSupport", dependencies: ["NavScriptLua"], path: "Tests/TestSupport"),
        // One test target per layer; each tests its layer (with NotesApp as the app where one is needed).
        .testTarget(name: "NavScriptLuaTests", dependencies: ["NavScriptLua", "TestSupport"]),
        // The README's and the doc comments' Swift examples, compiled as written (DocExampleTests
        // checks that each snippet's lines appear in these files, in order).
        .target(name: "MyApp", dependencies: ["NotesApp"], path: "Tests/Fixtures/DocExamples/MyApp"),
        .target(
            name: "MyAppNavScript", dependencies: ["MyApp", "NavigationCore", "NavScript", "NavScriptCLI"],
            path: "Tests/Fixtures/DocExamples/MyAppNavScript"),
        .target(
            name: "MySwiftUIApp", dependencies: ["NavigationCore", "NavScript", "NavScriptCLI"],
            path: "Tests/Fixtures/DocExamples/MySwiftUIApp"),
        .testTarget(
            name: "NavScriptTests",
            dependencies: ["NavScript", "NotesApp", "TestSupport", "MyAppNavScript", "MySwiftUIApp"]),
        .testTarget(name: "NavScriptRuntimeTests", dependencies: ["NavScriptRuntime", "NotesApp", "TestSupport"]),
        .testTarget(
            name: "NavScriptRunnerTests", dependencies: ["NavScriptRunner", "NavScriptRuntime", "NotesApp", "TestSupport"],
            exclude: ["Reporting/Fixtures"]),
        .testTarget(name: "NavScriptCLITests", dependencies: ["ShopNavScript", "NotesNavScript", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
