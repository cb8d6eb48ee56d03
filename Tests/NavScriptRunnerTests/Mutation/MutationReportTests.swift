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
}
