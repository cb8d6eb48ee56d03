import Foundation
import TestSupport
import Testing

/// `navscript run` on passing, failing, erroring, syntax-broken, empty and
/// missing suites: exit status, console report and counts.
@Suite("run: outcomes and exit codes")
struct RunOutcomeTests {
    static let passing = #"""
        scenario("home is the first screen", function()
          expect_screen("home")
          expect_tab("home")
        end)

        scenario("a product opens on the home stack", function()
          tap("product", "p1")
          expect_stack{ "home", "product:p1" }
        end)
        """#

    static let passingToo = #"""
        describe("orders", function()
          scenario("signed in, an order opens", { launch = { logged_in = true } }, function()
            deep_link("shop://orders/42")
            expect_stack{ "orders", "order:42" }
          end)
        end)
        """#

    @Test func passingSuiteExitsZeroWithTheSummaryLine() throws {
        let fixture = try Fixture(["suite/a.lua": Self.passing, "suite/b.lua": Self.passingToo])
        let output = try fixture.run(["run", "suite"])
        #expect(output.status == 0, "\(output)")
        let summary = try #require(CLI.summary(output.stdout), "\(output)")
        #expect(summary.hasPrefix("3 passed, 0 failed, 0 errors, 0 skipped in "), "\(output)")
        #expect(output.stdout.split(separator: "\n").last.map(String.init) == summary, "the summary is the last line")
        #expect(CLI.progressLines(output.stdout) == ["suite/a.lua  ..  (2)", "suite/b.lua  .  (1)"], "\(output)")
        #expect(!output.stdout.contains("FAIL") && !output.stdout.contains("ERROR"))
    }

    static let failing = #"""
        scenario("this one passes", function()
          expect_screen("home")
        end)

        scenario("the cart is expected but a product is shown", function() -- @scenario
          tap("category", "shoes")
          tap("product", "p1") -- @tap
          expect_stack{ "home", "category:shoes", "cart" } -- @expect
        end)
        """#

    /// A presented modal's stack (a sheet with its own stack) checked with `expect_stack`: the failure
    /// compared the tab under it and left a newcomer guessing; it says which check reads the modal.
    @Test func aModalsStackCheckedAsTheTabsSaysWhichCheckReadsIt() throws {
        let fixture = try Fixture([
            "suite/m.lua": """
            scenario("checkout as a stack", { launch = { logged_in = true, payment_method = true } }, function()
              deep_link("shop://checkout/payment")
              expect_stack{ "checkout_address", "checkout_payment" }
            end)
            """
        ])
        let output = try fixture.run(["run", "suite"])
        #expect(output.status == 1, "\(output)")
        #expect(
            output.stdout.contains(
                #"to fix: { "checkout_address", "checkout_payment" } is a presented modal's stack, not the tab's: expect_stack "#
                    + #"checks the tab under it; check the modal with expect_modals{ "checkout_address", "checkout_payment" }"#),
            "\(output)")
    }

    @Test func failingExpectationExitsOneWithLocationExpectedActualAndTimeline() throws {
        let fixture = try Fixture(["suite/fail.lua": Self.failing])
        let output = try fixture.run(["run", "suite"])
        #expect(output.status == 1, "\(output)")
        let scenarioLine = Lua.line(of: "@scenario", in: Self.failing)
        let tapLine = Lua.line(of: "@tap", in: Self.failing)
        let expectLine = Lua.line(of: "@expect", in: Self.failing)
        let out = output.stdout
        #expect(out.contains("FAIL suite/fail.lua:\(scenarioLine)  the cart is expected but a product is shown"), "\(output)")
        // The expectation's own line, expected vs actual, and a side-by-side diff.
        #expect(
            out.contains(
                #"suite/fail.lua:\#(expectLine): stack of tab 'home' is { "home", "category:shoes", "product:p1" }, expected { "home", "category:shoes", "cart" }"#
            ), "\(output)")
        #expect(out.contains("expected") && out.contains("actual"))
        #expect(out.contains(try Regex(#"✗ cart\s+product:p1"#)), "the diff marks the mismatching entry\n\(output)")
        // The step timeline, numbered, each step at its scenario line and where the app ended up.
        #expect(out.contains("timeline:"), "\(output)")
        #expect(out.contains(#"2. suite/fail.lua:\#(tapLine - 1)  tap("category", id=shoes)  → category:shoes [tab home]"#), "\(output)")
        #expect(out.contains(#"3. suite/fail.lua:\#(tapLine)  tap("product", id=p1)  → product:p1 [tab home]"#), "\(output)")
        #expect(CLI.summary(out)?.hasPrefix("1 passed, 1 failed, 0 errors, 0 skipped") == true, "\(output)")
        #expect(CLI.progressLines(out) == ["suite/fail.lua  .F  (2)"], "\(output)")
    }

    static let erroring = #"""
        scenario("calling nil", function()
          local handler = nil
          handler() -- @nil
        end)

