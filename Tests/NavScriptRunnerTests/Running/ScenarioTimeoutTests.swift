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

    /// A time limit that runs out inside one call — the app's own slow
    /// work — names that call and its line: the hook could stop Lua only at
    /// the next line, and the timeout blamed that line as "its own Lua code".
    @Test func aTimeoutInsideACallNamesTheCall() throws {
        var options = RunOptions()
        options.scenarioTimeout = 0.3
        let results = try runSource(
            """
            scenario("a slow sync", function()
              launch()
              sync_notes(0.6)
              print("after")
            end)
            """, options: options
        ).results
        let message = try #require(results.first).message
        #expect(results.first?.outcome == .errored(.timeout), "\(message)")
        #expect(
            message.hasSuffix(
                "a.lua:3: timeout: the scenario ran longer than 0.3s (--timeout), inside sync_notes(0.6) (the app's own work, "
                    + "not the script's); raise the limit with --timeout if it is legitimately long"), "\(message)")
    }

    /// A call past the limit as the body's last step: no further instruction ran for the hook to
    /// look at the clock, and the scenario passed, its own time (0.6 s) over its 0.3 s limit. The
    /// time is looked at when the scenario ends, in process and in a worker alike.
    @Test func aScenarioThatEndsPastItsLimitWithoutAnotherInstructionIsATimeout() throws {
        var options = RunOptions()
        options.scenarioTimeout = 0.3
        let results = try runSource(
            """
            scenario("a slow sync, last", function()
              launch()
              sync_notes(0.6)
            end)
            scenario("a quick one", function() launch() end)
            """, options: options
        ).results
        let message = try #require(results.first).message
        #expect(results.first?.outcome == .errored(.timeout), "\(message)")
        #expect(
            message.contains("a.lua:3: timeout: the scenario ran longer than 0.3s (--timeout): it took 0.")
                && message.contains("inside sync_notes(0.6), which ended by itself after the limit"), "\(message)")
        #expect(results.last?.outcome == .passed, "\(results)")
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
