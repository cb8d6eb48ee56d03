import Foundation
import NavScript
import NavScriptRuntime

/// Mutation testing over the host's fault catalogue: the suite must pass on
/// the healthy app and fail under every fault. A fault nobody notices is a
/// bug class the suite would let ship.
///
/// The plan is one task per (file, fault) plus the healthy tasks; whoever
/// executes them (worker processes, so a trapping or hanging fault costs one
/// scenario) hands the results back to ``report(results:started:)``.
package struct MutationRun {
    package let faults: [HostFault]
    package let tasks: [WorkerTask]
    private let fileCount: Int

    package init(entries: [SuiteFile], faults: [HostFault], baseFaults: [String] = []) {
        self.faults = faults
        self.fileCount = entries.count
        var tasks: [WorkerTask] = []
        for variant in [nil] + faults.map(Optional.some) {
            for entry in entries {
                tasks.append(
                    WorkerTask(
                        id: tasks.count, path: entry.path, suiteRoot: entry.suiteRoot.relativePath,
                        faults: baseFaults + (variant.map { [$0.name] } ?? [])))
            }
        }
        self.tasks = tasks
    }

    /// Whether `scenario`'s result kills the fault it ran under: it failed or
    /// errored — but one a stop interrupted did not finish, and is no kill.
    ///
    /// Nor a timeout of a scenario that took more than half the time limit
    /// in the healthy run: running beside the other faults' workers made it
    /// slower, not the fault — it "killed" every fault under load and
    /// survived them all with one job. Such a fault is not decided.
    package func kills(_ scenario: ScenarioResult) -> Bool {
        scenario.status.isProblem && scenario.outcome != .errored(.interrupted) && !isInconclusive(scenario)
            && !failsWithoutFaults.contains(Self.key(scenario))
    }

    /// Scenarios that passed in the healthy run and failed when run healthy again after the faults
    /// (``noteRecheck(_:)``): their failure does not depend on a fault — a check of the clock, of
    /// how long the process has run — and one such scenario "killed" every fault after the first.
    private var failsWithoutFaults: Set<String> = []

    /// The files whose scenarios killed a fault in `results` (the fault tasks' results): what
    /// ``noteRecheck(_:)`` wants run healthy again.
    package func killingFiles(_ results: [FileResult]) -> Set<String> {
        Set(results.filter { $0.scenarios.contains(where: kills) }.map(\.file))
    }

    /// For each fault, the task of its first file that killed it in `results` (the fault tasks'
    /// results, in ``tasks`` order): run again under the fault, a kill must repeat (``noteRepeat(_:of:)``).
    package func repeatTasks(_ results: [FileResult]) -> [WorkerTask] {
        let fileCount = max(1, self.fileCount)
        return faults.indices.compactMap { fault in
            let start = fault * fileCount
            guard start < results.count else { return nil }
            let chunk = results[start..<min(start + fileCount, results.count)]
            guard let killing = chunk.firstIndex(where: { $0.scenarios.contains(where: kills) }) else { return nil }
            return tasks[fileCount + killing]
        }
    }

    /// Takes note of the repeat runs of ``repeatTasks(_:)``: a scenario that failed under a fault
    /// and passed when run under it again killed nothing (it fails one run in three, whatever the
    /// fault: a check of the clock).
    package mutating func noteRepeat(_ results: [FileResult], of tasks: [WorkerTask]) {
        for (task, result) in zip(tasks, results) {
            guard let fault = task.faults.last else { continue }
            for scenario in result.scenarios where scenario.status == .passed {
                unrepeated.insert(fault + "\u{0}" + Self.key(scenario))
            }
        }
    }

    /// `fault \0 file \0 name` of each scenario whose kill did not repeat (``noteRepeat(_:of:)``).
    private var unrepeated: Set<String> = []

    /// Takes note of the healthy run of the killing files after the faults: a scenario that fails
    /// there kills nothing.
    package mutating func noteRecheck(_ results: [FileResult]) {
        failsWithoutFaults = Set(
            results.flatMap(\.scenarios).filter { $0.status.isProblem && $0.outcome != .errored(.interrupted) }.map(Self.key))
    }

    /// A timeout of a scenario ``slowWhenHealthy`` names.
    func isInconclusive(_ scenario: ScenarioResult) -> Bool {
        scenario.outcome == .errored(.timeout) && slowWhenHealthy.contains(Self.key(scenario))
    }

    /// Scenarios whose healthy run took more than half the time limit (``noteHealthy(_:timeout:)``).
    private var slowWhenHealthy: Set<String> = []

    /// Takes note of how long each scenario ran without faults.
    package mutating func noteHealthy(_ results: [FileResult], timeout: Double) {
        slowWhenHealthy = Set(results.flatMap(\.scenarios).filter { $0.duration > timeout / 2 }.map(Self.key))
    }

    private static func key(_ scenario: ScenarioResult) -> String { scenario.file + "\u{0}" + scenario.name }

    /// Turns the results of ``tasks`` (same order) into the kill matrix.
    /// `firstKillingFileOnly`: a run that stopped each fault at its first
    /// killing file counts only that file's scenarios — how many later
    /// files ran before the kill was known depends on timing, and the
    /// report must not.
    package func report(results: [FileResult], started: Date, firstKillingFileOnly: Bool = false) -> MutationReport {
        let chunks = stride(from: 0, to: results.count, by: max(1, fileCount)).map {
            Array(results[$0..<min($0 + fileCount, results.count)])
        }
        let healthy = RunResult(
            files: chunks.first ?? [], duration: (chunks.first ?? []).reduce(0) { $0 + $1.duration },
            startedAt: started.timeIntervalSince1970)
        let outcomes = zip(faults, chunks.dropFirst()).map { fault, files in
            func repeats(_ scenario: ScenarioResult) -> Bool { !unrepeated.contains(fault.name + "\u{0}" + Self.key(scenario)) }
            func failing(_ file: FileResult) -> [ScenarioResult] { file.scenarios.filter { kills($0) && repeats($0) } }
            let killers =
                firstKillingFileOnly
                ? files.lazy.map(failing).first { !$0.isEmpty } ?? []
                : files.flatMap(failing)
            // A file cut short (a stop) may have been the one to kill it: without a kill, no verdict.
            let cutShort = files.contains { file in
                file.scenarios.contains {
                    [.skipped(.interrupted), .skipped(.notStarted), .errored(.interrupted)].contains($0.outcome) || isInconclusive($0)
                }
            }
            let slow = files.lazy.flatMap(\.scenarios).first(where: isInconclusive).map { "\($0.file):\($0.line) \($0.name)" }
            let unfaulted = files.lazy.flatMap(\.scenarios).first {
                $0.status.isProblem && (failsWithoutFaults.contains(Self.key($0)) || !repeats($0))
            }.map { "\($0.file):\($0.line) \($0.name)" }
            return FaultOutcome(
                fault: fault, killedBy: killers.map { "\($0.file):\($0.line) \($0.name)" },
                firstMessage: killers.first?.message ?? "",
                duration: files.reduce(0) { $0 + $1.duration }, isUndecided: killers.isEmpty && (cutShort || unfaulted != nil),
                timedOutSlow: killers.isEmpty ? slow : nil, failedWithoutFaults: killers.isEmpty ? unfaulted : nil)
        }
        return MutationReport(healthy: healthy, outcomes: outcomes, duration: Date().timeIntervalSince(started))
    }
}

