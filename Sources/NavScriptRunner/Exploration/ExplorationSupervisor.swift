import Foundation
import NavScript
import NavScriptRuntime

/// Runs one exploration in a child process and watches it: an app that
/// crashes (a trap, a signal) or hangs (a step that does not return within
/// `--timeout`) is a finding like any property — "every input gets an
/// outcome" — with the steps that led there, instead of the end of the
/// exploration with nothing to show.
///
/// The child writes each fresh app and each line of Lua to a trace before
/// running it, and a mark when the line returns (``ExplorationTrace``), so
/// whatever it was doing when it died is known: the last segment is a walk
/// from a launch to the fatal line. That walk is replayed in worker
/// processes — where a crash costs only the run — to check it crashes the
/// same way (and, with faults, not without them) and to shrink it
/// (``WalkReplayer``), then written as a scenario to `--out`.
struct ExplorationSupervisor {
    let request: ExplorationRequest
    let host: any ScenarioHost
    let streams: OutputStreams
    var seed: UInt64 { request.seed }

    /// Returns the exit status (``ExploreFrontend/run(stop:)``).
    func run() throws(UsageProblem) -> Int32 {
        let started = Date()
        // A JSON stream the child writes to (a FIFO, /dev/stdout) is held open here as well, so its
        // reader does not see the end when the child dies before the supervisor continues it.
        // (Standard output itself, `-`, is the child's already, and stays open in this process.)
        var heldStream: JSONLinesReport?
        if let json = request.reports.json, json != "-", JSONLinesReport.writesAStream(json) {
            do { heldStream = try JSONLinesReport(path: json) } catch { throw UsageProblem("--json: \(error)") }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navscript-explore-\(getpid())-\(UUID().uuidString)")
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw UsageProblem("cannot create a scratch folder for the exploration: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("trace")
        _ = FileManager.default.createFile(atPath: trace.path, contents: nil)
        // Where the child keeps each finding as it reports it: a crash later must not take them
        // out of the reports. The process that started this one may have asked for them too.
        var child = request
        child.records = request.records ?? folder.appendingPathComponent("records").path
        let records = child.records!
        _ = FileManager.default.createFile(atPath: records, contents: nil)

        let process = ChildProcesses.navscript(child.childArguments(seed: seed) + ["--trace", trace.path])
        process.standardOutput = FileHandle.standardOutput
        // Held open and never written: the child reads end-of-file when this process is gone.
        let lifeline = Pipe()
        process.standardInput = lifeline
        let stderr = Pipe()
        process.standardError = stderr
        let forwarding = StandardErrorForwarding(stderr.fileHandleForReading)
        do { try process.run() } catch { throw UsageProblem("cannot start the exploration: \(error)") }
        forwarding.start()
        let stop = StopSignal()
        stop.catchSignals()

        let ended = watch(process, trace: trace, stop: stop)
        forwarding.waitForTheEnd()  // the trap line is in by now
        let fatal: ExplorationFatal
        switch ended {
        case .exited(let status): return status
        case .fatal(let ending): fatal = ending
        }
        let text = (try? String(contentsOf: trace, encoding: .utf8)) ?? ""
        let earlier = ExplorationRecord.read(records).compactMap { record -> ScenarioResult? in
            if case .finding(let found) = record { return found.result }
            return nil
        }
        return try report(
            fatal, walk: ExplorationTrace.lastSegment(of: text), earlier: earlier, stderr: forwarding.tail,
            scratch: folder, records: records, stop: stop, started: started, heldStream: heldStream)
    }

    /// How long a child has to stop after an interrupt is passed on to it.
    static let interruptGrace = 2.0

    /// How the child ended.
    enum Ending {
        case exited(Int32)
        case fatal(ExplorationFatal)
    }

    /// Waits for the child; kills it when a step has not returned for
    /// `--timeout` seconds, and passes an interrupt on to it (it stops at
    /// its next step and reports what it found).
    private func watch(_ process: Process, trace: URL, stop: StopSignal) -> Ending {
        var size = -1
        var progressed = Date()
        let ending = ChildProcesses.watch([process], stop: stop, interruptGrace: Self.interruptGrace) { _ in
            let now = Date()
            let current = (try? FileManager.default.attributesOfItem(atPath: trace.path)[.size] as? Int) ?? 0
            if current != size {
                size = current
                progressed = now
                return false
            }
            // Only a step that started and never returned is the app's hang: starting up,
            // verifying a finding and writing the reports write nothing, and are not.
            return now.timeIntervalSince(progressed) > request.timeout && Self.insideAStep(trace)
        }[0]
        switch ending {
        case .exited(let status):
            return .exited(status)
        case .hung:
            return .fatal(.hang)
        case .unresponsive:
            // A child stuck in a step never gets to its next one to stop: the interrupt is
            // what the user asked for, not a hang to wait out and report.
            streams.error("\(streams.executableName) explore: \(stop.reason): the exploration was inside a step and was stopped\n")
            return .exited(stop.exitStatus ?? 130)
        case .signaled(let signal):
            // Stopped by an interrupt it was sent (or got from the terminal): not the app's doing.
            if stop.isSet && [SIGINT, SIGTERM, SIGHUP].contains(signal) { return .exited(128 + signal) }
            return .fatal(.crash(signal: signal))
        }
    }

    /// Whether the trace's last record starts a step that has not returned (read from its end).
    static func insideAStep(_ trace: URL) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: trace.path) else { return false }
        defer { try? handle.close() }
        let end = (try? handle.seekToEnd()) ?? 0
        try? handle.seek(toOffset: end > 4_096 ? end - 4_096 : 0)
        let tail = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        return ExplorationTrace.endsInsideAStep(tail[...])
    }

