import Foundation
import NavScript
import NavScriptRuntime

/// `explore` as a library: the command line parses its options into an
/// ``ExplorationRequest`` and hands it here. One exploration runs in a
/// child process under an ``ExplorationSupervisor`` (an app that crashes or
/// hangs must become a finding, not take the exploration down); the child
/// itself runs the walks (``runWalks(stop:)``); `--jobs N` runs N
/// supervised explorations side by side (``ExplorationJobs``).
package struct ExploreFrontend {
    package let request: ExplorationRequest
    package let host: any ScenarioHost
    package let streams: OutputStreams

    package init(request: ExplorationRequest, host: any ScenarioHost, streams: OutputStreams) {
        self.request = request
        self.host = host
        self.streams = streams
    }

    /// Explores as asked; returns the exit status: 0 no violation, 1
    /// violations found, 2 a reproducer or report not written, a signal's
    /// status when interrupted.
    package func run(stop: StopSignal) throws(UsageProblem) -> Int32 {
        if request.jobs > 1 { return ExplorationJobs(request: request, streams: streams).run() }
        guard let trace = request.trace else {
            return try ExplorationSupervisor(request: request, host: host, streams: streams).run()
        }
        return try runWalks(trace: trace, stop: stop)
    }

    /// The walks themselves, in the supervised child: each finding is
    /// written as a reproducer, reported, and kept in the records file as
    /// it is made — if the app takes this process down later, the
    /// supervisor's reports still list it.
    private func runWalks(trace: String, stop: StopSignal) throws(UsageProblem) -> Int32 {
        guard let recorder = ExplorationTrace(path: trace) else { throw UsageProblem("cannot write the trace file \(trace)") }
        ExplorationSupervisor.exitWhenTheSupervisorDies()
        let seed = request.seed
        let explorer = Explorer(
            host: host,
            configuration: request.configuration(seed: seed, host: host, executable: streams.executableName, trace: recorder, stop: stop))
        let reports = request.reports
        let terminal = reports.terminal(streams)
        terminal(
            "exploring \(host.name), seed \(seed)"
                + (request.faults.isEmpty ? "" : ", faults: " + request.faults.joined(separator: ", "))
                + " (replay with --seed \(seed))\n")
        let folder = URL(fileURLWithPath: request.out)
        var cases: [ScenarioResult] = []
        let started = Date()
        let stream = RunEventStream(try reports.reporters())
        stream.publish(
            .runStarted(
                RunPlan(
                    command: "explore", app: host.name, files: ["explore"], seed: seed,
                    startedAt: started.timeIntervalSince1970)))
        stream.publish(.fileStarted(file: "explore"))
        var unwritten: [String] = []
        let explored = explorer.run { finding in
            let file = Self.unusedFile(in: folder, named: "seed\(seed)-\(cases.count + 1)")
            var written = true
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(finding.reproducer.utf8).write(to: file)
            } catch {
                written = false
                unwritten.append(
                    "cannot write the reproducer \(file.relativePath): \(error.localizedDescription) — "
                        + "give --out a folder navscript may write in")
            }
            var found = ScenarioResult(
                name: finding.property, file: file.relativePath, line: Self.scenarioLine(finding.reproducer),
                outcome: .failed(.expectation),
                message: finding.message, timeline: Timeline(finding.timeline), duration: finding.timeToFind)
            if written, reports.recordsFrames, let replayed = Self.replay(file, host: host, faults: request.faults) {
                // The storyboard of the shrunk reproducer, failing where the property did.
                found.details = replayed.details
                found.timeline = replayed.timeline
                found.frames = replayed.frames
            }
            cases.append(found)
            stream.publish(.scenarioFinished(found))
            if let records = request.records {
                ExplorationRecord.append(
                    .finding(.init(result: found, reproducerSteps: written ? finding.steps.count : nil, verified: finding.verified)),
                    to: records)
            }
            terminal(ExplorationConsole.finding(finding, file: written ? file.relativePath : nil, withFaults: !request.faults.isEmpty))
        }
        if let records = request.records {
            ExplorationRecord.append(
                .finished(.init(walks: explored.walks, steps: explored.steps, seconds: explored.seconds)), to: records)
        }
        terminal(ExplorationConsole.summary(explored, host: host))
        let interruption = stop.interruptingSignal == nil ? nil : stop.reason
        if let interruption { terminal("\(interruption): the exploration stopped early\n") }
        // An exploration that took no step checked nothing (a --time too short to launch the app once):
        // "no property violated" would be a green report of it.
        let checkedNothing = cases.isEmpty && interruption == nil && explored.steps == 0
        if cases.isEmpty {
            // Cut short, "no property violated" would be a green report of an exploration that did not finish.
            cases = [
                interruption.map {
                    ScenarioResult(
                        name: "exploration interrupted", file: "explore", line: 0, outcome: .errored(.interrupted),
                        message: "\($0) after \(explored.steps) steps: the exploration did not finish",
                        duration: explored.seconds)
                }
                    ?? (checkedNothing
                        ? ScenarioResult(
                            name: "nothing explored", file: "explore", line: 0, outcome: .errored(.loadError),
                            message:
                                "no step was taken in \(WorkerPool.seconds((explored.seconds * 1000).rounded() / 1000)): "
                                + "give --time enough for a walk (a second or more) or --steps", duration: explored.seconds)
                        : ScenarioResult(
                            name: "no property violated", file: "explore", line: 0, outcome: .passed, duration: explored.seconds))
            ]
            stream.publish(.scenarioFinished(cases[0]))
        }
        let file = FileResult(file: "explore", scenarios: cases, duration: explored.seconds)
        stream.publish(.fileFinished(file))
        stream.publish(
            .runFinished(
                RunResult(
                    files: [file], duration: explored.seconds, seed: seed,
                    startedAt: started.timeIntervalSince1970), interruption: interruption))
        let failed = ReportTargets.reportFailures(stream, to: streams)
        for problem in unwritten { streams.error("\(streams.executableName) explore: \(problem)\n") }
        if let status = stop.exitStatus { return status }
        return failed || !unwritten.isEmpty || checkedNothing ? 2 : explored.findings.isEmpty ? 0 : 1
    }

    /// `<name>.lua` in `folder`, or `<name>-2.lua`, `-3`… when taken: a reproducer an
    /// earlier exploration wrote there (another fault, the same seed) is never replaced.
    package static func unusedFile(in folder: URL, named name: String) -> URL {
        var file = folder.appendingPathComponent(name + ".lua")
        var number = 2
        while FileManager.default.fileExists(atPath: file.path) {
            file = folder.appendingPathComponent("\(name)-\(number).lua")
            number += 1
        }
        return file
    }

    /// The line of a reproducer's `scenario(` (reports point at it, not at the header comment).
    package static func scenarioLine(_ reproducer: String) -> Int {
        let lines = reproducer.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.firstIndex { $0.hasPrefix("scenario(") } ?? 0) + 1
    }

    /// Runs a written reproducer in this process with frames recorded (for
    /// the HTML storyboard); nil when it did not fail as expected.
    static func replay(_ file: URL, host: any ScenarioHost, faults: [String]) -> ScenarioResult? {
        guard let entry = try? ScenarioDiscovery().discover([file.relativePath]).first else { return nil }
        let options = RunOptions(faults: faults, recordsFrames: true)
        let result = ScenarioRunner(host: host, options: options).runFile(entry, filter: nil).scenarios.first
        return result?.status == .failed ? result : nil
    }
}