/// One fault's verdict.
package struct FaultOutcome: Hashable, Sendable {
    package var fault: HostFault
    /// `file:line name` of every scenario that failed or errored under the fault.
    package var killedBy: [String]
    package var firstMessage: String
    package var duration: Double
    /// The run stopped before the fault was killed or all its files ran:
    /// no verdict (an interrupted `mutate` reports what it decided).
    package var isUndecided = false
    /// Why it is not decided, when not an interruption: a scenario slow
    /// without faults timed out under it (`file:line name`).
    package var timedOutSlow: String?
    /// Why it is not decided, when the scenario that failed under it failed without faults too, run
    /// again after the faults (`file:line name`).
    package var failedWithoutFaults: String?

    /// Why there is no verdict, for the reports.
    var undecidedBecause: String {
        if let failedWithoutFaults {
            return "\(failedWithoutFaults) failed under the fault, but failed without faults too or passed under the fault "
                + "when run again: its failure does not depend on the fault (a check of the clock or of the time run?); "
                + "make it deterministic"
        }
        return timedOutSlow.map {
            "\($0) ran past --timeout under the fault, but took more than half of it without faults too: a timeout "
                + "tells nothing then; raise --timeout (or run with fewer --jobs)"
        } ?? "the run stopped before the fault's files had run"
    }
    package var isKilled: Bool { !killedBy.isEmpty }
}

