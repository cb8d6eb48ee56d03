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
        name: .customLong("fault"), parsing: .singleValue,
        help: "Inject a fault of the app's catalogue (repeatable).")
    var faults: [String] = []

    @Option(help: "Folder for the reproducers.")
    var out: String = "explore-findings"

    @Flag(help: "Stop once every screen, output, entry point and link pattern was covered.")
    var untilCovered = false

    /// `--junit`, `--json`, `--html`: one failing test case per violation.
    @OptionGroup var report: ReportOptions

    @Option(help: "Explore with this route manifest instead of the app's own.")
    var manifest: String?

    @Option(parsing: .unconditional, help: "Explorations run at once, each in its own process with its own seed (seed, seed+1, …).")
    var jobs: Int = 1

    @Option(
        parsing: .unconditional,
        help:
            "Seconds one step may run before the app counts as hung: the exploration stops and reports the hang with the steps that led to it."
    )
    var timeout: Double = 10

    /// Internal: the file a supervised exploration writes its steps to (see ``ExploreSupervisor``).
    @Option(help: ArgumentHelp(visibility: .private))
    var trace: String?

    func validate() throws {
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
    }

    func run(in context: CommandContext) throws {
        // A supervised exploration takes its interrupts from the start: one that comes while the
        // host is being built must still end it with its summary, not kill it.
        let stop = StopSignal()
        if trace != nil { stop.catchSignals() }
        var host = try context.host()
        try SuiteOptions.checkFaults(faults, of: host)
        if let manifest { host = try ManifestOption.load(manifest, into: host) }
        let seed = self.seed ?? UInt64.random(in: 1...999_999)
        if jobs > 1 { return try runInParallel(seed: seed) }
        // The walks run in a process of their own, watched: an app that crashes or hangs
        // must become a finding with its steps, not take the exploration down with it.
        guard let trace else { return try ExploreSupervisor(command: self, host: host, seed: seed).run() }
        guard let recorder = ExplorationTrace(path: trace) else { throw ValidationError("cannot write the trace file \(trace)") }
        ExploreSupervisor.exitWhenTheSupervisorDies()
        let explorer = Explorer(host: host, configuration: configuration(seed: seed, trace: recorder, stop: stop))
        report.terminal(
            "exploring \(host.name), seed \(seed)" + (faults.isEmpty ? "" : ", faults: " + faults.joined(separator: ", "))
                + " (replay with --seed \(seed))\n")
        let folder = URL(fileURLWithPath: out)
        var cases: [ScenarioResult] = []
        let started = Date()
        let stream = RunEventStream(try report.reporters())
        stream.publish(
            .runStarted(
                RunPlan(
                    command: "explore", app: host.name, files: ["explore"], seed: seed,
                    startedAt: started.timeIntervalSince1970)))
        stream.publish(.fileStarted(file: "explore"))
        var unwritten: [String] = []
        let explored = explorer.run { finding in
            let file = Self.unusedFile(in: folder, named: "seed\(seed)-\(cases.count + 1)")
            var written = true
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(finding.reproducer.utf8).write(to: file)
            } catch {
                written = false
                unwritten.append(
                    "cannot write the reproducer \(file.relativePath): \(error.localizedDescription) — "
                        + "give --out a folder navscript may write in")
            }
            var found = ScenarioResult(
                name: finding.property, file: file.relativePath, line: Self.scenarioLine(finding.reproducer),
                outcome: .failed(.expectation),
                message: finding.message, timeline: finding.timeline, duration: finding.timeToFind)
            if written, report.recordsFrames, let replayed = Self.replay(file, host: host, faults: faults) {
                // The storyboard of the shrunk reproducer, failing where the property did.
                found.details = replayed.details
                found.timeline = replayed.timeline
                found.frames = replayed.frames
            }
            cases.append(found)
            stream.publish(.scenarioFinished(found))
            // Kept beside the trace too: if the app takes this process down later, the
            // supervisor's reports still list what was found before.
            if let data = try? JSONEncoder().encode(found), let findings = FileHandle(forWritingAtPath: trace + ".findings") {
                _ = try? findings.seekToEnd()
                try? findings.write(contentsOf: data + Data("\n".utf8))
                try? findings.close()
            }
            report.terminal(ExploreReport.finding(finding, file: written ? file.relativePath : nil, withFaults: !faults.isEmpty))
        }
        report.terminal(ExploreReport.summary(explored, host: host))
        let interruption = stop.interruptingSignal == nil ? nil : stop.reason
        if let interruption { report.terminal("\(interruption): the exploration stopped early\n") }
        if cases.isEmpty {
            // Cut short, "no property violated" would be a green report of an exploration that did not finish.
            cases = [
                interruption.map {
                    ScenarioResult(
                        name: "exploration interrupted", file: "explore", line: 0, outcome: .errored(.interrupted),
                        message: "\($0) after \(explored.steps) steps: the exploration did not finish",
                        duration: explored.seconds)
                } ?? ScenarioResult(name: "no property violated", file: "explore", line: 0, outcome: .passed, duration: explored.seconds)
            ]
            stream.publish(.scenarioFinished(cases[0]))
        }
        let file = FileResult(file: "explore", scenarios: cases, duration: explored.seconds)
        stream.publish(.fileFinished(file))
        stream.publish(
            .runFinished(
                RunResult(
                    files: [file], duration: explored.seconds, seed: seed,
                    startedAt: started.timeIntervalSince1970), interruption: interruption))
        let failed = ReportOptions.reportFailures(stream)
        for problem in unwritten { writeStandardError("\(NavScriptCLI.executableName) explore: \(problem)\n") }
        if let status = stop.exitStatus { throw ExitCode(status) }
        throw ExitCode(failed || !unwritten.isEmpty ? 2 : explored.findings.isEmpty ? 0 : 1)
    }

    /// `<name>.lua` in `folder`, or `<name>-2.lua`, `-3`… when taken: a reproducer an
    /// earlier exploration wrote there (another fault, the same seed) is never replaced.
    static func unusedFile(in folder: URL, named name: String) -> URL {
        var file = folder.appendingPathComponent(name + ".lua")
        var number = 2
        while FileManager.default.fileExists(atPath: file.path) {
            file = folder.appendingPathComponent("\(name)-\(number).lua")
            number += 1
        }
        return file
    }

    /// The line of a reproducer's `scenario(` (reports point at it, not at the header comment).
    static func scenarioLine(_ reproducer: String) -> Int {
        let lines = reproducer.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.firstIndex { $0.hasPrefix("scenario(") } ?? 0) + 1
    }
}

