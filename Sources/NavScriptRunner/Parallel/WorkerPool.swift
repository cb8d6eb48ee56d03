import Foundation
import NavScript
import NavScriptRuntime

/// Runs scenario files in worker processes (the executable re-invoked in
/// worker mode) so that nothing a scenario or a faulty app does can take
/// the run down: a worker that traps, is killed by a signal or exceeds the
/// per-scenario timeout costs only the scenario it was running — that one
/// is reported as an error naming the signal or the timeout, and a fresh
/// worker picks up the rest of the file.
///
/// Results come back per task in task order whatever the number of jobs.
package final class WorkerPool {
    package struct Configuration: Sendable {
        /// The executable and arguments that start one worker.
        package var command: URL
        package var arguments: [String]
        package var jobs: Int
        /// Seconds one scenario may run before its worker is killed.
        package var timeout: Double

        package init(command: URL, arguments: [String], jobs: Int, timeout: Double) {
            self.command = command
            self.arguments = arguments
            self.jobs = max(1, jobs)
            self.timeout = timeout
        }
    }

    /// Each task's file result as soon as it is complete (or given up),
    /// right after its `fileFinished` event was published.
    package var onTaskFinished: (WorkerTask, FileResult) -> Void = { _, _ in }
    /// What the workers report, republished as run events as it arrives:
    /// a file started, each scenario started, its steps and its result
    /// (also for a scenario whose worker died running it), the file
    /// finished. Every task's events are complete, also for a file no
    /// worker started (started, its one not-run entry, finished) and for
    /// scenarios a stop kept from running: the stream alone is the run.
    package var publish: (RunEvent) -> Void = { _ in }
    /// `--fail-fast`: a scenario that crashes or times out ends its file there
    /// (the workers stop at a failure themselves; a dead one cannot).
    package var stopsAtFirstProblem = false
    /// Checked between events; returning true stops the run (interrupt, fail-fast).
    package var shouldStop: () -> Bool = { false }
    /// Whether the run stops for a signal (an error for the scenarios that
    /// were running: they did not finish) rather than `--fail-fast` (they
    /// are skipped: the run already failed).
    package var stopIsInterruption: () -> Bool = { false }
    /// Something the user should know that is no scenario's result (a
    /// worker killed by SIGKILL whose file is run again).
    package var onNotice: (String) -> Void = { _ in }
    /// Asked before a task is given to a worker (a task that is being
    /// resumed after a crash is not asked again): a reason means it is not
    /// run, its scenarios reported skipped with it — `mutate` skips the
    /// files of a fault that is already killed.
    package var skipReason: (WorkerTask) -> String? = { _ in nil }
    /// Gives each worker its next file while it still runs the current one,
    /// so it never waits for the pool to read a finished file's results
    /// (that wait was most of what a worker run cost over an in-process
    /// one). Turn it off when ``skipReason`` may change while files run:
    /// a file already handed over runs whatever is learnt meanwhile.
    package var prefetch = true
    /// Files the run itself writes under a suite root (a `--json` stream in the suite's folder):
    /// no data a scenario reads, so their changes do not stop a resumed file.
    package var writtenByTheRun: Set<String> = []
    /// How long a worker's current file runs before the file handed to it
    /// behind that one is taken back for an idle worker: long against a
    /// file's usual milliseconds (a worker that has started it meanwhile is
    /// killed, a respawn), short against a hang waiting for its timeout.
    static let takeBackAfter: TimeInterval = 0.25

    private let configuration: Configuration
    private let events = WorkerEventQueue()

    package init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Runs every task; tasks not finished when the run stops come back
    /// with their remaining scenarios marked skipped (`reason`).
    package func run(_ tasks: [WorkerTask], stopReason: @escaping () -> String = { "interrupted" }) -> [FileResult] {
        var progress = tasks.map { TaskProgress(task: $0) }
        /// Each suite root's files other than its scenario files — support modules, data a scenario
        /// reads with io.open — as they were when a file of that root first loaded: a worker resuming
        /// a file after a crash reads them again, and one edited during the run would run the rest of
        /// the file against what the run did not start with.
        var suiteStamps: [String: [String: FileStamp?]] = [:]
        var queue = Array(tasks.indices)
        var workers: [Worker] = []
        var nextWorkerID = 0
        /// The run is stopping: flushes are collected, nobody is reprieved.
        var stopping = false
        let started = Date()

        func spawn() -> Worker? {
            nextWorkerID += 1
            return Worker.launch(id: nextWorkerID, configuration: configuration, events: events)
        }

        /// Publishes that task `index` started, once: when a worker starts it,
        /// not when it is handed one early (events keep the order of a run in
        /// process: a file starts after the one before it finished).
        func announce(_ index: Int) {
            guard !progress[index].isAnnounced else { return }
            progress[index].isAnnounced = true
            publish(.fileStarted(file: progress[index].task.path))
        }

        /// A result of task `index` is final: published once.
        func publishFinished(_ index: Int, _ result: ScenarioResult) {
            guard progress[index].kept == nil, progress[index].published.insert(result.name).inserted else { return }
            publish(.scenarioFinished(result))
        }

        /// Task `index` is complete: whatever of it was not published yet
        /// (a file no worker started, scenarios a stop or a dead worker kept
        /// from running) is, then the file's end; then the caller hears of it.
        func finish(_ index: Int, duration: Double) {
            // Once: a worker stopped for its task's sake may still have said `done` for it.
            guard progress[index].kept == nil else { return }
            announce(index)
            let result = progress[index].fileResult(duration: duration)
            for scenario in result.scenarios { publishFinished(index, scenario) }
            publish(.fileFinished(result))
            onTaskFinished(progress[index].task, result)
            progress[index].keep(result.summarized)
        }

        /// The rest of task `index` is not run — each scenario an error that says why — and the file
        /// ends here. (The worker is let run the file out, unheard: killed, it would be taken for a
        /// worker the kernel killed on whatever file it had been handed next.)
        func endUnrun(_ index: Int, _ message: String, kind: ScenarioOutcome.ErrorKind) {
            progress[index].fail(remaining: message, kind: kind)
            finish(index, duration: Date().timeIntervalSince(started))
        }

        /// The rest of task `index` after `scenario` goes to a fresh worker
        /// (first in line); the file is finished when nothing is left.
        func resume(_ index: Int, after scenario: Int) {
            progress[index].resumeFrom = scenario + 1
            if progress[index].resumeFrom >= (progress[index].scenarios?.count ?? 0) {
                progress[index].isFinished = true
                finish(index, duration: Date().timeIntervalSince(started))
            } else {
                queue.insert(index, at: 0)
            }
        }

        /// One event from a worker's reader threads.
        func handle(_ event: WorkerEventQueue.Event) {
            guard let worker = workers.first(where: { $0.id == event.worker }) else { return }
            switch event.kind {
            case .message(.flushed(let elapsedMilliseconds)):
                worker.hasFlushed = true
                guard worker.isRetiring, !stopping else { return }
                // Everything it buffered has been handled, so the pool knows
                // what it runs now; the worker's clock says for how long. The
                // pool's clock could only start when a message arrived, and
                // messages wait in the worker's buffer: a scenario that began
                // after a quick one (or after a file's last scenario, the
                // next file's) may have run for a moment only. That one goes on.
                if let milliseconds = elapsedMilliseconds, Double(milliseconds) / 1000 < configuration.timeout {
                    worker.reprieve(elapsed: Double(milliseconds) / 1000)
                } else {
                    // Its start may have arrived in this flush: the worker's clock says how long it really ran.
                    if let milliseconds = elapsedMilliseconds, worker.scenarioIndex != nil {
                        worker.scenarioStarted = Date().addingTimeInterval(-Double(milliseconds) / 1000)
                    }
                    worker.kill(timedOut: true)
                }
            case .message(.revoked(let task)):
                if worker.revoking == task { worker.revoking = nil }
            case .message(let message) where worker.revoking != nil && message.taskID == worker.revoking:
                // It started the file taken back before the revocation reached it: another worker runs
                // that file, so this copy is stopped (its own file is done — its messages came first).
                worker.kill(timedOut: false)
            case .message(var message):
                guard let index = worker.taskIndex else { return }
                worker.lastHeard = Date()
                if case .passed(let task, let scenario, let duration) = message, let listing = progress[index].scenarios?[scenario] {
                    message = .result(
                        task: task, index: scenario,
                        result: ScenarioResult(
                            name: listing.name, groups: listing.groups, file: listing.file, line: listing.line, tags: listing.tags,
                            outcome: .passed, duration: duration))
                }
                // A task already finished here (its file changed under the worker resuming it): nothing it
                // says is heard but its end, which hands the worker its next file.
                if progress[index].kept != nil {
                    if case .done = message {
                        worker.finishTask()
                        if let next = worker.taskIndex { announce(next) }
                    }
                    return
                }
                switch message {
                case .loaded(_, let scenarios, let declarations):
                    // Loaded again by the worker that resumes it, the file declares other scenarios: it was
                    // saved during the run. Its scenarios are counted by their first listing, so the rest
                    // would run under the wrong names, or not at all while the file read green; they are
                    // errors instead, and the worker is stopped.
                    // (Or declares them otherwise: another `allow`, other launch options — the rest would run
                    // under options the first load did not give them.)
                    if let announced = progress[index].scenarios,
                        announced != scenarios || (progress[index].declarations.map { $0 != declarations } ?? false)
                    {
                        let path = progress[index].task.path
                        if progress[index].stamp != FileStamp.of(path) {
                            endUnrun(
                                index,
                                "not run: \(path) changed during the run — loaded again by a fresh worker after its first "
                                    + "one died, it no longer declares the scenarios it did; run the suite again",
                                kind: .loadError)
                        } else {
                            // Not edited: it declares other names at every load (built from the clock, or from
                            // tostring of a table), so where to resume cannot be found.
                            endUnrun(
                                index,
                                "not run: \(path) declares other scenarios each time it loads (names or options built "
                                    + "from os.time, os.clock or tostring of a table?), so the fresh worker that took over after "
                                    + "a crash could not run the rest as first declared; give its scenarios fixed declarations",
                                kind: .crash)
                        }
                        return
                    }
                    // Resumed: the file itself must be the one first loaded (an edit of a scenario's body keeps
                    // its declarations), and the support modules it requires too.
                    if progress[index].scenarios != nil, progress[index].stamp != FileStamp.of(progress[index].task.path) {
                        endUnrun(
                            index,
                            "not run: \(progress[index].task.path) changed during the run — the fresh worker that took over "
                                + "after a crash would run the rest of it as edited; run the suite again",
                            kind: .loadError)
                        return
                    }
                    let root = progress[index].task.suiteRoot
                    if progress[index].scenarios != nil, let first = suiteStamps[root],
                        let changed = FileStamp.changedFile(under: root, since: first, except: writtenByTheRun)
                    {
                        let what = changed.hasSuffix(".lua") ? "the support module" : "the file"
                        endUnrun(
                            index,
                            "not run: \(what) \(changed) changed during the run — the fresh worker that took over "
                                + "\(progress[index].task.path) after a crash would run the rest against what the run did not "
                                + "start with; run the suite again",
                            kind: .loadError)
                        return
                    }
                    if suiteStamps[root] == nil { suiteStamps[root] = FileStamp.suite(under: root, except: writtenByTheRun) }
                    // A file a new worker resumes (after a crash) loads again: announced once.
                    if progress[index].scenarios == nil {
                        progress[index].stamp = FileStamp.of(progress[index].task.path)
                        progress[index].declarations = declarations
                        announce(index)  // (it is, unless its start has not reached the pool yet)
                        publish(.fileLoaded(file: progress[index].task.path, scenarios: scenarios))
                    }
                    progress[index].scenarios = scenarios
                case .start(_, let scenario):
                    worker.scenarioStarted = Date()
                    worker.scenarioIndex = scenario
                    worker.steps = []
                    worker.output = LiveOutput()
                    worker.frames = StoryboardFrames()
                    worker.failures = []
                    worker.running = nil
                    worker.runningReturned = false
                    if let listing = progress[index].scenarios?[scenario] { publish(.scenarioStarted(listing)) }
                case .step(_, let scenario, let step):
                    worker.steps.append(step.line)
                    if let listing = progress[index].scenarios?[scenario] {
                        publish(.step(file: listing.file, scenario: listing.name, number: worker.steps.count, step: step))
                    }
                case .running(_, _, let line):
                    worker.running = line
                    worker.runningReturned = false
                case .returned:
                    worker.runningReturned = true
                case .frame(_, _, let frame):
                    worker.frames.append(json: frame.json)
                case .frameProblem(_, _, let problem):
                    worker.frames.attach(problem)
                case .failed(_, _, let message, let details):
                    if worker.failures.count < Worker.keptFailures {
                        worker.failures.append(ExpectationFailure(message, details: details))
                    }
                case .output(_, let scenario, let text) where scenario < 0:
                    worker.loadOutput.append(text)  // the top level's, while the file loads
                case .output(_, let scenario, let text):
                    if let shown = worker.output.take(text), let listing = progress[index].scenarios?[scenario] {
                        publish(.output(file: listing.file, scenario: listing.name, text: shown))
                    }
                case .result(_, let scenario, var result):
                    worker.scenarioStarted = nil
                    worker.scenarioIndex = nil
                    if result.timeline.isEmpty { result.timeline = worker.steps }
                    if result.status.isProblem && result.frames.isEmpty { result.frames = worker.frames.frames }
                    if progress[index].killedRerunFrom == scenario {
                        // Its first run's result died with a killed worker: said where CI keeps it.
                        result.output =
                            "(navscript: this is the scenario's second run: the worker of its first was killed by SIGKILL "
                            + "— an out-of-memory killer, a CI limit, a kill -9 — before its result was sent)\n" + result.output
                    }
                    progress[index].results[scenario] = result
                    worker.lastFinished = scenario
                    publishFinished(index, result)
                // A worker asked to flush for a timeout is not killed here:
                // its flush may hold the results of several scenarios
                // that finished before the one that hung (a worker
                // buffers its messages). `flushed` decides.
                case .loadFailed(_, let result):
                    // Loaded once already (a fresh worker resuming it after a crash) and now it does not
                    // load (removed, broken by an edit): the rest of its scenarios are errors saying so —
                    // a file-level entry in their place dropped them from every report.
                    if progress[index].scenarios != nil {
                        endUnrun(
                            index,
                            "not run: \(progress[index].task.path) could not be loaded again by the fresh worker "
                                + "that took over after a crash (did it change during the run?): \(result.message)",
                            kind: .loadError)
                        return
                    }
                    progress[index].loadFailure = result
                    publishFinished(index, result)
                case .notRun(_, let reason):
                    progress[index].skipRemaining(reason: reason, finishing: false)
                case .flushed, .passed, .revoked:
                    break  // handled above, whatever the worker's task
                case .done:
                    progress[index].isFinished = true
                    worker.finishTask()
                    finish(index, duration: Date().timeIntervalSince(started))
                    if let next = worker.taskIndex { announce(next) }  // the file it holds starts now
                }
            case .exited(let status, let signaled):
                worker.isAlive = false
                workers.removeAll { $0 === worker }
                // Files handed over behind the running one never started: another worker takes them.
                queue.insert(contentsOf: worker.takeWaiting(), at: 0)
                guard let index = worker.taskIndex, !progress[index].isFinished else { return }
                // Asked to flush while the run stops, before it had set up the handler that
                // answers (it was still starting, its next file handed over early): it died of
                // the request, not of its file. The file is not run, like every file the stop
                // kept from starting — not a crash.
                if stopping && signaled && status == SIGUSR1 { return }
                // Killed by SIGKILL (the kernel's out-of-memory killer, a CI limit, a kill -9):
                // that signal cannot be caught, so what the worker had buffered — results, the
                // start of the scenario it really ran — died with it, and the last start the
                // pool saw may not be the culprit. The file runs again from its first unreported
                // scenario, unbuffered, so that a second kill names its scenario.
                // So is a worker that timed out without ever answering the request to flush (stopped:
                // SIGSTOP, a debugger): the pool cannot know which scenario hung, and the rest of
                // the file must not be lost with it.
                let silentTimeout = worker.timedOut && !worker.hasFlushed && worker.scenarioIndex == nil
                if signaled && status == SIGKILL && (!worker.timedOut || silentTimeout) && worker.task?.unbuffered != true,
                    let from = progress[index].firstUnreported
                {
                    progress[index].resumeFrom = from
                    progress[index].killedRerunFrom = from
                    queue.insert(index, at: 0)
                    let start = progress[index].scenarios.map { "scenario '\($0[from].name)'" } ?? "its start"
                    let why =
                        silentTimeout
                        ? "did not answer for \(Self.seconds(configuration.timeout)) (--timeout), nor when asked to send what "
                            + "it had, and was killed (stopped, or stuck before its first message)"
                        : "was killed by SIGKILL (a signal that cannot be caught: the messages it had not sent yet were lost)"
                    onNotice(
                        "a worker running \(progress[index].task.path) \(why); the file runs again from \(start) "
                            + "in a fresh worker")
                    return
                }
                // The worker died mid-task: the scenario it was running is
                // the culprit; the rest of the file goes to a new worker.
                var reason =
                    worker.timedOut
                    ? "timeout: "
                        + (worker.scenarioIndex == nil ? "the worker worked on the file" : "the scenario ran")
                        + " longer than \(Self.seconds(configuration.timeout)) (--timeout); its worker was killed"
                    : Self.describeExit(status: status, signaled: signaled)
                if !worker.timedOut, let trap = worker.stderr.trapMessage {
                    reason = "crash: \(trap) — " + reason.dropFirst("crash: ".count)
                }
                if let lastCall = worker.lastCall { reason += "; " + lastCall }
                if signaled && status == SIGKILL && !worker.timedOut, let scenario = worker.scenarioIndex,
                    progress[index].killedRerunFrom == scenario
                {
                    reason +=
                        " — killed twice: the file's first worker was killed the same way with this "
                        + "scenario's result not sent, and this one, running it again unbuffered, was killed in it"
                }
                let details = worker.stderr.tail
                if let scenario = worker.scenarioIndex {
                    // What the scenario had found before it crashed or hung is its finding too.
                    let details = ScenarioFile.joined(details, also: worker.failures)
                    progress[index].crash(
                        scenario: scenario, kind: worker.timedOut ? .timeout : .crash,
                        message: reason, details: details, timeline: worker.steps, frames: worker.frames,
                        duration: worker.scenarioStarted.map { Date().timeIntervalSince($0) } ?? 0,
                        signal: signaled && !worker.timedOut ? status : nil, output: worker.output.kept.text)
                    if let crashed = progress[index].results[scenario] { publishFinished(index, crashed) }
                    if stopsAtFirstProblem {
                        // --fail-fast: a crash or a timeout is a problem like a failure — the rest of
                        // the file is not run, and its end stops the run.
                        progress[index].skipRemaining(reason: ScenarioRunner.failFastReason)
                        finish(index, duration: Date().timeIntervalSince(started))
                    } else {
                        resume(index, after: scenario)
                    }
                } else {
                    // Outside any scenario: loading the file, or (when some of
                    // its scenarios reported) between two of them. What they
                    // reported stays in the file's result next to this entry.
                    // A file-level entry already reported (the file did not load, or was not run)
                    // stands: the worker died after saying so, before its `done`.
                    if progress[index].loadFailure == nil {
                        let when =
                            worker.lastFinished.flatMap { progress[index].scenarios?[$0].name }
                            .map { "after scenario '\($0)' finished, outside any scenario" } ?? "while loading the file"
                        // Dying while loading, the file did not load (exit 2, as a file whose top level
                        // runs out of its budget); between scenarios, it is the timeout or crash it was.
                        let kind: ScenarioOutcome.ErrorKind =
                            worker.lastFinished == nil ? .loadError : worker.timedOut ? .timeout : .crash
                        progress[index].loadFailure = ScenarioResult(
                            name: ScenarioRunner.fileEntryName(progress[index].task.path, .load), file: progress[index].task.path, line: 0,
                            outcome: .errored(kind),
                            message: "the worker died \(when): \(reason)", details: details,
                            output: worker.lastFinished == nil ? worker.loadOutput.text : "")
                        progress[index].loadFailure.map { publishFinished(index, $0) }
                    }
                    // The scenarios after it never started: reported, not lost.
                    progress[index].skipRemaining(reason: "the worker running this file died before it started")
                    finish(index, duration: Date().timeIntervalSince(started))
                }
            case .stderr(let text):
                worker.appendStderr(text)
            }
        }

        // Files a worker holds at once: the one it runs and, with prefetch, the next.
        let depth = prefetch ? 2 : 1
        /// Workers that can take a file (a worker being killed for a timeout, or waiting to hear
        /// whether it dropped a file taken back, takes nothing).
        func available(_ worker: Worker) -> Bool { worker.isAlive && !worker.isRetiring && worker.revoking == nil }
        /// Running workers without a file.
        func idle() -> Int { workers.count { available($0) && $0.assigned.isEmpty } }
        while progress.contains(where: { !$0.isFinished }) {
            if shouldStop() { break }
            // A file handed to a worker behind one that runs long (or hangs, until its timeout)
            // is taken back for a worker that has nothing to do.
            if prefetch, queue.isEmpty, idle() > 0 || workers.count < configuration.jobs {
                let now = Date()
                if let slow = workers.first(where: {
                    available($0) && $0.assigned.count > 1 && now.timeIntervalSince($0.currentSince) > Self.takeBackAfter
                }), let index = slow.revokeWaiting() {
                    queue.append(index)
                }
            }
            // Start workers while more files wait than there are workers without one: a file
            // queued behind another worker's (prefetched) waits for it to finish — and for
            // its whole timeout if it hangs — while a worker could have been started for it.
            while workers.count < configuration.jobs, queue.count > idle() {
                guard let worker = spawn() else { break }
                workers.append(worker)
            }
            // Every worker gets a file to run first; then, while enough wait for
            // every worker to have one more, a second to start on as soon as its
            // current one is done (near the end of a run a file is better left
            // for whichever worker is free first).
            for round in 1...depth {
                for worker in workers where worker.assigned.count < round && available(worker) {
                    if round > 1 && queue.count < workers.count { break }
                    // Tasks the caller no longer needs are settled here, without a worker.
                    while let index = queue.first, progress[index].resumeFrom == 0, let reason = skipReason(progress[index].task) {
                        queue.removeFirst()
                        progress[index].skipRemaining(reason: reason)
                        finish(index, duration: 0)
                    }
                    guard !queue.isEmpty else { break }
                    let index = queue.removeFirst()
                    if worker.assigned.isEmpty { announce(index) }  // else it starts when the worker's current file is done
                    worker.assign(progress[index].resumeTask, index: index)
                }
            }
            if workers.isEmpty && !queue.isEmpty {
                // Workers cannot even start: report instead of spinning.
                for index in queue {
                    // A file the caller no longer needs is not run either way: said as such.
                    if progress[index].resumeFrom == 0, let reason = skipReason(progress[index].task) {
                        progress[index].skipRemaining(reason: reason)
                    } else {
                        progress[index].fail(all: "could not start a worker process (\(configuration.command.path))" + Worker.whyNoneStarts)
                    }
                    finish(index, duration: 0)
                }
                queue.removeAll()
                continue
            }

            // Deadlines are checked on every turn, not only when no event
            // comes: a chatty worker must not starve a hung one's timeout.
            let now = Date()
            for worker in workers where worker.isAlive { worker.enforce(timeout: configuration.timeout, now: now) }
            for event in events.take(timeout: 0.05) { handle(event) }
        }

        // Stopped early (a signal, fail-fast): workers hold the results of
        // scenarios that did finish in their buffers — ask for them, then stop them.
        let ranToTheEnd = !progress.contains { !$0.isFinished }
        stopping = true
        let buffering = workers.filter { $0.isAlive && $0.task != nil }
        for worker in buffering { worker.requestFlush() }
        let deadline = Date().addingTimeInterval(Worker.flushGrace)
        while buffering.contains(where: { $0.isAlive && !$0.hasFlushed }), Date() < deadline {
            for event in events.take(timeout: 0.05) { handle(event) }
        }
        // Idle workers at the end of a run exit when their input closes; others are killed.
        for worker in workers { worker.terminate(grace: ranToTheEnd ? 1 : 0) }
        let reason = stopReason()
        let interrupted = stopIsInterruption()
        // The scenario a worker was running when the run stopped did run: it
        // keeps its steps and last call (what the user stopped it for).
        for worker in buffering {
            guard let index = worker.taskIndex, let scenario = worker.scenarioIndex, !progress[index].isFinished,
                progress[index].results[scenario] == nil, let listing = progress[index].scenarios?[scenario]
            else { continue }
            let stopped = "stopped while running: \(reason)" + (worker.lastCall.map { "; " + $0 } ?? "")
            // Fail-fast lets nothing be lost: a scenario that had failed before the stop is a
            // failure (it was a skip, its failure only in the JSON's details); one that had not is
            // not run. An interrupt makes it an error either way, its failures kept.
            let failed = !interrupted ? worker.failures.first : nil
            let message = failed?.message ?? stopped
            let details =
                failed.map { ScenarioFile.joined($0.details, also: Array(worker.failures.dropFirst())) + "\nthen " + stopped }
                ?? ScenarioFile.joined("", also: worker.failures)
            let outcome: ScenarioOutcome =
                interrupted ? .errored(.interrupted) : failed != nil ? .failed(.expectation) : .skipped(.interrupted)
            var frames = worker.frames  // (a failure's frame came with them, as the worker attached it)
            if interrupted { frames.attach(StepFrame.Problem(kind: "error", message: message, details: details)) }
            let result = ScenarioResult(
                name: listing.name, groups: listing.groups, file: listing.file, line: listing.line, tags: listing.tags,
                outcome: outcome, message: message, details: details,
                timeline: worker.steps, frames: interrupted || failed != nil ? frames.frames : [], output: worker.output.kept.text,
                duration: worker.scenarioStarted.map { Date().timeIntervalSince($0) } ?? 0)
            progress[index].results[scenario] = result
            publishFinished(index, result)
        }
        // A file a worker was loading when the run was interrupted had started (its start was
        // published): an error, as in process — a "not run" entry made the report of a run cut
        // short look green. Files no worker began are the ones not run.
        // (One that died of the request to flush never had the file under way: its file is not run.)
        for worker in buffering where interrupted && worker.scenarioIndex == nil && worker.hasFlushed {
            guard let index = worker.taskIndex, !progress[index].isFinished, progress[index].scenarios == nil,
                progress[index].loadFailure == nil, worker.lastFinished == nil
            else { continue }
            let path = progress[index].task.path
            let result = ScenarioResult(
                name: ScenarioRunner.fileEntryName(path, .load), file: path, line: 0, outcome: .errored(.interrupted),
                message: "\(path): stopped while the file loaded: \(reason)" + (worker.lastCall.map { "; " + $0 } ?? ""),
                output: worker.output.kept.text)
            progress[index].loadFailure = result
            publishFinished(index, result)
        }
        var results: [FileResult] = []
        for index in progress.indices {
            if !progress[index].isFinished {
                progress[index].skipRemaining(reason: reason)
                finish(index, duration: Date().timeIntervalSince(started))
            }
            results.append(progress[index].kept ?? progress[index].fileResult(duration: Date().timeIntervalSince(started)))
        }
        return results
    }

    static func describeExit(status: Int32, signaled: Bool) -> String {
        guard signaled else { return "the worker exited with status \(status) in the middle of the scenario" }
        return "crash: the worker was killed by \(signalDescription(status))"
    }

    /// `signal 4 (SIGILL: a Swift runtime trap …)`: a signal that ended a process, and what it usually means.
    package static func signalDescription(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGILL: "SIGILL: a Swift runtime trap (fatalError, precondition, force-unwrap of nil, overflow)",
            SIGTRAP: "SIGTRAP: a Swift runtime trap (fatalError, precondition, force-unwrap of nil, overflow)",
            SIGABRT: "SIGABRT: the process aborted (a C abort() or an uncaught error)",
            SIGSEGV: "SIGSEGV: invalid memory access",
            SIGBUS: "SIGBUS: invalid memory access",
            SIGKILL: "SIGKILL: the worker was killed — by the kernel's out-of-memory killer, a CI memory or time limit, or a kill -9",
            SIGTERM: "SIGTERM: the worker was terminated",
            SIGFPE: "SIGFPE: arithmetic trap",
            SIGUSR1: "SIGUSR1: asked to flush before it could",
            SIGHUP: "SIGHUP: the terminal or session it ran in went away (a CI runner hanging up)",
            SIGINT: "SIGINT: interrupted (Ctrl-C)",
            SIGPIPE: "SIGPIPE: it wrote to a pipe nobody reads",
            SIGXCPU: "SIGXCPU: it ran past a CPU time limit (ulimit -t)",
            SIGXFSZ: "SIGXFSZ: it wrote past a file size limit (ulimit -f)"
        ]
        if let name = names[signal] { return "signal \(signal) (\(name))" }
        // A signal without a note here: its system name, not the number twice.
        return "signal \(signal)" + (strsignal(signal).map { " (\(String(cString: $0)))" } ?? "")
    }

    package static func seconds(_ value: Double) -> String {
        // `%g`: 0.5s, 1.5s, 0.001s, 1e-09s — never a limit shown as 0.0s.
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))s" : String(format: "%gs", value)
    }
}