/// The kill matrix and the score.
package struct MutationReport: Sendable {
    package var healthy: RunResult
    package var outcomes: [FaultOutcome]
    package var duration: Double

    package var killed: Int { outcomes.filter(\.isKilled).count }
    package var undecided: Int { outcomes.filter(\.isUndecided).count }
    package var score: Double { outcomes.isEmpty ? 1 : Double(killed) / Double(outcomes.count) }
    /// Success means: the healthy run is green and no fault survived.
    package var isSuccess: Bool { healthy.isSuccess && killed == outcomes.count }

    /// Scenarios that passed on the healthy app and failed under no fault.
    package var scenariosKillingNothing: [String] {
        let killers = Set(outcomes.flatMap(\.killedBy))
        return healthy.scenarios
            .filter { $0.status == .passed }
            .map { "\($0.file):\($0.line) \($0.name)" }
            .filter { !killers.contains($0) }
    }

    /// The matrix for a terminal.
    /// `executable`: the command the advice for a surviving fault spells.
    package func text(verbose: Bool = false, executable: String = "navscript") -> String {
        var lines: [String] = []
        let width = max(12, outcomes.map(\.fault.name.count).max() ?? 0)
        for outcome in outcomes {
            let verdict = outcome.isKilled ? "killed  " : outcome.isUndecided ? "not decided" : "SURVIVED"
            var line = outcome.fault.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + verdict
            if outcome.isUndecided {
                lines.append(line + "  (" + outcome.undecidedBecause + ")")
            } else if outcome.isKilled {
                line += "  by \(outcome.killedBy.count) scenario\(outcome.killedBy.count == 1 ? "" : "s")"
                let shown = verbose ? outcome.killedBy : Array(outcome.killedBy.prefix(3))
                lines.append(line)
                lines += shown.map { "    \($0)" }
                if !verbose && outcome.killedBy.count > shown.count {
                    lines.append("    … and \(outcome.killedBy.count - shown.count) more (--verbose lists all)")
                }
            } else {
                lines.append(line + "  — \(outcome.fault.summary)")
                lines.append(
                    "    to kill it: a scenario that fails with --fault \(outcome.fault.name) and passes without; "
                        + "`\(executable) explore --fault \(outcome.fault.name)` looks for one and writes it")
            }
        }
        lines.append("")
        lines.append(String(format: "mutation score: %d/%d faults killed (%.0f%%)", killed, outcomes.count, score * 100))
        if undecided > 0 {
            let timedOut = outcomes.contains { $0.isUndecided && ($0.timedOutSlow != nil || $0.failedWithoutFaults != nil) }
            lines.append("\(undecided) not decided: " + (timedOut ? "see why beside each" : "the run was interrupted"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The matrix as a Markdown table, for the README.
    package func markdown() -> String {
        var lines = ["| fault | the bug it models | killed by |", "|---|---|---|"]
        for outcome in outcomes {
            let killers = outcome.killedBy.map { entry -> String in
                let name = entry.split(separator: " ", maxSplits: 1).last.map(String.init) ?? entry
                return name
            }
            let shown =
                killers.prefix(3).map(Self.codeSpan).joined(separator: ", ")
                + (killers.count > 3 ? " and \(killers.count - 3) more" : "")
            lines.append(
                "| \(Self.codeSpan(outcome.fault.name)) | \(Self.tableCell(outcome.fault.summary)) | "
                    + "\(outcome.isKilled ? shown : outcome.isUndecided ? "*not decided*" : "**survived**") |")
        }
        lines.append("")
        lines.append("Mutation score: \(killed)/\(outcomes.count) faults killed.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` as inline code in a table cell: a backtick inside takes a
    /// longer fence, and `|` is escaped (GFM splits cells on it even there).
    static func codeSpan(_ text: String) -> String {
        var fence = "`"
        while text.contains(fence) { fence += "`" }
        let padded = text.hasPrefix("`") || text.hasSuffix("`") ? " \(text) " : text
        return fence + tableCell(padded) + fence
    }

    /// Prose in a table cell: `|` escaped, line breaks as spaces.
    static func tableCell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    /// One test case per fault, for the reports: a surviving fault is a failure.
    package func runResult() -> RunResult {
        let cases = outcomes.map { outcome in
            ScenarioResult(
                name: outcome.fault.name, file: "mutate", line: 0,
                // Not decided is an error, not a skip: an interrupted matrix must not read green.
                outcome: outcome.isKilled
                    ? .passed
                    : outcome.isUndecided
                        ? .errored(outcome.failedWithoutFaults != nil ? .luaError : outcome.timedOutSlow == nil ? .interrupted : .timeout)
                        : .failed(.survived),
                message: outcome.isKilled
                    ? ""
                    : outcome.isUndecided
                        ? "not decided: " + outcome.undecidedBecause
                        : "fault \(outcome.fault.name) survived: no scenario failed with it on",
                details: outcome.isKilled ? "" : outcome.fault.summary,
                timeline: Timeline(outcome.killedBy), duration: outcome.duration)
        }
        let failing = healthy.scenarios.filter { $0.status.isProblem }
        // Stopped before it finished (a signal between two scenarios: the rest not run, nothing failed),
        // the healthy run did not pass: its case read green to a CI reporter.
        let notRun = healthy.scenarios.filter { [.skipped(.interrupted), .skipped(.notStarted)].contains($0.outcome) }.count
        let healthyCase =
            healthy.isSuccess && notRun > 0
            ? ScenarioResult(
                name: "healthy suite passes", file: "mutate", line: 0, outcome: .errored(.interrupted),
                message: "the run without faults did not finish (\(notRun) not run), so it was not shown green")
            : ScenarioResult(
                name: "healthy suite passes", file: "mutate", line: 0,
                outcome: healthy.isSuccess ? .passed : .failed(.healthyRun),
                message: healthy.isSuccess ? "" : "the suite is not green without the faults being scored: \(healthy.summary)",
                details: failing.map { "\($0.file):\($0.line)  \($0.name): \($0.message)" }.joined(separator: "\n"))
        return RunResult(
            files: [FileResult(file: "mutate", scenarios: [healthyCase] + cases, duration: duration)],
            duration: duration, startedAt: healthy.startedAt)
    }
}
