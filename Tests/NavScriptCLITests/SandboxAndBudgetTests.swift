import Foundation
import TestSupport
import Testing

/// Runaway and hostile scripts: the instruction budget, the memory cap,
/// the sandbox, and `require` from the suite's `support/` folder.
@Suite("run: budgets, sandbox and support modules")
struct SandboxAndBudgetTests {
    static let runaway = #"""
        scenario("before the loop", function()
          expect_screen("home")
        end)

        scenario("spins forever", function()
          while true do end -- @spins
        end)

        scenario("swallows the budget with pcall", function()
          pcall(function()
            while true do end -- @swallowed
          end)
          print("after the pcall")
        end)

        scenario("swallows one allocation larger than the cap", function()
          print(pcall(string.rep, "x", 1e8))
        end)

        scenario("spins in a coroutine", function()
          coroutine.resume(coroutine.create(function() while true do end end)) -- @coroutine
        end)

        scenario("spins in a wrapped coroutine under pcall", function()
          pcall(coroutine.wrap(function() while true do end end))
        end)

        scenario("grows a table without bound", function()
          local hoard, i = {}, 0
          while true do
            i = i + 1
            hoard[i] = string.rep("x", 64) .. i
          end
        end)

        scenario("swallows the memory limit with pcall", function()
          print(pcall(function()
            local hoard = {}
            for i = 1, 1e9 do hoard[i] = string.rep("x", 64) .. i end
          end))
        end)

