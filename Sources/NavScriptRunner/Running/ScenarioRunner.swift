import Foundation
import NavScript
import NavScriptRuntime

/// Runs scenario files against a host, in this process: run order (a
/// seeded shuffle when asked), filtering by name and tags, fail-fast, and
/// nothing lost — a file that does not load becomes one errored test case.
/// Worker processes and the in-process path of the CLI both run files
/// through ``runFile(_:filter:publish:)``.
public struct ScenarioRunner {
    public let host: any ScenarioHost
    public let options: RunOptions
    /// The host's scenario language, prepared once for every file this runner loads.
    let language: ScenarioLanguage

    public init(host: any ScenarioHost, options: RunOptions) {
        self.init(host: host, options: options, language: ScenarioLanguage(host: host))
    }

    private init(host: any ScenarioHost, options: RunOptions, language: ScenarioLanguage) {
        self.host = host
        self.options = options
        self.language = language
    }

    /// This runner with `faults` switched on instead, sharing its prepared
    /// scenario language. Why: a run gives each file its own faults
    /// (`mutate`), and a runner per file prepared the whole sandbox,
    /// bindings and prelude again for every file instead of restoring them.
    package func with(faults: [String]) -> ScenarioRunner {
        var options = self.options
        options.faults = faults
        return ScenarioRunner(host: host, options: options, language: language)
    }

    /// Compiles `--filter` once, with an error a user can act on.
    package static func compileFilter(_ pattern: String?) throws(RunnerError) -> NamePattern? {
        guard let pattern else { return nil }
        do { return try NamePattern(pattern) } catch { throw .badFilter(pattern, error.message) }
    }

    /// Files in run order: discovery order, or shuffled by the seed.
    package func orderedFiles(_ entries: [SuiteFile]) -> [SuiteFile] {
        guard options.shuffle else { return entries }
        var generator = SeededGenerator(seed: options.seed)
        return entries.shuffled(using: &generator)
    }

    /// Loads a file and selects its scenarios in run order. The order of a
    /// file's scenarios depends only on the seed and the file's path, so
    /// any number of workers runs them in the same order.
    func load(
        _ entry: SuiteFile, filter: NamePattern?, loadOutput: ((String) -> Void)? = nil
    ) throws(ScenarioLoadError) -> (ScenarioFile, [ScenarioDefinition]) {
        let file = try ScenarioFile(entry: entry, language: language, options: options, loadOutput: loadOutput)
        var selected = file.scenarios.filter { options.selects(name: $0.name, tags: $0.tags, filter: filter) }
        if options.shuffle {
            // From the names' order, not the declarations': a file that declares through `pairs`
            // declares in another order in every process, and the seed must replay the same run.
            selected.sort { $0.name < $1.name }
            var generator = SeededGenerator(seed: options.seed ^ SeededGenerator.stableHash(entry.path))
            selected.shuffle(using: &generator)
        }
        return (file, selected)
    }

    /// Runs the selected scenarios of one file, each against a fresh app,
    /// publishing the file's events as they happen (file started, each
    /// scenario started, its steps and result, file finished).
    ///
    /// `live`: kept up to date with the running scenario's call, failures
    /// and output, for another thread (``InProcessWatch``) to read.
    public func runFile(
        _ entry: SuiteFile, filter: NamePattern?,
        publish: @escaping (RunEvent) -> Void = { _ in }
    ) -> FileResult {
        runFile(entry, filter: filter, live: nil, publish: publish)
    }

    package func runFile(
        _ entry: SuiteFile, filter: NamePattern?, live: LiveScenario?,
        publish: @escaping (RunEvent) -> Void = { _ in }
    ) -> FileResult {
        let started = Date()
        publish(.fileStarted(file: entry.path))
        let file: ScenarioFile
        let selected: [ScenarioDefinition]
        live?.reset()  // what the file's top level prints is kept for the watch, should the load get stuck
        do {
            (file, selected) = try load(entry, filter: filter, loadOutput: live.map { live in { live.wrote($0) } })
        } catch {
            let result = Self.loadFailure(entry.path, error)
            publish(.scenarioFinished(result))
            let finished = FileResult(file: entry.path, scenarios: [result], duration: Date().timeIntervalSince(started))
            publish(.fileFinished(finished))
            return finished
        }
        publish(.fileLoaded(file: entry.path, scenarios: selected.map(\.listing)))
        var results: [ScenarioResult] = []
        var stop: String?
        for (index, definition) in selected.enumerated() {
            let result: ScenarioResult
            if let stop {
                result = Self.notRun(definition.listing, reason: stop)
            } else {
                live?.reset()
                publish(.scenarioStarted(definition.listing))
                var number = 0
                var liveOutput = LiveOutput()
                let observer = ScenarioObserver(
                    step: { step in
                        number += 1
                        publish(.step(file: entry.path, scenario: definition.name, number: number, step: step))
                    },
                    output: { text in
                        if let shown = liveOutput.take(text) { publish(.output(file: entry.path, scenario: definition.name, text: shown)) }
                    })
                result = file.run(
                    definition, host: host, faults: options.faults, observer: live?.watching(observer) ?? observer,
                    last: index == selected.count - 1)
                if options.failFast && result.status.isProblem { stop = Self.failFastReason }
                if let interruption = options.interruption, interruption.isRequested {
                    stop = interruption.reason ?? "interrupted"
                }
            }
            results.append(result)
            publish(.scenarioFinished(result))
        }
        let finished = FileResult(file: entry.path, scenarios: results, duration: Date().timeIntervalSince(started))
        publish(.fileFinished(finished))
        return finished
    }

