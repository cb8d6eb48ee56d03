import Foundation
import NavScript
import NavScriptRuntime

/// Replays a walk that crashed or hung the app as a scenario file in worker
/// processes, where a crash or a hang costs only the replay: to check it
/// does the same again, and to shrink it.
struct WalkReplayer {
    let request: ExplorationRequest
    /// How the walk ended: a replay must crash of the same signal, or hang, to count.
    let fatal: ExplorationFatal
    let scratch: URL
    /// An interrupt ends the replays where they are.
    let stop: StopSignal

    /// At most this many replays go into shrinking (each a process).
    static let replayLimit = 40

    /// The walk with every step it can do without (``WalkShrinker``; a hang
    /// is only checked: each replay of one takes `--timeout`), and
    /// whether the result fails the same way with the faults and, when
    /// there are faults, does not without them.
    func shrink(_ walk: [String]) -> ([String], Bool) {
        guard fails(walk, faults: request.faults) else { return (walk, false) }
        var current = walk
        if fatal != .hang {
            // The launch stays; each replay is a process, so they are counted.
            let shrinker = WalkShrinker<String>(fixedPrefix: 1, attempts: Self.replayLimit, shouldStop: { stop.isSet })
            current = shrinker.shrink(walk) { fails($0, faults: request.faults) }
        }
        return (current, request.faults.isEmpty || !fails(current, faults: []))
    }

    /// Whether `steps` crash (of the same signal) or hang when run as a scenario.
    func fails(_ steps: [String], faults: [String]) -> Bool {
        guard !stop.isSet else { return false }
        let file = scratch.appendingPathComponent("replay.lua")
        let body = "scenario(\"replay\", function()\n" + steps.map { "  \($0)\n" }.joined() + "end)\n"
        guard (try? Data(body.utf8).write(to: file)) != nil else { return false }
        var arguments = ["worker"]
        if let manifest = request.manifest { arguments += ["--manifest", manifest] }
        let pool = WorkerPool(
            .init(
                command: ChildProcesses.executable, arguments: arguments, jobs: 1,
                timeout: fatal == .hang ? request.timeout : max(request.timeout, 30)))
        pool.shouldStop = { stop.isSet }
        let task = WorkerTask(id: 0, path: file.path, suiteRoot: scratch.path, faults: faults)
        guard let result = pool.run([task]).first?.scenarios.first else { return false }
        switch fatal {
        case .hang: return result.outcome == .errored(.timeout)
        case .crash(let signal): return result.outcome == .errored(.crash) && result.signal == signal
        }
    }
}
