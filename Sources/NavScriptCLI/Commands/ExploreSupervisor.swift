import ArgumentParser
import Foundation
import NavScript

/// Runs one exploration in a child process and watches it: an app that
/// crashes (a trap, a signal) or hangs (no step finishes within
/// `--timeout`) is a finding like any property — "every input gets an
/// outcome" — with the steps that led there, instead of the end of the
/// exploration with nothing to show.
///
/// The child writes each fresh app and each line of Lua to a trace before
/// running it (``ExplorationTrace``), so whatever it was doing when it died
/// is known: the last segment is a walk from a launch to the fatal line.
/// That walk is replayed in worker processes — where a crash costs only
/// the run — to check it crashes the same way (and, with faults, not
/// without them) and to shrink it, then written as a scenario to `--out`.
struct ExploreSupervisor {
    let command: ExploreCommand
    let host: any ScenarioHost
    let seed: UInt64

    /// What became of the child.
    enum Ending {
        case exited(Int32)
        case crashed(signal: Int32)
        case hung
    }

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navscript-explore-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("trace")
        _ = FileManager.default.createFile(atPath: trace.path, contents: nil)

        let process = Process()
        process.executableURL = SuiteExecution.executable
        process.arguments = command.childArguments(seed: seed) + ["--trace", trace.path]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"   // the runtime's trap line is enough; a backtrace is pages
        process.environment = environment
        process.standardOutput = FileHandle.standardOutput
        // Held open and never written: the child reads end-of-file when this process is gone.
        let lifeline = Pipe()
        process.standardInput = lifeline
        let stderr = Pipe()
        process.standardError = stderr
        let tail = StandardErrorTail()
        let forwarding = Thread {
            // The runtime's trap line is passed on; the stack dump after it (addresses, build
            // paths) is not: the finding names the trap and the steps that led to it.
            var dumping = false
            while true {
                let chunk = stderr.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                tail.append(chunk)
                guard !dumping else { continue }
                let text = String(decoding: chunk, as: UTF8.self)
                if let dump = text.range(of: "Current stack trace:") {
                    dumping = true
                    FileHandle.standardError.write(Data(text[..<dump.lowerBound].utf8))
                } else {
                    FileHandle.standardError.write(chunk)
                }
            }
        }
        do { try process.run() } catch { throw UsageError("cannot start the exploration: \(error)") }
        forwarding.start()
        let stop = StopSignal()
        stop.catchSignals()

