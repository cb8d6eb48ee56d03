import CBenchSupport
import Foundation
import NavScript
import NavScriptRunner
import NavScriptRuntime
import NavigationCore
import ShopApp
import ShopHost

/// (3) and (4): one representative 10-step scenario, driven from Swift and
/// run from Lua. Both launch a fresh app, settle after every step (as the
/// Lua verbs do) and check the same three expectations.
enum ScenarioBenchmarks {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Steps of `scenarios/ten_steps.lua`, through ShopApplication.
    static func swiftScenario(engine: RoutingEngine) throws {
        let app = try ShopApplication(options: LaunchOptions(loggedIn: false), engine: engine)  // 1 launch
        try app.settle()
        try app.tap("category", ["id": "shoes"]); try app.settle()  // 2
        try app.tap("product", ["id": "p1"]); try app.settle()  // 3
        try app.back(); try app.settle()  // 4
        let outcome = app.deepLink(.url("shop://cart"), via: .scheme); try app.settle()  // 5
        guard outcome.status == .gated else { throw Failure(description: "expected the cart to be gated") }
        try app.login(); try app.settle()  // 6
        app.deepLink(.url("shop://orders/42/track"), via: .scheme); try app.settle()  // 7
        let state = app.state  // 8
        let stack = state.stack(state.selectedTab).map(\.description)
        guard stack == ["orders", "order:42", "tracking:42"] else { throw Failure(description: "stack \(stack)") }
        let wanted = ["gate auth cart", "session-commit", "resume cart", "resolve tracking:42 proceed"]  // 9
        var events = app.log.texts[...]
        for item in wanted {
            guard let index = events.firstIndex(where: { $0 == item || $0.hasPrefix(item + " ") }) else {
                throw Failure(description: "event '\(item)' not found")
            }
            events = events[(index + 1)...]
        }
        try app.settle()  // 10
        guard app.leaks.isEmpty else { throw Failure(description: "leaks \(app.leaks)") }
    }

    static func swift(engine: RoutingEngine) throws -> Measurement {
        try swiftScenario(engine: engine)  // fails loudly before measuring
        return Bench.measure("10-step scenario, Swift (ShopApplication)", operations: 1, minSampleNs: 0) {
            do { try swiftScenario(engine: engine) } catch { fatalError("\(error)") }
        }
    }

    /// The scenario file, run the way `navscript run --in-process` runs a
    /// file: a fresh Lua state (sandbox, prelude, bindings), the file loaded,
    /// its scenario run against a fresh app, the state closed.
    static func lua(host: ShopHost, file: URL) throws -> Measurement {
        let entries = try ScenarioDiscovery().discover([file.path])
        guard let entry = entries.first else { throw Failure(description: "no scenario file at \(file.path)") }
        let runner = ScenarioRunner(host: host, options: RunOptions())
        let first = runner.runFile(entry, filter: nil)
        guard first.scenarios.count == 1, first.scenarios.allSatisfy({ $0.status == .passed }) else {
            throw Failure(description: "the Lua scenario did not pass: \(first.scenarios.map { "\($0.status) \($0.message)" })")
        }
        let openBefore = LuaState.openStateCount
        let result = Bench.measure("10-step scenario, Lua (NavScript, incl. Lua state)", operations: 1, minSampleNs: 0) {
            blackHole(runner.runFile(entry, filter: nil))
        }
        guard LuaState.openStateCount == openBefore else { throw Failure(description: "Lua states were left open") }
        return result
    }

    /// (4)/(3) measured in pairs (see `PairedRatio`): the figure the
    /// "Lua within 2× of Swift" target is judged by.
    static func luaOverSwift(host: ShopHost, file: URL, pairs: Int = 401) throws -> PairedRatio {
        guard let entry = try ScenarioDiscovery().discover([file.path]).first else {
            throw Failure(description: "no scenario file at \(file.path)")
        }
        let runner = ScenarioRunner(host: host, options: RunOptions())
        return PairedRatio.measure(
            pairs: pairs,
            numerator: { blackHole(runner.runFile(entry, filter: nil)) },
            denominator: { do { try swiftScenario(engine: host.engine) } catch { fatalError("\(error)") } })
    }

