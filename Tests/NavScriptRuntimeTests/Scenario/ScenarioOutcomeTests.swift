import Foundation
import TestSupport
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRuntime

/// Outcomes are enums; their string forms are the stable contract of JSON,
/// JUnit and the worker protocol.
@Suite("ScenarioOutcome")
struct ScenarioOutcomeTests {
    static let every: [ScenarioOutcome] =
        [.passed]
        + ScenarioOutcome.Failure.allCases.map(ScenarioOutcome.failed)
        + ScenarioOutcome.ErrorKind.allCases.map(ScenarioOutcome.errored)
        + ScenarioOutcome.SkipReason.allCases.map(ScenarioOutcome.skipped)

    @Test("every outcome is read back from its status and kind", arguments: every)
    func stringFormsRoundTrip(_ outcome: ScenarioOutcome) {
        #expect(ScenarioOutcome(status: outcome.status, kind: outcome.kind) == outcome)
    }

    @Test("every outcome survives the JSON a worker sends", arguments: every)
    func codableRoundTrip(_ outcome: ScenarioOutcome) throws {
        let result = ScenarioResult(name: "n", file: "f.lua", line: 1, outcome: outcome, message: "m")
        let decoded = try JSONDecoder().decode(ScenarioResult.self, from: try JSONEncoder().encode(result))
        #expect(decoded == result)
    }

    /// What a run keeps of a finished file: passing scenarios without their
    /// timelines, everything else whole.
    @Test func aSummarizedFileKeepsWhatTheSummaryShows() {
        let file = FileResult(
            file: "f.lua",
            scenarios: [
                ScenarioResult(name: "a", file: "f.lua", line: 1, outcome: .passed, timeline: ["a1", "a2"], output: "said"),
                ScenarioResult(name: "b", file: "f.lua", line: 5, outcome: .failed(.expectation), message: "m", timeline: ["b1"]),
                ScenarioResult(name: "c", file: "f.lua", line: 9, outcome: .skipped(.pending), timeline: ["c1"])
            ], duration: 1)
        let kept = file.summarized
        #expect(kept.scenarios.map(\.timeline) == [[], ["b1"], ["c1"]])
        #expect(kept.scenarios[0].output == "said" && kept.scenarios[1].message == "m", "the rest is kept")
        #expect(kept.scenarios.map(\.name) == ["a", "b", "c"] && kept.duration == 1)
    }

    @Test func theStableFormsAreTheDocumentedOnes() {
        #expect(ScenarioOutcome.errored(.luaError).kind == "lua_error")
        #expect(ScenarioOutcome.errored(.launchError).kind == "launch_error")
        #expect(ScenarioOutcome.failed(.healthyRun).kind == "healthy_run")
        #expect(ScenarioOutcome.skipped(.notStarted).kind == "not_started")
        #expect(ScenarioOutcome.passed.kind == "")
        #expect(ScenarioOutcome.errored(.syntax).status == .errored)
    }

    @Test func aCombinationNoOutcomeHasIsRejected() throws {
        #expect(ScenarioOutcome(status: .failed, kind: "pending") == nil)
        #expect(ScenarioOutcome(status: .errored, kind: "") == nil)
        let json =
            #"{"name":"n","groups":[],"file":"f","line":1,"tags":[],"status":"skipped","kind":"budget","message":"","details":"","timeline":[],"output":"","duration":0}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ScenarioResult.self, from: Data(json.utf8)) }
    }

    @Test func onlySyntaxAndLoadErrorsAreTheFilesOwn() {
        let fileErrors = ScenarioOutcome.ErrorKind.allCases.filter(\.isLoadError)
        #expect(fileErrors == [.syntax, .loadError])
    }

    /// A stop signal that finds every scenario with its own result came after the run finished: a
    /// run read as cut short there was reported green one time and interrupted the next.
    @Test(arguments: [
        ([ScenarioOutcome.passed, .failed(.expectation)], false), ([.passed, .skipped(.pending)], false),
        ([.passed, .errored(.interrupted)], true), ([.passed, .skipped(.interrupted)], true), ([.skipped(.notStarted)], true)
    ])
    func resultsAreCutShortOnlyByWhatAStopEndedOrLeftNotRun(outcomes: [ScenarioOutcome], cutShort: Bool) {
        let scenarios = outcomes.enumerated().map { ScenarioResult(name: "s\($0.offset)", file: "a.lua", line: 1, outcome: $0.element) }
        #expect(FileResult.cutShort([FileResult(file: "a.lua", scenarios: scenarios, duration: 0)]) == cutShort)
    }
}
