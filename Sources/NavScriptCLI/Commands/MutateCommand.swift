import ArgumentParser
import Foundation
import NavScript
import NavScriptRunner
import NavScriptRuntime

/// `navscript mutate`: proves the suite catches every fault in the app's
/// catalogue — a green healthy run, then one run per fault, and a kill matrix.
struct MutateCommand: HostedCommand {
    static let configuration = CommandConfiguration(
        commandName: "mutate",
        abstract: "Run the suite once healthy and once per fault; print the kill matrix and mutation score.",
        discussion: """
            The suite must be green on the healthy app first: mutate refuses to score a failing suite (exit 2, \
            naming the failing scenarios).

            Exit status: 0 every fault killed, 1 a fault survived, 2 usage error or a suite that is not green, \
            130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP.
            """
    )

    @OptionGroup var suite: SuiteOptions

    @Option(parsing: .unconditional, help: "Fault runs executed at once (default: the number of cores).")
    var jobs: Int?

    @Option(
        name: .customLong("only"), parsing: .singleValue, help: "Test only these faults (repeatable).", completion: ValueCompletion.faults)
    var only: [String] = []

    /// `--junit`, `--json`, `--html`: one test case per fault (a surviving fault fails).
    @OptionGroup var report: ReportOptions
    var reportOptions: ReportOptions? { report }

    @Flag(help: "Print the matrix as a Markdown table (for the README).")
    var markdown = false

    @Flag(help: "List every killing scenario, and the scenarios that kill nothing (runs the full matrix).")
    var verbose = false

    @Flag(
        help: ArgumentHelp(
            "Run every scenario under every fault. Without it a fault's remaining files are skipped "
                + "once a scenario killed it (the verdicts are the same; --verbose and --markdown imply it)."))
    var fullMatrix = false

    @Flag(help: "List the host's fault catalogue and exit.")
    var list = false

    @Option(parsing: .unconditional, help: "Seconds one scenario may run before its worker is killed (a hanging fault is killed this way).")
    var timeout: Double = 5

    @Flag(
        help:
            "Run every fault's files in this process, one after another (for debugging and measuring): no crash isolation — a fault that traps ends the run and one that hangs in the app's code is not stopped (--timeout stops only a scenario's Lua code)."
    )
    var inProcess = false

    @Flag(
        help:
            "Score the faults by exploration alone (no scenarios): `\(NavScriptCLI.executableName) explore` per fault, in its own process.")
    var explore = false

    @Option(parsing: .unconditional, help: "With --explore: seconds of exploration per fault.")
    var exploreTime: Double = 30

    @Option(parsing: .unconditional, help: "With --explore: the seed of every fault's exploration.")
    var seed: UInt64 = 1

    func validate() throws {
        guard (jobs ?? 1) >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard !explore || (report.junit == nil && report.json == nil && report.html == nil) else {
            throw ValidationError(
                "--junit, --json and --html are not written with --explore (each fault's exploration reports to the terminal)")
        }
        try TimeoutLimit.check(timeout)
        // Each fault's exploration runs this long, and is watched for four times as long: a value that is not a
        // number of seconds trapped converting it; a negative one explored nothing and called the fault survived.
        guard exploreTime.isFinite, exploreTime > 0, exploreTime <= TimeoutLimit.maximum else {
            throw ValidationError(
                "--explore-time must be a number of seconds above 0 and at most \(Int(TimeoutLimit.maximum)) (a week), got \(exploreTime)")
        }
        try report.refuseOverwriting(suite.manifest, readBy: "--manifest")
    }

