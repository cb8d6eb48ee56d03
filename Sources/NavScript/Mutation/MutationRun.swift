import Foundation

/// Mutation testing over the host's fault catalogue: the suite must pass on
/// the healthy app and fail under every fault. A fault nobody notices is a
/// bug class the suite would let ship.
public struct MutationRun {
    public let host: any ScenarioHost
    public let options: RunOptions
    /// How many fault runs execute at once (each in its own thread, each
    /// scenario still in its own Lua state and app).
    public let jobs: Int

    public init(host: any ScenarioHost, options: RunOptions, jobs: Int) {
        self.host = host
        self.options = options
        self.jobs = max(1, jobs)
    }

    /// Runs the healthy suite, then the suite once per fault.
    public func run(_ entries: [ScenarioDiscovery.Entry], faults: [HostFault]? = nil) throws(RunnerError) -> MutationReport {
        let started = Date()
        let healthy = try ScenarioRunner(host: host, options: options).run(entries)
        let faults = faults ?? host.faults
        let outcomes = ResultBox<FaultOutcome>(count: faults.count)
        let (host, options, jobs) = (self.host, self.options, self.jobs)
        let next = ResultBox<Int>(count: 1)
        next.set(0, 0)
        let workers = min(jobs, max(1, faults.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = next.claim(below: faults.count) {
                var faulty = options
                faulty.faults = options.faults + [faults[index].name]
                faulty.failFast = false
                let started = Date()
                let result = try? ScenarioRunner(host: host, options: faulty).run(entries)
                let killers = result?.scenarios.filter { $0.status == .failed || $0.status == .errored } ?? []
                outcomes.set(index, FaultOutcome(
                    fault: faults[index], killedBy: killers.map { "\($0.file):\($0.line) \($0.name)" },
                    firstMessage: killers.first?.message ?? "", duration: Date().timeIntervalSince(started)))
            }
        }
        return MutationReport(healthy: healthy, outcomes: outcomes.values.compactMap { $0 },
                              duration: Date().timeIntervalSince(started))
    }
}

/// One fault's verdict.
public struct FaultOutcome: Hashable, Sendable {
    public var fault: HostFault
    /// `file:line name` of every scenario that failed or errored under the fault.
    public var killedBy: [String]
    public var firstMessage: String
    public var duration: Double
    public var isKilled: Bool { !killedBy.isEmpty }
}

/// The kill matrix and the score.
public struct MutationReport: Sendable {
    public var healthy: RunResult
    public var outcomes: [FaultOutcome]
    public var duration: Double

    public var killed: Int { outcomes.filter(\.isKilled).count }
    public var score: Double { outcomes.isEmpty ? 1 : Double(killed) / Double(outcomes.count) }
    /// Success means: the healthy run is green and no fault survived.
    public var isSuccess: Bool { healthy.isSuccess && killed == outcomes.count }

    /// Scenarios that passed on the healthy app and failed under no fault.
    public var scenariosKillingNothing: [String] {
        let killers = Set(outcomes.flatMap(\.killedBy))
        return healthy.scenarios
            .filter { $0.status == .passed }
            .map { "\($0.file):\($0.line) \($0.name)" }
            .filter { !killers.contains($0) }
    }

    /// The matrix for a terminal.
    public func text(verbose: Bool = false) -> String {
        var lines: [String] = []
        let width = max(12, outcomes.map(\.fault.name.count).max() ?? 0)
        for outcome in outcomes {
            let verdict = outcome.isKilled ? "killed  " : "SURVIVED"
            var line = outcome.fault.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + verdict
            if outcome.isKilled {
                line += "  by \(outcome.killedBy.count) scenario\(outcome.killedBy.count == 1 ? "" : "s")"
                let shown = verbose ? outcome.killedBy : Array(outcome.killedBy.prefix(3))
                lines.append(line)
                lines += shown.map { "    \($0)" }
                if !verbose && outcome.killedBy.count > shown.count {
                    lines.append("    … and \(outcome.killedBy.count - shown.count) more (--verbose lists all)")
                }
            } else {
                lines.append(line + "  — \(outcome.fault.summary)")
            }
        }
        lines.append("")
        lines.append(String(format: "mutation score: %d/%d faults killed (%.0f%%)", killed, outcomes.count, score * 100))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The matrix as a Markdown table, for the README.
    public func markdown() -> String {
        var lines = ["| fault | the bug it models | killed by |", "|---|---|---|"]
        for outcome in outcomes {
            let killers = outcome.killedBy.map { entry -> String in
                let name = entry.split(separator: " ", maxSplits: 1).last.map(String.init) ?? entry
                return name
            }
            let shown = killers.prefix(3).map { "`\($0)`" }.joined(separator: ", ")
                + (killers.count > 3 ? " and \(killers.count - 3) more" : "")
            lines.append("| `\(outcome.fault.name)` | \(outcome.fault.summary) | \(outcome.isKilled ? shown : "**survived**") |")
        }
        lines.append("")
        lines.append("Mutation score: \(killed)/\(outcomes.count) faults killed.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One JUnit test case per fault: a surviving fault is a failure.
    public func junit() -> RunResult {
        let cases = outcomes.map { outcome in
            ScenarioResult(name: outcome.fault.name, file: "mutate", line: 0,
                           status: outcome.isKilled ? .passed : .failed,
                           message: outcome.isKilled ? "" : "fault \(outcome.fault.name) survived: no scenario failed with it on",
                           details: outcome.isKilled ? "" : outcome.fault.summary,
                           kind: outcome.isKilled ? "" : "survived",
                           timeline: outcome.killedBy, duration: outcome.duration)
        }
        let healthyCase = ScenarioResult(
            name: "healthy suite passes", file: "mutate", line: 0,
            status: healthy.isSuccess ? .passed : .failed,
            message: healthy.isSuccess ? "" : "the suite is not green on the healthy app: \(healthy.summary)",
            kind: healthy.isSuccess ? "" : "healthy_run")
        return RunResult(files: [FileResult(file: "mutate", scenarios: [healthyCase] + cases, duration: duration)],
                         duration: duration, startedAt: healthy.startedAt)
    }
}

/// A fixed-size, lock-protected result array for the worker threads.
final class ResultBox<Value: Sendable>: @unchecked Sendable {
    private var storage: [Value?]
    private let lock = NSLock()

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Value) {
        lock.lock()
        storage[index] = value
        lock.unlock()
    }

    var values: [Value?] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

extension ResultBox where Value == Int {
    /// Hands out the next index below `limit`, or nil when all are taken.
    func claim(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        let next = storage[0] ?? 0
        guard next < limit else { return nil }
        storage[0] = next + 1
        return next
    }
}