    /// (4) for a file's first run in the process: each run takes another copy
    /// of `file` (its own path, its own last line), so none is in the chunk
    /// cache and each is compiled from text — what every file costs in
    /// `navscript run`, where each file runs once per process. (4) itself
    /// re-runs one file, which loads its bytecode from the cache, as a file
    /// run again does (`mutate` runs every file once per fault).
    static func luaFirstRun(host: ShopHost, file: URL, pairs: Int = 401) throws -> (Measurement, PairedRatio) {
        let copies = try FileCopies(of: file, count: 20 + 1 + 201 + 1 + 20 + pairs + 50)
        defer { copies.remove() }
        let runner = ScenarioRunner(host: host, options: RunOptions())
        let first = runner.runFile(try copies.take(), filter: nil)
        guard first.scenarios.count == 1, first.scenarios.allSatisfy({ $0.status == .passed }) else {
            throw Failure(description: "a copy of \(file.lastPathComponent) did not pass: \(first.scenarios.map(\.message))")
        }
        let compilesBefore = LuaChunkCache.statistics.compiles
        var runs = 0
        let run = {
            runs += 1
            do { blackHole(runner.runFile(try copies.take(), filter: nil)) } catch { fatalError("\(error)") }
        }
        let measurement = Bench.measure(
            "10-step scenario, Lua, the file's first run (compiled from text)",
            operations: 1, minSampleNs: 0, run)
        let ratio = PairedRatio.measure(
            pairs: pairs, numerator: run,
            denominator: {
                do { try swiftScenario(engine: host.engine) } catch { fatalError("\(error)") }
            })
        guard LuaChunkCache.statistics.compiles - compilesBefore == runs else {
            throw Failure(description: "copies were served from the chunk cache: the first-run figure would measure re-runs")
        }
        return (measurement, ratio)
    }

    /// Copies of a scenario file in a temporary folder, each taken once.
    final class FileCopies {
        let folder: URL
        private var entries: [SuiteFile]

        init(of file: URL, count: Int) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("navscript-bench-copies-\(getpid())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let text = try String(contentsOf: file, encoding: .utf8)
            for index in 0..<count {
                try (text + "-- copy \(index)\n").write(
                    to: folder.appendingPathComponent("copy\(index).lua"),
                    atomically: false, encoding: .utf8)
            }
            entries = try ScenarioDiscovery().discover([folder.path]).reversed()
        }

        func take() throws -> SuiteFile {
            guard let entry = entries.popLast() else { throw Failure(description: "ran out of copies of the scenario file") }
            return entry
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// Where (4)'s time goes: a file that declares nothing (state, preludes,
    /// bindings, compile, close) and a file whose one scenario only launches.
    static func luaBreakdown(host: ShopHost) throws -> [Measurement] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navscript-bench-lua-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = [
            ("empty.lua", "-- declares nothing\n", "file with no scenario (state from the image, load, close)"),
            (
                "launch.lua", "scenario(\"launch only\", function()\n  launch{ logged_in = false }\nend)\n",
                "file with one scenario that only launches"
            )
        ]
        var results: [Measurement] = []
        let runner = ScenarioRunner(host: host, options: RunOptions())
        for (name, text, label) in files {
            let url = folder.appendingPathComponent(name)
            try text.write(to: url, atomically: false, encoding: .utf8)
            guard let entry = try ScenarioDiscovery().discover([url.path]).first else { continue }
            let first = runner.runFile(entry, filter: nil)
            guard first.scenarios.allSatisfy({ $0.status == .passed }) else { throw Failure(description: "\(name) did not pass") }
            results.append(Bench.measure(label, operations: 1, minSampleNs: 0) { blackHole(runner.runFile(entry, filter: nil)) })
        }
        return results
    }

    /// The app alone: ShopApplication launched and settled, as (3)'s first step.
    static func swiftLaunch(engine: RoutingEngine) -> Measurement {
        Bench.measure("ShopApplication launch + settle (Swift)", operations: 1, minSampleNs: 0) {
            do {
                let app = try ShopApplication(options: LaunchOptions(loggedIn: false), engine: engine)
                try app.settle()
                blackHole(app)
            } catch { fatalError("\(error)") }
        }
    }

    /// A sandboxed Lua state built from scratch and closed: the fixed cost of a
    /// file before state images, and still when the region is taken.
    static func luaState() -> Measurement {
        Bench.measure("Lua state built from scratch + closed (sandbox only)", operations: 1, minSampleNs: 0) {
            blackHole(try? LuaState(options: LuaState.Options(instructionBudget: 10_000_000, memoryLimit: 64 << 20)))
        }
    }

