import Foundation
import Testing

/// The structural half of the scenario language, end to end: `describe`,
/// hooks, `pending`, data-driven scenarios, unique full names.
@Suite("language: describe, hooks, pending, scenario.each, names")
struct LanguageStructureTests {
    static let hooks = #"""
        describe("outer", function()
          before_each(function() print("before outer") end)
          after_each(function() print("after outer") end)

          describe("inner", function()
            before_each(function() print("before inner") end)
            after_each(function() print("after inner") end)

            scenario("fails in the body", function() -- @fails
              print("body")
              expect_screen("cart")
              print("not reached")
            end)

            scenario("errors in the body", function()
              error("kaboom")
            end)
          end)

          scenario("passes", function()
            print("outer body")
          end)
        end)

        scenario("top level, no hooks", function()
          print("alone")
        end)
        """#

    @Test func hooksNestOutsideInAndAfterEachRunsAfterAFailureAndAnError() throws {
        let fixture = try Fixture(["suite/hooks.lua": Self.hooks])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        func printed(_ name: String) -> [String] {
            let text = junit.testcase(name)?.child("system-out")?.text ?? ""
            guard let range = text.range(of: "output:\n") else { return [] }
            return text[range.upperBound...].split(separator: "\n").map(String.init)
        }
        #expect(
            printed("outer inner fails in the body") == ["before outer", "before inner", "body", "after inner", "after outer"],
            "\(junit.raw)")
        #expect(
            printed("outer inner errors in the body") == ["before outer", "before inner", "after inner", "after outer"],
            "\(junit.raw)")
        #expect(printed("outer passes") == ["before outer", "outer body", "after outer"], "\(junit.raw)")
        #expect(printed("top level, no hooks") == ["alone"], "\(junit.raw)")
        #expect(junit.outcome("outer inner fails in the body") == "failure")
        #expect(junit.outcome("outer inner errors in the body") == "error")
        // The describe chain is part of the name and, dotted, of the classname.
        #expect(junit.testcase("outer inner fails in the body")?["classname"] == "suite.hooks.outer.inner", "\(junit.raw)")
        #expect(junit.testcase("top level, no hooks")?["classname"] == "suite.hooks", "\(junit.raw)")
        // The console shows what the scenario printed.
        #expect(output.stdout.contains("FAIL suite/hooks.lua:\(Lua.line(of: "@fails", in: Self.hooks))  outer inner fails in the body"))
        #expect(output.stdout.contains("after outer"), "\(output)")
    }

    static let hookFailures = #"""
        describe("setup breaks", function()
          before_each(function() error("setup broke") end)
          after_each(function() print("cleanup ran") end)
          scenario("body is skipped", function() print("body ran") end)
        end)

        describe("teardown fails", function()
          after_each(function() expect_tab("orders") end)
          scenario("body passes", function() print("body ran") end)
        end)
        """#

    @Test func aBrokenBeforeEachIsAnErrorAndAFailingAfterEachFailsThePassingScenario() throws {
        let fixture = try Fixture(["suite/hook_failures.lua": Self.hookFailures])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        let setup = try #require(junit.testcase("setup breaks body is skipped"), "\(junit.raw)")
        #expect(JUnit.outcome(setup) == "error")
        #expect(setup.child("error")?["message"]?.contains("setup broke") == true)
        #expect(setup.child("error")?["message"]?.contains("before_each") == true, "the phase is named")
        let setupOut = setup.child("system-out")?.text ?? ""
        #expect(setupOut.contains("cleanup ran") && !setupOut.contains("body ran"), "\(junit.raw)")

        let teardown = try #require(junit.testcase("teardown fails body passes"))
        #expect(JUnit.outcome(teardown) == "failure", "\(junit.raw)")
        #expect(teardown.child("failure")?["message"]?.contains("after_each") == true, "\(junit.raw)")
    }

    static let pendingAndRows = #"""
        pending("checkout with two payment methods")
        pending("parked while it is rewritten", function() error("a pending scenario's fn must not run") end)

        describe("products", function()
          scenario.each({ -- @rows
            { id = "p1", url = "shop://product/p1" },
            { id = "p22", url = "shop://p/p22" },
            { id = "p333", url = "shop://deeplink?product=p333" },
          }, "$url opens product $id (row $#)", function(row)
            deep_link(row.url)
            expect_stack{ "home", "product:" .. row.id }
          end)
        end)