    /// The crash or hang as a finding: the walk replayed, shrunk, written;
    /// the console and the reports told. Exit 1 (a finding), 2 when its
    /// reproducer or a report could not be written, a signal's status when
    /// an interrupt cut the replays short.
    /// `earlier`: what the child found before (its reports were never written).
    /// `records`: where the child kept them, and this finding is kept too.
    /// `started`: when the exploration began (its reports' duration runs to the crash);
    /// `heldStream`: the JSON stream, opened before the child started.
    private func report(
        _ fatal: ExplorationFatal, walk: [String], earlier: [ScenarioResult], stderr: String, scratch: URL,
        records: String, stop: StopSignal, started: Date, heldStream: JSONLinesReport?
    ) throws(UsageProblem) -> Int32 {
        let out = URL(fileURLWithPath: request.out)
        let kind: ScenarioOutcome.ErrorKind
        var what: String
        switch fatal {
        case .crash(let signal):
            kind = .crash
            what = "the app crashed: the exploring process was killed by " + WorkerPool.signalDescription(signal)
            if let trap = WorkerStderr.reading(stderr).trapMessage { what += " — \(trap)" }
        case .hang:
            kind = .timeout
            what = "the app hung: a step did not return within \(WorkerPool.seconds(request.timeout)) (--timeout)"
        }
        let verb = kind == .crash ? "crash" : "hang"
        let property = "every input gets an outcome"
        var file: String?
        var line = 0
        var unwritten = false
        var verified = false
        var steps = walk
        if !walk.isEmpty {
            let replayer = WalkReplayer(request: request, fatal: fatal, scratch: scratch, stop: stop)
            (steps, verified) = replayer.shrink(walk)
            let reproducer = Self.reproducer(
                steps, what: what, verb: verb,
                configuration: request.configuration(seed: seed, host: host, executable: streams.executableName),
                host: host, originalSteps: walk.count)
            let target = ExploreFrontend.unusedFile(in: out, named: "seed\(seed)-\(verb)")
            do {
                try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
                try Data(reproducer.utf8).write(to: target)
                file = target.relativePath
                line = ExploreFrontend.scenarioLine(reproducer)
            } catch {
                unwritten = true
                streams.error(
                    "\(streams.executableName) explore: cannot write the reproducer \(target.relativePath): "
                        + "\(error.localizedDescription) — give --out a folder navscript may write in\n")
            }
        }

        var text = "\nVIOLATION \(property)\n    \(what)\n"
        if steps.isEmpty {
            text += "    before the first step: no walk to replay (replay with --seed \(seed))\n"
        } else {
            text +=
                "    " + (steps.count < walk.count ? "shrunk from \(walk.count) steps to \(steps.count)" : "\(steps.count) steps")
                + " from a fresh launch; the last one \(verb == "crash" ? "crashed" : "hung"):\n"
            for (index, step) in steps.enumerated() { text += "      \(index + 1). \(step)\n" }
            if let file {
                let unverified =
                    stop.isSet
                    ? " (not verified: the replays were interrupted)"
                    : " (not verified: replayed alone, it did not \(verb) the same way)"
                text +=
                    "    reproducer: \(file)"
                    + (!verified
                        ? unverified
                        : request.faults.isEmpty
                            ? " (\(verb == "crash" ? "crashes" : "hangs") the app on this build)"
                            : " (fails with the faults, passes without)") + "\n"
            }
        }
        text += "the exploration stopped here (its process went with the app)\n"
        request.reports.terminal(streams)(text)

        let duration = Date().timeIntervalSince(started)
        let result = ScenarioResult(
            name: property, file: file ?? "", line: line, outcome: .errored(kind),
            message: what,
            details: steps.isEmpty
                ? ""
                : "steps from a fresh launch:\n"
                    + steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n"),
            duration: duration)
        ExplorationRecord.append(
            .finding(.init(result: result, reproducerSteps: file == nil ? nil : steps.count, fatal: fatal, verified: verified)),
            to: records)
        var failed = false
        if !request.reports.isEmpty {
            let explored = FileResult(file: "explore", scenarios: earlier + [result], duration: duration)
            let run = RunResult(files: [explored], duration: duration, seed: seed, startedAt: started.timeIntervalSince1970)
            // Report files are written whole, replacing what the child left. A JSON stream (standard
            // output, a FIFO) already has the child's start and its earlier findings: it is continued,
            // not started a second time.
            var whole = request.reports
            var continued: RunEventStream?
            if let json = whole.json, JSONLinesReport.writesAStream(json) {
                whole.json = nil
                do { continued = RunEventStream([try heldStream ?? JSONLinesReport(path: json)]) } catch {
                    throw UsageProblem("--json: \(error)")
                }
            }
            let stream = RunEventStream(try whole.reporters())
            stream.publish(
                run,
                plan: RunPlan(
                    command: "explore", app: host.name, files: ["explore"], seed: seed,
                    startedAt: run.startedAt))
            continued?.publish(.scenarioFinished(result))
            continued?.publish(.fileFinished(explored))
            continued?.publish(.runFinished(run, interruption: nil))
            failed = ReportTargets.reportFailures(stream, to: streams)
            if let continued { failed = ReportTargets.reportFailures(continued, to: streams) || failed }
        }
        if let status = stop.exitStatus { return status }
        return failed || unwritten ? 2 : 1
    }

