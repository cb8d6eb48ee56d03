import ArgumentParser
import Foundation
import NavScript
import NavScriptRunner
import NavScriptRuntime

/// The report files a run, a mutation run or an exploration can write,
/// each a subscriber of the run's event stream.
struct ReportOptions: ParsableArguments {
    @Option(help: "Write a JUnit XML report to this file.", completion: ValueCompletion.junit)
    var junit: String?

    @Flag(
        help: """
            Shape the JUnit report for strict validators (Jenkins xunit's junit-10.xsd): no file/line attributes and no \
            test-case properties; a failure's replay command goes first in its system-out instead.
            """)
    var junitStrict = false

    @Option(
        help: ArgumentHelp(
            "Stream every run event as one line of JSON to this file, or to standard output with "
                + "'-' (the terminal report then goes to standard error).", valueName: "file"), completion: ValueCompletion.json)
    var json: String?

    @Option(
        help: ArgumentHelp(
            "Write one self-contained HTML report to this file: filters, every scenario's steps, "
                + "and a storyboard of the navigation after each step of every failing scenario.", valueName: "file"),
        completion: ValueCompletion.html)
    var html: String?

    func validate() throws {
        if junitStrict && junit == nil {
            throw ValidationError("--junit-strict shapes the JUnit report, and none is written: give --junit FILE too")
        }
        for (option, path) in [("--junit", junit), ("--html", html)] where path == "-" {
            throw ValidationError(
                "\(option) - : the \(option.dropFirst(2).uppercased() == "JUNIT" ? "JUnit" : "HTML") report is "
                    + "written to a file (standard output has the terminal report); give a path, or stream events with --json -")
        }
        // Standard output is the JSON stream's with `--json -` (the terminal report moves to standard error).
        if json == "-",
            let (option, _) = [("--junit", junit), ("--html", html)]
                .first(where: { $0.1.map { ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"].contains($0) } ?? false })
        {
            throw ValidationError("\(option) /dev/stdout and --json - both write standard output: give \(option) a file")
        }
        // A path that names a folder (`--junit out/`, `--junit ''` from an unset variable) is no report file:
        // said before the run, not after it (`out/` wrote a file named `out`).
        for (option, path) in reportFiles {
            var isFolder: ObjCBool = false
            if path.isEmpty || path.hasSuffix("/")
                || (FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue)
            {
                let named = path.isEmpty ? "''" : path
                let what = path.isEmpty ? "nothing (is a variable unset?)" : "a folder"
                let suffix = Self.fileExtension(of: option)
                let example = (path.hasSuffix("/") ? path : "") + "report." + suffix
                throw ValidationError("\(option) \(named) names \(what): give the report a file name (e.g. \(option) \(example))")
            }
        }
        // A report over a Lua file (the report's path forgotten: `--junit scenarios/cart.lua`) would
        // replace a scenario or a support module with XML before the run even loads it.
        for (option, path) in reportFiles {
            let target = ReportFile.resolved(URL(fileURLWithPath: path))
            // Nor an executable (`--junit ns` over the navscript copy that was running): replaced by
            // the placeholder at the start, it was gone before its workers started.
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder), !isFolder.boolValue,
                FileManager.default.isExecutableFile(atPath: target.path)
            {
                throw ValidationError(
                    "\(option) \(path) would replace the executable \(path) with the report: give the report a path of its own "
                        + "(e.g. \(option) report.\(Self.fileExtension(of: option)))")
            }
            if target.pathExtension.lowercased() == "lua" && FileManager.default.fileExists(atPath: target.path) {
                throw ValidationError(
                    "\(option) \(path) would replace the Lua file \(path) with the report: give the report "
                        + "a path of its own (e.g. \(option) report.\(Self.fileExtension(of: option)))"
                )
            }
        }
        // A report into the file standard output or standard error is redirected to (`--json f > f`): the
        // terminal report was mixed into the JSON lines, or replaced by the JUnit report without a word.
        for (option, path) in reportFiles {
            guard let stream = Self.standardStream(sharingTheFileAt: path) else { continue }
            throw ValidationError(
                "\(option) \(path) is the file \(stream) is redirected to: the terminal report would "
                    + (option == "--json" ? "be mixed into the events" : "be lost under the report")
                    + "; give the report a file of its own"
                    + (option == "--json" ? ", or stream the events to standard output with --json -" : ""))
        }
        // A report that has standard output moves the terminal report to standard error: with both one pipe
        // or file (`2>&1 | tee log`), it landed in front of the report's XML or among its JSON lines.
        let onStandardOutput =
            json == "-"
            ? "--json -" : reportFiles.first { ReportTargets.isStandardOutputStream($0.path) }.map { "\($0.option) \($0.path)" }
        if let option = onStandardOutput, Self.standardOutputAndErrorAreOneStream() {
            throw ValidationError(
                "\(option) writes standard output, and standard error is the same stream (2>&1), where the terminal report "
                    + "then goes: it would be mixed into the report; send standard error elsewhere (2> run.log), or write "
                    + "the report to a file")
        }
        // Two reports into one file (a link to it included): the last one written wins and the other is lost
        // without a word.
        // (A file that exists is told by its device and inode: a hard link to it is the same file.)
        let files = reportFiles.map { ($0.option, ReportFile.resolved(URL(fileURLWithPath: $0.path)).path) }
        let identities = files.map { FileIdentity(path: $0.1)?.description ?? $0.1 }
        for (index, (option, path)) in files.enumerated() {
            if let other = files.indices[..<index].first(where: { identities[$0] == identities[index] }) {
                throw ValidationError("\(files[other].0) and \(option) both write \(path): give each report its own file")
            }
        }
    }

    /// The report files asked for, by option (`--json -` streams: no file).
    private var reportFiles: [(option: String, path: String)] {
        [("--junit", junit), ("--html", html), ("--json", json == "-" ? nil : json)].compactMap { option, path in
            path.map { (option, $0) }
        }
    }

    /// Whether standard output and standard error are one pipe or one file (`2>&1`); a terminal both
    /// show is no report's stream.
    static func standardOutputAndErrorAreOneStream() -> Bool {
        guard let output = FileIdentity(descriptor: STDOUT_FILENO), !output.isCharacterDevice else { return false }
        return output == FileIdentity(descriptor: STDERR_FILENO)
    }

    /// "standard output" or "standard error" when that stream is redirected
    /// to the regular file at `path` (the same file, whatever its name).
    static func standardStream(sharingTheFileAt path: String) -> String? {
        guard let file = FileIdentity(path: path), file.isRegularFile else { return nil }
        if FileIdentity(descriptor: STDOUT_FILENO) == file { return "standard output" }
        if FileIdentity(descriptor: STDERR_FILENO) == file { return "standard error" }
        return nil
    }

    /// Refuses a report written over an input the command reads, named by
    /// its option (`--manifest man.json --junit man.json`): the report's
    /// "did not finish" placeholder replaced the manifest before it was read,
    /// and the user's file was lost.
    func refuseOverwriting(_ input: String?, readBy inputOption: String) throws {
        guard let input else { return }
        let read = ReportFile.resolved(URL(fileURLWithPath: input)).path
        for (option, path) in reportFiles {
            guard true, ReportFile.resolved(URL(fileURLWithPath: path)).path == read else { continue }
            let suffix = Self.fileExtension(of: option)
            throw ValidationError(
                "\(option) \(path) would replace the \(inputOption) file \(input) with the report before it is read: give the "
                    + "report a path of its own (e.g. \(option) report.\(suffix))")
        }
    }

    /// The extension a report file of `option` has, for the examples messages give.
    static func fileExtension(of option: String) -> String {
        option == "--junit" ? "xml" : option == "--html" ? "html" : "jsonl"
    }

    /// The report files as the runner layer takes them.
    var targets: ReportTargets { ReportTargets(junit: junit, junitStrict: junitStrict, json: json, html: html) }

    /// The storyboard needs the navigation after every step.
    var recordsFrames: Bool { targets.recordsFrames }

    /// Where the terminal report goes: standard error when the JSON
    /// stream has standard output.
    var terminal: @Sendable (String) -> Void { targets.terminal(NavScriptCLI.streams) }

    /// The file reporters asked for; a JSON file that cannot be created is
    /// a usage error before anything runs.
    func reporters(junit junitOptions: JUnitReport.Options = .init(), stop: StopSignal? = nil) throws -> [any RunReporter] {
        // A report to a stream whose reader stopped reading (`--json` to a pipe, any report to a FIFO)
        // is given up a few seconds after a stop signal: the run could not end (one SIGTERM ignored).
        var abandon: (@Sendable () -> Bool)?
        if let stop {
            abandon = { (stop.stoppedFor ?? 0) > InProcessWatch.stopGrace }
            if json != nil { stop.keepsLiveReport("the --json stream") }
        }
        do { return try targets.reporters(junit: junitOptions, abandonStream: abandon) } catch { throw ValidationError(error.description) }
    }

    /// Writes every report file asked for as a run of `command` that could
    /// not start, for `reason`: one errored entry (`run could not start`), so
    /// a file of the previous run — often green — is not left for CI to
    /// publish. Best effort: the command's own error is what it exits with.
    /// `interruption`: a stop signal ended it (`interrupted (SIGTERM)`): the
    /// entry is an interruption and the run's end says so, as for a run a
    /// signal stopped later — a cancellation, not a broken suite.
    func reportCouldNotStart(command: String, reason: String, interruption: String? = nil) {
        // Each report on its own: one that cannot be created (the refusal may be that) must not keep the
        // others from replacing the last run's.
        var reporters: [any RunReporter] = []
        for (option, path) in [("--junit", junit), ("--html", html), ("--json", json)] {
            guard let path, let one = try? ReportOptions.parse([option, path] + (junitStrict ? ["--junit-strict"] : [])) else {
                continue
            }
            reporters += (try? one.reporters()) ?? []
        }
        guard !reporters.isEmpty else { return }
        let stream = RunEventStream(reporters)
        let now = Date().timeIntervalSince1970
        let problem = ScenarioResult(
            name: "\(command) could not start", file: "", line: 0, outcome: .errored(interruption == nil ? .loadError : .interrupted),
            message: reason)
        let file = FileResult(file: "", scenarios: [problem], duration: 0)
        stream.publish(.runStarted(RunPlan(command: command, app: NavScriptCLI.executableName, files: [], startedAt: now)))
        stream.publish(.fileStarted(file: file.file))
        stream.publish(.scenarioFinished(problem))
        stream.publish(.fileFinished(file))
        stream.publish(.runFinished(RunResult(files: [file], duration: 0, startedAt: now), interruption: interruption))
    }

    /// For a `run`, `mutate` or `explore` command line refused as a whole
    /// (an option's value out of range): the report files it names get
    /// ``reportCouldNotStart(command:reason:)``, read from the words as
    /// given. Nothing is written when a report path is also another of the
    /// command line's words (`--manifest`'s file, a suite file): the refusal
    /// may be exactly that.
    static func reportRefused(_ arguments: [String], reason: String) {
        guard let command = arguments.first, ["run", "mutate", "explore"].contains(command) else { return }
        var reports: [String] = []
        var others: [String] = []
        var index = 1
        while index < arguments.count {
            let word = arguments[index]
            if let option = ["--junit", "--html", "--json"].first(where: { word == $0 }), index + 1 < arguments.count {
                reports += [option, arguments[index + 1]]
                index += 2
                continue
            }
            if let option = ["--junit=", "--html=", "--json="].first(where: { word.hasPrefix($0) }) {
                reports += [String(option.dropLast()), String(word.dropFirst(option.count))]
            } else {
                others.append(word.contains("=") ? String(word.drop { $0 != "=" }.dropFirst()) : word)
            }
            index += 1
        }
        // Each named file on its own: one named twice (`--junit ci.xml … --junit mine.xml`) is two files
        // the last run may have left green.
        let each = stride(from: 0, to: reports.count - 1, by: 2).compactMap { try? ReportOptions.parse([reports[$0], reports[$0 + 1]]) }
        guard !each.isEmpty else { return }
        // A path given as `file:LINE` names `file` too (`run x.txt:1 --junit x.txt`: the scenario file
        // with the wrong extension would be overwritten by the report refusing it).
        let named = others.flatMap { word -> [String] in
            guard let colon = word.lastIndex(of: ":"), word.index(after: colon) < word.endIndex,
                word[word.index(after: colon)...].allSatisfy({ $0.isASCII && $0.isNumber })
            else { return [word] }
            return [word, String(word[..<colon])]
        }
        let taken = Set(named.map { ReportFile.resolved(URL(fileURLWithPath: $0)).path })
        for report in each {
            for path in [report.junit, report.html, report.json].compactMap({ $0 }) where path != "-" {
                if taken.contains(ReportFile.resolved(URL(fileURLWithPath: path)).path) { return }
            }
        }
        for report in each { report.reportCouldNotStart(command: command, reason: reason) }
    }

    /// Options that take one value: given twice, the last silently won — `--junit ci.xml … --junit
    /// mine.xml` left ci.xml with the last run's green report, `--shard 1/1 --shard 1/2` ran half
    /// the suite. Options that gather values (`--tags`, `--fault`, `--allow`, `--from`, `--only`) may repeat.
    static let singleValued: Set<String> = [
        "--junit", "--html", "--json", "--shard", "--filter", "--seed", "--timeout", "--jobs", "--manifest",
        "--instruction-budget", "--memory-limit", "--time", "--steps", "--walk-length", "--out", "--format", "--output",
        "--explore-time", "--trace", "--records", "--suite", "--color", "-o"
    ]

    /// The first option of ``singleValued`` given twice in `arguments` (before a `--`), with its two values.
    static func repeatedOption(in arguments: [String]) -> (option: String, first: String, second: String)? {
        var seen: [String: String] = [:]
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let word = arguments[index]
            let (name, inline) =
                word.firstIndex(of: "=").map { (String(word[..<$0]), String(word[word.index(after: $0)...])) }
                ?? (word, nil)
            if singleValued.contains(name) {
                let value = inline ?? (index + 1 < arguments.count ? arguments[index + 1] : "")
                if let earlier = seen[name] { return (name, earlier, value) }
                seen[name] = value
                if inline == nil { index += 1 }
            }
            index += 1
        }
        return nil
    }

    /// After the run: says which reports could not be written; true when
    /// one could not (the command then exits 2, unless a signal's status
    /// takes precedence).
    static func reportFailures(_ stream: RunEventStream) -> Bool {
        ReportTargets.reportFailures(stream, to: NavScriptCLI.streams)
    }

    /// ``reportFailures(_:)``, then exit 2 when there were any.
    static func requireWritten(_ stream: RunEventStream) throws {
        if reportFailures(stream) { throw ExitCode(2) }
    }
}
