import ArgumentParser
import Foundation
import NavScript
import NavScriptRunner
import NavScriptRuntime

/// `navscript run`: the main job — run the suite, report to the terminal
/// and (optionally) as JUnit XML, HTML and JSON lines, exit 0 / 1 / 2.
struct RunCommand: HostedCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenarios and report to the terminal, as JUnit XML, HTML or JSON lines.",
        discussion: """
            Exit status: 0 all passed, 1 a scenario failed or errored, 2 usage error, a file that did not load, \
            no scenario to run (none declared, a --filter/--tags selection that matches none, or only pending ones), or a report (--junit, --html, --json) that could \
            not be written; 130, 143 or 129 when SIGINT, SIGTERM or SIGHUP stopped the run (the report covers \
            what finished, a scenario that was running is an error, the rest is marked skipped) — these take precedence.
            """
    )

    @OptionGroup var suite: SuiteOptions

    @OptionGroup var report: ReportOptions
    var reportOptions: ReportOptions? { report }

    @Option(
        help: ArgumentHelp(
            "When to colour the report: auto (a terminal, honouring NO_COLOR, FORCE_COLOR and "
                + "CLICOLOR_FORCE), always or never.", valueName: "when"))
    var color: ConsoleReport.ColorChoice = .auto

    @Flag(help: "Also show what passing scenarios printed.")
    var showOutput = false

    @Flag(help: "Stop at the first failure or error; the rest is reported as skipped.")
    var failFast = false

    @Flag(help: "Run files and scenarios in a shuffled order (see --seed).")
    var shuffle = false

    @Option(parsing: .unconditional, help: "Seed for --shuffle; the same seed gives the same order. Default: random, and printed.")
    var seed: UInt64?

    @Option(parsing: .unconditional, help: "Worker processes running scenario files in parallel (default: the number of cores).")
    var jobs: Int?

    @Option(
        parsing: .unconditional,
        help:
            "Seconds one scenario may run: its Lua code is then stopped at the line it runs; a hang in the app's code gets its worker killed. Either way it is reported as an error."
    )
    var timeout: Double = Self.defaultTimeout
    static let defaultTimeout = 60.0

    @Option(help: "Run only shard i of n (e.g. 2/4): a stable split of the files, balanced by scenario count.")
    var shard: String?

    @Flag(
        help:
            "Run every file in this process, one after another (for debugging, profiling, measuring the runtime): no crash isolation — a trap ends the run; --timeout and Ctrl-C stop the scenario under way at its next instruction, and one stuck where none is reached (a hang in the app) ends the run a few seconds later, its reports written."
    )
    var inProcess = false

    func validate() throws {
        guard (jobs ?? 1) >= 1 else { throw ValidationError("--jobs must be at least 1") }
        try TimeoutLimit.check(timeout)
        try report.refuseOverwriting(suite.manifest, readBy: "--manifest")
        if let shard, Shard(shard) == nil {
            throw ValidationError(
                "--shard '\(shard)' is not of the form i/n with 1 <= i <= n <= \(Shard.maximumCount) (e.g. --shard 2/4)")
        }
    }

    func run(in context: CommandContext) throws {
        // From the start: reading the suite to select from it runs its files' top levels.
        let stop = StopSignal()
        stop.catchSignals()
        let host = try self.suite.host(in: context)
        let suite = try self.suite.selectingLines(host: host, watched: (timeout, stop, report, "run"))
        let seed = self.seed ?? UInt64.random(in: 1...999_999)
        if self.seed != nil && !shuffle {
            // Someone replaying a printed seed expects the order it printed: said, not silently ignored.
            writeStandardError(
                "\(NavScriptCLI.executableName): note: --seed orders a --shuffle run; without --shuffle the files run in "
                    + "discovery order and the seed is not used\n")
        }
        var options = suite.runOptions(failFast: failFast, shuffle: shuffle, seed: seed)
        options.recordsFrames = report.recordsFrames
        // Files loaded to select from them (--filter, --tags) run under the run's limits and stop
        // signal: a looping top level held every such run outside --timeout, and Ctrl-C then left
        // the last run's report behind.
        options.scenarioTimeout = timeout
        options.interruption = stop.interruption
        let runner = ScenarioRunner(host: host, options: options)
        var entries = try suite.discover()
        let suiteFiles = entries.map(\.path)
        try suite.requireSelection(entries, runner: runner, stop: stop, report: report, command: "run")
        // Each machine splits the suite alike only from what each sees alike: the files' text. (A file's
        // scenarios counted by running it — `math.randomseed(os.time())` before a loop of declarations —
        // moved whole other files into no shard, or two; and a looping top level hung every shard.)
        if let spec = self.shard, let shard = Shard(spec) {
            let all = entries.count
            entries = shard.select(entries, path: \.path, scenarios: { Shard.declarations(in: $0.url) })
            if entries.isEmpty {
                // Green with "0 passed" and no word of why read like a shard whose scenarios vanished.
                writeStandardError(
                    "\(NavScriptCLI.executableName): note: shard \(spec) got no file: the suite's \(all) file"
                        + (all == 1 ? " went" : "s went") + " to the other shards (more shards than files)\n")
            }
        }
        // The lint, cheap (no Lua runs): a literal the app does not have is said before the run,
        // where a check that can never match would otherwise pass in silence.
        // The first few, then how many more: a suite of generated files must not bury the run.
        // A file that does not compile is the run's load error, said once, there.
        let problems = ScenarioLint(host: host).check(entries).filter { $0.kind != .syntax }
        for problem in problems.prefix(Self.lintWarningsShown) {
            writeStandardError("\(NavScriptCLI.executableName): warning: \(problem)\n")
        }
        if problems.count > Self.lintWarningsShown {
            writeStandardError(
                "\(NavScriptCLI.executableName): warning: and \(problems.count - Self.lintWarningsShown) more; "
                    + "`\(NavScriptCLI.executableName) lint` lists them all\n")
        }
        let ordered = runner.orderedFiles(entries)
        let tasks = ordered.enumerated().map { index, entry in
            WorkerTask(id: index, path: entry.path, suiteRoot: entry.suiteRoot.relativePath, faults: options.faults)
        }

        let checked = Invariant.allCases.map(\.rawValue).filter { !options.allow.contains($0) }
        let onTerminal = isatty(report.json == "-" ? STDERR_FILENO : STDOUT_FILENO) == 1
        let color = ConsoleReport.shouldUseColor(self.color, environment: ProcessInfo.processInfo.environment, isTTY: onTerminal)
        let console = ConsoleReport(
            options: .init(
                color: color, showOutput: showOutput, invariants: checked,
                invariantsAfterEveryStep: suite.strictSteps,
                runningTotals: onTerminal, redrawsLines: onTerminal),
            write: report.terminal)
        let stream = RunEventStream(
            [console]
                + (try report.reporters(
                    junit: .init(
                        invariants: checked, replayCommand: replayCommand, suiteFiles: suiteFiles,
                        shard: self.shard.flatMap(Shard.init).map(\.description), selection: self.suite.selection,
                        split: self.shard == nil ? "" : JUnitReport.splitName(app: host.name, suiteFiles: suiteFiles)),
                    stop: stop)))
        let started = Date()
        /// Whether the whole suite, every shard's files, has a scenario written and selected: a shard
        /// may be empty (more shards than files), a suite with none is an error in every shard. Asked
        /// only of a shard that ran nothing; its files load under the time limit and the stop signal.
        func suiteHadAScenario() throws -> Bool {
            var listing = options
            listing.scenarioTimeout = timeout
            listing.interruption = stop.interruption
            let reading = "while the suite was read to tell whether any shard has a scenario (this one has none)"
            return try Self.scenarioCounts(
                try suite.discover(), runner: ScenarioRunner(host: host, options: listing),
                whenStuck: SuiteOptions.endingStuckLoad(reading, stop: stop, report: report, command: "run")
            ).hasAScenario
        }
        /// Everything after the scenarios ran: the nothing-ran check, the
        /// run's end in every report, the exit status. Called by this thread
        /// — or, in process, by the watch's when a scenario is stuck where
        /// nothing can stop it (``SuiteExecution/whenStuck``).
        func conclude(_ ran: [FileResult], stuck: Bool = false) throws -> Never {
            var files = ran
            // Nothing ran (every file empty or commented out, every scenario selected pending): an
            // error in the reports too, or a reporter would show the empty run green while the command
            // exits 2. (A shard may be empty: more shards than files — but not every shard of a suite
            // with none: `--shard 1/1` of a commented-out suite ran green.)
            var nothingRan: String?  // why, when nothing did
            let ranNothing = files.allSatisfy { $0.scenarios.allSatisfy { $0.outcome == .skipped(.pending) } } && stop.exitStatus == nil
            if ranNothing, try shard == nil || !suiteHadAScenario() {
                // Every scenario the run has was pending (this many), or none was declared.
                let pending = files.reduce(0) { $0 + $1.scenarios.count }
                let why =
                    pending == 0
                    ? suite.nothingToRun(files: files.count)
                    : "every scenario selected is pending (\(pending)), so nothing was checked; write one, or select one that is written"
                nothingRan = why
                let problem = ScenarioResult(
                    name: "no scenario ran", file: "", line: 0, outcome: .errored(.loadError),
                    message: why)
                // Published as a file of its own (no path), so the stream keeps its shape for every consumer.
                let file = FileResult(file: "", scenarios: [problem], duration: 0)
                stream.publish(.fileStarted(file: file.file))
                stream.publish(.scenarioFinished(problem))
                stream.publish(.fileFinished(file))
                files.append(file)
            }
            // The signal read once: one that came after every scenario had its result found a finished run
            // (its reports the whole run's, its status theirs), and one that lands while the reports are
            // made is too late to change them — read twice, a run was reported green and exited 143.
            let signalled = stop.interruptingSignal != nil
            let interrupted = signalled && (stuck || FileResult.cutShort(files))
            // Stopped by a signal between two scenarios (loading or launching the next file): no scenario
            // was running to be the error, and the JUnit file of 145 passed and 1,855 skipped read green to
            // a CI reporter. The interruption is then an error of its own, in every report.
            // (Not when the watch ended a stuck scenario: that one is the error, whatever stopped it.)
            if interrupted, !stuck, !files.contains(where: { $0.scenarios.contains { $0.outcome == .errored(.interrupted) } }) {
                let notRun = files.reduce(0) {
                    $0 + $1.scenarios.filter { [.skipped(.interrupted), .skipped(.notStarted)].contains($0.outcome) }.count
                }
                let problem = ScenarioResult(
                    name: "run interrupted", file: "", line: 0, outcome: .errored(.interrupted),
                    message: "\(stop.reason) between two scenarios: the run did not finish (\(notRun) entr"
                        + (notRun == 1 ? "y" : "ies") + " not run)")
                let file = FileResult(file: "", scenarios: [problem], duration: 0)
                stream.publish(.fileStarted(file: file.file))
                stream.publish(.scenarioFinished(problem))
                stream.publish(.fileFinished(file))
                files.append(file)
            }
            let result = RunResult(
                files: files, duration: Date().timeIntervalSince(started),
                seed: shuffle ? seed : nil, startedAt: started.timeIntervalSince1970)
            stream.publish(.runFinished(result, interruption: interrupted ? stop.reason : nil))
            let unwritten = ReportOptions.reportFailures(stream)
            if interrupted, let status = stop.exitStatus {
                writeStandardError(
                    "\(NavScriptCLI.executableName): \(stop.reason); the report covers what finished: a scenario that was running is an "
                        + "error, the rest is marked skipped\n")
                throw ExitCode(status)
            }
            if signalled {
                writeStandardError(
                    "\(NavScriptCLI.executableName): \(stop.reason) after the last scenario finished: the run is complete, "
                        + "and its reports are the whole run's\n")
            }
            if let nothingRan {
                writeStandardError("\(NavScriptCLI.executableName): \(nothingRan)\n")
                throw ExitCode(2)
            }
            throw ExitCode(unwritten ? 2 : Self.exitStatus(result))
        }
        var execution = suite.execution(options, jobs: jobs, timeout: timeout, inProcess: inProcess)
        execution.writtenByTheRun = [report.json, report.junit, report.html].compactMap { $0 }
        execution.whenStuck = { files in
            // This process's own thread is the stuck one: the reports are finished from here and the
            // process ends at once (an orderly exit would run teardown under the thread still running).
            do { try conclude(files, stuck: true) } catch let status as ExitCode {
                fflush(nil)
                _exit(status.rawValue)
            } catch {
                _exit(2)
            }
        }
        stream.publish(
            .runStarted(
                RunPlan(
                    command: "run", app: host.name, files: ordered.map(\.path),
                    seed: shuffle ? seed : nil, startedAt: started.timeIntervalSince1970)))
        try conclude(
            execution.execute(
                tasks, host: host,
                entries: Dictionary(uniqueKeysWithValues: entries.map { ($0.path, $0) }),
                stop: stop, stream: stream))
    }

    /// How to run one scenario of this run again: this executable, `run`,
    /// and the options that change a scenario's outcome.
    var replayCommand: [String] {
        var words = [NavScriptCLI.executableName, "run"]
        for fault in suite.faults { words += ["--fault", fault] }
        for invariant in SuiteOptions.split(suite.allow) { words += ["--allow", invariant] }
        if suite.strictSteps { words.append("--strict-steps") }
        // Another manifest or other limits can change the outcome too: a replay without them passes.
        if let manifest = suite.manifest { words += ["--manifest", manifest] }
        if suite.instructionBudget != SuiteOptions.defaultInstructionBudget {
            words += ["--instruction-budget", String(suite.instructionBudget)]
        }
        if suite.memoryLimit != SuiteOptions.defaultMemoryLimit { words += ["--memory-limit", String(suite.memoryLimit)] }
        if timeout != Self.defaultTimeout { words += ["--timeout", timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)] }
        return words
    }

    /// Scenario count per file (a file that does not load counts 1), for sharding.
    /// How many lint warnings a run prints before it counts the rest.
    static let lintWarningsShown = 20

    /// And whether any file has a scenario that is not pending (or does not load: its error is a result).
    static func scenarioCounts(
        _ entries: [SuiteFile], runner: ScenarioRunner, whenStuck: (@Sendable (String, LoadWatch.Cause) -> Void)? = nil
    ) throws -> (counts: [String: Int], hasAScenario: Bool) {
        do {
            let listing = try runner.list(entries, whenStuck: whenStuck)
            return (
                Dictionary(uniqueKeysWithValues: listing.map { ($0.entry.path, max(1, $0.scenarios.count)) }),
                listing.contains { $0.loadError != nil || $0.scenarios.contains { !$0.isPending } }
            )
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// 2 when a file did not load, 1 when a scenario failed or errored, else 0.
    static func exitStatus(_ result: RunResult) -> Int32 {
        let loadFailed = result.scenarios.contains { scenario in
            if case .errored(let kind) = scenario.outcome { return kind.isLoadError }
            return false
        }
        if loadFailed { return 2 }
        return result.isSuccess ? 0 : 1
    }
}

extension ConsoleReport.ColorChoice: ExpressibleByArgument {}