    /// A whole file reported without being started (interrupt, a worker
    /// that could not start, a fault `mutate` already killed): one skipped
    /// entry that names the file and why. Its scenarios are not listed —
    /// that would mean loading the file, the work the reason says was not
    /// done.
    package static func fileNotRun(_ path: String, reason: String) -> ScenarioResult {
        ScenarioResult(
            name: fileEntryName(path, .notRun), file: path, line: 0, outcome: .skipped(.notStarted),
            message: notRunMessage(reason))
    }

    /// A result that stands for a whole file rather than one of its scenarios.
    package enum FileEntry: String { case notRun = "not run", load }

    /// `suite/a.lua (load)`: the name of a whole file's entry.
    package static func fileEntryName(_ path: String, _ entry: FileEntry) -> String { "\(path) (\(entry.rawValue))" }

    /// Whether `result` is a whole file's entry (a replay runs the file, not a name).
    package static func isFileEntry(_ result: ScenarioResult) -> Bool {
        result.groups.isEmpty && [FileEntry.notRun, .load].contains { result.name == fileEntryName(result.file, $0) }
    }

    /// What a not-run entry says: its reason, for the reader (nothing parses it back).
    private static func notRunMessage(_ reason: String) -> String { "not run: " + reason }

    /// Why the scenarios after a failure are not run under `--fail-fast`, said
    /// the same by the runner, the worker and the parent that stops the pool.
    package static let failFastReason = "--fail-fast stopped the run"

    /// Publishes a file that is not run as a file's events (started, its one
    /// ``fileNotRun(_:reason:)`` entry, finished) and returns its result.
    package static func reportNotRun(_ path: String, reason: String, publish: (RunEvent) -> Void) -> FileResult {
        let entry = fileNotRun(path, reason: reason)
        let result = FileResult(file: path, scenarios: [entry], duration: 0)
        publish(.fileStarted(file: path))
        publish(.scenarioFinished(entry))
        publish(.fileFinished(result))
        return result
    }

    /// A scenario reported without running (interrupt, fail-fast).
    package static func notRun(_ listing: ScenarioListing, reason: String) -> ScenarioResult {
        ScenarioResult(
            name: listing.name, groups: listing.groups, file: listing.file, line: listing.line,
            tags: listing.tags, outcome: .skipped(.interrupted), message: notRunMessage(reason))
    }

    /// Lists the scenarios of each file without running them.
    ///
    /// `whenStuck`: called on another thread with a file whose load is
    /// still running well past the options' time limit, or a few seconds
    /// after their interruption was requested — stuck where the hook cannot
    /// stop it (one Lua operation that runs for minutes): the caller ends
    /// the process, as nothing else can.
    package func list(
        _ entries: [SuiteFile], whenStuck: (@Sendable (String, LoadWatch.Cause) -> Void)? = nil
    ) throws(RunnerError) -> [(entry: SuiteFile, scenarios: [ScenarioListing], loadError: String?)] {
        let filter = try Self.compileFilter(options.filter)
        let watch = whenStuck.flatMap { handler in
            options.scenarioTimeout != nil || options.interruption != nil
                ? LoadWatch(
                    limit: options.scenarioTimeout.map { $0 + InProcessWatch.timeoutGrace }, interruption: options.interruption,
                    whenStuck: handler)
                : nil
        }
        defer { watch?.end() }
        return entries.map { entry in
            watch?.loading(entry.path)
            do {
                let file = try ScenarioFile(entry: entry, language: language, options: options)
                let listed = file.scenarios
                    .filter { options.selects(name: $0.name, tags: $0.tags, filter: filter) }
                    .map(\.listing)
                return (entry, listed, nil)
            } catch {
                return (entry, [], "\(error)")
            }
        }
    }

    static func loadFailure(_ path: String, _ error: ScenarioLoadError) -> ScenarioResult {
        ScenarioResult(
            name: fileEntryName(path, .load), file: path, line: Self.line(in: error.description, of: path) ?? 0,
            outcome: .errored(error.kind), message: TextCap.capped(error.description, to: TextCap.message),
            details: TextCap.capped(error.details, to: TextCap.details), output: error.output)
    }

    /// The line of `path` a Lua message points at (`path:12: …`), if any.
    static func line(in message: String, of path: String) -> Int? {
        guard let range = message.range(of: path + ":") else { return nil }
        return Int(message[range.upperBound...].prefix { $0.isNumber })
    }
}

package enum RunnerError: Error, Hashable, Sendable, CustomStringConvertible {
    case badFilter(String, String)
    /// A worker process could not set itself up.
    case workerSetup(String)

    package var description: String {
        switch self {
        case .badFilter(let pattern, let reason):
            // An 80 KB pattern is shown by its ends: the reason says where it breaks.
            return "--filter '\(VisibleText.of(TextCap.echoed(pattern)))' cannot be used: \(reason)"
        case .workerSetup(let reason):
            return "navscript worker: \(reason)"
        }
    }
}
