import Foundation

/// Runs scenario files against a host and collects results: discovery
/// order (or a seeded shuffle), filtering by name and tags, fail-fast, and
/// nothing lost — a file that does not load becomes one errored test case
/// and the other files still run.
public struct ScenarioRunner {
    public let host: any ScenarioHost
    public let options: RunOptions

    /// Progress callbacks, for the console report.
    public var onFileStarted: (String) -> Void = { _ in }
    public var onScenarioFinished: (ScenarioResult) -> Void = { _ in }
    public var onFileFinished: (FileResult) -> Void = { _ in }

    public init(host: any ScenarioHost, options: RunOptions) {
        self.host = host
        self.options = options
    }

    /// Compiles `--filter` once, with an error a user can act on.
    public static func compileFilter(_ pattern: String?) throws(RunnerError) -> Regex<AnyRegexOutput>? {
        guard let pattern else { return nil }
        do { return try Regex(pattern) } catch { throw .badFilter(pattern, "\(error)") }
    }

    public func run(_ entries: [ScenarioDiscovery.Entry]) throws(RunnerError) -> RunResult {
        let started = Date()
        let filter = try Self.compileFilter(options.filter)
        var generator = SeededGenerator(seed: options.seed)
        var ordered = entries
        if options.shuffle { ordered.shuffle(using: &generator) }
        var files: [FileResult] = []
        var stop = false
        for entry in ordered {
            onFileStarted(entry.path)
            let result = runFile(entry, filter: filter, generator: &generator, skipAll: stop)
            if options.failFast && !result.scenarios.allSatisfy({ $0.status == .passed || $0.status == .skipped }) {
                stop = true
            }
            files.append(result)
            onFileFinished(result)
        }
        return RunResult(files: files, duration: Date().timeIntervalSince(started),
                         seed: options.shuffle ? options.seed : nil, startedAt: started.timeIntervalSince1970)
    }

    /// Runs the selected scenarios of one file, each against a fresh app.
    public func runFile(_ entry: ScenarioDiscovery.Entry, filter: Regex<AnyRegexOutput>?,
                        generator: inout SeededGenerator, skipAll: Bool = false) -> FileResult {
        let started = Date()
        let file: ScenarioFile
        do {
            file = try ScenarioFile(entry: entry, host: host, options: options)
        } catch {
            let result = Self.loadFailure(entry.path, error)
            onScenarioFinished(result)
            return FileResult(file: entry.path, scenarios: [result], duration: Date().timeIntervalSince(started))
        }
        var selected = file.scenarios.filter { options.selects(name: $0.name, tags: $0.tags, filter: filter) }
        if options.shuffle { selected.shuffle(using: &generator) }
        var results: [ScenarioResult] = []
        var stop = skipAll
        for definition in selected {
            var result: ScenarioResult
            if stop {
                result = ScenarioResult(name: definition.name, groups: definition.groups, file: definition.file,
                                        line: definition.line, tags: definition.tags, status: .skipped,
                                        message: "not run: --fail-fast stopped the run", kind: "interrupted")
            } else {
                result = file.run(definition, host: host, faults: options.faults)
                if options.failFast && (result.status == .failed || result.status == .errored) { stop = true }
            }
            onScenarioFinished(result)
            results.append(result)
        }
        return FileResult(file: entry.path, scenarios: results, duration: Date().timeIntervalSince(started))
    }

    /// Lists the scenarios of each file without running them.
    public func list(_ entries: [ScenarioDiscovery.Entry]) throws(RunnerError) -> [(entry: ScenarioDiscovery.Entry, scenarios: [ScenarioListing], loadError: String?)] {
        let filter = try Self.compileFilter(options.filter)
        return entries.map { entry in
            do {
                let file = try ScenarioFile(entry: entry, host: host, options: options)
                let listed = file.scenarios
                    .filter { options.selects(name: $0.name, tags: $0.tags, filter: filter) }
                    .map { ScenarioListing(name: $0.name, file: $0.file, line: $0.line, tags: $0.tags, isPending: $0.isPending) }
                return (entry, listed, nil)
            } catch {
                return (entry, [], "\(error)")
            }
        }
    }

    static func loadFailure(_ path: String, _ error: ScenarioLoadError) -> ScenarioResult {
        ScenarioResult(name: "\(path) (load)", file: path, line: Self.line(in: error.description, of: path) ?? 0,
                       status: .errored, message: error.description, details: error.details, kind: error.kind)
    }

    /// The line of `path` a Lua message points at (`path:12: …`), if any.
    static func line(in message: String, of path: String) -> Int? {
        guard let range = message.range(of: path + ":") else { return nil }
        return Int(message[range.upperBound...].prefix { $0.isNumber })
    }
}

/// One scenario as `navscript list` shows it.
public struct ScenarioListing: Hashable, Sendable {
    public var name: String
    public var file: String
    public var line: Int
    public var tags: [String]
    public var isPending: Bool
}

public enum RunnerError: Error, Hashable, Sendable, CustomStringConvertible {
    case badFilter(String, String)

    public var description: String {
        switch self {
        case .badFilter(let pattern, let reason):
            return "--filter '\(pattern)' is not a valid regular expression: \(reason)"
        }
    }
}