    func run(in context: CommandContext) throws {
        // From the start: reading the suite to select from it runs its files' top levels.
        let stop = StopSignal()
        stop.catchSignals()
        let host = try self.suite.host(in: context)
        let suite = try self.suite.selectingLines(host: host, watched: (timeout, stop, report, "mutate"))
        if list {
            for fault in host.faults { print("\(fault.name)\n    \(fault.summary)") }
            return
        }
        var faults = host.faults
        // No catalogue, no score: "0/0 killed (100%)" would read as a pass.
        guard !faults.isEmpty else {
            throw ValidationError(
                "\(host.name) declares no faults, so there is nothing to mutate: list the slips your app can make "
                    + "in the host's `faults` (and switch each on in `launch(_:)` from request.faults)")
        }
        // Repeatable, and comma lists too, like --tags and --allow.
        let only = SuiteOptions.split(self.only)
        if !only.isEmpty {
            let names = faults.map(\.name)
            if let unknown = only.first(where: { !names.contains($0) }) {
                let hint = NameSuggestion.closest(to: unknown, among: names).map { "did you mean '\($0)'? " } ?? ""
                throw ValidationError("unknown fault '\(unknown)'; \(hint)the catalogue is: " + names.joined(separator: ", "))
            }
            faults = faults.filter { only.contains($0.name) }
        }
        if explore {
            let matrix = ExplorationMatrix(
                faults: faults, seconds: exploreTime, seed: seed, timeout: max(timeout, exploreTime * 4),
                streams: NavScriptCLI.streams)
            throw ExitCode(matrix.run(markdown: markdown))
        }
        let entries = try suite.discover()
        // Read under the run's time limit and stop signals, as `run` reads it.
        var selecting = suite.runOptions()
        selecting.scenarioTimeout = timeout
        selecting.interruption = stop.interruption
        try suite.requireSelection(
            entries, runner: ScenarioRunner(host: host, options: selecting), stop: stop, report: report, command: "mutate")
        // Opened first: a report file that cannot be created fails before hours of runs.
        let stream = RunEventStream(try report.reporters(stop: stop))
        var plan = MutationRun(entries: entries, faults: faults, baseFaults: suite.faults)
        let options = suite.runOptions()
        var execution = suite.execution(options, jobs: jobs, timeout: timeout, inProcess: inProcess)
        execution.writtenByTheRun = [report.json, report.junit, report.html].compactMap { $0 }
        let started = Date()
        // Published now: until the matrix is decided, the report files say mutate did not finish.
        let reportPlan = RunPlan(command: "mutate", app: host.name, files: ["mutate"], startedAt: started.timeIntervalSince1970)
        stream.publish(.runStarted(reportPlan))
        let byPath = Dictionary(uniqueKeysWithValues: entries.map { ($0.path, $0) })
        // Stamped before any run: a file edited while mutate runs (a checkout, an editor) made every fault
        // run after the edit fail for the edit's sake, each counted as a kill.
        let stamps = SuiteStamps(entries, except: execution.writtenByTheRun)
        // The healthy run first: a suite that fails without any fault cannot score faults.
        let healthy = try execution.execute(Array(plan.tasks.prefix(entries.count)), host: host, entries: byPath, stop: stop)
        // (Before the healthy run's verdict: an edit during it may be why it is not green.)
        try refuseIfEdited(stamps, entries: entries, plan: plan, results: healthy, started: started, stream: stream)
        if let status = stop.exitStatus {
            stream.publishFiles(of: plan.report(results: healthy, started: started).runResult(), interruption: stop.reason)
            writeStandardError("\(NavScriptCLI.executableName) mutate: \(stop.reason) during the run without faults; no fault was scored\n")
            _ = ReportOptions.reportFailures(stream)
            throw ExitCode(status)
        }
        guard !healthy.flatMap(\.scenarios).isEmpty else {
            writeStandardError(
                "\(NavScriptCLI.executableName) mutate: \(suite.nothingToRun(files: entries.count)); with no scenario no fault can be scored\n"
            )
            throw ExitCode(2)
        }
        let failing = healthy.flatMap(\.scenarios).filter { $0.status.isProblem }
        guard failing.isEmpty else {
            // The reports still say so (CI uploads them): "healthy suite passes" failing, with the scenarios.
            stream.publishFiles(of: plan.report(results: healthy, started: started).runResult())
            let without = suite.faults.isEmpty ? "on the healthy app" : "with --fault \(suite.faults.joined(separator: ", ")) alone"
            let replay = (["\(NavScriptCLI.executableName) run"] + suite.faults.map { "--fault \($0)" }).joined(separator: " ")
            writeStandardError(
                "\(NavScriptCLI.executableName) mutate: the suite is not green \(without), so no fault can be scored; "
                    + "fix these first (\(replay) shows why):\n"
                    + failing.map { "  \($0.line > 0 ? "\($0.file):\($0.line)" : $0.file)  \($0.name)\n" }.joined())
            _ = ReportOptions.reportFailures(stream)
            throw ExitCode(2)
        }
        // Asked after the failures: a file that did not load is a failure to fix, not a skipped scenario.
        guard healthy.flatMap(\.scenarios).contains(where: { $0.status == .passed }) else {
            writeStandardError(
                "\(NavScriptCLI.executableName) mutate: no scenario of the selection runs (all are pending or skipped), so no fault can be scored\n"
            )
            throw ExitCode(2)
        }
        plan.noteHealthy(healthy, timeout: timeout)
        // Faults run in parallel across the jobs. A fault's file is skipped once an earlier file of
        // it (in run order) has killed it: its first killing file always runs, whatever the timing.
        let kills = KillLedger(plan: plan)
        let complete = fullMatrix || verbose || markdown
        let faulty = try execution.execute(
            Array(plan.tasks.dropFirst(entries.count)), host: host, entries: byPath, stop: stop,
            skipReason: { complete || !kills.isKilled($0) ? nil : "its fault is already killed (--full-matrix runs it)" },
            onTaskFinished: { task, result in kills.record(task, result) })
        // Every file that killed a fault runs healthy once more: a scenario whose failure does not depend on
        // the fault (it checks the clock, or how long its process has run) passed at the start and "killed"
        // every fault after that. Its kills are not counted.
        let killing = plan.killingFiles(faulty)
        if stop.exitStatus == nil, !killing.isEmpty {
            let again = plan.tasks.prefix(entries.count).filter { killing.contains($0.path) }
            plan.noteRecheck(try execution.execute(Array(again), host: host, entries: byPath, stop: stop))
        }
        // And each fault's first killing file runs under it once more: a kill that does not repeat is none.
        let repeats = plan.repeatTasks(faulty)
        if stop.exitStatus == nil, !repeats.isEmpty {
            plan.noteRepeat(try execution.execute(repeats, host: host, entries: byPath, stop: stop), of: repeats)
        }
        try refuseIfEdited(stamps, entries: entries, plan: plan, results: healthy + faulty, started: started, stream: stream)
        // Interrupted, it still reports what it decided: the faults killed, the rest not decided.
        let matrix = plan.report(results: healthy + faulty, started: started, firstKillingFileOnly: !complete)
        let terminal = report.terminal
        terminal(markdown ? matrix.markdown() : matrix.text(verbose: verbose, executable: NavScriptCLI.executableName))
        if !complete {
            terminal("(each fault counted in its first killing file; --full-matrix runs every scenario under every fault)\n")
        }
        if verbose {
            let idle = matrix.scenariosKillingNothing
            terminal("\n\(idle.count) scenario\(idle.count == 1 ? "" : "s") killing no fault\(idle.isEmpty ? "" : ":")\n")
            for scenario in idle { terminal("    \(scenario)\n") }
        }
        stream.publishFiles(of: matrix.runResult(), interruption: stop.interruptingSignal == nil ? nil : stop.reason)
        if let status = stop.exitStatus {
            writeStandardError("\(NavScriptCLI.executableName) mutate: \(stop.reason); the matrix and the reports cover what was decided\n")
            _ = ReportOptions.reportFailures(stream)
            throw ExitCode(status)
        }
        try ReportOptions.requireWritten(stream)
        throw ExitCode(matrix.isSuccess ? 0 : 1)
    }

