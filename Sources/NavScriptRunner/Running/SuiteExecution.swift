import Foundation
import NavScript
import NavScriptRunner
import NavScriptRuntime

/// How a command executes a suite: in worker processes (the default — a
/// crash or hang costs one scenario) or in this process (`--in-process`,
/// for debugging and for measuring the runtime alone).
public struct SuiteExecution {
    public let options: RunOptions
    /// The arguments that make a worker run with the same options (`worker …`).
    public let workerArguments: [String]
    public let jobs: Int
    public let timeout: Double
    public let inProcess: Bool
    /// Told what the user should know about the workers (a worker replaced, say).
    public var onNotice: (String) -> Void = { _ in }

    public init(options: RunOptions, workerArguments: [String], jobs: Int, timeout: Double, inProcess: Bool) {
        self.options = options
        self.workerArguments = workerArguments
        self.jobs = jobs
        self.timeout = timeout
        self.inProcess = inProcess
    }

    /// This executable started again with `arguments` (an exploration, a replay), with Swift's
    /// backtracer off: the trap's own line is what a report needs, a backtrace is pages.
    public static func again(_ arguments: [String], environment extra: [String: String] = [:]) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        return process
    }

    public static var executable: URL {
        let proc = URL(fileURLWithPath: "/proc/self/exe")
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: proc.path) {
            return URL(fileURLWithPath: resolved)
        }
        return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    }

    /// Runs `tasks` and returns one FileResult per task, in task order,
    /// publishing the run's file and scenario events on `stream` as they
    /// happen (files in any order when several workers run). Every file
    /// gets its started and finished events and every scenario its
    /// finished event, also those an interruption kept from running.
    ///
    /// `skipReason` is asked before each task starts (a reason skips it);
    /// `onTaskFinished` sees each task's result as soon as it is complete.
    public func execute(_ tasks: [WorkerTask], host: any ScenarioHost, entries: [String: SuiteFile],
                 stop: StopSignal, stream: RunEventStream = RunEventStream(),
                 skipReason: ((WorkerTask) -> String?)? = nil,
                 onTaskFinished: @escaping (WorkerTask, FileResult) -> Void = { _, _ in }) throws -> [FileResult] {
        let ledger = EventLedger(stream: stream)
        func finished(_ task: WorkerTask, _ result: FileResult) {
            if options.failFast && !result.scenarios.allSatisfy({ $0.status == .passed || $0.status == .skipped }) {
                stop.set("--fail-fast stopped the run")
            }
            onTaskFinished(task, result)
            ledger.fileFinished(result)
        }
        if inProcess {
            var results: [FileResult] = []
            let filter = try ScenarioRunner.compileFilter(options.filter)
            let base = ScenarioRunner(host: host, options: options)
            for task in tasks {
                let runner = base.with(faults: task.faults)
                guard let entry = entries[task.path] else { continue }
                let result: FileResult
                if let reason = skipReason?(task) {
                    let skipped = FileResult(file: task.path, scenarios: [ScenarioRunner.fileNotRun(task.path, reason: reason)],
                                             duration: 0)
                    result = expandNotRun([skipped], host: host, entries: entries)[0]
                } else {
                    result = runner.runFile(entry, filter: filter, skipAll: stop.isSet, publish: ledger.publish)
                }
                results.append(result)
                finished(task, result)
            }
            return results
        }
        let pool = WorkerPool(.init(command: Self.executable, arguments: workerArguments, jobs: jobs, timeout: timeout))
        pool.publish = ledger.publish
        // Each task's result as reported (its not-run scenarios listed once, here).
        let reported = ReportedResults()
        pool.onTaskFinished = { task, result in
            let expanded = expandNotRun([result], host: host, entries: entries)[0]
            reported.byTask[task.id] = expanded
            finished(task, expanded)
        }
        if let skipReason {
            pool.skipReason = skipReason
            pool.prefetch = false   // a file handed over early would run after its fault is killed
        }
        pool.shouldStop = { stop.isSet }
        pool.stopIsInterruption = { stop.interruptingSignal != nil }
        pool.onNotice = onNotice
        let results = pool.run(tasks, stopReason: { stop.reason })
        return zip(tasks, results).map { task, result in reported.byTask[task.id] ?? result }
    }

    /// A file no worker started comes back as one "not run" entry; list its
    /// scenarios here so each is reported skipped by name.
    /// Each keeps the reason its one entry gives (`not run: <reason>`).
    private func expandNotRun(_ results: [FileResult], host: any ScenarioHost,
                              entries: [String: SuiteFile]) -> [FileResult] {
        let runner = ScenarioRunner(host: host, options: options)
        return results.map { file in
            guard file.scenarios.count == 1, let reason = ScenarioRunner.notRunReason(file.scenarios[0]),
                  let entry = entries[file.file],
                  let listing = try? runner.list([entry]).first, listing.loadError == nil, !listing.scenarios.isEmpty
            else { return file }
            return FileResult(file: file.file, scenarios: listing.scenarios.map { ScenarioRunner.notRun($0, reason: reason) },
                              duration: 0)
        }
    }
}

/// The results the pool reported, by task id.
private final class ReportedResults {
    var byTask: [Int: FileResult] = [:]
}

/// Completes the event stream of one execution: a file finished without
/// having started (never picked up) is announced first, and its scenarios
/// that never got a finished event (not run: interrupt, fail-fast) get
/// one, so every consumer sees the same shape of stream; a file the
/// runner already reported finished is not reported twice.
private final class EventLedger {
    let stream: RunEventStream
    private var startedFiles: Set<String> = []
    private var finishedFiles: Set<String> = []
    private var finishedScenarios: Set<[String]> = []

    init(stream: RunEventStream) { self.stream = stream }

    func publish(_ event: RunEvent) {
        switch event {
        case .fileStarted(let file): startedFiles.insert(file)
        case .scenarioFinished(let result): finishedScenarios.insert([result.file, result.name])
        case .fileFinished(let result): finishedFiles.insert(result.file)
        default: break
        }
        stream.publish(event)
    }

    func fileFinished(_ result: FileResult) {
        guard !finishedFiles.contains(result.file) else { return }
        if !startedFiles.contains(result.file) { publish(.fileStarted(file: result.file)) }
        for scenario in result.scenarios where !finishedScenarios.contains([scenario.file, scenario.name]) {
            publish(.scenarioFinished(scenario))
        }
        publish(.fileFinished(result))
    }
}
