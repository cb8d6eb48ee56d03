import Testing

@testable import NavScriptRunner
@testable import NavScriptRuntime

/// A coordinator listed twice in `expect_coordinators` but alive once is a
/// mismatch whose failure says so: "missing" alone read as "not alive".
@Suite("expect_coordinators with a path listed twice")
struct CoordinatorListTests {
    @Test func aPathListedMoreOftenThanItIsAliveIsSaidAsSuch() throws {
        let failure = try #require(Expectation.coordinators(["app", "app", "app/notes"], actual: ["app", "app/notes"]))
        #expect(failure.details.contains(#"missing (expected alive): { "app" }"#), "\(failure.details)")
        #expect(failure.details.contains(#"{ "app" } is alive once, listed twice"#), "\(failure.details)")
        let notAlive = try #require(Expectation.coordinators(["app", "app/gone"], actual: ["app"]))
        #expect(!notAlive.details.contains("is alive"), "a path not alive at all is only missing: \(notAlive.details)")
    }
}