/// What the pool knows about one task so far.
private struct TaskProgress {
    let task: WorkerTask
    var scenarios: [ScenarioListing]?
    var results: [Int: ScenarioResult] = [:]
    var loadFailure: ScenarioResult?
    var resumeFrom = 0
    /// Where the file ran again after a worker was killed by SIGKILL (a second kill there is that
    /// scenario's); from then on it runs unbuffered (see ``WorkerTask/unbuffered``).
    var killedRerunFrom: Int?
    var isFinished = false
    /// Whether the file's start was published (a resumed task is not announced again).
    var isAnnounced = false
    /// The names of the results published as finished (each once).
    var published: Set<String> = []

    /// The file's result once it finished, as the run keeps it; what was
    /// kept to build it is let go (a run of 100,000 scenarios held every
    /// result, and every name published, to its end).
    private(set) var kept: FileResult?

    init(task: WorkerTask) { self.task = task }

    mutating func keep(_ result: FileResult) {
        kept = result
        results = [:]
        published = []
    }

    var resumeTask: WorkerTask {
        var next = task
        next.from = resumeFrom
        next.order = scenarios?.map(\.name)
        next.unbuffered = killedRerunFrom != nil
        return next
    }

    /// Where a worker that died without a word left off: the first scenario
    /// from ``resumeFrom`` with no result, or ``resumeFrom`` itself when the
    /// file's scenarios never arrived; nil when every scenario reported or
    /// the file's load failure did (nothing was lost).
    var firstUnreported: Int? {
        guard let scenarios else { return loadFailure == nil ? resumeFrom : nil }
        return (resumeFrom..<scenarios.count).first { results[$0] == nil }
    }