        scenario("retries the allocation in a pcall loop", function()
          local hoard = {}
          for attempt = 1, 3 do
            pcall(function() for i = #hoard + 1, 1e9 do hoard[i] = string.rep("x", 64) .. i end end)
          end
          error("gave up")   -- what came of the memory error, reported as its cause
        end)

        scenario("backtracks in one pattern match", function()
          print(pcall(string.find, ("a"):rep(30), ("a*"):rep(30) .. "b"))  -- @pattern
        end)

        scenario("moves a trillion elements", function()
          table.move({}, 1, 1e12, 2)
        end)

        scenario("after the loops", function()
          tap("product", "p1")
          expect_stack{ "home", "product:p1" }
        end)
        """#

    @Test func budgetsStopRunawayScenariosAndTheRestOfTheFileStillRuns() throws {
        let fixture = try Fixture(["suite/runaway.lua": Self.runaway])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        #expect(CLI.summary(output.stdout)?.hasPrefix("2 passed, 0 failed, 10 errors, 0 skipped") == true, "\(output)")
        #expect(CLI.progressLines(output.stdout) == ["suite/runaway.lua  .EEEEEEEEEE.  (12)"], "\(output)")
        // Work inside one library call is counted too (it used to run until --timeout), and named.
        let pattern = junit.testcase("backtracks in one pattern match")?.child("error")
        #expect(pattern?["type"] == "budget", "\(junit.raw)")
        #expect(
            pattern?["message"]?.hasPrefix(
                "suite/runaway.lua:\(Lua.line(of: "@pattern", in: Self.runaway)): instruction budget exceeded: a pattern match "
                    + "backtracked that far") == true, "\(junit.raw)")
        let move = junit.testcase("moves a trillion elements")?.child("error")
        #expect(move?["type"] == "budget" && move?["message"]?.contains("spent by table.move — work done inside a single call") == true)

        // A budget spent stays spent: a coroutine or a pcall that catches its error does not bring it back.
        for name in ["spins forever", "swallows the budget with pcall", "spins in a coroutine", "spins in a wrapped coroutine under pcall"]
        {
            let error = junit.testcase(name)?.child("error")
            #expect(error?["message"]?.contains("instruction budget exceeded") == true, "\(name): \(junit.raw)")
            #expect(error?["type"] == "budget", "\(name)")
        }
        // A loop of the scenario's own is told what a wait for the app does (raising the budget would not help).
        #expect(
            junit.testcase("spins forever")?.child("error")?["message"]?.contains("a loop that waits for the app") == true,
            "\(junit.raw)")
        #expect(move?["message"]?.contains("a loop that waits for the app") == false)
        // Named where it ran out, not where the budget was raised again after the pcall caught it.
        let swallowed = junit.testcase("swallows the budget with pcall")?.child("error")?["message"] ?? ""
        #expect(
            swallowed.hasPrefix("suite/runaway.lua:\(Lua.line(of: "@swallowed", in: Self.runaway)): instruction budget exceeded"),
            "\(swallowed)")
        let inCoroutine = junit.testcase("spins in a coroutine")?.child("error")?["message"] ?? ""
        #expect(
            inCoroutine.hasPrefix("suite/runaway.lua:\(Lua.line(of: "@coroutine", in: Self.runaway)): instruction budget exceeded"),
            "where it ran out, inside the coroutine: \(inCoroutine)")
        for name in [
            "grows a table without bound", "swallows the memory limit with pcall", "retries the allocation in a pcall loop",
            "swallows one allocation larger than the cap"
        ] {
            let memory = junit.testcase(name)?.child("error")
            #expect(memory?["message"]?.contains("memory limit exceeded") == true, "\(name): \(junit.raw)")
            #expect(memory?["type"] == "memory", "\(name)")
        }
        #expect(junit.outcome("before the loop") == "passed")
        #expect(junit.outcome("after the loops") == "passed", "the file's state survives a budget and a memory error")
        #expect(output.stdout.contains("instruction budget exceeded"), "\(output)")
        #expect(output.stdout.contains("memory limit exceeded"), "\(output)")
        // The headline says where the scenario was when the limit stopped it.
        #expect(
            junit.testcase("spins forever")?.child("error")?["message"]?
                .hasPrefix("suite/runaway.lua:\(Lua.line(of: "@spins", in: Self.runaway)): instruction budget exceeded") == true,
            "\(junit.raw)")
        #expect(
            junit.testcase("grows a table without bound")?.child("error")?["message"]?
                .hasPrefix("suite/runaway.lua:") == true, "\(junit.raw)")
    }

    /// A 3 MB error message (or an expectation of a 2 MB screen name) is
    /// kept from both ends with the cut said: it made a 30 MB JUnit text
    /// node xmllint refuses, in every report and the JSON stream.
    /// Work inside library calls that the budget does not count — one call
    /// that never returns (a `table.concat` whose elements come from an
    /// `__index` that is itself `table.concat`), or a loop of slow calls
    /// (`string.packsize` of a megabyte format) — is stopped by `--timeout`
    /// at its line, in process too: every library function looks at the
    /// clock on entry (the count hook came seconds late, or never).
    @Test(arguments: [["--in-process"], []])
    func libraryWorkIsStoppedByTheTimeLimitAtItsLine(mode: [String]) throws {
        let fixture = try Fixture([
            "suite/c.lua": """
            scenario("one endless call", function()
              local proxy = setmetatable({}, { __index = table.concat, __len = rawlen })
              table.concat(proxy, "", 1, math.maxinteger)
            end)
            scenario("slow calls", function()
              local format = ("i16"):rep(2e6)
              for _ = 1, 1e9 do string.packsize(format) end
            end)
            scenario("after", function() end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite", "--timeout", "1", "--instruction-budget", "100000000000"] + mode)
        #expect(output.status == 1, "\(output)")
        for (name, line) in [("one endless call", 3), ("slow calls", 7)] {
            let error = junit.testcase(name)?.child("error")
            #expect(error?["type"] == "timeout", "\(name): \(junit.raw)")
            #expect(
                error?["message"]?.hasPrefix("suite/c.lua:\(line): timeout: the scenario ran longer than 1s") == true,
                "\(name): \(junit.raw)")
        }
        #expect(junit.outcome("after") == "passed", "\(junit.raw)")
    }

