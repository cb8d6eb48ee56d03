import Foundation
import NavScript
import NavScriptRuntime

/// `explore --jobs N`: N explorations, each a supervised child with its own
/// seed (seed, seed+1, …), run at once; their consoles are printed in seed
/// order, then one total read from their records. A child that crashes or
/// hangs costs only its own walks.
struct ExplorationJobs {
    let request: ExplorationRequest
    let streams: OutputStreams

    /// What the explorations did together.
    private struct Totals {
        var steps = 0
        var violations = 0
        /// Explorations that did not end by themselves (crashed, interrupted, hung).
        var unfinished = 0

        mutating func add(_ records: [ExplorationRecord]) {
            var finished = false
            for record in records {
                switch record {
                case .finding: violations += 1
                case .finished(let totals):
                    steps += totals.steps
                    finished = true
                }
            }
            if !finished { unfinished += 1 }
        }

        func line(explorations: Int, seeds first: UInt64, _ last: UInt64, out: String) -> String {
            "\(explorations) explorations (seeds \(first)–\(last)): \(steps) steps"
                + (unfinished > 0 ? " (\(unfinished) ended before their summary)" : "")
                + ", "
                + (violations == 0
                    ? "no property violated" : "\(violations) violation\(violations == 1 ? "" : "s") found, reproducers in \(out)/")
                + "\n"
        }
    }

    func run() -> Int32 {
        // An interrupt is passed on to every exploration, which stops with its summary; they
        // must not outlive this process.
        let stop = StopSignal()
        stop.catchSignals()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "navscript-explore-jobs-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var children: [(process: Process, output: ChildProcesses.Capture, records: String)] = []
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for job in 0..<request.jobs {
                var child = request
                child.jobs = 1
                child.records = folder.appendingPathComponent("job-\(job).jsonl").path
                let process = ChildProcesses.navscript(child.childArguments(seed: request.seed &+ UInt64(job)))
                let output = try ChildProcesses.Capture(process, name: "explore-\(job)")
                try process.run()
                children.append((process, output, child.records!))
            }
        } catch {
            streams.error("\(streams.executableName) explore: cannot start the explorations: \(error)\n")
            for child in children { child.process.terminate() }
            return 2
        }
        let endings = ChildProcesses.watch(children.map(\.process), stop: stop)
        var found = false
        var failed: Int32?  // a child's own usage or write error (exit 2)
        var total = Totals()
        for (child, ending) in zip(children, endings) {
            streams.output(child.output.text)
            total.add(ExplorationRecord.read(child.records))
            switch ending {
            case .signaled(let signal) where !stop.isSet:
                streams.output("VIOLATION every input gets an outcome: an exploration crashed (signal \(signal))\n")
                total.violations += 1
                found = true
            case .exited(1):
                found = true
            case .exited(let status) where status != 0 && !stop.isSet:
                failed = failed ?? status
            case .unresponsive:
                streams.output("(this exploration did not stop within its grace after the interrupt and was killed)\n")
            default:
                break
            }
            streams.output("\n")
        }
        streams.output(
            total.line(explorations: request.jobs, seeds: request.seed, request.seed &+ UInt64(request.jobs - 1), out: request.out))
        return stop.exitStatus ?? failed ?? (found ? 1 : 0)
    }
}