    /// `duration`: how long it ran until its worker died, by the pool's clock.
    mutating func crash(
        scenario: Int, kind: ScenarioOutcome.ErrorKind, message: String, details: String, timeline: Timeline,
        frames: StoryboardFrames, duration: Double, signal: Int32?, output: String
    ) {
        guard let listing = scenarios?[scenario] else { return }
        // The storyboard the worker streamed, with the crash shown on the step it came after.
        var frames = frames
        frames.attach(StepFrame.Problem(kind: "error", message: message, details: details))
        results[scenario] = ScenarioResult(
            name: listing.name, groups: listing.groups, file: listing.file, line: listing.line, tags: listing.tags,
            outcome: .errored(kind), message: message, details: details, timeline: timeline, frames: frames.frames,
            duration: duration)
        results[scenario]?.signal = signal
        results[scenario]?.output = output
    }

    /// The file could not be run at all (no worker starts): a load error, so
    /// the run exits 2 like any file that did not load — exit 1 said a
    /// scenario had failed where none ran.
    mutating func fail(all message: String) {
        loadFailure = ScenarioResult(
            name: ScenarioRunner.fileEntryName(task.path, .load), file: task.path, line: 0, outcome: .errored(.loadError),
            message: message)
        isFinished = true
    }

    /// Marks what has no result yet as an error that says `message` — the
    /// file cannot be run as it was listed — and ends the task.
    mutating func fail(remaining message: String, kind: ScenarioOutcome.ErrorKind) {
        for (index, listing) in (scenarios ?? []).enumerated() where results[index] == nil {
            results[index] = ScenarioResult(
                name: listing.name, groups: listing.groups, file: listing.file, line: listing.line, tags: listing.tags,
                outcome: .errored(kind), message: message)
        }
        isFinished = true
    }

    /// What the file's scenarios declared beside their listing at its first load.
    var declarations: [String]?

    /// The file's stamp when it was first loaded: a different listing at a
    /// later load is an edit only if it changed.
    var stamp: FileStamp?

    /// Marks what has no result yet as not run (`reason`); `finishing` also
    /// ends the task (a worker's own `notRun` leaves that to its `done`,
    /// which finishes the task once, whatever comes between).
    mutating func skipRemaining(reason: String, finishing: Bool = true) {
        if let scenarios {
            for (index, listing) in scenarios.enumerated() where results[index] == nil {
                results[index] = ScenarioRunner.notRun(listing, reason: reason)
            }
        } else if loadFailure == nil {
            loadFailure = ScenarioRunner.fileNotRun(task.path, reason: reason)
        }
        if finishing { isFinished = true }
    }

    /// The results so far, in run order; a file-level failure comes after
    /// the scenarios that did report (a worker can die between two).
    func fileResult(duration: Double) -> FileResult {
        let ordered = (scenarios ?? []).indices.compactMap { results[$0] } + (loadFailure.map { [$0] } ?? [])
        return FileResult(file: task.path, scenarios: ordered, duration: ordered.reduce(0) { $0 + $1.duration })
    }
}
