import Foundation
import NavScript
import NavScriptRuntime

/// What `explore` was asked to do: the walks' limits, the faults, where
/// reproducers and reports go — everything a child exploration must be
/// started with to do the same.
package struct ExplorationRequest: Sendable {
    package var seed: UInt64
    /// Seconds to explore (0: only `steps` or `untilCovered` limit).
    package var time: Double = 10
    /// Steps in all (0: only `time` limits).
    package var steps = 0
    package var walkLength = Explorer.Configuration.defaultWalkLength
    package var faults: [String] = []
    /// The folder for reproducers.
    package var out = "explore-findings"
    package var untilCovered = false
    /// Stop at the first violation verified against the healthy app (`--stop-at-first`).
    package var stopAtFirst = false
    package var reports = ReportTargets()
    /// The manifest the host was given instead of its own (`--manifest`).
    package var manifest: String?
    /// Explorations run at once, each in its own process with its own seed.
    package var jobs = 1
    /// Seconds one step may run before the app counts as hung.
    package var timeout: Double = 10
    /// In a supervised child: the file each step is written to before it runs.
    package var trace: String?
    /// Where what was found is kept as ``ExplorationRecord`` lines, for the
    /// process that started this one.
    package var records: String?
    /// Scenario files or folders whose driving calls walks also draw from (`--from`).
    package var from: [String] = []

    package init(seed: UInt64) { self.seed = seed }

    /// What the request asks of an ``Explorer`` exploring with `seed`.
    package func configuration(
        seed: UInt64, host: any ScenarioHost, executable: String, trace: ExplorationTrace? = nil, stop: StopSignal? = nil
    ) -> Explorer.Configuration {
        var shouldStop: (@Sendable () -> Bool)?
        if let stop { shouldStop = { stop.isSet } }
        var configuration = Explorer.Configuration(
            seed: seed, seconds: time, steps: steps, walkLength: walkLength, faults: faults,
            untilCovered: untilCovered, stopAtFirst: stopAtFirst, manifest: manifest, trace: trace, shouldStop: shouldStop)
        configuration.executable = executable
        if !from.isEmpty, let files = try? ScenarioDiscovery().discover(from) {
            configuration.suiteCalls = SuiteSeeds(files: files.map(\.url), host: host).lines
            configuration.seedPaths = from
        }
        configuration.replayTimeout = timeout
        return configuration
    }

    /// The arguments of this exploration with `seed` in a process of its
    /// own (reports included: a `--jobs` run has none).
    package func childArguments(seed: UInt64) -> [String] {
        var arguments = [
            "explore", "--seed", String(seed), "--time", String(time), "--steps", String(steps),
            "--walk-length", String(walkLength), "--out", out, "--timeout", String(timeout)
        ]
        for fault in faults { arguments += ["--fault", fault] }
        if untilCovered { arguments.append("--until-covered") }
        if stopAtFirst { arguments.append("--stop-at-first") }
        if let manifest { arguments += ["--manifest", manifest] }
        if let junit = reports.junit { arguments += ["--junit", junit] }
        if reports.junitStrict { arguments.append("--junit-strict") }
        if let json = reports.json { arguments += ["--json", json] }
        if let html = reports.html { arguments += ["--html", html] }
        if let records { arguments += ["--records", records] }
        for path in from { arguments += ["--from", path] }
        return arguments
    }
}