        scenario("error with a message", function()
          error("boom") -- @boom
        end)

        scenario("a plain assert", function()
          assert(false, "msg from assert") -- @assert
        end)

        scenario("a passing one", function() end)
        """#

    static let misspelt = #"""
        scenarioo("declared with a typo", function() end)
        """#

    static let misspeltVerb = #"""
        scenario("a verb with a typo", function()
          tap("category", "shoes")
          expect_stak{ "home", "category:shoes" } -- @typo
        end)

        scenario("a typo in the first step", function()
          tapp("category", "shoes") -- @first
        end)
        """#

    @Test func aMisspeltGlobalNamesTheClosestOne() throws {
        let fixture = try Fixture(["suite/decl.lua": Self.misspelt, "suite/verb.lua": Self.misspeltVerb])
        let output = try fixture.run(["run", "suite", "--color", "never"])
        #expect(output.status == 2, "a file that does not load is a usage error\n\(output)")
        let out = output.stdout
        #expect(
            out.contains("suite/decl.lua:1: attempt to call a nil value (global 'scenarioo'); did you mean 'scenario'?"),
            "\(output)")
        #expect(
            out.contains(
                "suite/verb.lua:\(Lua.line(of: "@typo", in: Self.misspeltVerb)): attempt to call a nil value "
                    + "(global 'expect_stak'); did you mean 'expect_stack'?"), "\(output)")
        #expect(
            out.contains(
                "suite/verb.lua:\(Lua.line(of: "@first", in: Self.misspeltVerb)): attempt to call a nil value "
                    + "(global 'tapp'); did you mean 'tap'?"), "\(output)")
    }

    @Test func luaErrorsAreErrorsAndAssertIsAFailure() throws {
        let fixture = try Fixture(["suite/err.lua": Self.erroring])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        #expect(CLI.summary(output.stdout)?.hasPrefix("1 passed, 1 failed, 2 errors, 0 skipped") == true, "\(output)")
        let out = output.stdout
        #expect(out.contains("ERROR suite/err.lua:1  calling nil"), "\(output)")
        #expect(out.contains("suite/err.lua:\(Lua.line(of: "@nil", in: Self.erroring)): attempt to call a nil value"), "\(output)")
        #expect(out.contains("ERROR suite/err.lua:\(Lua.line(of: "error with a message", in: Self.erroring))  error with a message"))
        #expect(out.contains("suite/err.lua:\(Lua.line(of: "@boom", in: Self.erroring)): boom"), "\(output)")
        #expect(out.contains("FAIL suite/err.lua:\(Lua.line(of: "a plain assert", in: Self.erroring))  a plain assert"), "\(output)")
        #expect(out.contains("suite/err.lua:\(Lua.line(of: "@assert", in: Self.erroring)): msg from assert"), "\(output)")

        #expect(junit.outcome("calling nil") == "error")
        #expect(junit.outcome("error with a message") == "error")
        #expect(junit.outcome("a plain assert") == "failure")
        #expect(junit.outcome("a passing one") == "passed")
        #expect(junit.testcase("calling nil")?.child("error")?["type"] == "lua_error")
        #expect(junit.testcase("a plain assert")?.child("failure")?["type"] == "expectation")
        let suite = try #require(junit.suite("suite/err.lua"))
        #expect(suite.int("tests") == 4 && suite.int("failures") == 1 && suite.int("errors") == 2, "\(junit.raw)")
    }

    static let broken = #"""
        scenario("never declared" function() end)
        """#

    @Test func aSyntaxErrorIsOneErroredFileAndTheOthersStillRun() throws {
        let fixture = try Fixture([
            "suite/a_good.lua": Self.passing, "suite/broken.lua": Self.broken,
            "suite/z_good.lua": Self.passingToo
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 2, "a file that does not load is exit 2\n\(output)")
        #expect(CLI.summary(output.stdout)?.hasPrefix("3 passed, 0 failed, 1 errors, 0 skipped") == true, "\(output)")
        #expect(
            CLI.progressLines(output.stdout) == [
                "suite/a_good.lua  ..  (2)", "suite/broken.lua  E  (1)", "suite/z_good.lua  .  (1)"
            ], "\(output)")
        #expect(output.stdout.contains("suite/broken.lua:1:"), "the syntax error names the file and line\n\(output)")

        let brokenSuite = try #require(junit.suite("suite/broken.lua"), "\(junit.raw)")
        let cases = brokenSuite.children("testcase")
        #expect(cases.count == 1, "\(junit.raw)")
        #expect(cases.first.map(JUnit.outcome) == "error", "\(junit.raw)")
        #expect(cases.first?.child("error")?["message"]?.contains("suite/broken.lua:1:") == true, "\(junit.raw)")
        #expect(brokenSuite.int("errors") == 1 && brokenSuite.int("tests") == 1)
        #expect(junit.outcome("home is the first screen") == "passed")
        #expect(junit.outcome("orders signed in, an order opens") == "passed")
        XMLLint.expectValid(fixture.url("report.xml"))
    }

    @Test func anEmptyFolderIsAUsageErrorNamingIt() throws {
        let fixture = try Fixture(["empty suite/support/helpers.lua": "return {}\n", "empty suite/notes.txt": "no lua here\n"])
        let output = try fixture.run(["run", "empty suite"])
        #expect(output.status == 2, "\(output)")
        #expect(output.stderr.contains("empty suite"), "the message names the path\n\(output)")
        #expect(!output.stdout.contains(" passed, "), "no run happened\n\(output)")
    }

    @Test func aMissingPathIsAUsageErrorNamingIt() throws {
        let fixture = try Fixture(["suite/a.lua": Self.passing])
        let output = try fixture.run(["run", "suite", "no/such/folder"])
        #expect(output.status == 2, "\(output)")
        #expect(output.stderr.contains("no/such/folder"), "\(output)")

        // Without arguments the default is scenarios/, which this folder lacks.
        let fallback = try fixture.run(["run"])
        #expect(fallback.status == 2, "\(fallback)")
        #expect(fallback.stderr.contains("scenarios"), "\(fallback)")
    }

    @Test func aFileAsThePathRunsJustThatFile() throws {
        let fixture = try Fixture(["suite/a.lua": Self.passing, "suite/fail.lua": Self.failing])
        let output = try fixture.run(["run", "suite/a.lua"])
        #expect(output.status == 0, "\(output)")
        #expect(CLI.progressLines(output.stdout) == ["suite/a.lua  ..  (2)"], "\(output)")
    }

    @Test func outputHasNoColourWhenNotATerminal() throws {
        let fixture = try Fixture(["suite/fail.lua": Self.failing])
        let plain = try fixture.run(["run", "suite"], noColor: false)
        #expect(plain.status == 1, "\(plain)")
        #expect(!plain.stdout.contains("\u{1B}["), "stdout is a file, not a TTY: no escape sequences\n\(plain)")
        #expect(plain.stdout.contains("FAIL suite/fail.lua:"))
    }

    /// A cold-start link the app rejected (a typo, the wrong door) left the app at its start
    /// screen, and the launch step read like a link that led there: the timeline says what became
    /// of it, as it does for `deep_link`.
    @Test func aColdStartLinksOutcomeIsOnTheTimeline() throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            scenario("typo", function()
              launch{ url = "shop://ordrs/42", logged_in = true }
              expect_tab("orders")
            end)
            scenario("gated", function()
              launch{ url = "shop://cart" }
              expect_tab("orders")
            end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        #expect(
            junit.testcase("typo")?.child("failure")?.text.contains(
                #"launch{ logged_in = true, url = "shop://ordrs/42", via = "scheme" } → error unknown_route"#) == true,
            "\(junit.raw)")
        #expect(
            junit.testcase("gated")?.child("failure")?.text.contains(#"launch{ url = "shop://cart", via = "scheme" } → gated auth"#)
                == true, "\(junit.raw)")
    }
}
