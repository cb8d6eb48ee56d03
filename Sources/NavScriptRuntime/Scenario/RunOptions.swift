import Foundation
import NavScript
import NavScriptLua

/// What to run and how, as the `run`, `list` and `mutate` commands set it.
public struct RunOptions: Sendable {
    /// A regular expression matched against each scenario's full name.
    package var filter: String?
    /// Run only scenarios with at least one of these tags.
    package var tags: [String]
    package var excludeTags: [String]
    /// Faults switched on in every launch.
    package var faults: [String]
    /// Stop after the first failure or error; the rest is reported skipped.
    package var failFast: Bool
    /// Shuffle files and scenarios with ``seed``.
    package var shuffle: Bool
    package var seed: UInt64
    package var instructionBudget: Int?
    package var memoryLimit: Int?
    /// Invariants allowed for every scenario (`--allow leaks`).
    package var allow: [String]
    /// Check the invariants after every step, not only after each scenario.
    package var strictSteps: Bool
    /// Record the navigation after every step of a scenario that fails or
    /// errors (``ScenarioResult/frames``), for the HTML storyboard.
    package var recordsFrames: Bool
    /// How many of the latest events an app's log keeps during a scenario
    /// (``NavigationCore/EventLog/retention``): a scenario of a million
    /// steps would otherwise keep every event. A check that needs an event
    /// older than that says so instead of passing or failing.
    package var eventRetention = RunOptions.defaultEventRetention
    package static let defaultEventRetention = 100_000
    /// Seconds a scenario's Lua code may run (`--timeout`): past them it is
    /// stopped at the line it runs — in process too, and in a worker before
    /// its parent would kill it, so the report names the line, not only the
    /// last call. (A hang inside the app's code is the parent's to end.) Nil: none.
    package var scenarioTimeout: Double?
    /// A stop request (a signal, in process) that ends the scenario under
    /// way at its next instruction; the scenarios after it are not run.
    package var interruption: LuaInterruption?

    public init(
        filter: String? = nil, tags: [String] = [], excludeTags: [String] = [], faults: [String] = [],
        failFast: Bool = false, shuffle: Bool = false, seed: UInt64 = 0,
        instructionBudget: Int? = 10_000_000, memoryLimit: Int? = 64 * 1024 * 1024,
        allow: [String] = [], strictSteps: Bool = false, recordsFrames: Bool = false
    ) {
        self.filter = filter
        self.tags = tags
        self.excludeTags = excludeTags
        self.faults = faults
        self.failFast = failFast
        self.shuffle = shuffle
        self.seed = seed
        self.instructionBudget = instructionBudget
        self.memoryLimit = memoryLimit
        self.allow = allow
        self.strictSteps = strictSteps
        self.recordsFrames = recordsFrames
    }

    /// Whether a scenario with this name and these tags is selected.
    package func selects(name: String, tags scenarioTags: [String], filter: NamePattern?) -> Bool {
        if let filter, !filter.matches(name) { return false }
        if !tags.isEmpty && !tags.contains(where: scenarioTags.contains) { return false }
        if excludeTags.contains(where: scenarioTags.contains) { return false }
        return true
    }
}
