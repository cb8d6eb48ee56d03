import NavScript
import NavScriptRuntime

/// What happens during a run, in the order it happens: the one stream every
/// reporter (console, JUnit, HTML, JSON lines) is fed from, whether the
/// scenarios ran in this process or in workers (the pool republishes what
/// its workers report). With several workers, the events of different
/// files interleave; each event names its file.
public enum RunEvent: Sendable {
    /// Before anything runs: what will run, in run order.
    case runStarted(RunPlan)
    /// A file began loading.
    case fileStarted(file: String)
    /// A file loaded: these scenarios (selected by the run's filters) will
    /// run, in this order — the count a consumer shows progress against.
    case fileLoaded(file: String, scenarios: [ScenarioListing])
    /// A scenario began (after its file loaded).
    case scenarioStarted(ScenarioListing)
    /// A step of a running scenario (numbered from 1 in its timeline).
    case step(file: String, scenario: String, number: Int, step: TimelineStep)
    /// What a running scenario printed, as it printed it.
    case output(file: String, scenario: String, text: String)
    /// A scenario's result: it ran, crashed, timed out, or was not run.
    case scenarioFinished(ScenarioResult)
    /// A file is done; its result lists every scenario, in declaration order.
    case fileFinished(FileResult)
    /// The run is over. `interruption` says why it stopped early (a
    /// signal), nil when it ran to the end.
    case runFinished(RunResult, interruption: String?)
}

/// What a run is about to do.
public struct RunPlan: Hashable, Sendable, Codable {
    /// What the run is: `run`, `mutate`, `explore`.
    package var command: String
    /// The app under test (the host's name).
    package var app: String
    /// Scenario files (or, for mutate and explore, the report's groups) in run order.
    package var files: [String]
    /// The seed that ordered the run, when one did.
    package var seed: UInt64?
    /// Seconds since 1970 (UTC).
    package var startedAt: Double

    package init(command: String, app: String, files: [String], seed: UInt64? = nil, startedAt: Double) {
        self.command = command
        self.app = app
        self.files = files
        self.seed = seed
        self.startedAt = startedAt
    }
}

/// The JSON-lines form (`--json`): one object per event, its kind under
/// `event`, keys in snake_case. docs/json-events.md is the schema, event
/// by event, with an example of each.
///
/// `run_started` carries `schema` (``schemaVersion``) so a consumer can
/// refuse lines it would misread: keys are only ever added under one
/// version; a key renamed, removed or given another meaning raises it.
extension RunEvent: Encodable {
    /// The version of this encoding, in every `run_started` line.
    package static let schemaVersion = 2

    private enum Key: String, CodingKey {
        case event, schema, command, app, files, seed, startedAt = "started_at", file, name, line, tags, scenario, number, text
        case passed, failed, errors, skipped, duration, success, interrupted, scenarios, place, action, verb, screen, tab, scene
    }

    package var kind: String {
        switch self {
        case .runStarted: return "run_started"
        case .fileStarted: return "file_started"
        case .fileLoaded: return "file_loaded"
        case .scenarioStarted: return "scenario_started"
        case .step: return "step"
        case .output: return "output"
        case .scenarioFinished: return "scenario_finished"
        case .fileFinished: return "file_finished"
        case .runFinished: return "run_finished"
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(kind, forKey: .event)
        switch self {
        case .runStarted(let plan):
            try container.encode(Self.schemaVersion, forKey: .schema)
            try container.encode(plan.command, forKey: .command)
            try container.encode(plan.app, forKey: .app)
            try container.encode(plan.files, forKey: .files)
            try container.encodeIfPresent(plan.seed, forKey: .seed)
            try container.encode(plan.startedAt, forKey: .startedAt)
        case .fileStarted(let file):
            try container.encode(file, forKey: .file)
        case .fileLoaded(let file, let scenarios):
            try container.encode(file, forKey: .file)
            try container.encode(scenarios, forKey: .scenarios)
        case .scenarioStarted(let listing):
            try container.encode(listing.file, forKey: .file)
            try container.encode(listing.name, forKey: .name)
            try container.encode(listing.line, forKey: .line)
            try container.encode(listing.tags, forKey: .tags)
        case .step(let file, let scenario, let number, let step):
            try container.encode(file, forKey: .file)
            try container.encode(scenario, forKey: .name)
            try container.encode(number, forKey: .number)
            if let place = step.place {
                var nested = container.nestedContainer(keyedBy: Key.self, forKey: .place)
                try nested.encode(place.file, forKey: .file)
                try nested.encode(place.line, forKey: .line)
            }
            try container.encode(step.verb, forKey: .verb)
            try container.encode(step.action, forKey: .action)
            try container.encodeIfPresent(step.screen, forKey: .screen)
            try container.encodeIfPresent(step.tab, forKey: .tab)
            try container.encodeIfPresent(step.scene, forKey: .scene)
            try container.encode(step.line, forKey: .text)
        case .output(let file, let scenario, let text):
            try container.encode(file, forKey: .file)
            try container.encode(scenario, forKey: .name)
            try container.encode(text, forKey: .text)
        case .scenarioFinished(let result):
            try container.encode(result.file, forKey: .file)
            try container.encode(result, forKey: .scenario)
        case .fileFinished(let result):
            try container.encode(result.file, forKey: .file)
            try Self.encodeCounts(
                passed: result.count(.passed), failed: result.count(.failed),
                errors: result.count(.errored), skipped: result.count(.skipped), into: &container)
            try container.encode(result.duration, forKey: .duration)
        case .runFinished(let result, let interruption):
            try Self.encodeCounts(
                passed: result.count(.passed), failed: result.count(.failed),
                errors: result.count(.errored), skipped: result.count(.skipped), into: &container)
            try container.encode(result.duration, forKey: .duration)
            try container.encode(result.isSuccess && interruption == nil, forKey: .success)
            try container.encode(interruption, forKey: .interrupted)
        }
    }

    private static func encodeCounts(
        passed: Int, failed: Int, errors: Int, skipped: Int,
        into container: inout KeyedEncodingContainer<Key>
    ) throws {
        try container.encode(passed, forKey: .passed)
        try container.encode(failed, forKey: .failed)
        try container.encode(errors, forKey: .errors)
        try container.encode(skipped, forKey: .skipped)
    }
}
