import Foundation
import NotesApp
import TestSupport
import Testing

@testable import NavScriptRunner

/// `explore --from`: the suite's driving calls with literal arguments, as
/// lines the walks also take.
@Suite("Explore: calls from the suite")
struct SuiteSeedsTests {
    @Test func theSuitesLiteralDrivingCallsAreReadOnceEach() throws {
        let suite = try TemporarySuite()
        let a = try suite.write(
            "a.lua",
            """
            local steps = require("steps")
            scenario("one", function()
              deep_link("notes://note/12")
              deep_link("notes://note/" .. 7)          -- built at run time: not taken
              tap("account")
              back_swipe{ cancel = "yes" }
              expect_stack{ "notes" }                  -- no driving call
              steps.open_note("9")                     -- a module's function: not taken
              sign_in()
            end)
            """)
        let b = try suite.write(
            "b.lua",
            """
            scenario("two", function()
              deep_link("notes://note/12")             -- again: taken once
              deep_link("notes://n/1", { via = "push", extra = { "x" } })
              deep_link("notes://n/2", { via = "push", ["odd key"] = "x" })   -- a key lint cannot read: not taken
            end)
            """)
        let seeds = SuiteSeeds(files: [a, b, suite.root.appendingPathComponent("missing.lua")], host: try NotesHost())
        #expect(
            seeds.lines == [
                #"deep_link("notes://note/12")"#, #"tap("account")"#, #"back_swipe({ cancel = "yes" })"#, "sign_in()",
                #"deep_link("notes://n/1", { via = "push", extra = { "x" } })"#
            ])
    }

    @Test func aWalkTakesTheSuitesCalls() throws {
        var configuration = Explorer.Configuration(seed: 3, seconds: 0, steps: 400, walkLength: 20)
        configuration.suiteCalls = [#"deep_link("notes://note/4242")"#]
        let report = Explorer(host: try NotesHost(), configuration: configuration).run()
        #expect(report.coverage.covered.contains(#"suite deep_link("notes://note/4242")"#))
        #expect(report.findings.isEmpty, "the healthy app")
        let without = Explorer(host: try NotesHost(), configuration: .init(seed: 3, seconds: 0, steps: 400, walkLength: 20)).run()
        #expect(!without.coverage.covered.contains { $0.hasPrefix("suite ") })
    }
}
