import Testing

@testable import NavScriptRunner
@testable import NavScriptRuntime

/// A coordinator listed twice in `expect_coordinators` is a wrong argument:
/// the failure used to list it as missing although it was alive.
@Suite("expect_coordinators with a path listed twice")
struct CoordinatorListTests {
    @Test func aPathListedTwiceIsAWrongArgument() throws {
        let result = try #require(
            try runSource(
                """
                scenario("twice", function()
                  launch()
                  local alive = coordinators()
                  expect_coordinators{ alive[1], alive[1] }
                end)
                """
            ).results.first)
        #expect(result.outcome == .errored(.luaError), "\(result.outcome): \(result.message)")
        #expect(result.message.contains("is listed twice; list each coordinator once"), "\(result.message)")
    }
}