    /// The walk as a scenario: no assertion — the crash or hang fails it.
    static func reproducer(
        _ steps: [String], what: String, verb: String, configuration: Explorer.Configuration,
        host: any ScenarioHost, originalSteps: Int
    ) -> String {
        var text = Explorer.replayHeader(configuration, host: host, hang: verb != "crash")
        text += "-- Property: every input gets an outcome.\n"
        text +=
            "-- " + (steps.count < originalSteps ? "Shrunk from \(originalSteps) steps to \(steps.count)." : "\(steps.count) steps.") + "\n"
        text += "-- \(what.replacingOccurrences(of: "\n", with: " ")), at its last step.\n\n"
        text += "scenario(\"explore seed \(configuration.seed): the app \(verb == "crash" ? "crashes" : "hangs")\", function()\n"
        for step in steps { text += "  \(step)\n" }
        text += "end)\n"
        return text
    }

    /// In the child: ends the process when its supervisor is gone (its
    /// standard input, a pipe the supervisor holds, reads end-of-file) —
    /// a hung exploration must not outlive a supervisor that was killed.
    /// `_exit`: the main thread may be stuck holding a lock `exit` needs.
    static func exitWhenTheSupervisorDies() {
        BackgroundThread.start {
            // read(2), not FileHandle: a signal while it waits (the backtracer suspending threads
            // after a crash) is EINTR, which FileHandle turns into a fatal error of its own.
            var byte: UInt8 = 0
            while true {
                let count = read(STDIN_FILENO, &byte, 1)
                if count == 0 || (count < 0 && errno != EINTR) { break }
            }
            _exit(1)
        }
    }

}

/// The child's standard error, passed on as it comes — without the stack
/// dump after the runtime's trap line (addresses, build paths: the finding
/// names the trap and the steps that led to it) — and its last few
/// kilobytes kept, where that trap line is.
private final class StandardErrorForwarding: @unchecked Sendable {
    private let input: FileHandle
    private let lock = NSLock()
    private var kept = Data()
    private let ended = DispatchSemaphore(value: 0)

    init(_ input: FileHandle) { self.input = input }

    func start() {
        let started = BackgroundThread.start { [self] in
            // Passed on line by line: the report's first line (`*** Signal 4: Backtracing…`, `Current
            // stack trace:`) may come split across two reads, and a part of it got through.
            var dumping = false
            var partial: [UInt8] = []
            func forward(_ bytes: [UInt8]) { try? FileHandle.standardError.write(contentsOf: Data(bytes)) }
            while true {
                let chunk = input.availableData
                if chunk.isEmpty { break }
                lock.lock()
                kept.append(chunk)
                if kept.count > 16_384 { kept = kept.suffix(8_192) }
                lock.unlock()
                guard !dumping else { continue }
                partial += chunk
                while !dumping, let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Array(partial[...newline])
                    partial.removeSubrange(...newline)
                    let text = String(decoding: line, as: UTF8.self)
                    if text.hasPrefix("*** Signal ") || text.hasPrefix("Current stack trace:") {
                        dumping = true
                    } else {
                        forward(line)
                    }
                }
                // A line that does not end yet is held, up to a few kilobytes (then passed on as it is).
                if partial.count > 4_096 {
                    forward(partial)
                    partial.removeAll()
                }
            }
            if !dumping && !partial.isEmpty { forward(partial) }
            ended.signal()
        }
        if !started { ended.signal() }  // nothing forwarded: the child's standard error fills and it blocks, a hang reported
    }

    /// Until the child's standard error is at its end (a second at most: a
    /// grandchild may hold it open).
    func waitForTheEnd() { _ = ended.wait(timeout: .now() + 1) }

    var tail: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: kept, as: UTF8.self)
    }
}