extension ExploreCommand {
    /// Runs a written reproducer in this process with frames recorded (for
    /// the HTML storyboard); nil when it did not fail as expected.
    static func replay(_ file: URL, host: any ScenarioHost, faults: [String]) -> ScenarioResult? {
        guard let entry = try? ScenarioDiscovery().discover([file.relativePath]).first else { return nil }
        let options = RunOptions(faults: faults, recordsFrames: true)
        let result = ScenarioRunner(host: host, options: options).runFile(entry, filter: nil).scenarios.first
        return result?.status == .failed ? result : nil
    }

    /// What the options ask of an exploration with `seed`.
    func configuration(seed: UInt64, trace: ExplorationTrace? = nil, stop: StopSignal? = nil) -> Explorer.Configuration {
        var shouldStop: (@Sendable () -> Bool)?
        if let stop { shouldStop = { stop.isSet } }
        var configuration = Explorer.Configuration(
            seed: seed, seconds: time, steps: steps, walkLength: walkLength, faults: faults,
            untilCovered: untilCovered, manifest: manifest, trace: trace, shouldStop: shouldStop)
        configuration.executable = NavScriptCLI.executableName
        return configuration
    }

    /// The arguments of one exploration with `seed` in a process of its
    /// own (reports included: a `--jobs` run has none).
    func childArguments(seed: UInt64) -> [String] {
        var arguments = [
            "explore", "--seed", String(seed), "--time", String(time), "--steps", String(steps),
            "--walk-length", String(walkLength), "--out", out, "--timeout", String(timeout)
        ]
        for fault in faults { arguments += ["--fault", fault] }
        if untilCovered { arguments.append("--until-covered") }
        if let manifest { arguments += ["--manifest", manifest] }
        if let junit = report.junit { arguments += ["--junit", junit] }
        if report.junitStrict { arguments.append("--junit-strict") }
        if let json = report.json { arguments += ["--json", json] }
        if let html = report.html { arguments += ["--html", html] }
        return arguments
    }

