import ArgumentParser
import Foundation
import NavScript
import NavScriptRunner
import NavScriptRuntime

/// `navscript explore`: find navigation bugs without writing a scenario —
/// seeded walks, invariants and differential properties after every step,
/// violations shrunk to runnable reproducers.
struct ExploreCommand: HostedCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Walk the app at random, check its properties after every step, shrink what breaks to a scenario.",
        discussion: """
            Walks: a random launch, then steps drawn from what the app offers where it is — the visible \
            screen's outputs (with valid, boundary and invalid parameters), back, back-swipes, dismiss, tab \
            switches, links from the manifest through every entry point (and hostile ones), the host's own \
            verbs, restarts, two links mid-flight — favouring what is not covered yet. Checked after every \
            step: the invariants, a link landing on its canonical stack, the same outcome through every \
            entry point, a restart restoring the archived state. A violation is shrunk by delta debugging \
            and written as a scenario to --out, checked to fail with the faults and pass without.

            A crash or hang of the app (a step that does not return within --timeout) is a violation too — \
            every input gets an outcome — written as a reproducer like the others.

            Exit status: 0 no violation, 1 violations found, 2 usage error or a reproducer or report not \
            written, 130/143/129 stopped by SIGINT/SIGTERM/SIGHUP.
            """
    )

    @Option(
        parsing: .unconditional,
        help: "Seed of the walks; the same seed gives the same walks and reproducers. Default: random, and printed.")
    var seed: UInt64?

    @Option(parsing: .unconditional, help: "Seconds to explore.")
    var time: Double = 10

    @Option(parsing: .unconditional, help: "Stop after this many steps in all — with --jobs, in each exploration (0: only --time limits).")
    var steps: Int = 0

    @Option(parsing: .unconditional, help: "Steps per walk before a fresh launch.")
    var walkLength: Int = Explorer.Configuration.defaultWalkLength

    @Option(
        name: .customLong("fault"), parsing: .singleValue, help: "Inject a fault of the app's catalogue (repeatable).",
        completion: ValueCompletion.faults)
    var faults: [String] = []

    @Option(help: "Folder for the reproducers.", completion: .directory)
    var out: String = "explore-findings"

    @Flag(help: "Stop once every screen, output, entry point and link pattern was covered.")
    var untilCovered = false

    @Flag(help: "Stop at the first violation that passes without the faults (a CI gate needs one; mutate --explore uses it).")
    var stopAtFirst = false

    /// `--junit`, `--json`, `--html`: one failing test case per violation.
    @OptionGroup var report: ReportOptions
    var reportOptions: ReportOptions? { report }

    @Option(
        help: ArgumentHelp(
            "Scenario files or folders whose driving calls with literal arguments (deep links, taps, tabs, the app's verbs) the walks also draw from (repeatable).",
            valueName: "path"),
        completion: ValueCompletion.scenarios)
    var from: [String] = []

    @Option(help: "Explore with this route manifest instead of the app's own.", completion: ValueCompletion.manifest)
    var manifest: String?

    @Option(parsing: .unconditional, help: "Explorations run at once, each in its own process with its own seed (seed, seed+1, …).")
    var jobs: Int = 1

    @Option(
        parsing: .unconditional,
        help:
            "Seconds one step may run before the app counts as hung: the exploration stops and reports the hang with the steps that led to it."
    )
    var timeout: Double = 10

    /// Internal: the file a supervised exploration writes its steps to (see ``ExplorationSupervisor``).
    @Option(help: ArgumentHelp(visibility: .private))
    var trace: String?

    /// Internal: where an exploration keeps what it found for the process that started it.
    @Option(help: ArgumentHelp(visibility: .private))
    var records: String?

    func validate() throws {
        try SuiteOptions.refuseEmptyPath(manifest, of: "--manifest")
        guard time.isFinite, time >= 0 else {
            throw ValidationError(
                "--time must be a number of seconds, 0 or more (got \(time)); for no time limit give "
                    + "--time 0 with --steps or --until-covered")
        }
        guard steps >= 0 else { throw ValidationError("--steps must not be negative (got \(steps))") }
        guard time > 0 || steps > 0 || untilCovered else {
            throw ValidationError(
                "--time 0 without --steps or --until-covered would explore forever: give a positive "
                    + "--time (seconds), a --steps count, or --until-covered")
        }
        guard walkLength >= 1 else { throw ValidationError("--walk-length must be at least 1") }
        try TimeoutLimit.check(timeout)
        try report.refuseOverwriting(manifest, readBy: "--manifest")
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard jobs == 1 || (report.junit == nil && report.json == nil && report.html == nil) else {
            throw ValidationError("--junit, --json and --html report one exploration: use them with --jobs 1")
        }
        var isFolder: ObjCBool = false
        if out.isEmpty { throw ValidationError("--out needs a folder for the reproducers (default: explore-findings)") }
        if FileManager.default.fileExists(atPath: out, isDirectory: &isFolder), !isFolder.boolValue {
            throw ValidationError(
                "--out \(out) is a file, not a folder: give a folder for the reproducers (it is created "
                    + "when missing)")
        }
        // A folder inside a file (`--out notes.txt/findings`) could never be created: said now, not
        // after the exploration found something it then cannot write.
        var ancestor = URL(fileURLWithPath: out).deletingLastPathComponent()
        while ancestor.path != "/" && !FileManager.default.fileExists(atPath: ancestor.path) {
            ancestor.deleteLastPathComponent()
        }
        if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw ValidationError(
                "--out \(out) cannot be created: \(ancestor.path) is a file, not a folder; give a folder for the "
                    + "reproducers")
        }
    }

    func run(in context: CommandContext) throws {
        // A supervised exploration takes its interrupts from the start: one that comes while the
        // host is being built must still end it with its summary, not kill it.
        let stop = StopSignal()
        if trace != nil { stop.catchSignals() }
        var host = try context.host()
        try SuiteOptions.checkFaults(faults, of: host)
        // A path that is not there is said now, not explored without in silence.
        let seeds: [SuiteFile]
        do { seeds = try ScenarioDiscovery().discover(from) } catch { throw ValidationError("--from: \(error)") }
        // So is a file that does not compile: its calls would be read from broken text, or not at all.
        if !seeds.isEmpty {
            let lua = try LuaState()
            for seed in seeds {
                do { _ = try lua.loadFile(atPath: seed.fileSystemPath, chunkName: seed.path) } catch {
                    throw ValidationError("--from: \(error.message); fix the file or leave it out")
                }
            }
        }
        if let manifest { host = try ManifestOption.load(manifest, into: host) }
        let frontend = ExploreFrontend(request: request, host: host, streams: NavScriptCLI.streams)
        throw ExitCode(try frontend.run(stop: stop))
    }

    /// The options as the runner layer takes them.
    var request: ExplorationRequest {
        var request = ExplorationRequest(seed: seed ?? UInt64.random(in: 1...999_999))
        request.time = time
        request.steps = steps
        request.walkLength = walkLength
        request.faults = faults
        request.out = out
        request.untilCovered = untilCovered
        request.stopAtFirst = stopAtFirst
        request.reports = report.targets
        request.manifest = manifest
        request.jobs = jobs
        request.timeout = timeout
        request.trace = trace
        request.records = records
        request.from = from
        return request
    }
}
