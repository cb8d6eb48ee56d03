import Foundation
import NavScript
import NavScriptRuntime

/// How a command executes a suite: in worker processes (the default — a
/// crash or hang costs one scenario) or in this process (`--in-process`,
/// for debugging and for measuring the runtime alone).
package struct SuiteExecution {
    package let options: RunOptions
    /// The arguments that make a worker run with the same options (`worker …`).
    package let workerArguments: [String]
    package let jobs: Int
    package let timeout: Double
    package let inProcess: Bool
    /// Told what the user should know about the workers (a worker replaced, say).
    package var onNotice: (String) -> Void = { _ in }
    /// In process, what ends the run when a scenario is stuck where nothing
    /// can stop it (``InProcessWatch``): given every file's result, it
    /// finishes the reports and ends the process, from the watch's thread.
    /// Nil: no watch (the run waits, as a caller that cannot end it wants).
    package var whenStuck: (([FileResult]) -> Void)?
    /// The files the run writes (its reports), by path: a worker resuming a file after a crash is
    /// stopped by a change to what the suite reads, not by these.
    package var writtenByTheRun: [String] = []

    /// `timeout` bounds each scenario: its Lua code is stopped at its line
    /// past it (``RunOptions/scenarioTimeout``, in process and in each
    /// worker), and a worker hung anywhere else is killed by the pool.
    package init(options: RunOptions, workerArguments: [String], jobs: Int, timeout: Double, inProcess: Bool) {
        var options = options
        options.scenarioTimeout = timeout
        self.options = options
        self.workerArguments = workerArguments + ["--timeout", String(timeout)]
        self.jobs = jobs
        self.timeout = timeout
        self.inProcess = inProcess
    }

    /// Runs `tasks` and returns one FileResult per task, in task order
    /// (``FileResult/summarized``: a reporter that shows passing timelines
    /// takes them from the events),
    /// publishing the run's file and scenario events on `stream` as they
    /// happen (files in any order when several workers run). The events
    /// are the run: every file gets its started and finished events and
    /// every scenario its finished event, also those an interruption kept
    /// from running — the in-process runner and the worker pool both
    /// publish complete files, and the results returned are the ones the
    /// `fileFinished` events carried.
    ///
    /// `skipReason` is asked before each task starts (a reason skips it:
    /// the file is reported as one not-run entry, without being loaded);
    /// `onTaskFinished` sees each task's result as soon as it is complete.
    package func execute(
        _ tasks: [WorkerTask], host: any ScenarioHost, entries: [String: SuiteFile],
        stop: StopSignal, stream: RunEventStream = RunEventStream(),
        skipReason: ((WorkerTask) -> String?)? = nil,
        onTaskFinished: @escaping (WorkerTask, FileResult) -> Void = { _, _ in }
    ) throws -> [FileResult] {
        func finished(_ task: WorkerTask, _ result: FileResult) {
            if options.failFast && result.scenarios.contains(where: { $0.status.isProblem }) {
                stop.set(ScenarioRunner.failFastReason)
            }
            onTaskFinished(task, result)
        }
        if inProcess {
            var results: [FileResult] = []
            let filter = try ScenarioRunner.compileFilter(options.filter)
            var interruptible = options
            interruptible.interruption = stop.interruption
            let base = ScenarioRunner(host: host, options: interruptible)
            let live = whenStuck.map { _ in LiveScenario() }
            let watch = whenStuck.map {
                InProcessWatch(tasks: tasks, timeout: timeout, stop: stop, stream: stream, live: live, whenStuck: $0)
            }
            watch?.start()
            defer { watch?.end() }
            for task in tasks {
                guard let entry = entries[task.path] else { continue }
                let result: FileResult
                // A file the run no longer needs is not loaded: one not-run entry, as a worker
                // reports a file it gets after a stop and the pool one no worker started.
                if let reason = stop.isSet ? stop.reason : skipReason?(task) {
                    result = ScenarioRunner.reportNotRun(task.path, reason: reason, publish: stream.publish)
                } else {
                    result = base.with(faults: task.faults).runFile(entry, filter: filter, live: live, publish: stream.publish)
                }
                finished(task, result)
                results.append(result.summarized)
            }
            return results
        }
        let pool = WorkerPool(.init(command: ChildProcesses.executable, arguments: workerArguments, jobs: jobs, timeout: timeout))
        pool.publish = stream.publish
        pool.writtenByTheRun = Set(writtenByTheRun.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        pool.onTaskFinished = finished
        pool.stopsAtFirstProblem = options.failFast
        if let skipReason {
            pool.skipReason = skipReason
            pool.prefetch = false  // a file handed over early would run after its fault is killed
        }
        pool.shouldStop = { stop.isSet }
        pool.stopIsInterruption = { stop.interruptingSignal != nil }
        pool.onNotice = onNotice
        return pool.run(tasks, stopReason: { stop.reason })
    }
}
