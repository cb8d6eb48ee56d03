import Foundation
import NavScript
import NavScriptRuntime

/// `navscript mutate --explore`: the kill matrix from exploration alone.
/// Each fault is explored in a child `navscript explore` process — a fault
/// that traps or hangs the app costs only its own row — and the row says
/// how long the first violation took and how short its reproducer is,
/// read from the child's ``ExplorationRecord``s.
package struct ExplorationMatrix {
    let faults: [HostFault]
    let seconds: Double
    let seed: UInt64
    /// Seconds before a child that hangs is killed.
    let timeout: Double
    let streams: OutputStreams

    package init(faults: [HostFault], seconds: Double, seed: UInt64, timeout: Double, streams: OutputStreams) {
        self.faults = faults
        self.seconds = seconds
        self.seed = seed
        self.timeout = timeout
        self.streams = streams
    }

    struct Row {
        var fault: String
        var property: String?
        var timeToKill: String?
        var reproducerSteps: Int?
        var note: String
        var isKilled: Bool { property != nil }
    }

    /// Explores every fault; returns the exit status: 0 when every fault was
    /// found, 1 when one survived, a signal's status when interrupted.
    package func run(markdown: Bool) -> Int32 {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navscript-mutate-explore-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        // An interrupt stops the exploration under way (passed on to it) and the matrix there.
        let stop = StopSignal()
        stop.catchSignals()
        let line = { (text: String) in streams.output(text + "\n") }
        let width = (faults.map(\.name.count).max() ?? 0) + 2
        if markdown {
            line("| fault | found as | time to kill | reproducer steps |")
            line("|---|---|---:|---:|")
        }
        // Each row as soon as its fault is decided: a long matrix shows its progress, and an
        // interrupted one keeps what it had decided.
        var rows: [Row] = []
        for fault in faults {
            let row = explore(fault.name, out: folder.appendingPathComponent(fault.name), stop: stop)
            if let status = stop.exitStatus {
                streams.error(
                    "\(streams.executableName) mutate: \(stop.reason): the exploration matrix stopped while exploring fault "
                        + "\(rows.count + 1) of \(faults.count) (\(fault.name))\n")
                return status
            }
            rows.append(row)
            line(markdown ? Self.markdownLine(row) : Self.textLine(row, width: width))
        }
        let killed = rows.filter(\.isKilled).count
        if markdown {
            line("\nExploration score: \(killed)/\(rows.count) faults killed (seed \(seed), up to \(Int(seconds))s each).")
        } else {
            line("\nexploration score: \(killed)/\(rows.count) faults killed (seed \(seed), up to \(Int(seconds))s each)")
        }
        return killed == rows.count ? 0 : 1
    }

    /// `| `fault` | property | time | steps |`.
    static func markdownLine(_ row: Row) -> String {
        "| `\(row.fault)` | \(row.property ?? "— " + row.note) | \(row.timeToKill ?? "–") | \(row.reproducerSteps.map(String.init) ?? "–") |"
    }

    /// `fault   killed    in 0.1s, 2-step reproducer: property`, or `SURVIVED`.
    static func textLine(_ row: Row, width: Int) -> String {
        let name = row.fault.padding(toLength: width, withPad: " ", startingAt: 0)
        guard let property = row.property else { return "\(name) SURVIVED  \(row.note)" }
        let how = [row.timeToKill.map { "in \($0)" }, row.reproducerSteps.map { "\($0)-step reproducer" }]
            .compactMap { $0 }.joined(separator: ", ")
        return "\(name) killed    " + (how.isEmpty ? "" : how + ": ") + property
    }

    /// The finding that kills the fault: the first one verified. A finding
    /// that fails on the healthy build too is the app's own bug and kills
    /// no fault (a record from before `verified` was kept counts).
    static func kill(among found: [ExplorationRecord.Found]) -> ExplorationRecord.Found? {
        found.first { $0.verified != false }
    }

    /// Runs `explore --fault NAME` in a child and reads its records.
    private func explore(_ fault: String, out: URL, stop: StopSignal) -> Row {
        var request = ExplorationRequest(seed: seed)
        request.faults = [fault]
        request.time = seconds
        // A row needs the first verified finding only: exploring the rest of the time bought nothing.
        request.stopAtFirst = true
        request.out = out.path
        request.timeout = min(10, timeout)
        request.records = out.path + ".records.jsonl"
        let process = ChildProcesses.navscript(request.childArguments(seed: seed), environment: ["NO_COLOR": "1"])
        let output: ChildProcesses.Capture
        do { output = try ChildProcesses.Capture(process, name: "explore-\(fault)") } catch {
            return Row(fault: fault, note: "cannot capture output")
        }
        do {
            try FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
            try process.run()
        } catch { return Row(fault: fault, note: "cannot start explore: \(error)") }
        let deadline = Date().addingTimeInterval(timeout)
        let ending = ChildProcesses.watch([process], stop: stop) { _ in Date() >= deadline }[0]
        _ = output  // the child's console is not read: its records say what it found
        switch ending {
        case .hung:
            return Row(
                fault: fault, property: "a hang (every input gets an outcome)", timeToKill: "≤\(Int(timeout))s",
                reproducerSteps: nil, note: "")
        case .signaled:
            return Row(fault: fault, property: "a crash (every input gets an outcome)", timeToKill: nil, reproducerSteps: nil, note: "")
        case .exited, .unresponsive:
            break
        }
        let found = ExplorationRecord.read(request.records!).compactMap { record -> ExplorationRecord.Found? in
            if case .finding(let found) = record { return found }
            return nil
        }
        guard let first = Self.kill(among: found) else {
            let unverified = found.first.map { " (only \"\($0.result.name)\", which fails without the fault too)" } ?? ""
            return Row(fault: fault, note: "no violation in \(Int(seconds))s" + unverified)
        }
        var property = first.result.name
        switch first.fatal {
        case .crash: property = "a crash (\(property))"
        case .hang: property = "a hang (\(property))"
        case nil: break
        }
        return Row(
            fault: fault, property: property, timeToKill: String(format: "%.1fs", first.result.duration),
            reproducerSteps: first.reproducerSteps, note: "")
    }
}
