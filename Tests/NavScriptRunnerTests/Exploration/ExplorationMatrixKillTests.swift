import Testing

@testable import NavScriptRunner
@testable import NavScriptRuntime

/// `mutate --explore`: a fault is killed by a finding verified against the
/// healthy build only — the app's own bug, found under every fault, kills none.
@Suite("Explore: the kill matrix")
struct ExplorationMatrixKillTests {
    static func found(_ name: String, verified: Bool?) -> ExplorationRecord.Found {
        ExplorationRecord.Found(
            result: ScenarioResult(name: name, file: "f.lua", line: 1, outcome: .failed(.expectation)), reproducerSteps: 2,
            verified: verified)
    }

    @Test func aFindingTheHealthyBuildSharesKillsNothing() {
        #expect(ExplorationMatrix.kill(among: [Self.found("healthy bug", verified: false)]) == nil)
        #expect(
            ExplorationMatrix.kill(among: [Self.found("healthy bug", verified: false), Self.found("the fault's", verified: true)])?
                .result.name == "the fault's")
        #expect(ExplorationMatrix.kill(among: [Self.found("older record", verified: nil)])?.result.name == "older record")
        #expect(ExplorationMatrix.kill(among: []) == nil)
    }
}
