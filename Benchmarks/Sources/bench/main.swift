import CBenchSupport
import Foundation
import NavScript
import NavScriptRunner
import NavScriptRuntime
import ShopApp
import ShopHost

// bench: every figure of Benchmarks/README.md in one run, as a Markdown table.
//
//   bench [--navscript PATH] [--repo PATH] [--only core,scenario,suite,generated]
//         [--repetitions N] [--sizes 1000,5000,10000]
//   bench [--per-file K] --generate N DIR   write the generated suite of N scenarios (K a file) into DIR/generated-N
//   bench --profile WORKLOAD N  run one workload N times, untimed (for callgrind; see README.md)
//   bench --profile ratio N     print only the paired 4/3 over N pairs (A/B runs of two builds)
//   bench --profile ratio-first N   the same for 4d/3 (every run a file's first)
//
// Progress goes to stderr, the table to stdout.

struct Arguments {
    var navscript: String?
    var repo: String
    var only: Set<String> = ["core", "scenario", "suite", "generated", "long", "explore"]
    var repetitions = 11
    var sizes = [1_000, 5_000, 10_000]
    /// Scenarios per generated file (`--per-file`; the issue's busted comparison used 10).
    var perFile = 100
    /// Count instructions per operation with callgrind (when valgrind is installed).
    var callgrind = true
    /// `--profile WORKLOAD N`: only run that workload N times, untimed (for
    /// `valgrind --tool=callgrind`), or — `ratio` — print the paired 4/3 over N
    /// pairs (for comparing two builds run alternately). The workloads are listed
    /// in `ScenarioBenchmarks.profile`.
    var profile: (String, Int)?

