import Testing

@testable import NavScriptRunner
@testable import NavScriptRuntime

/// Failures a scenario catches and goes on after are counted, not all kept:
/// a loop of `pcall(assert, false, big)` held every megabyte message (2 GB
/// outside the Lua memory cap). The first are kept, each capped; the count
/// is exact; a failure raised late still fails the scenario as itself.
@Suite("Failures caught in a loop")
struct CaughtFailuresTests {
    @Test func theFirstAreKeptTheRestCountedAndTheLastStillReachesTheTop() throws {
        let result = try #require(
            try runSource(
                """
                scenario("many", function()
                  local big = ("x"):rep(100000)
                  for i = 1, 500 do pcall(assert, false, big) end
                  assert(false, "the last one")
                end)
                """
            ).results.first)
        #expect(result.outcome == .failed(.expectation))
        #expect(result.message.hasSuffix("(and 500 more failures)"), "\(result.message.suffix(80))")
        #expect(result.details.contains("… and 401 more failures after these, counted (a scenario keeps its first 100)"))
        #expect(result.message.utf8.count < TextCap.message + 200, "bounded, as every message")
        #expect(result.details.utf8.count < TextCap.details + 1_000, "bounded: a hundred kept, each capped")
    }
}
