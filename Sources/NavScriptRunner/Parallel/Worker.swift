import Foundation
import NavScript
import NavScriptRuntime

/// One worker process and the pool's view of it.
final class Worker {
    let id: Int
    private let process: Process
    private let input: FileHandle
    /// The tasks given to this worker, in the order it runs them: the first
    /// is running (or about to start), the others wait in its input.
    private(set) var assigned: [(task: WorkerTask, index: Int)] = []
    /// The task running now.
    var task: WorkerTask? { assigned.first?.task }
    /// The pool's index of the task running now.
    var taskIndex: Int? { assigned.first?.index }
    var scenarioStarted: Date?
    var scenarioIndex: Int?
    /// The last scenario of the running task that reported its result.
    var lastFinished: Int?
    /// Timeline steps of the scenario running now.
    var steps = Timeline()
    /// What the scenario running printed so far, as its result keeps it.
    var output = LiveOutput()
    /// What the running task's top level printed while it loaded (kept for a load that dies).
    var loadOutput = BoundedOutput()
    /// The storyboard of the scenario running (`--html`), as the worker streamed it.
    var frames = StoryboardFrames()
    /// The failures the scenario running recorded so far (the first ``keptFailures``).
    var failures: [ExpectationFailure] = []
    static let keptFailures = 20
    /// The last driving or asserting call the scenario made.
    var running: String?
    /// Whether ``running`` had returned: a hang then is in the scenario's own code.
    var runningReturned = false
    /// How a report names the last call: the one that hung (or crashed), or the one before a hang in Lua.
    var lastCall: String? {
        running.map {
            guard runningReturned else { return "the last call was \($0)" }
            // Killed or crashed after the call returned: nothing says it hung (a timeout does).
            return timedOut
                ? "the last call, \($0), had returned: it hung in the scenario's own code"
                : "the last call, \($0), had returned: it was in the scenario's own code"
        }
    }
    var isAlive = true
    /// The task taken back from behind the running one, until the worker
    /// says it dropped it (``WorkerMessage/revoked(task:)``): given nothing
    /// new meanwhile, and killed if it turns out to have started it.
    var revoking: Int?
    /// When the running task became the running one.
    private(set) var currentSince = Date()
    private(set) var timedOut = false
    /// What the worker wrote to stderr: its trap message and its last lines.
    private(set) var stderr = WorkerStderr()

    private init(id: Int, process: Process, input: FileHandle) {
        self.id = id
        self.process = process
        self.input = input
    }

    /// Starts a worker; its stdout and stderr are read on background
    /// threads and turned into events for the pool.
    /// The open files a worker's start needs free (its three pipes, both
    /// ends, and what `Process` opens while it spawns), checked first:
    /// Foundation's `Pipe` traps when none is left, which ended the whole run
    /// without a report.
    static let descriptorsToStart = 16