    init(_ argv: [String]) {
        // Sources/bench/main.swift → the main package root.
        repo =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        var rest = argv.dropFirst()
        func value(_ flag: String) -> String {
            guard let v = rest.popFirst() else { fail("\(flag) needs a value") }
            return v
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--navscript": navscript = value(flag)
            case "--repo": repo = value(flag)
            case "--only": only = Set(value(flag).split(separator: ",").map(String.init))
            case "--repetitions": repetitions = Int(value(flag)) ?? repetitions
            case "--sizes": sizes = value(flag).split(separator: ",").compactMap { Int($0) }
            case "--per-file": perFile = max(1, Int(value(flag)) ?? perFile)
            case "--no-callgrind": callgrind = false
            case "--profile": profile = (value(flag), Int(value(flag)) ?? 100)
            case "--generate":
                // --generate N DIR: write the generated suite of N scenarios into DIR/generated-N and exit.
                let size = Int(value(flag)) ?? 1_000
                let root = URL(fileURLWithPath: value(flag))
                do {
                    let perFile = min(size, self.perFile)  // `--per-file N` given before `--generate`
                    let folder = try SuiteGenerator.write(files: max(1, size / perFile), perFile: perFile, into: root)
                    print(folder.path)
                    exit(0)
                } catch {
                    fail("\(error)")
                }
            default: fail("unknown argument \(flag)")
            }
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
    exit(2)
}

func progress(_ message: String) {
    FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
}

/// `1,234.5`: fixed decimals, thousands separated (no locale surprises).
func format(_ value: Double, decimals: Int = 0) -> String {
    guard value.isFinite else { return "n/a" }
    let text = String(format: "%.\(decimals)f", abs(value))
    let parts = text.split(separator: ".", maxSplits: 1)
    var whole = String(parts[0])
    var grouped = ""
    while whole.count > 3 {
        grouped = "," + whole.suffix(3) + grouped
        whole = String(whole.dropLast(3))
    }
    let sign = value < 0 && text.contains(where: { $0 != "0" && $0 != "." }) ? "-" : ""
    return sign + whole + grouped + (parts.count > 1 ? "." + parts[1] : "")
}

let arguments = Arguments(CommandLine.arguments)
/// Whether allocations made inside libswiftCore reach the counting malloc
/// (they do when the executable's malloc is the one the dynamic linker binds).
final class Probe { var value = 0 }
func mallocIsCounted() -> Bool {
    bench_counting_begin()
    blackHole(Probe())
    return bench_counting_end().allocations >= 1
}
guard mallocIsCounted() else { fail("the malloc counter is not in effect; allocation counts would be wrong") }

var inProcess: [(number: String, measurement: Measurement, unit: String, scale: Double, note: String)] = []
/// Instructions per operation by row number, from callgrind.
var instructions: [String: Double] = [:]
var cliRows: [(number: String, measurement: SuiteMeasurement, note: String)] = []
var exploreRate: Double?

do {
    let host = try ShopHost()
    let engine = host.engine
    if let (workload, count) = arguments.profile {
        let file = URL(fileURLWithPath: arguments.repo).appendingPathComponent("Benchmarks/scenarios/ten_steps.lua")
        try ScenarioBenchmarks.profile(workload, count: count, host: host, file: file)
        exit(0)
    }

    if arguments.only.contains("core") {
        progress("(1) RoutingEngine.resolve")
        inProcess.append(
            (
                "1", CoreBenchmarks.resolve(engine: engine), "ns/resolve", 1,
                "\(CoreBenchmarks.urls.count) inputs (aliases, query, universal, 3 error kinds) × signed out/in"
            ))
        inProcess.append(
            (
                "1a", CoreBenchmarks.resolveTypical(engine: engine), "ns/resolve", 1,
                "one \(CoreBenchmarks.typicalURL.0.utf8.count)-byte universal link that proceeds (`\(CoreBenchmarks.typicalURL.0)`, signed in)"
            ))
        progress("(2) Reconciler.plan")
        inProcess.append(
            (
                "2", try CoreBenchmarks.plan(engine: engine), "ns/plan", 1,
                "10 cases: no-op, update, pop-to, reset, shared prefix, tab switch, modals"
            ))
    }
    if arguments.only.contains("scenario") {
        progress("(3) 10-step scenario from Swift")
        let swift = try ScenarioBenchmarks.swift(engine: engine)
        inProcess.append(("3", swift, "µs/scenario", 1e-3, "fresh ShopApplication, settle after each step, 3 checks"))
        progress("(4) the same scenario in Lua")
        let file = URL(fileURLWithPath: arguments.repo).appendingPathComponent("Benchmarks/scenarios/ten_steps.lua")
        let lua = try ScenarioBenchmarks.lua(host: host, file: file)
        let paired = try ScenarioBenchmarks.luaOverSwift(host: host, file: file)
        inProcess.append(
            (
                "4", lua, "µs/scenario", 1e-3,
                "**4/3 = \(format(paired.medianRatio, decimals: 2))×** (median of \(paired.pairs) back-to-back pairs, "
                    + "p10–p90 \(format(paired.p10Ratio, decimals: 2))–\(format(paired.p90Ratio, decimals: 2)); ratio of the two medians "
                    + "\(format(lua.medianNs / swift.medianNs, decimals: 2))×); Benchmarks/scenarios/ten_steps.lua via ScenarioRunner.runFile, "
                    + "run again and again: its bytecode comes from the chunk cache, as for a file run again in a process (mutate)"
            ))
        let (firstRun, firstPaired) = try ScenarioBenchmarks.luaFirstRun(host: host, file: file)
        inProcess.append(
            (
                "4d", firstRun, "µs/scenario", 1e-3,
                "**4d/3 = \(format(firstPaired.medianRatio, decimals: 2))×** (median of \(firstPaired.pairs) back-to-back pairs, "
                    + "p10–p90 \(format(firstPaired.p10Ratio, decimals: 2))–\(format(firstPaired.p90Ratio, decimals: 2))); (4) for a file's "
                    + "first run in the process: every run a different copy of the file, compiled from text — what each file costs in `navscript run`"
            ))
        progress("(4a–d) where the time of (4) goes")
        inProcess.append(
            (
                "4a", ScenarioBenchmarks.luaState(), "µs/state", 1e-3,
                "not part of (4) any more: a sandboxed state built from scratch and closed — what a file paid before state images, and still pays when the region is taken"
            ))
        let breakdown = try ScenarioBenchmarks.luaBreakdown(host: host)
        if breakdown.count == 2 {
            inProcess.append(
                (
                    "4b", breakdown[0], "µs/file", 1e-3,
                    "part of (4): a fresh state restored from the image (sandbox, bindings, prelude), the file read and loaded (its bytecode from the chunk cache, as in (4)), the state closed"
                ))
            inProcess.append(("4c", breakdown[1], "µs/file", 1e-3, "part of (4): 4b + one scenario that launches the app"))
        }
        inProcess.append(("3a", ScenarioBenchmarks.swiftLaunch(engine: engine), "µs/launch", 1e-3, "part of (3): compare 4c − 4b"))
    }
    if arguments.only.contains("explore") {
        progress("(8) explore: steps per second, invariants and properties after every step")
        var rates: [Double] = []
        for run in 0..<3 {
            let explorer = Explorer(host: host, configuration: .init(seed: UInt64(run + 1), seconds: 0, steps: 20_000))
            let report = explorer.run()
            rates.append(Double(report.steps) / report.seconds)
        }
        exploreRate = rates.sorted()[1]
    }
    if arguments.callgrind, InstructionCount.valgrind != nil {
        // (row, workload, iterations, operations per iteration)
        var workloads: [(String, String, Int, Int)] = []
        if arguments.only.contains("core") {
            workloads += [
                ("1", "resolve", 200, CoreBenchmarks.urls.count * 2), ("1a", "resolve-one", 5_000, 1),
                ("2", "plan", 2_000, 10)
            ]
        }
        if arguments.only.contains("scenario") {
            workloads += [
                ("3", "swift", 200, 1), ("3a", "swift-launch", 200, 1), ("4", "lua", 100, 1), ("4d", "first", 100, 1),
                ("4a", "state", 200, 1)
            ]
        }
        for (row, workload, count, operations) in workloads {
            progress("callgrind: \(workload) × \(count)")
            instructions[row] = InstructionCount.perOperation(workload, count: count, operations: operations, repo: arguments.repo)
        }
    } else if arguments.callgrind {
        progress("valgrind is not installed: no instruction counts (apt-get install valgrind)")
    }
    if arguments.only.contains("suite") || arguments.only.contains("generated") || arguments.only.contains("long") {
        guard let navscript = arguments.navscript else { fail("--navscript PATH is needed for the CLI benchmarks") }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        if arguments.only.contains("suite") {
            for (label, extra) in [
                ("--jobs 1", ["--jobs", "1"]), ("default jobs (\(cores))", []),
                ("--in-process", ["--in-process"])
            ] {
                progress("(5) shipped suite, \(label)")
                let m = try SuiteBenchmarks.measure(
                    "shipped suite, \(label)", navscript: navscript,
                    arguments: ["scenarios"] + extra, in: arguments.repo,
                    repetitions: arguments.repetitions)
                cliRows.append(("5", m, "`navscript run scenarios \(extra.joined(separator: " "))`"))
            }
        }
        if arguments.only.contains("generated") {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("navscript-bench-\(getpid())")
            defer { try? FileManager.default.removeItem(at: root) }
            for size in arguments.sizes {
                let perFile = min(size, arguments.perFile)
                let folder = try SuiteGenerator.write(files: max(1, size / perFile), perFile: perFile, into: root)
                for (label, extra) in [
                    ("--jobs 1", ["--jobs", "1"]), ("default jobs (\(cores))", []),
                    ("--in-process", ["--in-process"])
                ] {
                    progress("(6) generated \(size), \(label)")
                    let m = try SuiteBenchmarks.measure(
                        "generated \(format(Double(size))), \(label)", navscript: navscript,
                        arguments: [folder.path] + extra, in: root.path,
                        repetitions: max(1, min(arguments.repetitions, size >= 5_000 ? 3 : 5)))
                    guard m.runs.allSatisfy({ $0.passed == size }) else {
                        throw ScenarioBenchmarks.Failure(description: "the generated suite of \(size) did not all pass")
                    }
                    cliRows.append(("6", m, "\(size / perFile) files × \(perFile) scenarios"))
                }
                progress("(6) generated \(size), one worker process alone")
                var w = try SuiteBenchmarks.worker(
                    navscript: navscript, folder: folder, in: root.path,
                    repetitions: max(1, min(arguments.repetitions, 3)))
                w.name = "generated \(format(Double(size))), `navscript worker` alone"
                guard w.runs.allSatisfy({ $0.scenarios == size && $0.passed == size }) else {
                    throw ScenarioBenchmarks.Failure(description: "the worker did not pass all \(size) generated scenarios")
                }
                cliRows.append(("6", w, "the worker of a `--jobs 1` run, fed the \(size / perFile) files on stdin"))
            }
        }
        if arguments.only.contains("long") {
            // One scenario of 100,000 steps: streaming its timeline from a
            // worker must cost O(1) per step, so the two rows stay close.
            // Then 10^6 deep links in one scenario: memory per step must be
            // bounded (the timeline, the storyboard and the app's event log
            // keep windows), so its peak RSS stays flat.
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("navscript-bench-long-\(getpid())")
            defer { try? FileManager.default.removeItem(at: root) }
            let long = try SuiteGenerator.writeLong(steps: 100_000, into: root)
            let links = try SuiteGenerator.writeLinks(1_000_000, into: root)
            let modes = [("--jobs 1 (a worker)", ["--jobs", "1"]), ("--in-process", ["--in-process"])]
            // 7c: the same 100,000 steps with a storyboard (`--html`): a frame and the
            // leaks after every step, each of which must cost the same at step 90,000
            // as at step 10 (the leak check once walked every object ever tracked).
            let html = root.appendingPathComponent("report.html").path
            for (number, file, what, note, options) in [
                ("7", long, "100,000-step scenario", "tap/back × 50,000 in one scenario", [String]()),
                ("7b", links, "10⁶ deep links in one scenario", "peak RSS: the timeline, frames and event log are bounded", []),
                ("7c", long, "100,000-step scenario with --html", "a storyboard frame and the leaks after every step", ["--html", html])
            ] {
                for (label, extra) in modes {
                    progress("(\(number)) \(what), \(label)")
                    let m = try SuiteBenchmarks.measure(
                        "\(what), \(label)", navscript: navscript,
                        arguments: [file.path, "--instruction-budget", "100000000000"] + options + extra,
                        in: root.path, repetitions: max(1, min(arguments.repetitions, 3)))
                    cliRows.append((number, m, note))
                }
            }
        }
    }
} catch {
    fail("\(error)")
}

// MARK: - The table

let date = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
var uname = utsname()
_ = Glibc.uname(&uname)
let machine = withUnsafeBytes(of: &uname.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
print("navscript benchmarks, \(date), \(ProcessInfo.processInfo.activeProcessorCount) cores (\(machine)), release build\n")
if !inProcess.isEmpty {
    print("| # | in process | median | p10–p90 | instructions | allocations | notes |")
    print("|---|---|---:|---:|---:|---:|---|")
    for row in inProcess {
        let m = row.measurement
        let decimals = row.scale < 1 ? 1 : 0
        let unit = row.unit
        let perUnit = unit.split(separator: "/").last.map(String.init) ?? "op"
        print(
            "| \(row.number) | \(m.name) | \(format(m.medianNs * row.scale, decimals: decimals)) \(unit) "
                + "| \(format(m.p10Ns * row.scale, decimals: decimals))–\(format(m.p90Ns * row.scale, decimals: decimals)) "
                + "| \(instructions[row.number].map { format($0) } ?? "–") "
                + "| \(format(m.allocationsPerOp, decimals: m.allocationsPerOp < 100 ? 1 : 0)) /\(perUnit) "
                + "| \(row.note); \(m.samples) samples |")
    }
    print("")
}
if let exploreRate {
    print("| 8 | `navscript explore` on ShopApp, one core | \(format(exploreRate)) steps/s (median of 3 × 20,000 steps) |\n")
}
if !cliRows.isEmpty {
    print("| # | CLI run | scenarios | run time (median) | scenarios/s | wall (median) | µs/scenario (wall) | peak RSS | notes |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for row in cliRows {
        let m = row.measurement
        let reported = m.medianReported.isNaN ? "–" : format(m.medianReported * 1000, decimals: 0) + " ms"
        let rate = m.medianReported.isNaN ? format(Double(m.scenarios) / m.medianWall) + " (wall)" : format(m.scenariosPerSecond)
        print(
            "| \(row.number) | \(m.name) | \(format(Double(m.scenarios))) | \(reported) "
                + "| \(rate) | \(format(m.medianWall * 1000, decimals: 0)) ms "
                + "| \(format(m.medianWall * 1e6 / Double(m.scenarios), decimals: 0)) "
                + "| \(format(m.maxRSSMiB, decimals: 1)) MiB | \(row.note); \(m.runs.count) runs |")
    }
    print("")
    print(
        "run time: what the CLI reports (`… in 0.034s`: loading, running and reporting every file); "
            + "wall: process start to exit; peak RSS: the largest single process of the run (the CLI or one worker), "
            + "from wait4 in bench-spawn, a 1 MiB helper (Linux carries a parent's resident set into its child's ru_maxrss).")
}
