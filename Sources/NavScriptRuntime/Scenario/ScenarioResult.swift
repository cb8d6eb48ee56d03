import NavScript

/// The outcome of one scenario — what every reporter renders and what
/// worker processes stream back. Plain data, so it can be encoded.
public struct ScenarioResult: Hashable, Sendable, Codable {
    public enum Status: String, Hashable, Sendable, Codable {
        case passed
        /// An expectation did not hold (`expect_*`, `assert`).
        case failed
        /// A Lua runtime error, a budget, a crash, or a file that did not load.
        case errored
        /// `pending`, or not run (interrupted, fail-fast).
        case skipped

        /// Failed or errored: what fails a run, kills a fault and gets a storyboard.
        package var isProblem: Bool { self == .failed || self == .errored }
    }

    /// The describe chain and the scenario name, space separated; unique in its file.
    package var name: String
    /// The describe chain alone (empty at top level).
    package var groups: [String]
    /// Path of the scenario file relative to the working directory.
    package var file: String
    package var line: Int
    package var tags: [String]
    package var outcome: ScenarioOutcome
    /// The coarse status (``ScenarioOutcome/status``).
    public var status: Status { outcome.status }
    /// One line: what went wrong. For a passed scenario, empty — or a
    /// warning that it could not have failed (``checkedNothing``).
    public var message: String
    /// The full explanation: expected vs actual, diffs, traceback.
    package var details: String
    /// The stable string form of the outcome's kind (``ScenarioOutcome/kind``).
    package var kind: String { outcome.kind }
    /// Step timeline, one line per driving step, oldest first: of a long
    /// scenario, the first and last few hundred lines and how many between.
    package var timeline: Timeline
    /// The navigation after every step, for a storyboard: recorded only
    /// when asked (``RunOptions/recordsFrames``) and only for a scenario
    /// that failed or errored.
    package var frames: [StepFrame]
    /// What the scenario printed.
    package var output: String
    /// Seconds of wall time.
    package var duration: Double
    /// For a crash: the signal that ended the process running the scenario
    /// (its message names it for people). Known only to the process that
    /// saw the crash; not encoded.
    package var signal: Int32?

    package init(
        name: String, groups: [String] = [], file: String, line: Int, tags: [String] = [],
        outcome: ScenarioOutcome, message: String = "", details: String = "",
        timeline: Timeline = [], frames: [StepFrame] = [], output: String = "", duration: Double = 0
    ) {
        self.name = name
        self.groups = groups
        self.file = file
        self.line = line
        self.tags = tags
        self.outcome = outcome
        self.message = message
        self.details = details
        self.timeline = timeline
        self.frames = frames
        self.output = output
        self.duration = duration
    }
}

extension ScenarioResult {
    /// The warning a passed scenario carries when it launched no app, took
    /// no step and called no expectation or `assert`: it passes whatever the
    /// app does (an empty body, a body that returned early), and a green run
    /// must not count it as a test without saying so.
    package static let checkedNothing =
        "checked nothing: it launched no app, took no step and called no expectation or assert, so it passes "
        + "whatever the app does — give it steps and expectations, or declare it with pending(name) until it has them"

    /// The same, for a scenario that drove the app with every invariant
    /// allowed and called no expectation or `assert`: nothing looked.
    package static let checkedNothingAllowed =
        "checked nothing: every invariant is allowed and it called no expectation or assert, so it passes whatever the "
        + "app does — add expectations, or allow only the invariants it must"

    /// A passed scenario that carries a warning (``checkedNothing``, ``checkedNothingAllowed``).
    package var passedWithWarning: Bool { status == .passed && !message.isEmpty }
}

extension ScenarioResult {
    private enum CodingKeys: String, CodingKey {
        case name, groups, file, line, tags, status, kind, message, details, timeline, timelineSteps, frames, output, duration
        case warning
    }

