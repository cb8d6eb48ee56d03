import Foundation
import NavScript
import NavScriptRuntime

/// Ends a run in this process (`--in-process`) whose scenario is stuck
/// where nothing can stop it, with every report written.
///
/// Why: in process, a scenario past `--timeout` — or a run asked to stop by
/// a signal — is stopped by Lua's hook at its next instruction. Some work
/// reaches no next instruction: a call into the app that never returns, or
/// one Lua operation that runs for minutes (Lua 5.4.4 resolves a table
/// whose `__call` is a table inside a single instruction, a million levels
/// deep). A worker in that state is killed by its parent; here the stuck
/// thread is the run's own. So this watch, on a thread of its own, follows
/// the run's events and, once the scenario under way is this far past its
/// limit (the same grace a worker's parent gives), takes the event stream
/// over (``RunEventStream/claim(if:)``): it reports that scenario as the
/// timeout (or interruption) it is, the rest as not run, and hands the
/// files to `whenStuck`, which finishes the reports and ends the process.
package final class InProcessWatch: RunReporter, @unchecked Sendable {  // state read and written holding the stream's lock
    package let name = "the in-process watch"

    /// Seconds past `--timeout` before the watch steps in — what a worker's
    /// parent waits before it kills the worker (the hook stops a scenario's
    /// own Lua code at its line as soon as the time is up; what is still
    /// running this much later cannot be stopped).
    package static let timeoutGrace = Worker.stopInLuaGrace + Worker.flushGrace
    /// Seconds a stop signal gets to end the scenario under way at its next instruction.
    package static let stopGrace = 3.0

    private let tasks: [WorkerTask]
    private let timeout: Double
    private let stop: StopSignal
    private let stream: RunEventStream
    private let whenStuck: ([FileResult]) -> Void
    /// The running scenario's call, failures and output.
    private let live: LiveScenario?

    // What the run has done (written by `receive`, under the stream's lock).
    private var finishedFiles: [FileResult] = []
    private var file: String?
    private var listed: [ScenarioListing]?
    private var results: [ScenarioResult] = []
    private var running: ScenarioListing?
    /// The running scenario's steps so far (bounded, as a result's timeline is).
    private var steps = Timeline()
    /// When the scenario under way began, or (between scenarios, loading) the run's last word.
    private var since = Date()

    // The watch's own (its thread only, and `end`).
    private let endLock = NSLock()
    private var ended = false
    private var stopSeenAt: Date?

    package init(
        tasks: [WorkerTask], timeout: Double, stop: StopSignal, stream: RunEventStream, live: LiveScenario? = nil,
        whenStuck: @escaping ([FileResult]) -> Void
    ) {
        self.live = live
        self.tasks = tasks
        self.timeout = timeout
        self.stop = stop
        self.stream = stream
        self.whenStuck = whenStuck
    }

    /// Follows the run from now on; false when the watch's thread could not
    /// start (the run goes on unwatched, as it did before there was one).
    @discardableResult
    package func start() -> Bool {
        stream.subscribe(self)
        return BackgroundThread.start { [self] in watch() }
    }

    /// The run ended by itself: the watch stops looking.
    package func end() {
        endLock.lock()
        ended = true
        endLock.unlock()
    }

    private var isEnded: Bool {
        endLock.lock()
        defer { endLock.unlock() }
        return ended
    }

    package func receive(_ event: RunEvent) {
        switch event {
        case .fileStarted(let path):
            (file, listed, results, running) = (path, nil, [], nil)
        case .fileLoaded(_, let scenarios):
            listed = scenarios
        case .scenarioStarted(let listing):
            running = listing
            steps = Timeline()
        case .scenarioFinished(let result):
            results.append(result)
            running = nil
        case .fileFinished(let result):
            finishedFiles.append(result.summarized)
            (file, listed, results, running) = (nil, nil, [], nil)
        case .step(_, _, _, let step):
            _ = steps.append(step.line)
            return  // progress inside the scenario, not a new start: its time runs on
        case .runStarted, .output, .runFinished:
            return
        }
        since = Date()
    }

    private func watch() {
        while !isEnded {
            usleep(200_000)
            let now = Date()
            if stopSeenAt == nil && stop.interruptingSignal != nil { stopSeenAt = now }
            var why: Why?
            let claimed = stream.claim {
                why = stuck(at: now)
                return why != nil
            }
            if claimed, let why {
                whenStuck(finish(why))
                return
            }
        }
    }

    private enum Why {
        case timeout
        case interrupted(String)
    }

    /// Why the run must be ended from here (called holding the stream).
    private func stuck(at now: Date) -> Why? {
        guard file != nil, !isEnded else { return nil }
        if let stopSeenAt, now.timeIntervalSince(stopSeenAt) > Self.stopGrace { return .interrupted(stop.reason) }
        if now.timeIntervalSince(since) > timeout + Self.timeoutGrace { return .timeout }
        return nil
    }

    /// Publishes the end of the run the stuck thread cannot reach (the
    /// stream is this thread's now) and returns every file's result.
    private func finish(_ why: Why) -> [FileResult] {
        guard let path = file else { return finishedFiles }
        let limit = WorkerPool.seconds(timeout)
        // The scenario under way — or, between two, the one about to start — is the culprit;
        // a file stuck while loading (or after its last scenario) is its own.
        let done = Set(results.map(\.name))
        let culprit = running ?? listed?.first { !done.contains($0.name) }
        let advice =
            "it is stuck in one step that never reaches a check (a call into the app that does not return, or a single "
            + "Lua operation such as a table whose __call is a table), and in this process nothing else can stop it; "
            + "the run ends here. Without --in-process its worker is killed and the run goes on"
        let kind: ScenarioOutcome.ErrorKind
        let notRunReason: String
        let message: String
        switch why {
        case .timeout:
            kind = .timeout
            message =
                "timeout: the \(culprit == nil ? "file took" : "scenario ran") longer than \(limit) (--timeout) and was "
                + "still running \(WorkerPool.seconds(Self.timeoutGrace)) later: " + advice
            notRunReason = "the run ended at a scenario that could not be stopped in this process"
        case .interrupted(let reason):
            kind = .interrupted
            message = "stopped while running: \(reason); it did not stop within \(WorkerPool.seconds(Self.stopGrace)): " + advice
            notRunReason = reason
        }
        var scenarios = results
        if let culprit {
            // What a worker's parent says of a scenario it killed: the call under way (or the step it is
            // stuck after), the failures it had recorded, what it printed.
            let place =
                (running == nil ? nil : live?.callUnderWay)
                ?? (running == nil ? nil : steps.last).map { "it is stuck after its step \($0)" }
            var result = ScenarioResult(
                name: culprit.name, groups: culprit.groups, file: culprit.file, line: culprit.line, tags: culprit.tags,
                outcome: .errored(kind),
                message: "\(culprit.file):\(culprit.line): " + message + (place.map { "; " + $0 } ?? ""),
                details: running == nil ? "" : ScenarioFile.joined("", also: live?.failures ?? []),
                timeline: running == nil ? Timeline() : steps, duration: running == nil ? 0 : Date().timeIntervalSince(since))
            if running != nil, let output = live?.output { result.output = output }
            scenarios.append(result)
        } else {
            // A file that did not load is a load error (exit 2), as a worker's parent and a looping top
            // level say it; an interruption stays one.
            scenarios.append(
                ScenarioResult(
                    name: ScenarioRunner.fileEntryName(path, .load), file: path, line: 0,
                    outcome: .errored(kind == .timeout ? .loadError : kind), message: "\(path): " + message,
                    output: live?.output ?? ""))
        }
        for listing in listed ?? [] where !done.contains(listing.name) && listing != culprit {
            scenarios.append(ScenarioRunner.notRun(listing, reason: notRunReason))
        }
        for result in scenarios.dropFirst(results.count) { stream.publish(.scenarioFinished(result)) }
        stream.publish(.fileFinished(FileResult(file: path, scenarios: scenarios, duration: scenarios.reduce(0) { $0 + $1.duration })))
        // `receive` keeps each file as it is published, these too.
        for task in tasks.dropFirst(finishedFiles.count) {
            _ = ScenarioRunner.reportNotRun(task.path, reason: notRunReason, publish: stream.publish)
        }
        return finishedFiles
    }
}
