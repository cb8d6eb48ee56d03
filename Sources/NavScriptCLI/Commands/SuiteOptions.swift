import ArgumentParser
import Foundation
import NavScript
import NavScriptRunner
import NavScriptRuntime

/// The options every command that reads a suite shares.
struct SuiteOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "Scenario files or folders (default: scenarios/); file.lua:LINE runs the scenario declared "
                + "at or above that line. support/ folders are skipped."), completion: ValueCompletion.scenarios)
    var paths: [String] = []

    @Option(help: "Run only scenarios whose full name matches this regular expression (no back-references, no lookaround).")
    var filter: String?

    @Option(
        name: .customLong("tags"), parsing: .singleValue,
        help: "Run only scenarios with one of these tags (repeatable, or comma-separated).")
    var tags: [String] = []

    @Option(
        name: .customLong("exclude-tags"), parsing: .singleValue,
        help: "Skip scenarios with any of these tags (repeatable, or comma-separated).")
    var excludeTags: [String] = []

    @Option(
        name: .customLong("fault"), parsing: .singleValue,
        help: "Inject a fault of the app's catalogue into every launch (repeatable). See `\(NavScriptCLI.executableName) mutate --list`.",
        completion: ValueCompletion.faults)
    var faults: [String] = []

    @Option(
        name: .customLong("allow"), parsing: .singleValue,
        help: ArgumentHelp(
            "Do not check this invariant after scenarios (repeatable, or comma-separated): "
                + Invariant.allCases.map(\.rawValue).joined(separator: ", ") + ".", valueName: "invariant"),
        completion: ValueCompletion.invariants)
    var allow: [String] = []

    @Flag(help: "Check the invariants after every step, not only after each scenario (for exploring).")
    var strictSteps = false

    @Option(
        help: "Run against this route manifest instead of the app's own (checked first, like `routes check`).",
        completion: ValueCompletion.manifest)
    var manifest: String?

    @Option(parsing: .unconditional, help: "Lua instructions a scenario may run before it is stopped.")
    var instructionBudget: Int = Self.defaultInstructionBudget
    static let smallestInstructionBudget = 1_000
    static let defaultInstructionBudget = 10_000_000

    @Option(parsing: .unconditional, help: "Bytes of Lua memory a file's state may use.")
    var memoryLimit: Int = Self.defaultMemoryLimit
    static let defaultMemoryLimit = 64 * 1024 * 1024

    /// An empty path (`navscript run "$CHANGED_FILE"` with the variable unset) names nothing: it
    /// ran every file under the current folder, as `--filter ''` would have selected everything.
    static func refuseEmptyPaths(_ paths: [String], give: String = "the scenario files or folders to read") throws {
        guard paths.contains(where: \.isEmpty) else { return }
        throw ValidationError("'' names no file or folder (is a variable unset?); give \(give)")
    }

    /// The same for a path an option or argument names (`--suite ""`, `--manifest ""`, `-o ""`):
    /// it read the current folder, or said "cannot read : no such file".
    static func refuseEmptyPath(_ path: String?, of option: String) throws {
        guard path == "" else { return }
        throw ValidationError("\(option) '' names no file or folder (is a variable unset?)")
    }

    func validate() throws {
        try Self.refuseEmptyPaths(paths)
        try Self.refuseEmptyPath(manifest, of: "--manifest")
        do {
            _ = try ScenarioRunner.compileFilter(filter)
        } catch {
            throw ValidationError(error.description)
        }
        // The budget is counted a thousand instructions at a time, from navscript's own first
        // ones: a smaller one could only ever fail, blaming a script that never ran.
        guard instructionBudget >= Self.smallestInstructionBudget else {
            throw ValidationError(
                "--instruction-budget must be at least \(Self.smallestInstructionBudget) (it is counted a thousand "
                    + "instructions at a time), got \(instructionBudget)")
        }
        let unknown = Self.split(allow).filter { Invariant(rawValue: $0) == nil }
        guard unknown.isEmpty else {
            throw ValidationError(
                "--allow: unknown invariant \(unknown.map { "'\($0)'" }.joined(separator: ", ")); the invariants are: "
                    + Invariant.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard memoryLimit > 0 else { throw ValidationError("--memory-limit must be positive") }
        // `--tags ''` (an unset CI variable) or `--tags ,,` (a list of unset ones) names no tag
        // and would select every scenario.
        for (option, values) in [("--tags", tags), ("--exclude-tags", excludeTags)] {
            guard let empty = values.first(where: { Self.split([$0]).isEmpty }) else { continue }
            throw ValidationError("\(option) '\(empty)' names no tag (is a variable unset?); give the tag, or leave \(option) out")
        }
        // So does an empty --filter (it matches every name), and an empty --allow allows nothing.
        if let filter, filter.isEmpty {
            throw ValidationError("--filter '' selects every scenario (is a variable unset?); give a pattern, or leave --filter out")
        }
        if let empty = allow.first(where: { Self.split([$0]).isEmpty }) {
            throw ValidationError("--allow '\(empty)' names no invariant (is a variable unset?); give one, or leave --allow out")
        }
    }

    var resolvedPaths: [String] { paths.isEmpty ? ["scenarios"] : paths }

    static func split(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func runOptions(failFast: Bool = false, shuffle: Bool = false, seed: UInt64 = 0) -> RunOptions {
        RunOptions(
            filter: filter, tags: Self.split(tags), excludeTags: Self.split(excludeTags), faults: faults,
            failFast: failFast, shuffle: shuffle, seed: seed,
            instructionBudget: instructionBudget, memoryLimit: memoryLimit,
            allow: Self.split(allow), strictSteps: strictSteps)
    }

    /// The host, with `--fault` names checked against its catalogue.
    func host(in context: CommandContext) throws -> any ScenarioHost {
        var host = try context.host()
        try Self.checkFaults(faults, of: host)
        if let manifest { host = try ManifestOption.load(manifest, into: host) }
        return host
    }

    /// Unknown fault names are a usage error listing the catalogue.
    static func checkFaults(_ names: [String], of host: any ScenarioHost) throws {
        let known = Set(host.faults.map(\.name))
        let unknown = names.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw ValidationError(
                "unknown fault \(unknown.map { "'\($0)'" }.joined(separator: ", ")); "
                    + "\(host.name)'s faults are: " + host.faults.map(\.name).joined(separator: ", "))
        }
    }

    /// A `--filter`, `--tags` or `--exclude-tags` that selects nothing is a
    /// usage error: a typo in a CI job must not pass as an empty green run.
    /// `whenStuck`: see ``ScenarioRunner/list(_:whenStuck:)``.
    func requireSelection(
        _ entries: [SuiteFile], runner: ScenarioRunner, whenStuck: (@Sendable (String, LoadWatch.Cause) -> Void)? = nil
    ) throws {
        guard filter != nil || !tags.isEmpty || !excludeTags.isEmpty else { return }
        let listing: [(entry: SuiteFile, scenarios: [ScenarioListing], loadError: String?)]
        do { listing = try runner.list(entries, whenStuck: whenStuck) } catch { throw ValidationError("\(error)") }
        if !tags.isEmpty || !excludeTags.isEmpty { noteUnknownTags(entries, runner: runner, whenStuck: whenStuck) }
        guard listing.allSatisfy({ $0.scenarios.isEmpty && $0.loadError == nil }) else { return }
        throw ValidationError(nothingToRun(files: entries.count))
    }

    /// ``requireSelection(_:runner:whenStuck:)`` for a command about to run
    /// the suite, its files read under `runner`'s time limit and `stop`'s
    /// signals: a stop there ends the command, and a file whose top level is
    /// stuck where the time limit cannot stop it ends the process — each
    /// with `report`'s files saying the command could not start.
    func requireSelection(
        _ entries: [SuiteFile], runner: ScenarioRunner, stop: StopSignal, report: ReportOptions, command: String
    ) throws {
        let reading = "while the suite was read to select from it"
        try requireSelection(
            entries, runner: runner, whenStuck: Self.endingStuckLoad(reading, stop: stop, report: report, command: command))
        if let status = stop.exitStatus {
            let reason = "\(stop.reason) \(reading), before any scenario ran"
            report.reportCouldNotStart(command: command, reason: reason, interruption: stop.reason)
            writeStandardError("\(Self.speaker(command)): \(reason)\n")
            throw ExitCode(status)
        }
    }

    private static func speaker(_ command: String) -> String {
        NavScriptCLI.executableName + (command == "run" ? "" : " " + command)
    }

    /// What ends the process when a file the command reads before it starts (`reading`: to select
    /// from the suite, to find a line's scenario, to tell whether a suite has any) is stuck in one
    /// step nothing in this process can stop — past `--timeout` and its grace, or a few seconds
    /// after a stop signal: `report`'s files say the command could not start, and why.
    static func endingStuckLoad(
        _ reading: String, stop: StopSignal, report: ReportOptions, command: String
    ) -> @Sendable (String, LoadWatch.Cause) -> Void {
        let grace = WorkerPool.seconds(InProcessWatch.timeoutGrace)
        return { path, cause in
            let stuck =
                "it is stuck in one step nothing in this process can stop (a single Lua operation, such as a table "
                + "whose __call is a table); fix the file, or leave it out of the suite"
            let reason: String
            let status: Int32
            var interruption: String?
            switch cause {
            case .pastLimit:
                reason = "\(path): its top level was still running \(grace) past --timeout \(reading): " + stuck
                status = 2
            case .stopped(let why):
                reason = "\(why) \(reading); \(path)'s top level did not stop: " + stuck
                status = stop.exitStatus ?? 2
                interruption = why
            }
            report.reportCouldNotStart(command: command, reason: reason, interruption: interruption)
            writeStandardError("\(speaker(command)): \(reason)\n")
            fflush(nil)
            _exit(status)
        }
    }

    /// A tag no scenario has, among others that select (`--tags smoke,regresion`), leaves out what
    /// it was meant to bring in without a word: said on standard error (not an error: one list of
    /// tags may serve several suites).
    private func noteUnknownTags(
        _ entries: [SuiteFile], runner: ScenarioRunner, whenStuck: (@Sendable (String, LoadWatch.Cause) -> Void)?
    ) {
        // Every scenario, under the same limits (a looping top level is stopped at --timeout here too).
        var unselected = runner.options
        (unselected.filter, unselected.tags, unselected.excludeTags) = (nil, [], [])
        let everything = ScenarioRunner(host: runner.host, options: unselected)
        guard let all = try? everything.list(entries, whenStuck: whenStuck) else { return }
        let known = Set(all.flatMap { $0.scenarios.flatMap(\.tags) })
        for (option, values) in [("--tags", tags), ("--exclude-tags", excludeTags)] {
            for tag in Self.split(values) where !known.contains(tag) {
                let suggestion = NameSuggestion.closest(to: tag, among: Array(known)).map { "; did you mean '\($0)'?" } ?? ""
                writeStandardError(
                    "\(NavScriptCLI.executableName): note: \(option) \(tag): no scenario has this tag\(suggestion) "
                        + "(tags are case-sensitive; the suite's: \(known.sorted().joined(separator: ", ")))\n")
            }
        }
    }

    /// Why a run or a listing found no scenario in `files` loaded files —
    /// an error either way: a suite whose scenarios were all commented out,
    /// or a selection with a typo, must not pass CI as an empty green run.
    func nothingToRun(files: Int) -> String {
        let inFiles = "\(files) file" + (files == 1 ? "" : "s")
        var given: [String] = []
        if let filter { given.append("--filter '\(filter)'") }
        if !tags.isEmpty { given.append("--tags \(Self.split(tags).joined(separator: ","))") }
        if !excludeTags.isEmpty { given.append("--exclude-tags \(Self.split(excludeTags).joined(separator: ","))") }
        guard given.isEmpty else {
            return "\(given.joined(separator: " with ")) selects no scenario in \(inFiles); "
                + "`\(NavScriptCLI.executableName) list` shows every scenario's full name and tags"
        }
        return "no scenario in \(inFiles): none declares one with scenario(\"name\", function() … end)"
    }

    /// Discovered scenario files; none at all is a usage error.
    func discover() throws -> [SuiteFile] {
        let entries: [SuiteFile]
        do {
            entries = try ScenarioDiscovery().discover(resolvedPaths)
        } catch {
            throw ValidationError("\(error)")
        }
        guard !entries.isEmpty else {
            throw ValidationError("no scenario files (*.lua outside support/) in \(resolvedPaths.joined(separator: ", "))")
        }
        return entries
    }

    /// `file.lua:LINE` arguments — a scenario's place as the console and reports print it —
    /// made into what a run selects by: the file, and `--filter` on the full name of the
    /// scenario declared at or above that line. Other arguments are kept as they are.
    ///
    /// `watched`: the command's time limit, stop signal and reports — a file read here runs its
    /// top level, which may loop or be stuck, and a run must still end with its reports then.
    func selectingLines(
        host: any ScenarioHost, watched: (timeout: Double?, stop: StopSignal, report: ReportOptions, command: String)? = nil
    ) throws -> SuiteOptions {
        // `file.lua:0` (or `:-3`) is a line that cannot be: said as such, not as a missing file.
        for argument in resolvedPaths where !FileManager.default.fileExists(atPath: argument) {
            guard let colon = argument.lastIndex(of: ":"), let line = Int(argument[argument.index(after: colon)...]), line <= 0
            else { continue }
            let file = String(argument[..<colon])
            guard file.hasSuffix(".lua"), FileManager.default.fileExists(atPath: file) else { continue }
            throw ValidationError(
                "\(argument): there is no line \(line) — lines start at 1; give the line of a scenario "
                    + "(`\(NavScriptCLI.executableName) list \(file)` prints each one's)")
        }
        let located = resolvedPaths.compactMap(Self.lineArgument)
        guard let first = located.first else { return self }
        if filter != nil {
            throw ValidationError("\(first.0):\(first.1) selects a scenario by its line, and --filter by its name: give one of them")
        }
        // The selection is a --filter on full names, which applies to every path: beside a path
        // without a line it would leave that path's other scenarios out.
        if let plain = resolvedPaths.first(where: { Self.lineArgument($0) == nil }) {
            throw ValidationError(
                "\(plain) has no line while \(first.0):\(first.1) has: give file.lua:LINE "
                    + "arguments alone, or run the paths without lines separately")
        }
        var limits = RunOptions()
        limits.scenarioTimeout = watched?.timeout
        limits.interruption = watched?.stop.interruption
        let everything = ScenarioRunner(host: host, options: limits)
        let reading = "while a file:LINE argument's file was read to find the scenario at that line"
        var paths: [String] = []
        var files: [String] = []  // each path's file, however spelled (`L.lua`, `./L.lua`, a link): one file, its lines together
        var chosen: [(path: String, scenarios: [ScenarioListing], lines: Set<Int>)] = []
        for (path, line) in located {
            let file = Self.fileIdentity(path)
            if let index = files.firstIndex(of: file) {
                if chosen[index].scenarios.isEmpty { continue }  // did not load: the run says why
                chosen[index].lines.formUnion(try Self.declarationLines(at: line, in: chosen[index].scenarios, path: path))
                continue
            }
            paths.append(path)
            files.append(file)
            let listed: [(entry: SuiteFile, scenarios: [ScenarioListing], loadError: String?)]
            do {
                listed = try everything.list(
                    try ScenarioDiscovery().discover([path]),
                    whenStuck: watched.map { Self.endingStuckLoad(reading, stop: $0.stop, report: $0.report, command: $0.command) })
            } catch {
                throw ValidationError("\(error)")
            }
            if let watched, let status = watched.stop.exitStatus {
                let reason = "\(watched.stop.reason) \(reading), before any scenario ran"
                watched.report.reportCouldNotStart(command: watched.command, reason: reason, interruption: watched.stop.reason)
                writeStandardError("\(Self.speaker(watched.command)): \(reason)\n")
                throw ExitCode(status)
            }
            // A file that does not load is run for the run to report why.
            guard let file = listed.first, file.loadError == nil else {
                chosen.append((path, [], []))
                continue
            }
            chosen.append((path, file.scenarios, try Self.declarationLines(at: line, in: file.scenarios, path: path)))
        }
        // Every scenario declared at a chosen line: all rows of a scenario.each share its line.
        let names = Set(chosen.flatMap { file in file.scenarios.filter { file.lines.contains($0.line) }.map(\.name) })
        // A scenario of the same full name elsewhere in the files given would run too.
        for file in chosen {
            if let other = file.scenarios.first(where: { names.contains($0.name) && !file.lines.contains($0.line) }) {
                throw ValidationError(
                    "\(file.path):\(other.line) has a scenario named '\(other.name)' too, which a selection by name "
                        + "would run as well: give the files' lines in separate runs")
            }
        }
        var selected = self
        selected.paths = paths
        if !names.isEmpty { selected.filter = "^(" + names.sorted().map(JUnitReport.escapeRegex).joined(separator: "|") + ")$" }
        return selected
    }

    /// What tells files apart: the device and inode (a hard link is the same file under another name,
    /// and its lines were refused as another file's scenario of the same name), else the resolved path.
    private static func fileIdentity(_ path: String) -> String {
        FileIdentity(path: path)?.description ?? URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The lines of the declarations `line` selects among a file's scenarios: the one at or above
    /// it — or, on a `describe("name", …)` line, every scenario of that group (the scenario above a
    /// group's line is another group's, and ran green in its place).
    private static func declarationLines(at line: Int, in scenarios: [ScenarioListing], path: String) throws -> Set<Int> {
        // A line past the file's end is a typo, not the last scenario's body.
        if let bytes = FileManager.default.contents(atPath: path) {
            let lines = LuaLines.lines(of: Array(bytes))  // numbered as Lua (and `list`) number them
            let count = lines.count
            if line > count {
                throw ValidationError(
                    "\(path):\(line): the file has \(count) line\(count == 1 ? "" : "s"); give the line of a scenario "
                        + "(`\(NavScriptCLI.executableName) list \(path)` prints each one's)")
            }
            // The describe's header may span lines (`describe(` / `"name",` / `function()`): the nearest
            // line at most three above that starts one, with no scenario declared from there to `line`.
            let header = (max(1, line - 3)...line).reversed().first { start in
                lines[start - 1].contains("describe") && !scenarios.contains { (start...line).contains($0.line) }
            }
            let text = header.map { lines[($0 - 1)..<min(lines.count, $0 + 4)].joined(separator: " ") }
            if let text, let group = describedGroup(text) {
                // The group's scenarios follow its line, one after another in the file.
                let group = scenarios.filter { $0.line > line }.sorted { $0.line < $1.line }
                    .drop { !$0.groups.contains(group) }.prefix { $0.groups.contains(group) }
                if !group.isEmpty { return Set(group.map(\.line)) }
            }
        }
        return [try declarationLine(at: line, in: scenarios, path: path)]
    }

    /// The name a `describe("name", …)` at the start of this text gives its group, when written as a plain literal.
    static func describedGroup(_ line: String) -> String? {
        guard let match = line.firstMatch(of: /(?:^|[^\w.:]|_G\.)describe\s*\(\s*(?:"([^"\\]*)"|'([^'\\]*)')/) else { return nil }
        return match.output.1.map(String.init) ?? match.output.2.map(String.init)
    }

    /// The line of the declaration at or above `line` among a file's scenarios.
    private static func declarationLine(at line: Int, in scenarios: [ScenarioListing], path: String) throws -> Int {
        guard let declared = scenarios.lazy.map(\.line).filter({ $0 <= line }).max() else {
            let first = scenarios.map(\.line).min().map { " (the first is at line \($0))" } ?? " (it declares none)"
            throw ValidationError("\(path):\(line): no scenario is declared at or above line \(line)\(first)")
        }
        return declared
    }

    /// `(file, line)` when `argument` is `some.lua:12` (or `some.lua:12:5`, as
    /// lint and compilers print a place) and no file of that very name exists.
    static func lineArgument(_ argument: String) -> (String, Int)? {
        guard !FileManager.default.fileExists(atPath: argument) else { return nil }
        var place = Substring(argument)
        // A trailing column is dropped: the line selects the scenario.
        if let colon = place.lastIndex(of: ":"), Int(place[place.index(after: colon)...]) != nil,
            let before = place[..<colon].lastIndex(of: ":"), Int(place[place.index(after: before)..<colon]) != nil
        {
            place = place[..<colon]
        }
        guard let colon = place.lastIndex(of: ":"), let line = Int(place[place.index(after: colon)...]), line > 0 else {
            return nil
        }
        let file = String(place[..<colon])
        guard file.hasSuffix(".lua") else { return nil }
        return (file, line)
    }
}

/// Standard output, as it happens (``OutputStreams/standard(executableName:)``).
func writeStandardOutput(_ text: String) { NavScriptCLI.streams.output(text) }

func writeStandardError(_ text: String) { NavScriptCLI.streams.error(text) }

extension SuiteOptions {
    /// Arguments that make a worker run with the same options.
    /// `options`: the run's options (shuffle, seed, fail-fast, frames).
    func workerArguments(_ options: RunOptions) -> [String] {
        var arguments = [
            "worker", "--instruction-budget", String(instructionBudget),
            "--memory-limit", String(memoryLimit)
        ]
        if let filter = filter { arguments += ["--filter", filter] }
        for tag in SuiteOptions.split(tags) { arguments += ["--tags", tag] }
        for tag in SuiteOptions.split(excludeTags) { arguments += ["--exclude-tags", tag] }
        for invariant in SuiteOptions.split(allow) { arguments += ["--allow", invariant] }
        if strictSteps { arguments.append("--strict-steps") }
        if let manifest = manifest { arguments += ["--manifest", manifest] }
        if options.shuffle { arguments += ["--shuffle", "--seed", String(options.seed)] }
        if options.failFast { arguments.append("--fail-fast") }
        if options.recordsFrames { arguments.append("--record-frames") }
        return arguments
    }

    /// How this suite runs: in workers started with these options, or in this process.
    /// What selects and changes the scenarios a run checks — `--filter`, `--tags`, `--exclude-tags`,
    /// `--fault`, `--allow`, `--manifest` (a digest of its text), `--strict-steps` — as one line
    /// (`filter=checkout; fault=cached-destination`), empty for the
    /// whole suite as it is: each shard's report carries it, so a merge of shards run otherwise is refused.
    var selection: String {
        var parts: [String] = []
        if let filter { parts.append("filter=\(filter)") }
        for (name, values) in [("tags", Self.split(tags)), ("exclude-tags", Self.split(excludeTags)), ("fault", faults), ("allow", allow)]
        where !values.isEmpty {
            parts.append("\(name)=" + values.sorted().joined(separator: ","))
        }
        // What changes outcomes as much: another route table (by its text, wherever each machine keeps
        // it), the invariants after every step.
        if let manifest {
            let text = (try? String(contentsOfFile: manifest, encoding: .utf8)) ?? manifest
            parts.append("manifest=" + String(SeededGenerator.stableHash(text), radix: 16))
        }
        if strictSteps { parts.append("strict-steps") }
        return parts.joined(separator: "; ")
    }

    func execution(_ options: RunOptions, jobs: Int?, timeout: Double, inProcess: Bool) -> SuiteExecution {
        var execution = SuiteExecution(
            options: options, workerArguments: workerArguments(options),
            jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
            timeout: timeout, inProcess: inProcess)
        execution.onNotice = { writeStandardError("\(NavScriptCLI.executableName): note: \($0)\n") }
        return execution
    }
}
