import NavScript

/// How one scenario ended. Reporters switch over it; its string forms
/// (``status`` and ``kind``) are what JSON, JUnit and the worker protocol
/// carry, and are stable.
package enum ScenarioOutcome: Hashable, Sendable {
    case passed
    /// Something the scenario expected did not hold.
    case failed(Failure)
    /// The scenario could not run to its end.
    case errored(ErrorKind)
    /// The scenario did not run.
    case skipped(SkipReason)

    /// Why a scenario failed.
    package enum Failure: String, Hashable, Sendable, CaseIterable {
        /// An `expect_*`, an `assert`, or a step the app refused.
        case expectation
        /// A `mutate` fault that no scenario noticed.
        case survived
        /// `mutate`: the suite is not green on the healthy app.
        case healthyRun = "healthy_run"
    }

    /// Why a scenario could not run to its end.
    package enum ErrorKind: String, Hashable, Sendable, CaseIterable {
        /// A Lua runtime error (`error(...)`, a bad argument, a nil call).
        case luaError = "lua_error"
        /// The instruction budget ran out (a runaway loop).
        case budget
        /// The memory cap was reached.
        case memory
        /// The file does not parse.
        case syntax
        /// The file raised an error while loading (before any scenario ran).
        case loadError = "load_error"
        /// The app refused the scenario's launch options.
        case launchError = "launch_error"
        /// The worker process running it died (a trap, a signal).
        case crash
        /// It ran past `--timeout` and its worker was killed.
        case timeout
        /// A signal stopped the run while it ran (Ctrl-C, a CI runner's
        /// SIGTERM on cancel or timeout): it did not finish. An error, not a
        /// skip — a report of a run cut short must not look green, and the
        /// scenario a run is cancelled in is often the one that hung.
        case interrupted

        /// Whether the error is the file's, not one scenario's (exit status 2).
        package var isLoadError: Bool { self == .syntax || self == .loadError }
    }

    /// Why a scenario did not run.
    package enum SkipReason: String, Hashable, Sendable, CaseIterable {
        /// Declared with `pending(name)`.
        case pending
        /// The run stopped first (Ctrl-C, a signal, `--fail-fast`).
        case interrupted
        /// Its file never reached a worker; stands for the file's scenarios
        /// until they are listed by name.
        case notStarted = "not_started"
    }

    /// The coarse status every reporter counts.
    package var status: ScenarioResult.Status {
        switch self {
        case .passed: return .passed
        case .failed: return .failed
        case .errored: return .errored
        case .skipped: return .skipped
        }
    }

    /// The stable classifier: `expectation`, `lua_error`, `budget`, …,
    /// `pending`, `interrupted`; empty when passed.
    package var kind: String {
        switch self {
        case .passed: return ""
        case .failed(let failure): return failure.rawValue
        case .errored(let kind): return kind.rawValue
        case .skipped(let reason): return reason.rawValue
        }
    }

    /// Reads the two string forms back; nil for a combination no outcome has.
    package init?(status: ScenarioResult.Status, kind: String) {
        switch status {
        case .passed: self = .passed
        case .failed: guard let failure = Failure(rawValue: kind) else { return nil }; self = .failed(failure)
        case .errored: guard let error = ErrorKind(rawValue: kind) else { return nil }; self = .errored(error)
        case .skipped: guard let reason = SkipReason(rawValue: kind) else { return nil }; self = .skipped(reason)
        }
    }
}