        let ending = watch(process, trace: trace, stop: stop)
        if let status = stop.exitStatus {
            throw ExitCode(ending.exitStatus ?? status)   // the child reported what it found before it stopped
        }
        switch ending {
        case .exited(let status):
            throw ExitCode(status)
        case .crashed, .hung:
            let text = (try? String(contentsOf: trace, encoding: .utf8)) ?? ""
            try report(ending, walk: ExplorationTrace.lastSegment(of: text), stderr: tail.text, scratch: folder)
        }
    }

    /// In the child: ends the process when its supervisor is gone (its
    /// standard input, a pipe the supervisor holds, reads end-of-file) —
    /// a hung exploration must not outlive a supervisor that was killed.
    /// `_exit`: the main thread may be stuck holding a lock `exit` needs.
    static func exitWhenTheSupervisorDies() {
        Thread {
            while !FileHandle.standardInput.availableData.isEmpty {}
            _exit(1)
        }.start()
    }

    /// Waits for the child; kills it when no step starts or ends for
    /// `--timeout` seconds, and passes an interrupt on to it.
    private func watch(_ process: Process, trace: URL, stop: StopSignal) -> Ending {
        var size = -1
        var progressed = Date()
        var forwarded = false
        while process.isRunning {
            Thread.sleep(forTimeInterval: 0.05)
            if stop.isSet && !forwarded {
                forwarded = true
                kill(process.processIdentifier, stop.interruptingSignal ?? SIGTERM)
            }
            let now = Date()
            let current = (try? FileManager.default.attributesOfItem(atPath: trace.path)[.size] as? Int) ?? 0
            // Until the first step, the child is starting (its host, the language's state): a slow
            // machine must not make that a hang, so the clock is the timeout or half a minute.
            let allowed = current == 0 ? max(command.timeout, 30) : command.timeout
            if current != size {
                size = current
                progressed = now
            } else if now.timeIntervalSince(progressed) > allowed {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return .hung
            }
        }
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
            let signal = process.terminationStatus
            // Stopped by an interrupt it was sent (or got from the terminal): not the app's doing.
            if stop.isSet && [SIGINT, SIGTERM, SIGHUP].contains(signal) { return .exited(128 + signal) }
            return .crashed(signal: signal)
        }
        return .exited(process.terminationStatus)
    }

    /// The crash or hang as a finding: the walk replayed, shrunk, written;
    /// the console and the reports told.
    private func report(_ ending: Ending, walk: [String], stderr: String, scratch: URL) throws {
        let out = URL(fileURLWithPath: command.out)
        let kind: ScenarioOutcome.ErrorKind
        var what: String
        switch ending {
        case .crashed(let signal):
            kind = .crash
            what = "the app crashed: " + WorkerPool.describeExit(status: signal, signaled: true).dropFirst("crash: ".count)
                .replacingOccurrences(of: "the worker was killed", with: "the exploring process was killed")
            if let trap = Self.trapLine(stderr) { what += " — \(trap)" }
        case .hung, .exited:
            kind = .timeout
            what = "the app hung: no step finished within \(WorkerPool.seconds(command.timeout)) (--timeout)"
        }
        let property = "every input gets an outcome"
        var file: String?
        var line = 0
        var verified = false
        var steps = walk
        if !walk.isEmpty {
            let replayer = WalkReplayer(command: command, kind: kind, signalText: Self.signalText(ending), scratch: scratch)
            (steps, verified) = replayer.shrink(walk)
            let reproducer = Self.reproducer(steps, what: what, kind: kind, seed: seed, command: command, host: host,
                                             originalSteps: walk.count)
            let name = "seed\(seed)-" + (kind == .crash ? "crash" : "hang")
            var target = out.appendingPathComponent(name + ".lua")
            var number = 2
            while FileManager.default.fileExists(atPath: target.path) {
                target = out.appendingPathComponent("\(name)-\(number).lua")
                number += 1
            }
            do {
                try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
                try Data(reproducer.utf8).write(to: target)
                file = target.relativePath
                line = ExploreCommand.scenarioLine(reproducer)
            } catch {
                writeStandardError("navscript explore: cannot write the reproducer \(target.relativePath): "
                    + "\(error.localizedDescription) — give --out a folder navscript may write in\n")
            }
        }

        var text = "\nVIOLATION \(property)\n    \(what)\n"
        if steps.isEmpty {
            text += "    before the first step: no walk to replay (replay with --seed \(seed))\n"
        } else {
            text += "    " + (steps.count < walk.count ? "shrunk from \(walk.count) steps to \(steps.count)" : "\(steps.count) steps")
                + " from a fresh launch; the last one \(kind == .crash ? "crashed" : "hung"):\n"
            for (index, step) in steps.enumerated() { text += "      \(index + 1). \(step)\n" }
            if let file {
                let verb = kind == .crash ? "crash" : "hang"
                text += "    reproducer: \(file)" + (!verified ? " (not verified: replayed alone, it did not \(verb) the same way)"
                    : command.faults.isEmpty ? " (\(verb)s the app on this build)" : " (fails with the faults, passes without)") + "\n"
            }
        }
        text += "the exploration stopped here (its process went with the app)\n"
        command.report.terminal(text)

        if command.report.junit != nil || command.report.json != nil || command.report.html != nil {
            let stream = RunEventStream(try command.report.reporters())
            let result = ScenarioResult(name: property, file: file ?? "", line: line, outcome: .errored(kind),
                                        message: what, details: steps.isEmpty ? "" : "steps from a fresh launch:\n"
                                            + steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n"))
            let run = RunResult(files: [FileResult(file: "explore", scenarios: [result], duration: 0)], duration: 0, seed: seed,
                                startedAt: Date().timeIntervalSince1970)
            stream.publish(run, plan: RunPlan(command: "explore", app: host.name, files: ["explore"], seed: seed,
                                              startedAt: run.startedAt))
            _ = ReportOptions.reportFailures(stream)
        }
        throw ExitCode(1)
    }

    /// `signal 4` — what two crashes must share to be the same crash.
    static func signalText(_ ending: Ending) -> String? {
        if case .crashed(let signal) = ending { return "signal \(signal) " }
        return nil
    }

    /// The Swift runtime's own line about the trap, when it printed one.
    static func trapLine(_ stderr: String) -> String? {
        stderr.split(separator: "\n").last { $0.contains("Fatal error") || $0.contains("runtime failure") || $0.contains("Precondition failed") }
            .map { String($0.trimmingCharacters(in: .whitespaces).prefix(300)) }
    }

    /// The walk as a scenario: no assertion — the crash or hang fails it.
    static func reproducer(_ steps: [String], what: String, kind: ScenarioOutcome.ErrorKind, seed: UInt64,
                           command: ExploreCommand, host: any ScenarioHost, originalSteps: Int) -> String {
        let faults = command.faults.map { " --fault \($0)" }.joined()
        let manifest = command.manifest.map { " --manifest \($0)" } ?? ""
        var text = "-- Found by `navscript explore --seed \(seed)\(faults)\(manifest)` against \(host.name).\n"
        text += "-- Run it: `navscript run <this file>\(faults)\(manifest)`"
            + (command.faults.isEmpty ? ".\n" : " (without the faults it passes).\n")
        text += "-- Property: every input gets an outcome.\n"
        text += "-- " + (steps.count < originalSteps ? "Shrunk from \(originalSteps) steps to \(steps.count)." : "\(steps.count) steps.") + "\n"
        text += "-- \(what.replacingOccurrences(of: "\n", with: " ")), at its last step.\n\n"
        text += "scenario(\"explore seed \(seed): the app \(kind == .crash ? "crashes" : "hangs")\", function()\n"
        for step in steps { text += "  \(step)\n" }
        text += "end)\n"
        return text
    }
}