    @Test func aHugeMessageIsCappedWithTheCutSaid() throws {
        let fixture = try Fixture([
            "suite/big.lua": #"""
            scenario("big error", function() error("start " .. string.rep("e", 3e6) .. " end") end)
            scenario("big expect", function() expect_screen(string.rep("s", 2e6)) end)
            """#
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        let message = junit.testcase("big error")?.child("error")?.text ?? ""
        #expect(message.contains("start eee") && message.contains("eee end"), "both ends kept")
        #expect(message.contains("characters left out here) …") && message.utf8.count < 40_000, "\(message.utf8.count)")
        #expect(junit.testcase("big expect")?.child("failure")?.text.contains("characters left out here") == true)
        XMLLint.expectValid(fixture.url("report.xml"))
    }

    static let sandbox = #"""
        scenario("no process or shell access", function()
          assert(os.execute == nil, "os.execute is " .. tostring(os.execute))
          assert(io.popen == nil, "io.popen is " .. tostring(io.popen))
        end)

        scenario("no binary chunks", function()
          local ok, chunk = pcall(load, "\27Lua")
          assert(not (ok and chunk), "a binary chunk loaded")
        end)

        scenario("no file writes", function()
          local handle = io.open and io.open("written-by-a-scenario.txt", "w")
          if handle then handle:write("x") handle:close() end
        end)
        """#

    @Test func theSandboxHasNoShellNoBinaryChunksAndNoFileWrites() throws {
        let fixture = try Fixture(["suite/sandbox.lua": Self.sandbox])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 0, "\(output)")
        #expect(junit.outcome("no process or shell access") == "passed", "\(junit.raw)")
        #expect(junit.outcome("no binary chunks") == "passed", "\(junit.raw)")
        #expect(!fixture.exists("written-by-a-scenario.txt"), "a scenario wrote a file")
        #expect(!fixture.exists("suite/written-by-a-scenario.txt"), "a scenario wrote a file")
    }

    static let helpers = #"""
        -- A helper module: steps and checks shared by scenarios.
        local steps = {}

        function steps.open_product(id)
          tap("product", id)
        end

        function steps.expect_product(id)
          expect_stack{ "home", "product:" .. id } -- @helper-expect
        end

        steps.loaded_from_support = true
        return steps
        """#

    static let usesHelpers = #"""
        local steps = require("steps")

        scenario("require finds the suite's support module", function()
          assert(steps.loaded_from_support, "the module loaded")
          steps.open_product("p5")
          steps.expect_product("p5")
        end)

        scenario("an expectation in a helper still points at the scenario line", function()
          steps.open_product("p6")
          steps.expect_product("p7") -- @caller
        end)

        scenario("require outside support/ is refused", function()
          local ok = pcall(require, "outside")
          assert(not ok, "a module outside support/ was loaded")
        end)
        """#

    /// The scenario file sits in a subfolder of the suite, so `support/` is
    /// found in a folder above it.
    @Test func requireLoadsSupportModulesAndSupportIsNotRunAsScenarios() throws {
        let fixture = try Fixture([
            "suite/support/steps.lua": Self.helpers,
            "suite/support/not_a_scenario.lua": #"scenario("must not run", function() error("support ran") end)"#,
            "suite/checkout/uses_helpers.lua": Self.usesHelpers,
            // In the working directory, where a stock `require` would look first.
            "outside.lua": "return { leaked = true }\n"
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(junit.testcase("must not run") == nil, "support/ files are not scenarios\n\(junit.raw)")
        #expect(junit.suites.map { $0["name"] ?? "" } == ["suite/checkout/uses_helpers.lua"], "\(junit.raw)")
        #expect(output.status == 1, "\(output)")
        #expect(junit.outcome("require finds the suite's support module") == "passed", "\(output)")
        #expect(junit.outcome("require outside support/ is refused") == "passed", "\(output)")

        // The failure is reported at the scenario's line, with the helper as context.
        let callerLine = Lua.line(of: "@caller", in: Self.usesHelpers)
        let failure = junit.testcase("an expectation in a helper still points at the scenario line")?.child("failure")
        #expect(failure?["message"]?.hasPrefix("suite/checkout/uses_helpers.lua:\(callerLine)") == true, "\(junit.raw)")
        #expect(output.stdout.contains("suite/checkout/uses_helpers.lua:\(callerLine)"), "\(output)")
    }

    @Test func aWholeSuiteFolderSkipsSupport() throws {
        let fixture = try Fixture([
            "suite/support/steps.lua": Self.helpers,
            "suite/support/nested/deeper.lua": #"scenario("deeper must not run", function() end)"#,
            "suite/uses_helpers.lua": #"""
            local steps = require("steps")
            scenario("helper", function() steps.open_product("p1"); steps.expect_product("p1") end)
            """#
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 0, "\(output)")
        #expect(junit.caseNames == ["helper"], "\(junit.raw)")
        #expect(CLI.progressLines(output.stdout) == ["suite/uses_helpers.lua  .  (1)"], "\(output)")
    }

    /// Reports name files relative to the working directory, like every other
    /// path in them, support modules included.
    @Test func timelineStepsFromSupportModulesUseRelativePaths() throws {
        let fixture = try Fixture(["suite/support/steps.lua": Self.helpers, "suite/uses_helpers.lua": Self.usesHelpers])
        let (_, junit) = try fixture.runWithJUnit(["suite"])
        let systemOut = junit.testcase("require finds the suite's support module")?.child("system-out")?.text ?? ""
        #expect(systemOut.contains("suite/support/steps.lua:"), "\(junit.raw)")
        #expect(!junit.raw.contains(fixture.root.lastPathComponent), "absolute path in the report:\n\(systemOut)")
    }

    /// Putting a module back after a scenario that grew it (300,000 entries added to its table) is
    /// navscript's work: it ran inside the next scenario's budget, and that trivial scenario errored
    /// with "instruction budget exceeded" while the one that made the mess passed.
    @Test func puttingAModuleBackIsNotChargedToTheNextScenario() throws {
        let fixture = try Fixture([
            "suite/support/mod.lua": "return { version = 1 }\n",
            "suite/a.lua": """
            local mod = require("mod")
            scenario("grows the module", function()
              for i = 1, 300000 do mod[i] = true end
              expect_tab("home")
            end)
            scenario("trivial", function() expect_tab("home") assert(mod[1] == nil, "put back") end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["--instruction-budget", "2000000", "suite"])
        #expect(output.status == 0, "\(output)")
        #expect(junit.outcome("trivial") == "passed", "\(junit.raw)")
    }

    /// A helper of the file's own (a local function) is placed like a support module's: at the
    /// scenario's line that called it, with the helper's line after it. It was placed at the
    /// helper's line alone — outside the scenario, where a CI annotation landed and a replay of
    /// that line selected nothing. (A pcall's function written inline keeps its own line.)
    @Test func aLocalHelpersFailureIsPlacedAtTheScenariosLine() throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            local function open_order(id)
              select_tab("orders")
              tap("order", { id = id })
            end
            scenario("helper", { launch = { logged_in = true } }, function()
              open_order(42)
              back()
              open_order("x")
            end)
            scenario("inline pcall", function()
              pcall(function()
                expect_tab("orders")
              end)
            end)
            scenario("helper through pcall", { launch = { logged_in = true } }, function()
              pcall(open_order, "x")
            end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        let failure = junit.testcase("helper")?.child("failure")
        #expect(failure?["message"]?.hasPrefix("suite/a.lua:8 (in suite/a.lua:3): tap: ") == true, "\(junit.raw)")
        #expect(junit.testcase("helper")?["line"] == "8" || !junit.raw.contains("line=\"3\""), "\(junit.raw)")
        #expect(failure?.text.contains("suite/a.lua:6 (in suite/a.lua:2)  select_tab(\"orders\")") == true, "\(junit.raw)")
        #expect(
            junit.testcase("inline pcall")?.child("failure")?["message"]?.hasPrefix("suite/a.lua:12: the selected tab is 'home'") == true,
            "\(junit.raw)")
        #expect(
            junit.testcase("helper through pcall")?.child("failure")?["message"]?.hasPrefix("suite/a.lua:16 (in suite/a.lua:3): tap: ")
                == true, "\(junit.raw)")
    }
}
