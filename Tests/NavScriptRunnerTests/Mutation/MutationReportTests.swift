import Foundation
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

/// The kill matrix as Markdown (the README's table is generated from it)
/// stays one row per fault whatever a scenario's name holds.
@Suite("Mutation report")
struct MutationReportTests {
    @Test(arguments: [
        ("plain", "`plain`"),
        ("cart | gated", #"`cart \| gated`"#),
        ("say `x`", "`` say `x` ``"),
        ("`edge`", "`` `edge` ``")
    ])
    func namesBecomeOneCodeSpanPerCell(name: String, cell: String) {
        #expect(MutationReport.codeSpan(name) == cell)
    }

    @Test func aRowHasItsThreeCellsWhateverTheNames() {
        let fault = HostFault(name: "odd", summary: "a | b")
        let report = MutationReport(
            healthy: RunResult(files: [], duration: 0, startedAt: 0),
            outcomes: [FaultOutcome(fault: fault, killedBy: ["a.lua:1 cart | gated `x` <b>"], firstMessage: "", duration: 0)],
            duration: 0)
        let row = report.markdown().split(separator: "\n")[2]
        // Three cells: four unescaped bars.
        let bars = row.enumerated().filter { index, character in
            character == "|" && (index == 0 || row[row.index(row.startIndex, offsetBy: index - 1)] != "\\")
        }
        #expect(bars.count == 4, "\(row)")
    }

    /// A timeout under a fault of a scenario that took more than half the
    /// limit without faults is no kill: beside the other faults' workers it
    /// ran slower, and every fault read killed under load. Such a fault is
    /// not decided; a quick scenario's timeout (a hang) still kills.
    @Test func aTimeoutOfAScenarioSlowWithoutFaultsIsNoKill() {
        let entry = SuiteFile(path: "a.lua", url: URL(fileURLWithPath: "a.lua"), suiteRoot: URL(fileURLWithPath: "."))
        var plan = MutationRun(entries: [entry], faults: [HostFault(name: "f", summary: "")])
        let healthy = [
            FileResult(
                file: "a.lua",
                scenarios: [
                    ScenarioResult(name: "slow", file: "a.lua", line: 1, outcome: .passed, duration: 3.6),
                    ScenarioResult(name: "quick", file: "a.lua", line: 2, outcome: .passed, duration: 0.1)
                ], duration: 3.7)
        ]
        plan.noteHealthy(healthy, timeout: 5)
        let slowTimeout = ScenarioResult(name: "slow", file: "a.lua", line: 1, outcome: .errored(.timeout), duration: 5)
        let quickTimeout = ScenarioResult(name: "quick", file: "a.lua", line: 2, outcome: .errored(.timeout), duration: 5)
        #expect(!plan.kills(slowTimeout) && plan.kills(quickTimeout))
        let quickPasses = ScenarioResult(name: "quick", file: "a.lua", line: 2, outcome: .passed)
        let report = plan.report(
            results: healthy + [FileResult(file: "a.lua", scenarios: [slowTimeout, quickPasses], duration: 5)], started: Date())
        #expect(report.outcomes.first?.isUndecided == true && report.outcomes.first?.isKilled == false, "\(report.outcomes)")
        // Said as the timeout it is, not as an interruption.
        #expect(report.text().contains("f             not decided  (a.lua:1 slow ran past --timeout under the fault"), "\(report.text())")
        #expect(report.runResult().files.first?.scenarios.last?.outcome == .errored(.timeout))
    }

    /// A scenario that fails without faults when its file runs healthy again after the faults kills
    /// nothing: its failure does not depend on the fault (a check of `os.clock()` passed at the start
    /// and "killed" every fault after). A fault only it failed under is not decided, and says why;
    /// another scenario's failure still kills.
    @Test func aScenarioThatFailsWithoutFaultsTooKillsNothing() {
        let entry = SuiteFile(path: "a.lua", url: URL(fileURLWithPath: "a.lua"), suiteRoot: URL(fileURLWithPath: "."))
        var plan = MutationRun(entries: [entry], faults: [HostFault(name: "f", summary: ""), HostFault(name: "g", summary: "")])
        let clockPasses = ScenarioResult(name: "clock", file: "a.lua", line: 1, outcome: .passed)
        let clockFails = ScenarioResult(name: "clock", file: "a.lua", line: 1, outcome: .failed(.expectation), message: "late")
        let realPasses = ScenarioResult(name: "real", file: "a.lua", line: 2, outcome: .passed)
        let realFails = ScenarioResult(name: "real", file: "a.lua", line: 2, outcome: .failed(.expectation))
        let healthy = [FileResult(file: "a.lua", scenarios: [clockPasses, realPasses], duration: 0)]
        let faulty = [
            FileResult(file: "a.lua", scenarios: [clockFails, realPasses], duration: 0),
            FileResult(file: "a.lua", scenarios: [clockFails, realFails], duration: 0)
        ]
        #expect(plan.killingFiles(faulty) == ["a.lua"])
        plan.noteRecheck([FileResult(file: "a.lua", scenarios: [clockFails, realPasses], duration: 0)])
        #expect(!plan.kills(clockFails) && plan.kills(realFails))
        let report = plan.report(results: healthy + faulty, started: Date())
        #expect(report.outcomes.map(\.isUndecided) == [true, false] && report.outcomes.map(\.isKilled) == [false, true])
        #expect(report.text().contains("a.lua:1 clock failed under the fault, but failed without faults too"), "\(report.text())")
    }

    /// A kill must repeat: each fault's first killing file runs under it once more, and a scenario
    /// that passes then killed nothing (a failure one run in three, whatever the fault).
    @Test func aKillThatDoesNotRepeatIsNone() {
        let entry = SuiteFile(path: "a.lua", url: URL(fileURLWithPath: "a.lua"), suiteRoot: URL(fileURLWithPath: "."))
        var plan = MutationRun(entries: [entry], faults: [HostFault(name: "f", summary: ""), HostFault(name: "g", summary: "")])
        let passes = ScenarioResult(name: "s", file: "a.lua", line: 1, outcome: .passed)
        let fails = ScenarioResult(name: "s", file: "a.lua", line: 1, outcome: .failed(.expectation))
        let healthy = [FileResult(file: "a.lua", scenarios: [passes], duration: 0)]
        let faulty = [
            FileResult(file: "a.lua", scenarios: [fails], duration: 0), FileResult(file: "a.lua", scenarios: [fails], duration: 0)
        ]
        let repeats = plan.repeatTasks(faulty)
        #expect(repeats.map(\.faults) == [["f"], ["g"]])
        plan.noteRepeat(
            [FileResult(file: "a.lua", scenarios: [passes], duration: 0), FileResult(file: "a.lua", scenarios: [fails], duration: 0)],
            of: repeats)
        let report = plan.report(results: healthy + faulty, started: Date())
        #expect(report.outcomes.map(\.isKilled) == [false, true] && report.outcomes.map(\.isUndecided) == [true, false])
        #expect(report.text().contains("a.lua:1 s failed under the fault, but failed without faults too or passed under the fault"))
    }

    /// A healthy run stopped between two scenarios — passed ones, the rest
    /// not run — did not pass: its "healthy suite passes" case read green.
    @Test func aHealthyRunCutShortIsNotGreen() {
        let passed = ScenarioResult(name: "a", file: "a.lua", line: 1, outcome: .passed)
        let cut = ScenarioResult(name: "b", file: "a.lua", line: 2, outcome: .skipped(.interrupted), message: "not run: interrupted")
        for (scenarios, expected) in [([passed, cut], ScenarioOutcome.errored(.interrupted)), ([passed], .passed)] {
            let report = MutationReport(
                healthy: RunResult(files: [FileResult(file: "a.lua", scenarios: scenarios, duration: 0)], duration: 0, startedAt: 0),
                outcomes: [], duration: 0)
            let healthyCase = report.runResult().files.first?.scenarios.first
            #expect(healthyCase?.name == "healthy suite passes" && healthyCase?.outcome == expected, "\(String(describing: healthyCase))")
        }
    }

    /// An interrupted run reports what it decided: a fault killed before the
    /// stop is killed, one whose files were cut short is not decided (no
    /// "survived"), and the reports say so.
    @Test func anInterruptedRunLeavesTheUnfinishedFaultsUndecided() {
        let entry = SuiteFile(path: "a.lua", url: URL(fileURLWithPath: "a.lua"), suiteRoot: URL(fileURLWithPath: "."))
        let faults = [
            HostFault(name: "early", summary: "s1"), HostFault(name: "late", summary: "s2"), HostFault(name: "calm", summary: "s3")
        ]
        let plan = MutationRun(entries: [entry], faults: faults, baseFaults: [])
        func file(_ outcome: ScenarioOutcome) -> FileResult {
            FileResult(file: "a.lua", scenarios: [ScenarioResult(name: "s", file: "a.lua", line: 1, outcome: outcome)], duration: 0)
        }
        // The scenario a stop interrupted is no kill.
        let report = plan.report(
            results: [file(.passed), file(.failed(.expectation)), file(.errored(.interrupted)), file(.passed)], started: Date())
        #expect(report.outcomes.map(\.isKilled) == [true, false, false])
        #expect(report.outcomes.map(\.isUndecided) == [false, true, false])
        #expect(!report.isSuccess && report.undecided == 1)
        let text = report.text()
        #expect(text.contains("late          not decided  (the run stopped before the fault's files had run)"), "\(text)")
        #expect(text.contains("calm          SURVIVED") && text.contains("1 not decided: the run was interrupted"), "\(text)")
        let cases = report.runResult().files[0].scenarios
        #expect(cases.map(\.status) == [.passed, .passed, .errored, .failed], "not decided is an error: an interrupted matrix is not green")
        #expect(report.markdown().contains("| `late` | s2 | *not decided* |"))
    }
}
