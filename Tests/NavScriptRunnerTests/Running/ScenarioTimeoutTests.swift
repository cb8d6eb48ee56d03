import Testing

@testable import NavScriptRunner
@testable import NavScriptRuntime

/// `--timeout` in process: a scenario whose own Lua code runs past it is an
/// error of kind `timeout` at its line, and the file goes on with the next
/// scenario (before, a run with `--in-process` spun until the budget, or
/// forever with a large one).
@Suite("Scenario time limit")
struct ScenarioTimeoutTests {
    @Test func aScenarioPastItsTimeIsStoppedAtItsLineAndTheNextRuns() throws {
        var options = RunOptions(instructionBudget: 4_000_000_000)
        options.scenarioTimeout = 0.3
        let results = try runSource(
            """
            scenario("spins", function()
              launch()
              while true do end
            end)
            scenario("next", function() launch() expect_screen("sign_in") end)
            """, options: options
        ).results
        #expect(results.count == 2)
        #expect(results[0].outcome == .errored(.timeout), "\(results[0].message)")
        #expect(
            results[0].message.hasSuffix(
                "a.lua:3: timeout: the scenario ran longer than 0.3s (--timeout) in its own Lua code; raise the limit with --timeout if it is legitimately long"
            ), "\(results[0].message)")
        #expect(results[0].timeline.count == 1, "the steps before it are kept")
        #expect(results[1].status != .errored, "\(results[1].message)")
    }

    @Test func aFileWhoseTopLevelRunsPastItDoesNotLoadAndSaysSo() throws {
        var options = RunOptions(instructionBudget: 4_000_000_000)
        options.scenarioTimeout = 0.3
        let results = try runSource("local n = 0\nwhile true do n = n + 1 end\nscenario(\"never\", function() end)", options: options)
            .results
        let entry = try #require(results.first)
        #expect(entry.outcome == .errored(.loadError), "\(entry.outcome)")
        #expect(
            entry.message.hasSuffix(
                "a.lua:2: timeout while the file loaded: its top level ran longer than 0.3s (--timeout) in its own Lua code; "
                    + "raise the limit with --timeout if it is legitimately long"), "\(entry.message)")
    }
}