    /// Encoded with the outcome's two stable string forms, `status` and `kind`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(groups, forKey: .groups)
        try container.encode(file, forKey: .file)
        try container.encode(line, forKey: .line)
        try container.encode(tags, forKey: .tags)
        try container.encode(status, forKey: .status)
        try container.encode(kind, forKey: .kind)
        try container.encode(message, forKey: .message)
        // A passed scenario's message is a warning (it checked nothing): said by a key a tool can read,
        // not only by the English of the message.
        if passedWithWarning { try container.encode(true, forKey: .warning) }
        try container.encode(details, forKey: .details)
        try container.encode(timeline.kept, forKey: .timeline)
        // Only for a timeline that left steps out, so every other result reads as before.
        if timeline.omitted > 0 { try container.encode(timeline.count, forKey: .timelineSteps) }
        if !frames.isEmpty { try container.encode(frames, forKey: .frames) }
        try container.encode(output, forKey: .output)
        try container.encode(duration, forKey: .duration)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let status = try container.decode(Status.self, forKey: .status)
        let kind = try container.decode(String.self, forKey: .kind)
        guard let outcome = ScenarioOutcome(status: status, kind: kind) else {
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container,
                debugDescription: "no outcome is \(status) with kind '\(kind)'")
        }
        self.init(
            name: try container.decode(String.self, forKey: .name),
            groups: try container.decode([String].self, forKey: .groups),
            file: try container.decode(String.self, forKey: .file),
            line: try container.decode(Int.self, forKey: .line),
            tags: try container.decode([String].self, forKey: .tags),
            outcome: outcome,
            message: try container.decode(String.self, forKey: .message),
            details: try container.decode(String.self, forKey: .details),
            timeline: Self.timeline(
                kept: try container.decode([String].self, forKey: .timeline),
                steps: try container.decodeIfPresent(Int.self, forKey: .timelineSteps)),
            frames: try container.decodeIfPresent([StepFrame].self, forKey: .frames) ?? [],
            output: try container.decode(String.self, forKey: .output),
            duration: try container.decode(Double.self, forKey: .duration))
    }
}

extension ScenarioResult {
    /// The timeline a result's encoding kept, of `steps` steps (nil: all of them).
    private static func timeline(kept: [String], steps: Int?) -> Timeline {
        guard let steps, steps > kept.count else { return Timeline(kept) }
        return Timeline(kept: kept, count: steps)
    }
}

extension FileResult {
    /// What a run keeps of a finished file for its summary and exit status,
    /// once the file's events went out: a passing scenario's timeline is
    /// dropped (the reports that show it kept their own copy from the
    /// events), so a run's memory grows by little more than a name per
    /// passing scenario — a suite of 100,000 kept every step line of each.
    package var summarized: FileResult {
        var file = self
        for index in file.scenarios.indices where file.scenarios[index].status == .passed {
            file.scenarios[index].timeline = Timeline()
        }
        return file
    }
}

/// All results of one scenario file, in declaration order.
public struct FileResult: Hashable, Sendable, Codable {
    package var file: String
    public var scenarios: [ScenarioResult]
    package var duration: Double

    package init(file: String, scenarios: [ScenarioResult], duration: Double) {
        self.file = file
        self.scenarios = scenarios
        self.duration = duration
    }

    package func count(_ status: ScenarioResult.Status) -> Int {
        scenarios.lazy.filter { $0.status == status }.count
    }

    /// Whether a stop cut these results short: a scenario it ended, or one it left not run.
    /// A stop signal that finds every scenario with its own result came after the run had
    /// finished: the results are the whole run's.
    package static func cutShort(_ files: [FileResult]) -> Bool {
        files.contains { file in
            file.scenarios.contains { [.errored(.interrupted), .skipped(.interrupted), .skipped(.notStarted)].contains($0.outcome) }
        }
    }
}

/// A whole run, files in run order.
public struct RunResult: Hashable, Sendable, Codable {
    package var files: [FileResult]
    /// Wall time of the whole run, seconds.
    package var duration: Double
    /// The seed that ordered the run, printed so a failure can be replayed.
    package var seed: UInt64?
    /// When the run started (UTC), for report timestamps.
    package var startedAt: Double

    package init(files: [FileResult], duration: Double, seed: UInt64? = nil, startedAt: Double) {
        self.files = files
        self.duration = duration
        self.seed = seed
        self.startedAt = startedAt
    }

    /// Every scenario's result, file by file — lazily: a run of 100,000
    /// scenarios asked for them several times at its end, and each array
    /// copy was tens of megabytes.
    package var scenarios: LazySequence<FlattenSequence<LazyMapSequence<[FileResult], [ScenarioResult]>>> {
        files.lazy.flatMap(\.scenarios)
    }

    package func count(_ status: ScenarioResult.Status) -> Int {
        files.reduce(0) { $0 + $1.count(status) }
    }

    /// `N passed, N failed, N errors, N skipped` — the closing line CI parses.
    package var summary: String {
        "\(count(.passed)) passed, \(count(.failed)) failed, \(count(.errored)) errors, \(count(.skipped)) skipped"
    }

    package var isSuccess: Bool { count(.failed) == 0 && count(.errored) == 0 }
}
