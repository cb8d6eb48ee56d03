import Foundation
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

/// A file report is built from the events: each file's result as it
/// arrives, rendered in the plan's order when the run finishes.
@Suite("Run report files")
struct RunReportFileTests {
    static func file(_ path: String) -> FileResult {
        FileResult(file: path, scenarios: [ScenarioResult(name: "s", file: path, line: 1, outcome: .passed)], duration: 0)
    }

    @Test func filesComeFromTheirEventsInThePlansOrder() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var rendered: RunReportFile.Content?
        let report = RunReportFile(kind: "test report", path: path) { content in
            rendered = content
            return content.result.files.map(\.file).joined(separator: ",")
        }
        try report.receive(.runStarted(RunPlan(command: "run", app: "A", files: ["a.lua", "b.lua", "c.lua"], startedAt: 0)))
        // Workers finish files in any order; a file the plan does not name comes last.
        for path in ["c.lua", "", "a.lua", "b.lua"] { try report.receive(.fileFinished(Self.file(path))) }
        // The run's own result is not where the files come from: the events are.
        try report.receive(.runFinished(RunResult(files: [], duration: 2, seed: 7, startedAt: 1), interruption: "stopped"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a.lua,b.lua,c.lua,")
        #expect(rendered?.result.duration == 2 && rendered?.result.seed == 7 && rendered?.result.startedAt == 1)
        #expect(rendered?.interruption == "stopped")
    }

    @Test func withoutAPlanFilesKeepTheirArrivalOrder() {
        let files = ["b.lua", "a.lua"].map(Self.file)
        #expect(RunReportFile.inPlanOrder(files, nil).map(\.file) == ["b.lua", "a.lua"])
    }
}