    /// Whether `count` more files can be opened now.
    static func canOpen(_ count: Int) -> Bool {
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        for _ in 0..<count {
            let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return false }
            opened.append(descriptor)
        }
        return true
    }

    /// Why no worker starts, when the open-file limit explains it ("" otherwise).
    static var whyNoneStarts: String {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < 256 else { return "" }
        return ": the open-file limit here (ulimit -n) is \(limit.rlim_cur), too low for worker processes; raise it "
            + "to 256 or more, or run with --in-process"
    }

    static func launch(id: Int, configuration: WorkerPool.Configuration, events: WorkerEventQueue) -> Worker? {
        guard canOpen(descriptorsToStart) else { return nil }
        // A worker that dies (or closes its input) while a file is written to
        // it must cost a failed write — which kills that worker and sends its
        // files elsewhere — not a SIGPIPE that ends the whole run unreported.
        signal(SIGPIPE, SIG_IGN)
        let process = ChildProcesses.process(configuration.command, configuration.arguments)
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do { try process.run() } catch { return nil }
        let worker = Worker(id: id, process: process, input: stdin.fileHandleForWriting)
        // stderr is drained continuously (a chatty worker must never block
        // on a full pipe); the exit is reported after both streams end, so
        // every message a worker sent is seen before its death.
        let streams = DispatchGroup()
        streams.enter()
        let readsErrors = BackgroundThread.start {
            let handle = stderr.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                events.post([.init(worker: id, kind: .stderr(String(decoding: chunk, as: UTF8.self)))])
            }
            streams.leave()
        }
        if !readsErrors { streams.leave() }
        streams.enter()
        let readsMessages = BackgroundThread.start {
            // Only the bytes of each new chunk are searched for line ends: a
            // long line spread over many chunks is never rescanned.
            var pending: [UInt8] = []
            let handle = stdout.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                let bytes = [UInt8](chunk)
                var lineStart = 0
                // A chunk's messages go to the pool in one post: one wake-up
                // per read, not per step.
                var batch: [WorkerEventQueue.Event] = []
                for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
                    pending.append(contentsOf: bytes[lineStart..<index])
                    if let message = WorkerMessage.parse(bytes: pending) {
                        batch.append(.init(worker: id, kind: .message(message)))
                    }
                    pending.removeAll(keepingCapacity: true)
                    lineStart = index + 1
                }
                pending.append(contentsOf: bytes[lineStart...])
                events.post(batch)
            }
            streams.leave()
        }
        if !readsMessages { streams.leave() }
        let watchesTheExit = BackgroundThread.start {
            // Every message is read before the exit is reported — but a
            // child the worker left behind may hold its pipes open: after
            // the worker's own exit, its streams get a second to end.
            exited.wait()
            _ = streams.wait(timeout: .now() + 1)
            events.post([
                .init(
                    worker: id,
                    kind: .exited(
                        status: process.terminationStatus,
                        signaled: process.terminationReason == .uncaughtSignal))
            ])
        }
        guard readsErrors && readsMessages && watchesTheExit else {
            // A worker nobody reads would hang the run: it is ended, and counts as not started.
            process.terminate()
            return nil
        }
        return worker
    }

    func assign(_ task: WorkerTask, index: Int) {
        if assigned.isEmpty {
            currentSince = Date()
            lastHeard = currentSince
            scenarioStarted = nil
            scenarioIndex = nil
        }
        assigned.append((task, index))
        send(task)
    }

    /// Writes `line` to the worker's input as one JSON line. A worker that
    /// cannot take it (it died, or closed its input) is killed, and its files go elsewhere.
    private func send(_ line: some Encodable) {
        guard let data = try? JSONEncoder().encode(line) else { return }
        do {
            try input.write(contentsOf: data + Data("\n".utf8))
        } catch {
            kill(timedOut: false)
        }
    }

    /// The running task is over; the next one given, if any, starts now.
    func finishTask() {
        if !assigned.isEmpty { assigned.removeFirst() }
        scenarioStarted = nil
        scenarioIndex = nil
        lastFinished = nil
        loadOutput = BoundedOutput()
        if !assigned.isEmpty {
            currentSince = Date()
            lastHeard = currentSince
        }
    }

    /// Takes back the task waiting behind the running one, and tells the
    /// worker to drop it (it may have started it meanwhile: see
    /// ``revoking``). Nil when none waits.
    func revokeWaiting() -> Int? {
        guard assigned.count > 1, revoking == nil else { return nil }
        let (task, index) = assigned.remove(at: 1)
        revoking = task.id
        send(WorkerRevocation(revoke: task.id))
        return index
    }

    /// Takes back the tasks waiting behind the running one: none of them has
    /// started, so they go to another worker.
    func takeWaiting() -> [Int] {
        let keep = min(1, assigned.count)
        let waiting = assigned[keep...].map(\.index)
        assigned.removeSubrange(keep...)
        return waiting
    }

    func kill(timedOut: Bool) {
        self.timedOut = self.timedOut || timedOut
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// When the worker was asked to flush before being killed for a timeout.
    private var flushRequestedAt: Date?

    /// The worker answered a flush request (SIGUSR1) with `flushed`.
    var hasFlushed = false

    /// Asks the worker to write out what it buffered (it answers `flushed`).
    func requestFlush() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGUSR1) }
    }

    /// When the worker last reported anything about its task.
    var lastHeard: Date?

    /// Being killed for a timeout: it gets no more work.
    var isRetiring: Bool { flushRequestedAt != nil }

    /// Seconds past the timeout before the parent steps in: the worker
    /// stops a scenario's own Lua code at its line itself when the timeout
    /// passes, looking every thousand instructions — a loop of slow ones
    /// (each comparing megabytes) needs a moment, and a killed worker can
    /// name no line. A hang outside Lua is killed this much later.
    static let stopInLuaGrace = 2.0

    /// Seconds a hung worker gets to send what it buffered before SIGKILL
    /// (it is killed at once when its `flushed` line arrives; the grace only
    /// matters when the handler cannot run).
    static let flushGrace = 2.0

    /// The worker's flush showed its current scenario (or work between
    /// scenarios) began `elapsed` seconds ago, within the timeout: it runs
    /// on, its deadline counted from that true start.
    func reprieve(elapsed: Double) {
        let start = Date().addingTimeInterval(-elapsed)
        if scenarioIndex != nil { scenarioStarted = start } else { lastHeard = start }
        flushRequestedAt = nil
        hasFlushed = false
        timedOut = false
    }

    /// Kills a worker whose scenario ran past `timeout`: first SIGUSR1, on
    /// which the worker writes out the steps and the call it buffered (so
    /// the report names the call that hung) and says `flushed` with how
    /// long its current scenario has run, then SIGKILL — on that line when
    /// the worker's own clock agrees (else ``reprieve(elapsed:)``), or
    /// after ``flushGrace``.
    func enforce(timeout: Double, now: Date) {
        if let asked = flushRequestedAt {
            if now.timeIntervalSince(asked) > Self.flushGrace { kill(timedOut: true) }
            return
        }
        // A scenario's time runs from its start; between scenarios (loading
        // a file) from the worker's last word, so a worker that never
        // answers its task is not waited for forever.
        guard task != nil, let since = scenarioStarted ?? lastHeard, now.timeIntervalSince(since) > timeout + Self.stopInLuaGrace
        else { return }
        timedOut = true
        flushRequestedAt = now
        requestFlush()
    }

    /// Ends the worker and reaps it. `grace`: how long an idle worker gets
    /// to exit by itself once its input is closed (0: killed at once). Reaped
    /// here, not left to Foundation's monitor: a parent that exits first
    /// leaves a zombie with PID 1, which in a container often reaps nothing.
    func terminate(grace: TimeInterval) {
        try? input.close()
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { usleep(1_000) }
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    func appendStderr(_ text: String) {
        stderr.append(text)
    }
}