    /// Ends mutate (exit 2, the reports saying why) when a file of the suite changed since `stamps`
    /// were taken: the runs under the faults did not run what the run without them passed, and
    /// every fault run after an edit failed for the edit's sake, counted as a kill.
    private func refuseIfEdited(
        _ stamps: SuiteStamps, entries: [SuiteFile], plan: MutationRun, results: [FileResult], started: Date,
        stream: RunEventStream
    ) throws {
        guard let changed = stamps.firstChange(entries) else { return }
        let reason =
            "\(changed) changed while mutate ran, so its runs did not all run the same suite; no fault was scored: "
            + "run mutate again on a suite nothing edits meanwhile"
        var result = plan.report(results: results, started: started).runResult()
        let stayed = ScenarioResult(
            name: "the suite stays as it was", file: "mutate", line: 0, outcome: .errored(.loadError), message: reason)
        result.files.append(FileResult(file: "mutate", scenarios: [stayed], duration: 0))
        stream.publishFiles(of: result)
        writeStandardError("\(NavScriptCLI.executableName) mutate: \(reason)\n")
        _ = ReportOptions.reportFailures(stream)
        throw ExitCode(2)
    }
}

/// For each fault (by the fault list its tasks run with), the earliest
/// task — in run order — whose file killed it, as tasks finish.
private final class KillLedger {
    private var firstKill: [[String]: Int] = [:]
    private let plan: MutationRun

    init(plan: MutationRun) { self.plan = plan }

    /// Whether a file before this task's (in run order) already killed its fault.
    func isKilled(_ task: WorkerTask) -> Bool { firstKill[task.faults].map { $0 < task.id } ?? false }

    func record(_ task: WorkerTask, _ result: FileResult) {
        guard result.scenarios.contains(where: plan.kills) else { return }
        firstKill[task.faults] = min(firstKill[task.faults] ?? .max, task.id)
    }
}