    /// `--jobs N`: N explorations, each a child `explore --jobs 1` with its
    /// own seed, run at once; their reports are printed in seed order. A
    /// child that crashes or hangs costs only its own walks.
    func runInParallel(seed: UInt64) throws {
        // An interrupt is passed on to every exploration, which stops with its summary; they
        // must not outlive this process.
        let stop = StopSignal()
        stop.catchSignals()
        var children: [(process: Process, output: ChildProcesses.Capture)] = []
        for job in 0..<jobs {
            let process = ChildProcesses.navscript(childArguments(seed: seed &+ UInt64(job)))
            let output = try ChildProcesses.Capture(process, name: "explore-\(job)")
            try process.run()
            children.append((process, output))
        }
        let endings = ChildProcesses.watch(children.map(\.process), stop: stop)
        var found = false
        var failed: Int32?  // a child's own usage or write error (exit 2)
        var total = ExploreReport.Totals()
        for (child, ending) in zip(children, endings) {
            let text = child.output.text
            writeStandardOutput(text)
            total.add(text)
            switch ending {
            case .signaled(let signal) where !stop.isSet:
                writeStandardOutput("VIOLATION every input gets an outcome: an exploration crashed (signal \(signal))\n")
                total.violations += 1
                found = true
            case .exited(1):
                found = true
            case .exited(let status) where status != 0 && !stop.isSet:
                failed = failed ?? status
            case .unresponsive:
                writeStandardOutput("(this exploration did not stop within its grace after the interrupt and was killed)\n")
            default:
                break
            }
            writeStandardOutput("\n")
        }
        writeStandardOutput(total.line(explorations: jobs, seeds: seed, seed &+ UInt64(jobs - 1), out: out))
        throw ExitCode(stop.exitStatus ?? failed ?? (found ? 1 : 0))
    }
}

/// The console text of an exploration.
enum ExploreReport {
    /// `file`: where its reproducer was written (nil: it could not be).
    static func finding(_ finding: Explorer.Finding, file: String?, withFaults: Bool) -> String {
        var text = "\nVIOLATION \(finding.property) (after \(String(format: "%.1f", finding.timeToFind))s)\n"
        text += "    \(finding.message.replacingOccurrences(of: "\n", with: "\n    "))\n"
        text += "    shrunk from \(finding.originalSteps) steps to \(finding.steps.count); the reproducer's timeline:\n"
        // Numbered as the message and the reproducer's report number them
        // (the implicit launch is step 1; some actions record two steps).
        for (index, step) in finding.timeline.enumerated() { text += "      \(index + 1). \(step)\n" }
        guard let file else { return text + "    reproducer: not written (see below)\n" }
        text +=
            "    reproducer: \(file)"
            + (!finding.verified
                ? " (not verified)"
                : withFaults ? " (fails with the faults, passes without)" : " (fails on this build, as the property found it)") + "\n"
        return text
    }

    static func summary(_ report: Explorer.Report, host: any ScenarioHost) -> String {
        let perSecond = report.seconds > 0 ? Int(Double(report.steps) / report.seconds) : 0
        var text = "\n\(report.walks) walks, \(report.steps) steps in \(String(format: "%.1f", report.seconds))s (\(perSecond) steps/s)\n"
        let coverage = report.coverage
        for (label, prefix) in [("screens reached", "screen "), ("outputs fired", "tap "), ("link patterns and entry points", "link ")] {
            let all = coverage.all.filter { $0.hasPrefix(prefix) }
            let done = coverage.covered.filter { $0.hasPrefix(prefix) }.intersection(all)
            text += "coverage: \(label) \(done.count)/\(all.count)"
            let missing = all.subtracting(done).sorted().prefix(6).map { String($0.dropFirst(prefix.count)) }
            text += missing.isEmpty ? "\n" : " (not yet: \(missing.joined(separator: ", "))\(all.count - done.count > 6 ? ", …" : ""))\n"
        }
        text +=
            report.findings.isEmpty
            ? "no property violated\n" : "\(report.findings.count) violation\(report.findings.count == 1 ? "" : "s") found\n"
        return text
    }

    /// What several explorations (`--jobs`) did together, read back from
    /// their consoles: the lines ``finding(_:file:withFaults:)`` and
    /// ``summary(_:host:)`` write (their only reader, so the two stay in step).
    struct Totals {
        var steps = 0
        var violations = 0
        /// Explorations whose summary is missing (crashed, interrupted before it).
        var unfinished = 0

        mutating func add(_ console: String) {
            violations += console.split(separator: "\n").count { $0.hasPrefix("VIOLATION ") }
            guard let summary = console.split(separator: "\n").last(where: { $0.contains(" walks, ") && $0.contains(" steps in ") }),
                let words = Optional(summary.split(separator: " ")), words.count > 3, let steps = Int(words[2])
            else {
                unfinished += 1
                return
            }
            self.steps += steps
        }

        func line(explorations: Int, seeds first: UInt64, _ last: UInt64, out: String) -> String {
            "\(explorations) explorations (seeds \(first)–\(last)): \(steps) steps"
                + (unfinished > 0 ? " (\(unfinished) ended before their summary)" : "")
                + ", "
                + (violations == 0
                    ? "no property violated" : "\(violations) violation\(violations == 1 ? "" : "s") found, reproducers in \(out)/")
                + "\n"
        }
    }
}
