import CWorkerOutbox
import Foundation
import NavScript
import NavScriptRuntime

/// The worker side of a parallel run: reads ``WorkerTask`` lines on stdin,
/// runs them, and writes ``WorkerMessage`` lines to a private descriptor,
/// through a ``WorkerOutbox`` (buffered; flushed by a signal handler on a
/// crash, and on the parent's SIGUSR1 before it kills a hung worker).
///
/// The worker's own stdout is redirected to stderr first, so nothing a
/// scenario or the app prints (`io.write`, a stray `print` in Swift) can
/// corrupt the protocol. SIGINT is ignored: the parent decides when a run
/// is interrupted and tells workers with SIGTERM.
package struct ScenarioWorker {
    package let host: any ScenarioHost
    package let options: RunOptions
    /// Runs every task (with the task's faults): its state image is
    /// prepared once for every file the worker runs.
    private let runner: ScenarioRunner

    package init(host: any ScenarioHost, options: RunOptions) {
        self.host = host
        self.options = options
        runner = ScenarioRunner(host: host, options: options)
    }

    package func serve() throws(RunnerError) {
        signal(SIGINT, SIG_IGN)
        // A run killed outright (SIGKILL, a CI cancel) takes its workers with it.
        if navscript_die_with_parent() == 1 { exit(1) }
        let protocolFD = dup(STDOUT_FILENO)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        guard let outbox = WorkerOutbox(descriptor: protocolFD) else { throw .workerSetup("cannot allocate the protocol buffer") }
        let filter = try ScenarioRunner.compileFilter(options.filter)
        // With --fail-fast, a failure stops this worker's later files too: the
        // pool hands a worker its next file before the current one ends.
        var stopped = false
        var lines = TaskLines()
        // Tasks received and not started: a revocation may still take one back.
        var waiting: [WorkerTask] = []
        func accept(_ line: [UInt8]) {
            let decoder = JSONDecoder()
            if let revocation = try? decoder.decode(WorkerRevocation.self, from: Data(line)) {
                // Not started yet: dropped, and said so. Started or done: the pool sees its messages.
                guard let index = waiting.firstIndex(where: { $0.id == revocation.revoke }) else { return }
                waiting.remove(at: index)
                outbox.append(WorkerMessage.revoked(task: revocation.revoke).bytes)
                outbox.flush()
            } else if let task = try? decoder.decode(WorkerTask.self, from: Data(line)) {
                waiting.append(task)
            }
        }
        while true {
            if waiting.isEmpty {
                guard let line = lines.next(waiting: true) else { break }
                accept(line)
            }
            while let line = lines.next(waiting: false) { accept(line) }
            guard !waiting.isEmpty else { continue }
            let task = waiting.removeFirst()
            run(task, filter: filter, stopped: &stopped) { message in
                switch message {
                case .running where task.unbuffered:
                    break  // sent like the rest: no signal handler runs on a SIGKILL
                case .running:
                    // Only the last call matters, and only if the worker dies
                    // or hangs in it: kept aside for the signal that says so.
                    outbox.note(message.bytes)
                    return
                case .returned where !task.unbuffered:
                    outbox.noteReturned()
                    return
                case .step, .output, .frame, .frameProblem, .failed, .flushed, .returned:
                    break  // within the scenario: its call and its clock go on
                default:
                    outbox.note(nil)  // between scenarios no call runs: a crash there is not in the last one
                    outbox.markPhase()  // a scenario starts, or the time between scenarios does
                }
                outbox.append(message.bytes)
                // Everything waits in the buffer (written when full or 50 ms
                // after the last write; a crash or the parent's SIGUSR1 gets
                // it out too) except the end of a file, which the parent
                // waits for to hand out the next one.
                switch message {
                case .done, .loadFailed, .notRun: outbox.flush()
                default: if task.unbuffered { outbox.flush() }
                }
            }
        }
    }

    /// Runs one file. `stopped` is set once a scenario fails under
    /// `--fail-fast`; the scenarios after it (in this file and the next
    /// ones) are then reported as not run.
    func run(
        _ task: WorkerTask, filter: NamePattern?, stopped: inout Bool,
        send: @escaping (WorkerMessage) -> Void
    ) {
        let runner = self.runner.with(faults: task.faults)
        let entry = SuiteFile(
            path: task.path, url: URL(fileURLWithPath: task.path),
            suiteRoot: URL(fileURLWithPath: task.suiteRoot, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)))
        if stopped {
            send(.notRun(task: task.id, reason: ScenarioRunner.failFastReason))
            send(.done(task: task.id))
            return
        }
        do {
            // What the top level prints goes out as it is printed (scenario index -1): a load that gets
            // stuck and is killed keeps it in the parent's report.
            var (file, selected) = try runner.load(
                entry, filter: filter, loadOutput: { text in send(.output(task: task.id, index: -1, text: text)) })
            // Resumed: in the order of the file's first load, when it declares the same scenarios
            // (names are unique in a file); otherwise the file changed, and the parent says so.
            if let order = task.order, order.count == selected.count {
                let byName = Dictionary(selected.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
                let reordered = order.compactMap { byName[$0] }
                if reordered.count == selected.count { selected = reordered }
            }
            send(.loaded(task: task.id, scenarios: selected.map(\.listing), declarations: selected.map { $0.declaration(in: file.state) }))
            for (index, definition) in selected.enumerated() where index >= task.from {
                if stopped {
                    send(
                        .result(
                            task: task.id, index: index,
                            result: ScenarioRunner.notRun(definition.listing, reason: ScenarioRunner.failFastReason)))
                    continue
                }
                send(.start(task: task.id, index: index))
                let result = file.run(
                    definition, host: host, faults: task.faults,
                    observer: ScenarioObserver(
                        step: { step in send(.step(task: task.id, index: index, step: step)) },
                        call: { line in send(.running(task: task.id, index: index, line: line)) },
                        returned: { send(.returned) },
                        output: { text in send(.output(task: task.id, index: index, text: text)) },
                        frame: { change in
                            switch change {
                            case .appended(let frame): send(.frame(task: task.id, index: index, frame: StreamedFrame(frame)))
                            case .problem(let problem): send(.frameProblem(task: task.id, index: index, problem: problem))
                            }
                        },
                        failure: { failure in
                            send(.failed(task: task.id, index: index, message: failure.message, details: failure.details))
                        }))
                if result.status == .passed && result.message.isEmpty && result.details.isEmpty && result.output.isEmpty
                    && result.frames.isEmpty
                {
                    // The parent has the rest: the listing, and the steps as they went out.
                    send(.passed(task: task.id, index: index, duration: result.duration))
                } else {
                    // The timeline and the frames went out as they came; the parent puts them back. The
                    // output goes as the result keeps it (head and tail, capped at the source).
                    var streamed = result
                    streamed.timeline = []
                    streamed.frames = []
                    send(.result(task: task.id, index: index, result: streamed))
                }
                if options.failFast && result.status.isProblem { stopped = true }
            }
        } catch {
            send(.loadFailed(task: task.id, result: ScenarioRunner.loadFailure(task.path, error)))
        }
        send(.done(task: task.id))
    }
}
