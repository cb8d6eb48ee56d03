import Foundation
import NavScript
import NavScriptRuntime
import NavigationCore

/// One exploration walk in progress: a sandboxed Lua state with the whole
/// scenario language (the host's verbs included) and one scenario world,
/// into which the explorer feeds one line of Lua per step — exactly the
/// lines a reproducer will contain, so what the explorer did and what the
/// reproducer replays cannot differ.
final class ExplorationWalk {
    /// The name every step's chunk is loaded under.
    static let chunkName = "explore.lua"

    let file: ScenarioFile
    let world: ScenarioWorld
    /// Lines run so far, in order.
    private(set) var lines: [String] = []
    private var failuresSeen = 0

    /// What one step did.
    struct Step {
        /// New failures recorded during the step (refusals, violated invariants).
        var failures: [ExpectationFailure]
        /// A Lua error the step raised (an action the app cannot take here
        /// raises one, e.g. a bad argument).
        var error: String?
    }

    /// - Parameter language: the prepared language, shared by every walk of
    ///   an exploration (preparing it per walk was a twentieth of the time).
    init(host: any ScenarioHost, language: ScenarioLanguage, faults: [String], options: RunOptions) throws(ScenarioLoadError) {
        let url = URL(fileURLWithPath: Self.chunkName)
        let entry = SuiteFile(
            path: Self.chunkName, url: url,
            suiteRoot: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        var options = options
        options.strictSteps = true
        file = try ScenarioFile(entry: entry, language: language, options: options, source: [])
        world = ScenarioWorld(host: host, faults: faults, strictSteps: true)
        file.context.world = world
    }

    var app: (any AppDriver)? { world.app }

    /// Runs one line of Lua as a step of the walk.
    @discardableResult
    func run(_ line: String) -> Step {
        lines.append(line)
        file.state.resetLimits()
        var raised: String?
        do {
            let chunk = try file.state.load(bytes: Array(line.utf8), chunkName: Self.chunkName)
            _ = try file.state.call(chunk)
        } catch {
            let problem = ScenarioProblem(error, phase: "scenario", recorded: world.raisedFailure, launchFailure: world.launchFailure)
            if problem.outcome.status == .errored { raised = problem.message }
        }
        let fresh = Array(world.failures.dropFirst(failuresSeen))
        failuresSeen = world.failures.count
        return Step(failures: fresh, error: raised)
    }

    /// Ends the walk: the world is detached so the file can be dropped.
    func close() {
        file.context.world = nil
    }
}
