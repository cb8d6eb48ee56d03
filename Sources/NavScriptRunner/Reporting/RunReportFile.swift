import Foundation
import NavScript
import NavScriptRuntime

/// A report written once, when the run finishes (JUnit, HTML): it keeps
/// each file's result as its `fileFinished` event arrives, then renders
/// them in the plan's order, with the plan the run started from, and writes
/// the file with ``ReportFile/write(_:to:kind:)``. The events are the
/// report: nothing of the run reaches it another way. An interrupted run
/// still gets its report — for what finished.
package final class RunReportFile: RunReporter {
    /// What the file gets rendered from.
    package struct Content {
        package var plan: RunPlan?
        package var result: RunResult
        /// Why the run stopped early, if it did.
        package var interruption: String?

        package init(plan: RunPlan?, result: RunResult, interruption: String?) {
            self.plan = plan
            self.result = result
            self.interruption = interruption
        }
    }

    package let name: String
    private let kind: String
    private let url: URL
    private let render: (Content) -> String
    /// Whether to give a stream up while its reader takes nothing (see ``ReportFile/write(_:to:kind:abandon:)``).
    private let abandon: (@Sendable () -> Bool)?
    private var plan: RunPlan?
    /// Each file's result, as its `fileFinished` event brought it.
    private var files: [FileResult] = []

    /// - Parameters:
    ///   - kind: `JUnit report`, `HTML report` (for messages).
    ///   - abandon: asked while a stream's reader (a FIFO's) takes nothing; true gives the report up.
    package init(
        kind: String, path: String, abandon: (@Sendable () -> Bool)? = nil, render: @escaping (Content) -> String
    ) {
        self.kind = kind
        self.abandon = abandon
        self.name = "the \(kind) \(path)"
        self.url = URL(fileURLWithPath: path)
        self.render = render
    }

    package func receive(_ event: RunEvent) throws {
        switch event {
        case .runStarted(let plan):
            self.plan = plan
            // A run killed before it finishes (SIGKILL, the out-of-memory killer) writes no
            // report, and a workspace CI reuses would publish the last run's instead — often a
            // green one. Until the real report replaces it, the file says the run did not finish.
            // (Not being able to write it is reported when the real report cannot be written.)
            // (A stream — a FIFO, /dev/stdout — gets only the real report: it cannot be replaced.)
            // When even that cannot be written (a file-size limit, a full disk), the last run's report
            // is removed: better no report than a green one from another run.
            if case .file = ReportFile.Target(url.standardizedFileURL) {
                do { try ReportFile.write(render(Self.unfinished(plan)), to: url, kind: kind) } catch {
                    try? FileManager.default.removeItem(at: url)
                }
            }
        case .fileFinished(let file):
            files.append(file)
        case .runFinished(let result, let interruption):
            let reported = RunResult(
                files: Self.inPlanOrder(files, plan), duration: result.duration, seed: result.seed,
                startedAt: result.startedAt)
            try ReportFile.write(
                render(Content(plan: plan, result: reported, interruption: interruption)), to: url, kind: kind, abandon: abandon)
        default: break
        }
    }

    /// Files in the order the plan lists them (workers finish them in any
    /// order); a file the plan does not name (the entry for a run where
    /// nothing ran) after them, in the order it came.
    static func inPlanOrder(_ files: [FileResult], _ plan: RunPlan?) -> [FileResult] {
        guard let plan else { return files }
        var position: [String: Int] = [:]
        for (index, file) in plan.files.enumerated() where position[file] == nil { position[file] = index }
        return files.enumerated().sorted { a, b in
            let (first, second) = (position[a.element.file] ?? Int.max, position[b.element.file] ?? Int.max)
            return first != second ? first < second : a.offset < b.offset
        }.map(\.element)
    }

    /// What the file holds while `plan` runs: one errored test case saying
    /// the run has not finished (a report read then is from a run that was
    /// killed, or one still going).
    static func unfinished(_ plan: RunPlan) -> Content {
        let name = "navscript \(plan.command) did not finish"
        let unfinished = ScenarioResult(
            name: name, file: "", line: 0, outcome: .errored(.interrupted),
            message: "\(name): this report was written when the run started, and the run never replaced it — it was killed "
                + "(SIGKILL, the kernel's out-of-memory killer, a CI time limit) or is still running")
        let result = RunResult(
            files: [FileResult(file: "", scenarios: [unfinished], duration: 0)], duration: 0,
            seed: plan.seed, startedAt: plan.startedAt)
        return Content(plan: plan, result: result, interruption: "the run did not finish")
    }
}