    /// Runs one workload `count` times, untimed, for a profiler.
    static func profile(_ workload: String, count: Int, host: ShopHost, file: URL) throws {
        switch workload {
        case "swift":
            for _ in 0..<count { try swiftScenario(engine: host.engine) }
        case "swift-launch":
            for _ in 0..<count {
                let app = try ShopApplication(options: LaunchOptions(loggedIn: false), engine: host.engine)
                try app.settle()
                blackHole(app)
            }
        case "lua", "file":
            let file = workload == "file" ? URL(fileURLWithPath: ProcessInfo.processInfo.environment["BENCH_FILE"] ?? file.path) : file
            guard let entry = try ScenarioDiscovery().discover([file.path]).first else { return }
            let runner = ScenarioRunner(host: host, options: RunOptions())
            for _ in 0..<count { blackHole(runner.runFile(entry, filter: nil)) }
        case "folder":
            // BENCH_FILE is a folder: run every file in it `count` times, printing peak RSS.
            let folder = ProcessInfo.processInfo.environment["BENCH_FILE"] ?? file.path
            let entries = try ScenarioDiscovery().discover([folder])
            let runner = ScenarioRunner(host: host, options: RunOptions())
            for round in 0..<count {
                for entry in entries { blackHole(runner.runFile(entry, filter: nil)) }
                FileHandle.standardError.write(
                    Data("round \(round): peak RSS \(bench_self_max_rss_kib()) KiB, open states \(LuaState.openStateCount)\n".utf8))
            }
        case "resolve":
            let contexts = [RouteContext(), RouteContext(satisfied: ["auth", "payment_method"])]
            for _ in 0..<count {
                for context in contexts {
                    for (url, entry) in CoreBenchmarks.urls {
                        blackHole(try? host.engine.resolve(url: url, entry: entry, context: context))
                    }
                }
            }
        case "resolve-one":
            let (url, entry) = CoreBenchmarks.typicalURL
            for _ in 0..<count {
                blackHole(try? host.engine.resolve(url: url, entry: entry, context: CoreBenchmarks.signedIn))
            }
        case "plan":
            let cases = try CoreBenchmarks.planCases(engine: host.engine)
            for _ in 0..<count {
                for (current, target, source) in cases {
                    blackHole(Reconciler.plan(current: current, target: target, source: source))
                }
            }
        case "pair":
            // BENCH_FILE run through ScenarioRunner, then the Swift scenario, `count` times,
            // each timed: PAIR=lua or PAIR=swift runs only that half. Shows how much each
            // half slows the other (caches) — what the paired ratio of row 4 includes.
            let file = URL(fileURLWithPath: ProcessInfo.processInfo.environment["BENCH_FILE"] ?? file.path)
            guard let entry = try ScenarioDiscovery().discover([file.path]).first else { return }
            let runner = ScenarioRunner(host: host, options: RunOptions())
            let mode = ProcessInfo.processInfo.environment["PAIR"] ?? "both"
            var lua = 0.0, swift = 0.0
            for _ in 0..<count {
                let t0 = DispatchTime.now().uptimeNanoseconds
                if mode != "swift" { blackHole(runner.runFile(entry, filter: nil)) }
                let t1 = DispatchTime.now().uptimeNanoseconds
                if mode != "lua" { try swiftScenario(engine: host.engine) }
                let t2 = DispatchTime.now().uptimeNanoseconds
                lua += Double(t1 - t0)
                swift += Double(t2 - t1)
            }
            print("\(mode): Lua file \(Int(lua / Double(max(count, 1)))) ns, Swift scenario \(Int(swift / Double(max(count, 1)))) ns")
        case "first":
            // Each run a distinct copy of the file (compiled from text, as a file's first run).
            // Always 400 copies written, so that writing them cancels out of (N runs − 0 runs).
            let copies = try FileCopies(of: file, count: max(count, 400))
            defer { copies.remove() }
            let runner = ScenarioRunner(host: host, options: RunOptions())
            for _ in 0..<count { blackHole(runner.runFile(try copies.take(), filter: nil)) }
        case "ratio-first":
            let (_, ratio) = try luaFirstRun(host: host, file: file, pairs: count)
            print("4d/3 = \(ratio.medianRatio) (median of \(ratio.pairs) pairs)")
        case "ratio":
            // Only the figure the "Lua within 2× of Swift" target is judged by:
            // 4/3 over `count` back-to-back pairs (for A/B runs of two builds).
            let ratio = try luaOverSwift(host: host, file: file, pairs: count)
            print("4/3 = \(ratio.medianRatio) (median of \(ratio.pairs) pairs)")
        case "state":
            for _ in 0..<count {
                blackHole(try? LuaState(options: LuaState.Options(instructionBudget: 10_000_000, memoryLimit: 64 << 20)))
            }
        default:
            throw Failure(
                description:
                    "--profile takes swift, swift-launch, lua, file, first, folder, pair, ratio, ratio-first, resolve, resolve-one, plan or state"
            )
        }
    }
}
