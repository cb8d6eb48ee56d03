import ArgumentParser
import Foundation
import NavScript
import NavScriptRunner
import NavScriptRuntime

/// `navscript mutate --explore`: the kill matrix from exploration alone.
/// Each fault is explored in a child `navscript explore` process — a fault
/// that traps or hangs the app costs only its own row — and the row says
/// how long the first violation took and how short its reproducer is.
struct ExploreMatrix {
    let faults: [HostFault]
    let seconds: Double
    let seed: UInt64
    /// Seconds before a child that hangs is killed.
    let timeout: Double

    struct Row {
        var fault: String
        var property: String?
        var timeToKill: String?
        var reproducerSteps: Int?
        var note: String
        var isKilled: Bool { property != nil }
    }

    func run(markdown: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navscript-mutate-explore-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        // An interrupt stops the exploration under way (passed on to it) and the matrix there.
        let stop = StopSignal()
        stop.catchSignals()
        var rows: [Row] = []
        for fault in faults {
            rows.append(explore(fault.name, out: folder.appendingPathComponent(fault.name), stop: stop))
            if let status = stop.exitStatus {
                writeStandardError(
                    "\(NavScriptCLI.executableName) mutate: \(stop.reason): the exploration matrix stopped while exploring fault "
                        + "\(rows.count) of \(faults.count) (\(fault.name))\n")
                throw ExitCode(status)
            }
        }
        let killed = rows.filter(\.isKilled).count
        if markdown {
            print("| fault | found as | time to kill | reproducer steps |")
            print("|---|---|---:|---:|")
            for row in rows {
                print(
                    "| `\(row.fault)` | \(row.property ?? "— " + row.note) | \(row.timeToKill ?? "–") | \(row.reproducerSteps.map(String.init) ?? "–") |"
                )
            }
            print("\nExploration score: \(killed)/\(rows.count) faults killed (seed \(seed), \(Int(seconds))s each).")
        } else {
            let width = (rows.map(\.fault.count).max() ?? 0) + 2
            for row in rows {
                let name = row.fault.padding(toLength: width, withPad: " ", startingAt: 0)
                if let property = row.property {
                    let how = [row.timeToKill.map { "in \($0)" }, row.reproducerSteps.map { "\($0)-step reproducer" }]
                        .compactMap { $0 }.joined(separator: ", ")
                    print("\(name) killed    " + (how.isEmpty ? "" : how + ": ") + property)
                } else {
                    print("\(name) SURVIVED  \(row.note)")
                }
            }
            print("\nexploration score: \(killed)/\(rows.count) faults killed (seed \(seed), \(Int(seconds))s each)")
        }
        throw ExitCode(killed == rows.count ? 0 : 1)
    }

    /// Runs `explore --fault NAME` in a child and reads its report.
    private func explore(_ fault: String, out: URL, stop: StopSignal) -> Row {
        let process = ChildProcesses.navscript(
            [
                "explore", "--fault", fault, "--seed", String(seed), "--time", String(seconds),
                "--out", out.path, "--timeout", String(min(10, timeout))
            ],
            environment: ["NO_COLOR": "1"])
        let output: ChildProcesses.Capture
        do { output = try ChildProcesses.Capture(process, name: "explore-\(fault)") } catch {
            return Row(fault: fault, note: "cannot capture output")
        }
        do { try process.run() } catch { return Row(fault: fault, note: "cannot start explore: \(error)") }
        let deadline = Date().addingTimeInterval(timeout)
        let ending = ChildProcesses.watch([process], stop: stop) { _ in Date() >= deadline }[0]
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
        let text = output.text
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VIOLATION ") }) else {
            return Row(fault: fault, note: "no violation in \(Int(seconds))s")
        }
        // "VIOLATION <property> (after 1.2s)"
        let body = line.dropFirst("VIOLATION ".count)
        var property = body.range(of: " (after ").map { String(body[..<$0.lowerBound]) } ?? String(body)
        let time = body.range(of: " (after ").map { String(body[$0.upperBound...].dropLast()) }
        // A crash or hang the child's supervisor caught: "    the app crashed: …" / "    the app hung: …" next.
        if text.contains("\n    the app crashed: ") { property = "a crash (\(property))" }
        if text.contains("\n    the app hung: ") { property = "a hang (\(property))" }
        // "shrunk from 9 steps to 3; the reproducer's timeline:", "shrunk from 5 steps to 3 from a fresh launch",
        // "3 steps from a fresh launch"
        let lines = text.split(separator: "\n")
        let steps =
            lines.first { $0.contains("shrunk from") }.flatMap { $0.firstMatch(of: /\ to ([0-9]+)[; ]/).flatMap { Int($0.1) } }
            ?? lines.first { $0.contains(" steps from a fresh launch") }.flatMap {
                $0.firstMatch(of: /([0-9]+) steps from/).flatMap { Int($0.1) }
            }
        return Row(fault: fault, property: property, timeToKill: time, reproducerSteps: steps, note: "")
    }
}
