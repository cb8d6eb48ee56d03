import Testing

@testable import NavScriptRunner
@testable import NavScriptRuntime

/// A scenario that launched no app, took no step and called no expectation
/// or `assert` passes whatever the app does: it still passes (as busted and
/// pytest pass an empty test), but its result carries a warning every
/// report shows, so a green run does not count it as a test unsaid.
@Suite("Scenarios that check nothing")
struct CheckedNothingTests {
    private func results(_ source: String) throws -> [String: ScenarioResult] {
        let results = try runSource(source).results
        return Dictionary(uniqueKeysWithValues: results.map { ($0.name, $0) })
    }

    @Test func anEmptyBodyOrAnEarlyReturnIsWarnedAbout() throws {
        let results = try results(
            """
            scenario("empty", function() end)
            scenario("returns early", function() if true then return end launch() end)
            scenario("prints only", function() print("hello") end)
            """)
        for name in ["empty", "returns early", "prints only"] {
            let result = try #require(results[name])
            #expect(result.status == .passed)
            #expect(result.message == ScenarioResult.checkedNothing, "\(name)")
            #expect(result.passedWithWarning)
        }
    }

    @Test func aStepAnExpectationAnAssertOrALaunchIsACheck() throws {
        let results = try results(
            """
            scenario("asserts", function() assert(1 + 1 == 2) end)
            scenario("launches by option", { launch = { signed_in = true } }, function() end)
            scenario("launches", function() launch() end)
            scenario("expects", function() expect_screen("notes") end)
            describe("a hook launches", function()
              before_each(function() launch() end)
              scenario("hooked", function() end)
            end)
            """)
        #expect(results.count == 5)
        for (name, result) in results {
            #expect(result.status == .passed, "\(name): \(result.message)")
            #expect(result.message.isEmpty, "\(name)")
        }
    }

    @Test func drivingWithEveryInvariantAllowedChecksNothing() throws {
        let allowed = Invariant.allCases.map { "\($0.rawValue) = \"why\"" }.joined(separator: ", ")
        let results = try results(
            """
            scenario("all allowed", { allow = { \(allowed) } }, function() launch() tap("note", "7") end)
            scenario("all allowed, one check", { allow = { \(allowed) } }, function() launch() expect_screen("notes") end)
            scenario("some allowed", { allow = { leaks = "why" } }, function() launch() end)
            """)
        #expect(results["all allowed"]?.message == ScenarioResult.checkedNothingAllowed)
        #expect(results["all allowed, one check"]?.passedWithWarning == false, "\(results["all allowed, one check"]?.message ?? "")")
        #expect(results["some allowed"]?.message == "")
    }

    @Test func aFailedOrSkippedScenarioIsNotWarnedAbout() throws {
        let results = try results(
            """
            scenario("fails", function() assert(false, "no") end)
            pending("later")
            """)
        #expect(results["fails"]?.status == .failed)
        #expect(results["fails"]?.message.contains("checked nothing") == false)
        #expect(results["later"]?.message == "pending")
    }

    @Test func everyReportShowsTheWarning() throws {
        let result = try #require(try runSource(#"scenario("empty", function() end)"#).results.first)
        #expect(JUnitReport.systemOut(result).hasPrefix("warning: checked nothing"))
        let run = RunResult(files: [FileResult(file: result.file, scenarios: [result], duration: 0)], duration: 0, startedAt: 0)
        let capture = OutputCapture()
        let console = ConsoleReport(options: .init(color: false), write: capture.write)
        console.finish(run)
        #expect(capture.text.contains("WARN \(result.file):1  empty: checked nothing"))
        #expect(capture.text.contains("1 passed, 0 failed, 0 errors, 0 skipped"))
    }

    @Test func theConsoleListsTheFirstWarningsAndCountsTheRest() throws {
        let result = try #require(try runSource(#"scenario("empty", function() end)"#).results.first)
        let many = (0..<25).map { index -> ScenarioResult in
            var copy = result
            copy.name = "empty \(index)"
            return copy
        }
        let run = RunResult(files: [FileResult(file: result.file, scenarios: many, duration: 0)], duration: 0, startedAt: 0)
        let capture = OutputCapture()
        ConsoleReport(options: .init(color: false), write: capture.write).finish(run)
        let lines = capture.text.split(separator: "\n").filter { $0.hasPrefix("WARN") }
        #expect(lines.count == ConsoleReport.warningsListed + 1)
        #expect(lines.last == "WARN and 5 more scenarios that checked nothing (every report names each: --json, --junit, --html)")
    }
}