        scenario.each({ { tab = "orders" }, { tab = "profile" } }, "select a tab", function(row)
          select_tab(row.tab)
          expect_tab(row.tab)
        end)
        """#

    /// A scenario parked by renaming `scenario` to `pending` keeps loading, with its tags.
    /// Limits of Lua itself, said in the file's terms: nesting past what Lua
    /// can call or parse, and modules that require each other, used to end
    /// in a bare "C stack overflow".
    @Test func nestingAndRequireCyclesAreNamed() throws {
        func nested(_ depth: Int) -> String {
            (0..<depth).map { "describe(\"d\($0)\", function()\n" }.joined() + "scenario(\"x\", function() end)\n"
                + String(repeating: "end)\n", count: depth)
        }
        let fixture = try Fixture([
            "suite/deep.lua": nested(45),
            "suite/deeper.lua": nested(99),
            "suite/fine.lua": nested(30),
            "suite/cycle.lua": "require(\"a\")\nscenario(\"x\", function() end)",
            "suite/support/a.lua": "return require(\"b\")",
            "suite/support/b.lua": "return require(\"a\")",
            // Lua's library functions cannot be removed or replaced (the language keeps its own anyway).
            "suite/overridden.lua": #"""
            table.concat, table.unpack, string.format = nil, nil, nil
            describe("group", function() scenario("still declared", function() end) end)
            """#
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(
            junit.outcome("d0 d1 d2 d3 d4 d5 d6 d7 d8 d9 d10 d11 d12 d13 d14 d15 d16 d17 d18 d19 d20 d21 d22 d23 d24 d25 d26 d27 d28 d29 x")
                == "passed")
        #expect(
            junit.testcase("suite/deep.lua (load)")?.child("error")?["message"]?.contains(
                "suite/deep.lua:41: describe(\"d40\"): describe blocks nested more than 40 deep") == true, "\(junit.raw)")
        #expect(
            junit.testcase("suite/deeper.lua (load)")?.child("error")?["message"]?.hasPrefix(
                "suite/deeper.lua: the file nests too deeply for Lua to read") == true, "\(junit.raw)")
        #expect(
            junit.testcase("suite/cycle.lua (load)")?.child("error")?["message"]?.contains(
                "require cycle: a → b → a — module 'a' is required again while it is still loading") == true, "\(junit.raw)")
        #expect(
            junit.testcase("suite/overridden.lua (load)")?.child("error")?["message"]?.contains(
                "suite/overridden.lua:1: string.format is one of the scenario language's (or Lua's) own library functions and "
                    + "cannot be removed")
                == true, "\(output)")
    }

    /// The language's globals cannot be replaced: one scenario that set
    /// `expect_screen` to a function that checks nothing made every scenario
    /// after it pass (and the run's result depended on the order). Own
    /// globals are fine; `pairs(_G)` still lists the language.
    /// A row changed after its scenario was declared does not change that scenario: it runs with
    /// the row its name was made from.
    @Test func aRowChangedAfterItsDeclarationRunsAsDeclared() throws {
        let fixture = try Fixture([
            "suite/rows.lua": #"""
            local rows = { { tab = "home" }, { tab = "orders" } }
            scenario.each(rows, "tab $tab", function(row)
              select_tab(row.tab)
              expect_tab(row.tab)
              print("ran with " .. row.tab)
            end)
            rows[1].tab = "profile"
            rows[2] = { tab = "nowhere" }
            """#
        ])
        let output = try fixture.run(["run", "suite", "--show-output"])
        #expect(output.status == 0, "\(output)")
        #expect(output.stdout.contains("tab home\n    output:\n      ran with home"), "\(output)")
        #expect(output.stdout.contains("tab orders\n    output:\n      ran with orders"), "\(output)")
    }

    @Test func aScenarioCannotReplaceTheLanguageForTheOnesAfterIt() throws {
        let fixture = try Fixture([
            "suite/override.lua": #"""
            scenario("replaces a check", function() expect_screen = function() end end)
            scenario("still checked", function() expect_screen("cart") end)
            scenario("rawset too", function() rawset(_G, "assert", function() end) end)
            scenario("own globals", function()
              helper = 1 helper = 2 assert(helper == 2)
              local seen = false
              for name in pairs(_G) do if name == "expect_screen" then seen = true end end
              assert(seen, "pairs(_G) lists the language")
            end)
            """#,
            "suite/top.lua": "assert = function() end\nscenario(\"x\", function() assert(false) end)",
            "suite/library.lua": #"""
            scenario("replaces string.find", function() string.find = function() return 1 end end)
            scenario("still finds", function() assert(not ("home"):find("orders")) end)
            scenario("rawset on a library", function() rawset(math, "random", function() return 4 end) end)
            scenario("the string metatable", function() getmetatable("").__index = nil end)
            scenario("own helpers", function()
              function string.trim(text) return (text:gsub("^%s+", ""):gsub("%s+$", "")) end
              assert(string.trim("  a ") == "a" and ("x"):upper() == "X")
              local names = 0
              for _ in pairs(string) do names = names + 1 end
              assert(names > 10, "pairs(string) lists the library")
            end)
            """#
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 2, "\(output)")
        let replaced = junit.testcase("replaces a check")?.child("error")?["message"] ?? ""
        #expect(
            replaced.hasPrefix(
                "suite/override.lua:1: expect_screen is one of the scenario language's (or Lua's) own globals and cannot be replaced"),
            "\(junit.raw)")
        #expect(junit.outcome("still checked") == "failure", "\(junit.raw)")
        #expect(junit.outcome("rawset too") == "error", "\(junit.raw)")
        #expect(junit.outcome("own globals") == "passed", "\(junit.raw)")
        // The same for the functions of Lua's libraries and the string metatable.
        #expect(
            junit.testcase("replaces string.find")?.child("error")?["message"]?.hasPrefix(
                "suite/library.lua:1: string.find is one of the scenario language's (or Lua's) own library functions and "
                    + "cannot be replaced") == true, "\(junit.raw)")
        #expect(junit.outcome("still finds") == "passed", "\(junit.raw)")
        #expect(junit.outcome("rawset on a library") == "error", "\(junit.raw)")
        #expect(junit.outcome("the string metatable") == "error", "\(junit.raw)")
        #expect(junit.outcome("own helpers") == "passed", "\(junit.raw)")
        #expect(
            junit.testcase("suite/top.lua (load)")?.child("error")?["message"]?.contains("assert is one of the scenario language's")
                == true,
            "\(junit.raw)")
    }

    /// Nor what `require` reads: a stub one scenario put in package.preload,
    /// package.searchers or package.loaded for a support module made a later
    /// scenario's check vanish (it passed in its file and failed alone). The
    /// tables are put back as the top level left them before each scenario;
    /// package's fields and the tables' metatables cannot be replaced; a
    /// module required at the top level stays the one loaded, and its
    /// tables — fields, nested tables, metatables, also one a scenario
    /// protected with `__metatable` — (and a library's fields the file
    /// added) are put back too.
    @Test func aScenarioCannotStubAModuleForTheOnesAfterIt() throws {
        let stubs = [
            "preload": #"package.preload["helpers"] = function() return { check = function() end } end"#,
            "searchers": #"table.insert(package.searchers, 1, function() return function() return { check = function() end } end end)"#,
            "loaded": #"package.loaded["helpers"] = { check = function() end }"#
        ]
        var files: [String: String] = [
            "suite/support/helpers.lua": #"""
            local base = { inherited = function() error("inherited checked", 2) end }
            return setmetatable(
              { check = function() error("checked", 2) end, config = { strict = true, deep = { a = { b = { flag = true } } } } },
              { __index = base })
            """#,
            "suite/support/kept.lua": "return {}",
            "suite/field.lua": #"""
            local helpers = require("helpers")
            function string.shout(text) return text:upper() .. "!" end
            scenario("a field stubbed", function()
              helpers.check = function() end
              helpers.extra = true
              helpers.config.strict = false
              helpers.config.deep.a.b.flag = false
              getmetatable(helpers).__index.inherited = function() end
              string.shout = function() return "A!" end
            end)
            scenario("a metatable replaced", function() setmetatable(helpers, { __index = { inherited = function() end } }) end)
            scenario("a metatable replaced by a protected one", function()
              setmetatable(helpers, { __index = { inherited = function() end }, __metatable = "the stub's" })
            end)
            scenario("a metatable added, package.path set", function()
              setmetatable(helpers.config, { __index = function() return "stubbed" end })
              package.path = "elsewhere/?.lua"
            end)
            scenario("a field still checked", function()
              assert(require("helpers").extra == nil and ("b"):shout() == "B!", "the stubs were put back")
              assert(helpers.config.strict == true and helpers.config.deep.a.b.flag, "and the tables inside the module")
              assert(not pcall(helpers.inherited), "and its metatable, and the table its __index reads")
              assert(getmetatable(helpers.config) == nil and package.path ~= "elsewhere/?.lua", "and what was added")
              require("helpers").check()
            end)
            """#,
            "suite/replace.lua": #"""
            local kept = require("kept")
            scenario("replaces package.loaded", function() package.loaded = {} end)
            scenario("rawsets package.searchers", function() rawset(package, "searchers", {}) end)
            scenario("a metatable on package.loaded", function()
              setmetatable(package.loaded, { __index = function() return {} end })
            end)
            scenario("the top level's module stays loaded", function()
              assert(require("kept") == kept)
              package.path = "elsewhere/?.lua"
            end)
            """#
        ]
        for (name, stub) in stubs {
            files["suite/\(name).lua"] = """
                scenario("\(name) stubbed", function() \(stub) end)
                scenario("\(name) still checked", function() require("helpers").check() end)
                """
        }
        let fixture = try Fixture(files)
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        for name in stubs.keys {
            #expect(junit.outcome("\(name) stubbed") == "passed", "\(name): \(junit.raw)")
            #expect(junit.outcome("\(name) still checked") == "error", "\(name): \(junit.raw)")
        }
        #expect(
            junit.testcase("replaces package.loaded")?.child("error")?["message"]?.hasPrefix(
                "suite/replace.lua:2: package.loaded is one of the scenario language's (or Lua's) own library fields and cannot be replaced"
            )
                == true, "\(junit.raw)")
        #expect(junit.outcome("rawsets package.searchers") == "error", "\(junit.raw)")
        #expect(
            junit.testcase("a metatable on package.loaded")?.child("error")?["message"]?.contains("cannot change a protected metatable")
                == true, "\(junit.raw)")
        #expect(junit.outcome("the top level's module stays loaded") == "passed", "\(junit.raw)")
        #expect(junit.outcome("a field stubbed") == "passed", "\(junit.raw)")
        #expect(
            junit.testcase("a field still checked")?.child("error")?["message"]?.contains("checked") == true,
            "the module's own check ran: \(junit.raw)")
    }

    /// A stub test's file: "stubs" passes, and "still checked", after it, reaches the real helper.
    private func expectTheStubPutBack(_ fixture: Fixture, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (output, junit) = try fixture.runWithJUnit(["suite"], sourceLocation: sourceLocation)
        #expect(output.status == 1, "\(output)", sourceLocation: sourceLocation)
        #expect(junit.outcome("stubs") == "passed", "\(junit.raw)", sourceLocation: sourceLocation)
        #expect(
            junit.testcase("still checked")?.child("error")?["message"]?.contains("helper checked") == true, "\(junit.raw)",
            sourceLocation: sourceLocation)
    }

    /// Nor the file's own globals: a helper a support module or the top level made global, a
    /// global table's fields, a global a scenario added — one scenario's stub ran every scenario
    /// after it, which passed in its file and failed alone. They are put back as the top level
    /// left them.
    @Test func aScenarioCannotStubAGlobalForTheOnesAfterIt() throws {
        let fixture = try Fixture([
            "suite/support/globals.lua": #"""
            function checked_helper() error("helper checked", 2) end
            shared_state = { strict = true }
            return true
            """#,
            "suite/g.lua": #"""
            require("globals")
            function top_level_check() error("top level checked", 2) end
            scenario("stubs", function()
              checked_helper = function() end
              top_level_check = function() end
              shared_state.strict = false
              added_by_a_scenario = true
            end)
            scenario("still checked", function()
              assert(shared_state.strict == true and added_by_a_scenario == nil, "the globals were put back")
              assert(not pcall(top_level_check), "the top level's global too")
              checked_helper()
            end)
            """#
        ])
        try expectTheStubPutBack(fixture)
    }

    /// A coroutine that declares scenarios and is left at a yield when the file has loaded dropped
    /// every declaration after the yield, without a word: the file does not load, and says where.
    @Test func aCoroutineLeftAtAYieldWhileDeclaringIsTheFilesError() throws {
        let fixture = try Fixture([
            "suite/gen.lua": #"""
            local declare = coroutine.wrap(function()
              scenario("first", function() launch{} end)
              coroutine.yield()
              scenario("second, never declared", function() expect_screen("nope") end)
            end)
            declare()
            """#,
            "suite/finished.lua": #"""
            local declare = coroutine.wrap(function()
              scenario("declared in a coroutine that finished", function() launch{} end)
              coroutine.yield()
            end)
            declare()
            declare()
            """#
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 2, "\(output)")
        #expect(
            junit.testcase("suite/gen.lua (load)")?.child("error")?["message"]?.contains(
                "suite/gen.lua:3: a coroutine that declared scenarios or hooks is still suspended at this yield") == true,
            "\(junit.raw)")
        #expect(junit.outcome("declared in a coroutine that finished") == "passed", "\(junit.raw)")
    }

    /// Nor the file's own local variables its scenarios use: `local helpers = {}` at the top, one
    /// scenario's `helpers.check = stub` or `check = stub` ran every scenario after it. Each starts
    /// with them as the top level left them; a helper function's own locals stay its own.
    @Test func aScenarioCannotStubAFileLocalForTheOnesAfterIt() throws {
        let fixture = try Fixture([
            "suite/l.lua": #"""
            local helpers = { check = function() error("helper checked", 2) end }
            local function check() error("local checked", 2) end
            local count = 0
            scenario("stubs", function()
              helpers.check = function() end
              check = function() end
              count = count + 1
            end)
            scenario("still checked", function()
              assert(count == 0, "the local was put back")
              assert(not pcall(check), "and the local function")
              helpers.check()
            end)
            """#
        ])
        try expectTheStubPutBack(fixture)
    }

    /// A describe whose body raised declared only the scenarios before the
    /// error: under a pcall the file loaded without the rest, green. It does
    /// not load, and says why.
    @Test func aDescribeWhoseBodyRaisedDoesNotLoadEvenUnderAPcall() throws {
        let fixture = try Fixture([
            "suite/half.lua": """
            pcall(describe, "group", function()
              scenario("one", function() end)
              error("boom")
              scenario("two", function() expect_tab("orders") end)
            end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 2, "\(output)")
        #expect(
            junit.testcase("suite/half.lua (load)")?.child("error")?["message"]?.hasPrefix(
                #"suite/half.lua:1: describe("group"): its body raised an error, so the scenarios after that point were never "#
                    + "declared: suite/half.lua:3: boom") == true, "\(junit.raw)")
    }

    /// The same for a pcall at the top level around declarations: an error
    /// after some were made cut the rest (the file ran green without them),
    /// and so did one row of a loop whose pcall declares a scenario per row,
    /// when that row's data raised before its declaration (in either order);
    /// a pcall that never declares and caught an error is the file's own
    /// business.
    @Test func declarationsCutShortUnderAPcallMakeTheFileNotLoad() throws {
        let fixture = try Fixture([
            "suite/cut.lua": """
            pcall(function()
              scenario("one", function() end)
              error("boom")
              scenario("two", function() expect_tab("orders") end)
            end)
            """,
            "suite/rows.lua": """
            for _, row in ipairs({ { id = "1" }, {}, { id = "3" } }) do
              pcall(function() scenario("row " .. row.id, function() end) end)
            end
            """,
            "suite/first.lua": """
            for _, row in ipairs({ {}, { id = "2" } }) do
              pcall(function() scenario("row " .. row.id, function() end) end)
            end
            """,
            "suite/co.lua": """
            for _, row in ipairs({ { id = "1" }, {} }) do
              coroutine.resume(coroutine.create(function() scenario("row " .. row.id, function() end) end))
            end
            """,
            "suite/close.lua": """
            for _, row in ipairs({ { id = "1" }, {} }) do
              local co = coroutine.create(function()
                local declare <close> = setmetatable({}, { __close = function() scenario("row " .. row.id, function() end) end })
                coroutine.yield()
              end)
              coroutine.resume(co)
              coroutine.close(co)
            end
            """,
            "suite/fine.lua": """
            local ok = pcall(error, "optional setup failed")
            xpcall(function() error("before any declaration") end, function(e) return e end)
            scenario("declared after", function() expect_tab("home") end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 2, "\(output)")
        #expect(
            junit.testcase("suite/cut.lua (load)")?.child("error")?["message"]?.hasPrefix(
                "suite/cut.lua:1: a pcall caught an error raised after 1 scenario was declared inside it, so the declarations "
                    + "after that point were never made: suite/cut.lua:3: boom") == true, "\(junit.raw)")
        for file in ["rows", "first"] {
            #expect(
                junit.testcase("suite/\(file).lua (load)")?.child("error")?["message"]?.hasPrefix(
                    "suite/\(file).lua:2: this pcall declares scenarios at some calls, but at another it caught an error before "
                        + "declaring any, so that call's scenarios were never made: suite/\(file).lua:2: attempt to concatenate a nil "
                        + "value (field 'id')") == true, "\(junit.raw)")
        }
        #expect(
            junit.testcase("suite/close.lua (load)")?.child("error")?["message"]?.hasPrefix(
                "suite/close.lua:7: this coroutine.close declares scenarios at some calls, but at another it caught an error")
                == true, "\(junit.raw)")
        #expect(
            junit.testcase("suite/co.lua (load)")?.child("error")?["message"]?.hasPrefix(
                "suite/co.lua:2: this coroutine.resume declares scenarios at some calls, but at another it caught an error")
                == true, "\(junit.raw)")
        #expect(junit.outcome("declared after") == "passed", "\(junit.raw)")
    }

    /// A wrong call of the language is the scenario's error even when a
    /// `pcall` caught it (a soft-check helper made a misspelt event or an
    /// unknown launch option pass), and a proxy table is refused, not read
    /// as empty (`expect_modals(readonly{"settings"})` checked for none).
    @Test func aWrongCallOrAProxyTableCannotPass() throws {
        let fixture = try Fixture([
            "suite/soft.lua": #"""
            local function check(f, ...) return pcall(f, ...) end
            scenario("misspelt item", function() check(expect_no_event, "presnt login") end)
            scenario("unknown launch option", function() check(launch, { experiment = "nope" }) end)
            scenario("own error caught", function() local ok = pcall(error, "mine") assert(not ok) end)
            local function readonly(t) return setmetatable({}, { __index = t, __len = function() return #t end }) end
            scenario("proxy", { launch = { logged_in = true } }, function() expect_modals(readonly{ "settings" }) end)
            """#
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        for name in ["misspelt item", "unknown launch option"] {
            #expect(
                junit.testcase(name)?.child("error")?["message"]?.contains(
                    "a pcall caught this error, but a wrong call is the scenario's error")
                    == true, "\(name): \(junit.raw)")
        }
        #expect(junit.outcome("own error caught") == "passed", "a script's own errors stay its own to catch")
        #expect(junit.testcase("proxy")?.child("error")?["message"]?.contains("a table with a metatable") == true, "\(junit.raw)")
    }

    /// What a file does at its top level is kept: a failed `assert` a
    /// `pcall` caught still fails the load, and what it printed reaches the
    /// report — with its first scenario, or with the load error — in workers
    /// as in process.
    @Test(arguments: ["", "--in-process"])
    func whatAFileDidAtItsTopLevelIsKept(_ mode: String) throws {
        let fixture = try Fixture([
            "suite/assert.lua": "pcall(assert, false, \"checked at load\")\nscenario(\"s\", function() end)",
            "suite/printed.lua": "print(\"LOADTIME\")\nscenario(\"first\", function() print(\"in body\") end)",
            "suite/broken.lua": "print(\"before the error\")\nerror(\"boom\")"
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite", "--show-output"] + (mode.isEmpty ? [] : [mode]))
        #expect(output.status == 2, "\(output)")
        #expect(
            junit.testcase("suite/assert.lua (load)")?.child("error")?["message"]?.hasPrefix(
                "suite/assert.lua:1: checked at load (while the file loaded") == true, "\(junit.raw)")
        #expect(
            junit.testcase("first")?.child("system-out")?.text.contains("(printed while the file loaded)\nLOADTIME\nin body") == true,
            "\(junit.raw)")
        #expect(junit.testcase("suite/broken.lua (load)")?.child("system-out")?.text.contains("before the error") == true, "\(junit.raw)")
    }

    @Test func aScenarioRenamedToPendingStillLoads() throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            pending("parked", { tags = { "slow" }, launch = { logged_in = true } }, function() error("not run") end)
            scenario("written", function() end)
            """
        ])
        let run = try fixture.run(["run", "suite"])
        #expect(run.status == 0 && CLI.summary(run.stdout)?.hasPrefix("1 passed, 0 failed, 0 errors, 1 skipped") == true, "\(run)")
        let tagged = try fixture.run(["list", "suite", "--tags", "slow"])
        #expect(tagged.stdout.contains("parked") && !tagged.stdout.contains("written"), "\(tagged)")
    }

    @Test func pendingIsSkippedAndDataDrivenRowsAreNamedFromTheRow() throws {
        let fixture = try Fixture(["suite/rows.lua": Self.pendingAndRows])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 0, "pending is not a failure\n\(output)")
        #expect(CLI.summary(output.stdout)?.hasPrefix("5 passed, 0 failed, 0 errors, 2 skipped") == true, "\(output)")
        #expect(
            junit.caseNames == [
                "checkout with two payment methods",
                "parked while it is rewritten",
                "products shop://product/p1 opens product p1 (row 1)",
                "products shop://p/p22 opens product p22 (row 2)",
                "products shop://deeplink?product=p333 opens product p333 (row 3)",
                "select a tab [1]",
                "select a tab [2]"
            ], "\(junit.raw)")
        let pending = try #require(junit.testcase("checkout with two payment methods"))
        #expect(JUnit.outcome(pending) == "skipped")
        #expect(pending.child("skipped")?["message"]?.isEmpty == false)
        #expect(output.stdout.contains("PENDING suite/rows.lua:1  checkout with two payment methods"), "\(output)")
        let rowLine = Lua.line(of: "@rows", in: Self.pendingAndRows)
        #expect(junit.testcase("products shop://p/p22 opens product p22 (row 2)")?["line"] == String(rowLine))
        #expect(junit.suite("suite/rows.lua")?.int("skipped") == 2)
        #expect(junit.testcase("parked while it is rewritten").map(JUnit.outcome) == "skipped", "\(junit.raw)")
    }

    @Test(arguments: [
        (
            "same name in one describe",
            #"""
            describe("g", function()
              scenario("x", function() end)
              scenario("x", function() end) -- @dup
            end)
            """#
        ),
        (
            "a describe chain colliding with a top-level name",
            #"""
            describe("g", function() scenario("x", function() end) end)
            scenario("g x", function() end) -- @dup
            """#
        ),
        (
            "two data rows with the same label",
            #"""
            scenario.each({ { k = "a" }, { k = "a" } }, "row $k", function() end) -- @dup
            """#
        )
    ])
    func duplicateFullNamesMakeTheFileALoadError(label: String, source: String) throws {
        let fixture = try Fixture(["suite/dup.lua": source, "suite/ok.lua": #"scenario("fine", function() end)"#])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 2, "\(label)\n\(output)")
        let cases = junit.suite("suite/dup.lua")?.children("testcase") ?? []
        #expect(cases.count == 1 && cases.first.map(JUnit.outcome) == "error", "\(label)\n\(junit.raw)")
        let message = cases.first?.child("error")?["message"] ?? ""
        #expect(message.contains("duplicate"), "\(label): \(message)")
        #expect(message.contains("suite/dup.lua:\(Lua.line(of: "@dup", in: source))"), "\(label): \(message)")
        #expect(junit.outcome("fine") == "passed", "the other file still ran")
    }

    @Test(arguments: [
        (#"scenario("no body") -- @bad"#, #"scenario("no body", [options,] fn): fn must be a function, got nil"#),
        (
            #"scenario("odd options", 5, function() end) -- @bad"#,
            #"scenario("odd options", [options,] fn): options must be a table, got number"#
        ),
        (
            #"scenario.each({ {} }, "rows", {}) -- @bad"#,
            #"scenario.each(rows, "rows", [options,] fn): fn is missing: the table given was taken as the options"#
        ),
        (
            #"scenario("callable", setmetatable({}, { __call = function() end })) -- @bad"#,
            #"scenario("callable", [options,] fn): fn is missing: the table given was taken as the options; the body must be a function"#
        ),
        (#"describe("group", "not a function") -- @bad"#, #"describe("group", fn): fn must be a function, got string"#),
        (
            #"scenario("typo", { tagz = { "smoke" } }, function() end) -- @bad"#,
            #"scenario "typo": unknown option 'tagz'; did you mean 'tags'? the options are: tags, launch, allow"#
        ),
        (#"scenario("listed", { "smoke" }, function() end) -- @bad"#, #"scenario "listed": options are name = value pairs"#),
        (
            #"scenario("tagged", { tags = { "smoke", 1 } }, function() end) -- @bad"#,
            #"scenario "tagged": tags must be a string or a list of strings; got a number"#
        ),
        (
            #"scenario("no reason", { allow = { leaks = "" } }, function() end) -- @bad"#,
            #"scenario "no reason": allow: 'leaks' needs a reason"#
        ),
        (
            #"scenario("extra", function() end, "more") -- @bad"#,
            #"scenario("extra", [options,] fn): fn must come last, got a string after it"#
        ),
        (
            #"scenario("extra", { tags = { "t" } }, function() end, "more") -- @bad"#,
            #"scenario("extra", [options,] fn): fn must come last, got 1 more argument after it"#
        ),
        (
            #"scenario.each({ {} }, "rows", {}, function() end, 1, 2) -- @bad"#,
            #"scenario.each(rows, "rows", [options,] fn): fn must come last, got 2 more arguments after it"#
        ),
        (
            #"describe("gated", { tags = { "t" } }, function() end) -- @bad"#,
            #"describe("gated", options, fn): describe takes no options; give them to each scenario inside it"#
        ),
        (
            #"scenario.each({}, "rows", function() end) -- @bad"#,
            #"scenario.each(rows, "rows", …): rows is empty, so no scenario would be declared; give at least one row"#
        ),
        (
            #"scenario.each({ first = { id = 1 } }, "rows", function() end) -- @bad"#,
            #"scenario.each(rows, "rows", …): rows must be a list starting at rows[1] ({ row, row, … }); this one has no rows[1]"#
        ),
        (
            #"scenario.each({ { id = 1 }, nil, { id = 3 } }, "row $id", function() end) -- @bad"#,
            #"scenario.each(rows, "row $id", …): rows has a hole: rows[2] is nil but rows[3] is not"#
        ),
        (
            #"scenario.each({ { id = 1 }, extra = { id = 2 } }, "row $id", function() end) -- @bad"#,
            #"scenario.each(rows, "row $id", …): rows has an entry under the key "extra" beside its list of 1, so that row would be dropped"#
        ),
        (
            #"scenario.each({ { id = 1 }, [0] = { id = 0 } }, "row $id", function() end) -- @bad"#,
            #"scenario.each(rows, "row $id", …): rows has an entry under the key 0 beside its list of 1"#
        ),
        (
            #"scenario.each({ nil, { id = 2 } }, "rows", function() end) -- @bad"#,
            #"scenario.each(rows, "rows", …): rows must be a list starting at rows[1]"#
        ),
        (
            #"scenario.each({ { tab = "a" }, "oops" }, "$tab starts", function(row) end) -- @bad"#,
            #"scenario.each(rows, "$tab starts", …): row 2 is a string, but the name reads its field $tab"#
        ),
        (
            #"scenario.each({ { tab = "a" } }, "$tba starts", function(row) end) -- @bad"#,
            #"scenario.each(rows, "$tba starts", …): row 1 has no field "tba" for $tba in the name; give every row that field"#
        ),
        (
            #"scenario.each({ { tab = "a" }, {} }, "$tab starts", function(row) end) -- @bad"#,
            #"scenario.each(rows, "$tab starts", …): row 2 has no field "tab" for $tab in the name"#
        ),
        (
            #"scenario.each({ { v = "x" }, { v = "  " } }, "$v", function(row) end) -- @bad"#,
            #"scenario.each(rows, "$v", …): row 2 names its scenario "  ", which is blank"#
        ),
        (
            #"scenario.each({ { tab = "a" } }, "${tba}s", function(row) end) -- @bad"#,
            #"scenario.each(rows, "${tba}s", …): row 1 has no field "tba" for $tba in the name"#
        ),
        (
            #"scenario.each({ { "a" } }, "from ${1} to ${2}", function(row) end) -- @bad"#,
            #"scenario.each(rows, "from ${1} to ${2}", …): row 1 has no item 2 for $2 in the name; give every row that item"#
        ),
        (
            #"scenario.each({ "a" }, "tab ${1}", function(row) end) -- @bad"#,
            #"scenario.each(rows, "tab ${1}", …): row 1 is a string, but the name reads its item $1; give each row as a table ({ … })"#
        ),
        (
            #"scenario("tagged", { tags = { "a,b" } }, function() end) -- @bad"#,
            #"scenario "tagged": tag "a,b" cannot be selected: --tags separates tags with commas"#
        ),
        (
            #"scenario("tagged", { tags = { "smoke\u{200B}" } }, function() end) -- @bad"#,
            #"scenario "tagged": tag "smoke<U+200B>" cannot be selected: --tags separates tags with commas, so a tag must be "#
                + "one word without commas, spaces or characters nothing draws"
        ),
        (#"scenario("", function() end) -- @bad"#, "scenario(name, [options,] fn): the name is empty; give it a name"),
        (#"scenario(" \t", { tags = { "t" } }, function() end) -- @bad"#, "scenario(name, [options,] fn): the name is only blanks"),
        (
            #"scenario(string.rep("n", 2000), function() end) -- @bad"#,
            "the scenario's name is 2000 code points long (with its groups'); names are headings and what --filter selects"
        ),
        (
            #"scenario("a" .. ("\u{301}"):rep(1200), function() end) -- @bad"#,
            "the scenario's name is 1201 code points long (with its groups')"
        ),
        (
            #"scenario("a\t", function() end) -- @bad"#,
            #"scenario(name, [options,] fn): the name "a\t" starts or ends with blanks, which reports do not show (it would look the same without them); trim it"#
        ),
        (
            #"describe("group", function() pending(" later") end) -- @bad"#,
            #"pending(name): the name " later" starts or ends with blanks"#
        ),
        (
            #"describe("group ", function() scenario("a", function() end) end) -- @bad"#,
            #"scenario(name, [options,] fn): the group "group " starts or ends with blanks"#
        ),
        (
            #"scenario.each({ { t = "x " } }, "row $t", function(row) end) -- @bad"#,
            #"scenario.each: the name "row x " starts or ends with blanks"#
        ),
        (
            #"scenario("caf\u{E9}", function() end) scenario("cafe\u{301}", function() end) -- @bad"#,
            #"the scenario name "café" reads the same as the one declared at line 1"#
        ),
        (
            #"scenario("a\u{200B}b", function() end) scenario("ab", function() end) -- @bad"#,
            #"the scenario name "ab" reads the same as the one declared at line 1"#
        ),
        (
            #"scenario("a b", function() end) scenario("a\nb", function() end) -- @bad"#,
            #"the scenario name "a\nb" reads the same as the one declared at line 1"#
        ),
        (
            #"scenario("a b", function() end) scenario("a\u{A0}\u{3000} b", function() end) -- @bad"#,
            "the scenario name \"a\u{A0}\u{3000} b\" reads the same as the one declared at line 1 (the same letters written with "
                + "other code points or other white space"
        ),
        (
            #"scenario("a\u{FE0F}", function() end) -- @bad"#,
            #"scenario(name, [options,] fn): the name "a️" starts or ends with blanks"#
        ),
        (#"describe("", function() end) -- @bad"#, "describe(name, fn): the name is empty"),
        (#"scenario.each({ { id = 1 } }, "", function() end) -- @bad"#, "scenario.each(rows, name, [options,] fn): the name is empty"),
        (#"pending("") -- @bad"#, "pending(name): the name is empty"),
        (
            #"describe("group", function() end, { tags = { "t" } }) -- @bad"#,
            #"describe("group", fn): fn must come last, got 1 more argument after it (options go on each scenario)"#
        ),
        (
            #"pending("later", 5) -- @bad"#,
            #"pending("later"): takes the name, and as a scenario would, optionally options and fn (not run); got a number"#
        ),
        (
            #"pending("later", {}, "fn") -- @bad"#,
            #"pending("later"): takes the name, and as a scenario would, optionally options and fn (not run); got a string where fn goes"#
        ),
        (
            #"pending("later", function() end, 1, 2) -- @bad"#,
            #"pending("later"): takes the name, and as a scenario would, optionally options and fn (not run); got 2 more arguments after fn"#
        ),
        (
            #"pending("later", { tagz = { "t" } }, function() end) -- @bad"#,
            #"scenario "later": unknown option 'tagz'; did you mean 'tags'?"#
        )
    ])
    func aMisshapenDeclarationIsALoadErrorThatSpellsTheCall(source: String, expected: String) throws {
        let fixture = try Fixture(["suite/bad.lua": source])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 2, "\(output)")
        let message = junit.suite("suite/bad.lua")?.children("testcase").first?.child("error")?["message"] ?? ""
        #expect(message.contains("suite/bad.lua:\(Lua.line(of: "@bad", in: source)): \(expected)"), "\(message)")
    }

    /// A row that cannot be copied (a table that contains itself) is named as a row or options: it
    /// was called "a scenario's options", which were fine.
    @Test func aRowThatCannotBeReadIsNamedAsARow() throws {
        let fixture = try Fixture([
            "suite/cyc.lua": "local r = { tab = \"home\" }\nr.again = r\nscenario.each({ r }, \"row $tab\", function(row) end)\n"
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 2, "\(output)")
        let message = junit.suite("suite/cyc.lua")?.children("testcase").first?.child("error")?["message"] ?? ""
        #expect(message.contains("a scenario's options or a scenario.each row cannot be read"), "\(message)")
    }

    /// Every placeholder form fills from the row; `$$` is a dollar sign and a
    /// `$` before anything else stays as written.
    @Test func placeholdersFillFromTheRow() throws {
        let fixture = try Fixture([
            "suite/rows.lua": #"""
            scenario.each({ { tab = "order", n = 2 } }, "${tab}s tab, $n items at $$5 ($#)", function(row) end)
            scenario.each({ { "home", "orders" }, { "profile", "home" } }, "from ${1} to ${2}", function(row) end)
            scenario.each({ { tier = "gold" } }, "a discount of $10 applies to $tier", function(row) end)
            scenario.each({ { id = 1 } }, "costs $ 5, $$id stays, ${ id} too", function(row) end)
            """#
        ])
        let output = try fixture.run(["list", "suite"])
        #expect(output.status == 0, "\(output)")
        for name in [
            "orders tab, 2 items at $5 (1)", "from home to orders", "from profile to home",
            "costs $ 5, $id stays, ${ id} too [1]", "a discount of $10 applies to gold"
        ] {
            #expect(output.stdout.contains(name + "\n"), "\(name)\n\(output)")
        }
    }

    /// A name with a line break or a tab is listed on one line, written so that
    /// `--filter` given what the listing shows selects it.
    @Test func listKeepsOneScenarioPerLine() throws {
        let fixture = try Fixture(["suite/a.lua": "scenario(\"two\\nlines\\ttab\", function() end)\n"])
        let list = try fixture.run(["list", "suite"])
        #expect(list.stdout == "suite/a.lua:1  two\\nlines\\ttab\n1 scenario in 1 file\n", "\(list)")
        let shown = #"two\nlines\ttab"#
        #expect(try fixture.run(["run", "suite", "--filter", "^" + shown + "$"]).status == 0)
    }

    /// A row's table or function names its scenario by contents, the same
    /// in every run (an address would never select it again).
    @Test func rowValuesAreSpelledTheSameInEveryRun() throws {
        let fixture = try Fixture([
            "suite/rows.lua": #"""
            scenario.each({ { a = { 1, 2, k = "x", n = { 3 } } }, { a = print }, { a = { route = { id = 1 } } },
                            { a = { route = { id = 2 } } } }, "v $a", function(row) end)
            """#
        ])
        let first = try fixture.run(["list", "suite"])
        #expect(first.stdout.contains(#"v {1, 2, k = "x", n = {3}}"#) && first.stdout.contains("v function\n"), "\(first)")
        #expect(
            first.stdout.contains("v {route = {id = 1}}") && first.stdout.contains("v {route = {id = 2}}"),
            "rows that differ deep down have names that differ\n\(first)")
        #expect(try fixture.run(["list", "suite"]).stdout == first.stdout)
    }

    @Test func verbsAtTheTopLevelOfAFileAreALoadError() throws {
        let fixture = try Fixture([
            "suite/top.lua": #"""
            tap("product", "p1")
            scenario("never", function() end)
            """#
        ])
        let output = try fixture.run(["run", "suite"])
        #expect(output.status == 2, "\(output)")
        #expect(output.stdout.contains("inside a scenario"), "the message says where verbs belong\n\(output)")
    }

    /// The runner collects a file's declarations before its first scenario
    /// runs: one made while a scenario runs would be dropped without a word.
    @Test(arguments: [
        (#"scenario("inner", function() end) -- @bad"#, #"scenario("inner") inside a running scenario does nothing"#),
        (#"scenario.each({ {} }, "row", function() end) -- @bad"#, #"scenario.each(rows, "row", …) inside a running scenario"#),
        (#"scenario.each({}, "row", function() end) -- @bad"#, #"scenario.each(rows, "row", …) inside a running scenario"#),
        (#"pending("later") -- @bad"#, #"pending("later") inside a running scenario"#),
        (#"describe("group", function() end) -- @bad"#, #"describe("group") inside a running scenario"#),
        (#"before_each(function() end) -- @bad"#, "before_each() inside a running scenario"),
        (#"after_each(function() end) -- @bad"#, "after_each() inside a running scenario")
    ])
    func declaringInsideARunningScenarioIsAnErrorAtItsLine(call: String, expected: String) throws {
        // Also when a pcall catches the error: the declaration is still dropped, so the scenario still errs.
        let bare = call.components(separatedBy: " -- @bad")[0]
        for wrapped in [call, "pcall(function() \(bare) end)"] {
            let source = "scenario(\"outer\", function()\n  \(wrapped)\nend)\nscenario(\"next\", function() end)\n"
            let fixture = try Fixture(["suite/nested.lua": source])
            let (output, junit) = try fixture.runWithJUnit(["suite"])
            #expect(output.status == 1, "\(wrapped)\n\(output)")
            let message = junit.testcase("outer")?.child("error")?["message"] ?? ""
            #expect(message.contains("suite/nested.lua:2: \(expected)"), "\(wrapped): \(message)")
            #expect(junit.outcome("next") == "passed", "\(junit.raw)")
        }
    }

    /// A group ends where its describe returns, whatever its body did: an
    /// error a pcall caught leaves no later scenario inside the group (nor
    /// under its hooks) — the file does not load, since the group's own
    /// scenarios after the error were never declared — and a body that
    /// yields is refused.
    @Test func aGroupEndsWhereItsDescribeReturns() throws {
        let fixture = try Fixture([
            "suite/groups.lua": """
            pcall(describe, "broken", function()
              after_each(function() print("the broken group's hook ran") end)
              error("oops")
            end)
            scenario("top level", function() end)
            """,
            "suite/yield.lua": """
            local co = coroutine.wrap(function()
              describe("group", function() coroutine.yield() end)
            end)
            co()
            scenario("declared after", function() end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite", "--show-output"])
        #expect(junit.outcome("broken top level") == nil, "\(junit.raw)")
        #expect(
            junit.testcase("suite/groups.lua (load)")?.child("error")?["message"]?.contains(#"describe("broken"): its body raised"#)
                == true, "\(junit.raw)")
        #expect(!output.stdout.contains("the broken group's hook ran"), "\(output)")
        #expect(output.status == 2, "\(output)")
        #expect(output.stdout.contains("suite/yield.lua:2: describe(\"group\", fn): fn yielded"), "\(output)")
    }

    /// A function `coroutine.wrap` made returns at its coroutine's first yield, which was taken for
    /// the end of a body: what came after the yield never ran, and the scenario passed (a hook, a
    /// group, a row of scenario.each, in_scene's fn alike). Each is refused where it is given; one
    /// a body or hook calls, left at a yield after it drove the app, is the scenario's error.
    @Test func aCoroutineWrapFunctionIsNoBody() throws {
        let wrapped = "coroutine.wrap(function() launch{} coroutine.yield() expect_tab(\"profile\") end)"
        let fixture = try Fixture([
            "suite/body.lua": "scenario(\"body\", \(wrapped))",
            "suite/each.lua": "scenario.each({ { n = 1 } }, \"row $n\", \(wrapped))",
            "suite/group.lua": "describe(\"group\", coroutine.wrap(function() scenario(\"a\", function() end) coroutine.yield() end))",
            "suite/before.lua": "before_each(\(wrapped))\nscenario(\"s\", function() end)",
            "suite/after.lua": "after_each(\(wrapped))\nscenario(\"s\", function() end)",
            "suite/scene.lua": "scenario(\"in scene\", function() pcall(in_scene, 1, \(wrapped)) end)",
            "suite/plain.lua": #"""
            scenario("a wrap called inside a body to its end is fine", function()
              local f = coroutine.wrap(function() launch{} coroutine.yield() expect_tab("home") end)
              f()
              f()
            end)
            scenario("a generator left at a yield that never drove the app is fine", function()
              local numbers = coroutine.wrap(function() for i = 1, 10 do coroutine.yield(i) end end)
              launch{}
              assert(numbers() == 1)
            end)
            scenario("a coroutine closed at its yield is fine", function()
              local co = coroutine.create(function() launch{} coroutine.yield() expect_tab("profile") end)
              coroutine.resume(co)
              coroutine.close(co)
            end)
            """#,
            // Called, not given: the same wrap reached through a plain function stops at its yield all the same.
            "suite/called.lua": #"""
            local w = \#(wrapped)
            scenario("a body calling a wrap", function() return w() end)
            """#,
            "suite/hook.lua": #"""
            local v = \#(wrapped)
            after_each(function() v() end)
            scenario("a hook calling a wrap", function() end)
            """#,
            // Driving from a callback a C function calls (gsub's) inside the coroutine: noted all the same.
            "suite/callback.lua": #"""
            scenario("a wrap driving from a gsub callback", function()
              local w = coroutine.wrap(function()
                string.gsub("x", "x", function() launch{} end)
                coroutine.yield()
                expect_tab("profile")
              end)
              w()
            end)
            """#,
            // Nothing refers to the coroutine any more and the collector ran: it is still one left at its yield.
            "suite/collected.lua": #"""
            local function start() local w = \#(wrapped) w() end
            scenario("a wrap collected at its yield", function()
              start()
              collectgarbage()
              for i = 1, 20000 do local t = { i } end
            end)
            """#
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 2, "\(output)")
        for (file, call) in [
            ("body", #"scenario("body", fn)"#), ("each", #"scenario("row 1", fn)"#), ("group", #"describe("group", fn)"#),
            ("before", "before_each(fn)"), ("after", "after_each(fn)")
        ] {
            let message = junit.testcase("suite/\(file).lua (load)")?.child("error")?["message"] ?? ""
            #expect(message.contains("\(call): fn is a function coroutine.wrap made"), "\(file): \(message)")
        }
        #expect(
            junit.testcase("in scene")?.child("error")?["message"]?.contains("in_scene(1, fn): fn is a function coroutine.wrap made")
                == true, "\(junit.raw)")
        for name in [
            "a wrap called inside a body to its end is fine", "a generator left at a yield that never drove the app is fine",
            "a coroutine closed at its yield is fine"
        ] {
            #expect(junit.outcome(name) == "passed", "\(name): \(junit.raw)")
        }
        for (name, file) in [
            ("a body calling a wrap", "called:1"), ("a hook calling a wrap", "hook:1"), ("a wrap collected at its yield", "collected:1"),
            ("a wrap driving from a gsub callback", "callback:4")
        ] {
            let message = junit.testcase(name)?.child("error")?["message"] ?? ""
            let place = file.replacingOccurrences(of: ":", with: ".lua:")
            #expect(
                message.hasPrefix("suite/\(place): a coroutine that drove the app or checked it is still suspended at this yield"),
                "\(name): \(message)")
        }
    }

    /// A misspelt field of what a function returned (`deep_link(url).stauts`, `session().signed_in`,
    /// `snapshot().modal`, a tab of `snapshot().stacks`) read nil, and every comparison with it held: a record of a type whose
    /// fields are fixed raises on a name it does not declare. A declared field left out reads nil;
    /// the record prints and goes back to navscript as a plain table would.
    @Test func aMisspeltFieldOfAReturnedRecordIsAnError() throws {
        let fixture = try Fixture([
            "suite/records.lua": """
            scenario("outcome", function() assert(deep_link("shop://cart").stauts ~= "rejected") end)
            scenario("session", function() launch{} assert(session().signed_in ~= true) end)
            scenario("snapshot", function() launch{} assert(snapshot().modal == nil) end)
            scenario("a snapshot's stacks", function() launch{} assert(snapshot().stacks.ordrs == nil) end)
            scenario("declared fields", function()
              local o = deep_link("shop://cart")
              assert(o.status == "gated" and o.error == nil and o.message == nil)
              o.note = "mine"
              assert(o.note == "mine")
              print(o)
              local s = snapshot()
              expect_snapshot(s)
              expect_snapshot{ stacks = { orders = s.stacks.orders } }
              assert(getmetatable(s) == "navscript.record" and not pcall(setmetatable, s, nil), "a record's metatable is protected")
            end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite", "--show-output"])
        #expect(output.status == 1, "\(output)")
        for (name, message) in [
            ("outcome", "suite/records.lua:1: navscript.LinkOutcome has no field 'stauts'; it has status, destination"),
            ("session", "suite/records.lua:2: shop.Session has no field 'signed_in'; it has logged_in, payment_method"),
            ("snapshot", "suite/records.lua:3: navscript.Snapshot has no field 'modal'; it has root, tab, stacks, modals"),
            ("a snapshot's stacks", "suite/records.lua:4: navscript.Snapshot.stacks has no field 'ordrs'; it has home,")
        ] {
            #expect(junit.testcase(name)?.child("error")?["message"]?.contains(message) == true, "\(name): \(junit.raw)")
        }
        #expect(junit.outcome("declared fields") == "passed", "\(junit.raw)")
        #expect(output.stdout.contains(#"{destination = "cart", note = "mine", precondition = "auth", status = "gated"}"#), "\(output)")
    }

    /// A scenario's options with a metatable (shared defaults behind `__index`), or holding one: what
    /// the `__index` gave — tags, launch options, allowances — was not read, and the scenario ran
    /// untagged or signed out without a word. The file does not load, and says why.
    @Test(arguments: [
        "setmetatable({}, { __index = { tags = { \"smoke\" } } })",
        "{ launch = setmetatable({}, { __index = { logged_in = true } }) }"
    ])
    func optionsWithAMetatableAreRefused(options: String) throws {
        let fixture = try Fixture(["suite/opts.lua": "scenario(\"inherits\", \(options), function() launch{} end)"])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 2, "\(output)")
        #expect(
            junit.testcase("suite/opts.lua (load)")?.child("error")?["message"]?.contains(
                #"suite/opts.lua:1: scenario("inherits", options, fn): the options are (or hold) a table with a metatable"#) == true,
            "\(junit.raw)")
    }

    /// A `scenario.each` row with a metatable named its scenario through `__index`, but the body got
    /// the row's own fields only, and checked nothing under that name: the file does not load.
    @Test func aRowWithAMetatableIsRefused() throws {
        let fixture = try Fixture([
            "suite/rows.lua": #"""
            local defaults = { expect = "nope" }
            scenario.each({ setmetatable({ tab = "orders" }, { __index = defaults }) }, "$tab shows $expect", function(row)
              if row.expect then expect_screen(row.expect) end
            end)
            """#
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 2, "\(output)")
        #expect(
            junit.testcase("suite/rows.lua (load)")?.child("error")?["message"]?.contains(
                #"scenario.each(rows, "$tab shows $expect", …): row 1 is (or holds) a table with a metatable"#) == true,
            "\(junit.raw)")
    }

    /// A wrong call a pcall catches is still the scenario's error, whoever
    /// raised it: the prelude (in_scene's arguments, a window not open, a
    /// yield) or the bridge (a table that cannot cross into Swift).
    @Test func aWrongCallCaughtByPcallIsStillTheScenariosError() throws {
        let fixture = try Fixture([
            "suite/caught.lua": """
            scenario("no scene 2", function() pcall(in_scene, 2, function() expect_screen("nope") end) end)
            scenario("scene 1.5", function() pcall(in_scene, 1.5, function() end) end)
            scenario("no fn", function() pcall(in_scene, 1, nil) end)
            scenario("a cyclic table", function() local t = { "home" } t.self = t pcall(expect_stack, t) end)
            scenario("a table too deep", function()
              local d = {} local c = d for i = 1, 1000 do c[1] = {} c = c[1] end
              pcall(deep_link, d)
            end)
            scenario("shared sub-tables", function()
              local t = { "home" } for i = 1, 40 do t = { a = t, b = t } end
              pcall(expect_stack, t)
            end)
            scenario("a yield in in_scene", function()
              open_scene{}
              local co = coroutine.create(function() in_scene(1, function() coroutine.yield() end) end)
              coroutine.resume(co)
              coroutine.close(co)
            end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        for (name, words) in [
            ("no scene 2", "suite/caught.lua:1: in_scene"), ("scene 1.5", "suite/caught.lua:2: bad argument #1 to 'in_scene'"),
            ("no fn", "suite/caught.lua:3: bad argument #2 to 'in_scene'"),
            ("a cyclic table", "suite/caught.lua:4: bad argument #1 to 'expect_stack' (cyclic table"),
            ("a table too deep", "suite/caught.lua:7: bad argument #1 to 'deep_link' (table nested deeper"),
            ("shared sub-tables", "suite/caught.lua:11: bad argument #1 to 'expect_stack' (table of more than 100000 values"),
            ("a yield in in_scene", "fn yielded")
        ] {
            #expect(junit.outcome(name) == "error", "\(name)\n\(junit.raw)")
            let message = junit.testcase(name)?.child("error")?["message"] ?? ""
            #expect(message.contains(words), "\(name): \(message)")
        }
    }

    /// A wrong option caught by `pcall(f, …)` was placed where it was found and that place kept: the
    /// next scenario's own wrong call was placed at the first one's line.
    @Test func aCaughtWrongCallsPlaceIsNotKeptForTheNextCall() throws {
        let fixture = try Fixture([
            "suite/places.lua": """
            scenario("first", function()
              deep_link("shop://product/p1004")
              local ok = pcall(deep_link, "shop://product/p7", { bogus = 1 })
            end)
            scenario("second", function()
              -- a comment
              local ok = pcall(open_scene, { bogus = 1 })
            end)
            """
        ])
        let (_, junit) = try fixture.runWithJUnit(["suite"])
        #expect(
            junit.testcase("first")?.child("error")?["message"]?.hasPrefix("suite/places.lua:3: bad argument #2") == true, "\(junit.raw)")
        #expect(
            junit.testcase("second")?.child("error")?["message"]?.hasPrefix("suite/places.lua:7: bad argument #1") == true, "\(junit.raw)")
    }

    /// An error a library function raised, or an error object, has no place
    /// of its own: the scenario's line that was running is named.
    @Test func anErrorWithoutAPlaceIsNamedAtTheLineThatRan() throws {
        let fixture = try Fixture([
            "suite/place.lua": """
            scenario("sorts badly", function()
              local t = { 3, 1, 2, 5, 4, 9, 8, 7, 6, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 }
              table.sort(t, function(a, b) return true end)
            end)
            scenario("raises a table", function() error({ message = "x" }) end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        let sorts = junit.testcase("sorts badly")?.child("error")?["message"] ?? ""
        #expect(sorts.hasPrefix("suite/place.lua:3: invalid order function for sorting"), "\(sorts)")
        let raises = junit.testcase("raises a table")?.child("error")?["message"] ?? ""
        #expect(raises.hasPrefix("suite/place.lua:5: "), "\(raises)")
    }

    /// A wrong use caught by a pcall while the file loads still keeps the
    /// file from loading: a duplicate name (its scenario would be dropped),
    /// a verb or an expectation outside any scenario (it would check nothing).
    @Test(arguments: [
        (#"pcall(scenario, "same", function() expect_screen("cart") end)"#, #"duplicate scenario name "same""#),
        (#"pcall(expect_screen, "cart")"#, "expect_screen can only be used inside a scenario"),
        (#"pcall(launch, {})"#, "launch can only be used inside a scenario"),
        (#"pcall(function() scenario.each = function() end end)"#, "scenario.each cannot be set"),
        (#"pcall(rawset, scenario, "each", print)"#, "scenario.each is one of the scenario language")
    ])
    func aWrongUseCaughtByPcallWhileLoadingIsStillALoadError(line: String, expected: String) throws {
        let source = "scenario(\"same\", function() end)\n\(line)\n"
        let fixture = try Fixture(["suite/caught.lua": source])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 2, "\(output)")
        #expect(output.stdout.contains("suite/caught.lua:2: \(expected)"), "\(output)")
        #expect(junit.raw.contains("suite/caught.lua:2: \(expected)".replacingOccurrences(of: "\"", with: "&quot;")), "\(junit.raw)")
    }

    @Test func badScenarioArgumentsAreReportedAtTheCallersLine() throws {
        let source = #"""
            scenario("ok", function() end)
            scenario(42, function() end) -- @bad
            """#
        let fixture = try Fixture(["suite/bad.lua": source])
        let output = try fixture.run(["run", "suite"])
        #expect(output.status == 2, "\(output)")
        #expect(output.stdout.contains("suite/bad.lua:\(Lua.line(of: "@bad", in: source)):"), "\(output)")
        #expect(output.stdout.contains("name must be a string"), "\(output)")
    }
}