extension ExploreSupervisor.Ending {
    var exitStatus: Int32? {
        if case .exited(let status) = self { return status }
        return nil
    }
}

/// The child's standard error, last few kilobytes (where the runtime's trap line is).
private final class StandardErrorTail: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ chunk: Data) {
        lock.lock()
        data.append(chunk)
        if data.count > 16_384 { data = data.suffix(8_192) }
        lock.unlock()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Replays a walk as a scenario file in worker processes, where a crash or
/// hang costs only the replay.
private struct WalkReplayer {
    let command: ExploreCommand
    let kind: ScenarioOutcome.ErrorKind
    /// For a crash: the signal a replay must die of to count as the same crash.
    let signalText: String?
    let scratch: URL

    /// At most this many replays go into shrinking (each a process).
    static let replayLimit = 40

    /// The walk with every step it can do without (one at a time, greedily;
    /// a hang is only checked: each replay of one takes `--timeout`), and
    /// whether the result fails the same way with the faults and, when
    /// there are faults, does not without them.
    func shrink(_ walk: [String]) -> ([String], Bool) {
        guard fails(walk, faults: command.faults) else { return (walk, false) }
        var current = walk
        if kind == .crash {
            var index = 1   // the launch stays
            var replays = 0
            while index < current.count && replays < Self.replayLimit {
                var candidate = current
                candidate.remove(at: index)
                replays += 1
                if fails(candidate, faults: command.faults) { current = candidate } else { index += 1 }
            }
        }
        return (current, command.faults.isEmpty || !fails(current, faults: []))
    }

    /// Whether `steps` crash (the same signal) or hang when run as a scenario.
    func fails(_ steps: [String], faults: [String]) -> Bool {
        let file = scratch.appendingPathComponent("replay.lua")
        let body = "scenario(\"replay\", function()\n" + steps.map { "  \($0)\n" }.joined() + "end)\n"
        guard (try? Data(body.utf8).write(to: file)) != nil else { return false }
        var arguments = ["worker"]
        if let manifest = command.manifest { arguments += ["--manifest", manifest] }
        let pool = WorkerPool(.init(command: SuiteExecution.executable, arguments: arguments, jobs: 1,
                                    timeout: kind == .timeout ? command.timeout : max(command.timeout, 30)))
        let task = WorkerTask(id: 0, path: file.path, suiteRoot: scratch.path, faults: faults)
        guard let result = pool.run([task]).first?.scenarios.first, result.outcome == .errored(kind) else { return false }
        return signalText.map { result.message.contains($0) } ?? true
    }
}
