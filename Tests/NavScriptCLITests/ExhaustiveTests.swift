import Foundation
import Testing

/// Exhaustive by default: failures nothing can swallow, invariants checked
/// without being asked, driving as strict as a thumb, and the language
/// details a first-time user tripped on.
@Suite("exhaustive by default")
struct ExhaustiveTests {
    // MARK: - Failures nothing can swallow

    @Test func pcallCannotSwallowAFailureAndSeesAFailureObject() throws {
        let fixture = try Fixture([
            "suite/support/keep.lua": "local value\nreturn { set = function(v) value = v end, get = function() return value end }\n",
            "suite/p.lua": """
            scenario("swallowed expectation", function()
              local ok, err = pcall(expect_screen, "cart")
              print(ok, tostring(err), type(err), err.location, err.message)
            end)
            scenario("swallowed refusal", function()
              pcall(tap, "no_such_output")
            end)
            scenario("xpcall too", function()
              xpcall(expect_tab, function(e) print("handler", tostring(e)) end, "orders")
            end)
            scenario("a fake failure is an error", function()
              error({ __navscript_failure = 1, message = "I pretend" })
            end)
            local keep = require("keep")
            scenario("a kept failure", function()
              keep.set(select(2, pcall(expect_screen, "orders")))
            end)
            scenario("raised again in another scenario is an error", function()
              error(keep.get())
            end)
            scenario("raised again in its own scenario is its failure", function()
              local _, err = pcall(expect_screen, "settings")
              error(err)
            end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        #expect(junit.testcase("swallowed expectation")?.child("failure") != nil, "\(output)")
        #expect(
            junit.testcase("swallowed expectation")?.child("system-out")?.text
                .contains(
                    "false\tnavscript failure: suite/p.lua:2: the screen is 'home', expected 'cart'\tuserdata\tsuite/p.lua:2\t"
                        + "suite/p.lua:2: the screen is 'home', expected 'cart'") == true, "\(output)")
        #expect(junit.testcase("swallowed refusal")?.child("failure")?["message"]?.contains("no output 'no_such_output'") == true)
        #expect(junit.testcase("xpcall too")?.child("failure") != nil)
        #expect(junit.testcase("xpcall too")?.child("system-out")?.text.contains("handler\tnavscript failure:") == true)
        let fake = try #require(junit.testcase("a fake failure is an error")?.child("error"))
        #expect(fake["message"] == "suite/p.lua:12: I pretend", "a table is an error whatever its fields, at its line\n\(junit.raw)")
        let stale = try #require(junit.testcase("raised again in another scenario is an error")?.child("error"))
        #expect(stale["message"]?.contains("the script raised a failure that is not this scenario's") == true, "\(junit.raw)")
        #expect(
            junit.testcase("raised again in its own scenario is its failure")?.child("failure")?["message"]?
                .contains("expected 'settings'") == true, "\(junit.raw)")
    }

    /// What a scenario writes is in its report however it wrote it, in a
    /// worker or in process: `io.write` and the standard streams like
    /// `print`; a caught failure prints as its message, a table that
    /// contains itself (or holds too much to copy) as tostring does (not an error).
    @Test(arguments: [[], ["--in-process"]])
    func everythingAScenarioWritesIsInItsReport(mode: [String]) throws {
        let fixture = try Fixture([
            "suite/w.lua": #"""
            scenario("writes", function()
              io.write("direct ", 42, "\n")
              io.stdout:write("to stdout\n"):write("chained\n")
              io.stderr:write("to stderr\n")
              local t = { 1 }
              t.self = t
              print("cyclic", t)
              local _, err = pcall(expect_screen, "nope")
              print(err)
              print({ "a", b = 1 })
              local shared = { "x" }
              for _ = 1, 40 do shared = { a = shared, b = shared } end
              print("shared", shared)
            end)
            """#
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"] + mode)
        #expect(output.status == 1, "\(output)")
        let printed = junit.testcase("writes")?.child("system-out")?.text ?? ""
        #expect(printed.contains("direct 42\nto stdout\nchained\nto stderr\ncyclic\ttable: 0x"), "\(printed)")
        #expect(printed.contains("navscript failure: suite/w.lua:8: the screen is 'home', expected 'nope'\n"), "\(printed)")
        #expect(printed.contains(#"{"a", b = 1}"#), "\(printed)")
        // Forty levels of shared sub-tables are 2⁴⁰ entries to copy: shown as tostring does, at once.
        #expect(printed.contains("shared\ttable: 0x"), "\(printed)")
        // Once, in the scenario's own block — never also written raw to the terminal.
        #expect(output.stdout.components(separatedBy: "direct 42").count - 1 <= 1, "\(output)")
    }

    @Test func aFailingBodyAndAFailingAfterEachAreBothReported() throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            after_each(function() expect_screen("cart") end)
            scenario("both", function() expect_tab("orders") end)
            """
        ])
        let output = try fixture.run(["run", "suite"])
        #expect(output.stdout.contains("suite/a.lua:2: the selected tab is 'home', expected 'orders' (and 1 more failure)"), "\(output)")
        #expect(output.stdout.contains("also failed: suite/a.lua:1: the screen is 'home', expected 'cart' (in after_each)"), "\(output)")
    }

    /// A scenario draws the same random numbers in every run — alone (the
    /// replay of a failure) or in its suite — and different ones from its
    /// neighbours; math.randomseed seeds it as the scenario says.
    @Test func randomNumbersAreTheScenariosOwnInEveryRun() throws {
        let fixture = try Fixture([
            "suite/r.lua": """
            scenario("first draws", function() print(math.random(1, 1000000), math.random(1, 1000000)) end)
            scenario("second draws", function() print(math.random(1, 1000000)) end)
            scenario("seeds itself", function() math.randomseed(42) local a = math.random(1e6) math.randomseed(42) assert(a == math.random(1e6)) end)
            """
        ])
        func drawn(_ arguments: [String]) throws -> [String: String] {
            let (output, junit) = try fixture.runWithJUnit(["suite"] + arguments)
            #expect(output.status == 0, "\(output)")
            var drawn: [String: String] = [:]
            for name in ["first draws", "second draws"] {
                if let text = junit.testcase(name)?.child("system-out")?.text { drawn[name] = text }
            }
            return drawn
        }
        let whole = try drawn([])
        #expect(whole.count == 2 && whole["first draws"] != whole["second draws"], "\(whole)")
        #expect(try drawn([]) == whole, "the same in the next run")
        #expect(try drawn(["--filter", "second"])["second draws"] == whole["second draws"], "and alone")
        #expect(try drawn(["--shuffle", "--seed", "7", "--jobs", "1"]) == whole, "whatever runs before it")
        // Whatever folder the run starts in, and however the file is named on the command line.
        let elsewhere = try CLI.run(["run", "r.lua", "--junit", "../inside.xml"], in: fixture.url("suite"))
        #expect(elsewhere.status == 0, "\(elsewhere)")
        let inside = try JUnit(Data(fixture.read("inside.xml").utf8))
        #expect(inside.testcase("first draws")?.child("system-out")?.text == whole["first draws"], "\(inside.raw)")
    }

    /// Numbers drawn while the file loads are the same in every run too: rows built with them
    /// keep their names, so a replay command from the last run finds its scenario.
    @Test func randomNumbersAtTheTopLevelAreTheFilesOwn() throws {
        let fixture = try Fixture([
            "suite/rows.lua": """
            local rows = {}
            for i = 1, 3 do rows[i] = { id = math.random(1, 1000000) } end
            scenario.each(rows, "item $id", function(row) end)
            """
        ])
        let first = try fixture.run(["list", "suite"])
        #expect(first.status == 0, "\(first)")
        #expect(try fixture.run(["list", "suite"]).stdout == first.stdout)
        #expect(
            try CLI.run(["list", "."], in: fixture.url("suite")).stdout.replacingOccurrences(of: "./", with: "")
                == first.stdout.replacingOccurrences(of: "suite/", with: ""), "from inside the suite too")
    }

    /// Each message says its thing once and in plain words.
    @Test func messagesSayItOnce() throws {
        let fixture = try Fixture([
            "suite/c.lua": """
            scenario("back with an argument", function() launch{} back(1) end)
            scenario("login twice", function() launch{ logged_in = true } login{} end)
            scenario("no event matches", function() launch{} expect_events{ "nope" } end)
            """
        ])
        let output = try fixture.run(["run", "suite"])
        #expect(output.stdout.contains("bad argument #1 to 'back' (back takes no arguments, got 1)"), "\(output)")
        #expect(
            output.stdout.contains("suite/c.lua:2: login{}: already signed in") && !output.stdout.contains("login: login{}"),
            "\(output)")
        #expect(output.stdout.contains("the events:") && !output.stdout.contains("events after the last match"), "\(output)")
    }

    @Test func anErrorInTheBodyAndAnErrorInAfterEachAreBothReported() throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            after_each(function() error("cleanup crashed") end)
            scenario("errors twice", function() launch{} error("body crashed") end)
            scenario("fails, then errors", function() launch{} expect_tab("orders") end)
            """
        ])
        let output = try fixture.run(["run", "suite"])
        #expect(output.stdout.contains("suite/a.lua:2: body crashed"), "\(output)")
        #expect(output.stdout.contains("also an error: suite/a.lua:1: cleanup crashed"), "the second error is kept\n\(output)")
        #expect(!output.stdout.contains("then an error"), "\(output)")
        #expect(
            output.stdout.components(separatedBy: "also an error: suite/a.lua:1: cleanup crashed").count - 1 == 2,
            "after a failure too\n\(output)")
    }

    // MARK: - Invariants

    static let leaky = """
        scenario("backs out of an order", { launch = { logged_in = true } }, function()
          deep_link("shop://orders/42")
          back_swipe{}
        end)
        """

    @Test func aLeakFailsTheScenarioWithoutExpectNoLeaks() throws {
        let fixture = try Fixture(["suite/leak.lua": Self.leaky])
        let (output, junit) = try fixture.runWithJUnit(["suite", "--fault", "no-pop-detection"])
        #expect(output.status == 1, "\(output)")
        let failure = try #require(junit.testcase("backs out of an order")?.child("failure"))
        #expect(
            failure["message"]?.contains("suite/leak.lua:3: invariant 'leaks' violated after step 3: 1 object leaked") == true,
            "\(output)")
        #expect(
            output.stdout.contains("app/orders/order (coordinator) left the navigation at step 3 (back_swipe)"),
            "the step is numbered as the timeline numbers it\n\(output)")
        #expect(output.stdout.contains("3. suite/leak.lua:3  back_swipe"), "\(output)")
        let invariants = "leaks,unique_coordinators,flow_ownership,idle,loop_guard,platform_warnings,gated_screens"
        #expect(junit.raw.contains(#"<property name="navscript.invariants" value="\#(invariants)"/>"#))
        #expect(
            output.stdout.contains(
                "invariants checked after every scenario: " + invariants.replacingOccurrences(of: ",", with: ", ")))
    }

    /// A leak cannot pass because the app that had it was thrown away later — by a launch{},
    /// a restart{}, a sign-out, or an after_each hook that logs out or relaunches: leaks are
    /// judged after every settled step, so it is named at the step that left it.
    @Test(arguments: [
        ("\n  launch{}\n", "", "suite/leak.lua:3: invariant 'leaks' violated after step 3"),
        ("\n  restart{}\n", "", "suite/leak.lua:3: invariant 'leaks' violated after step 3"),
        ("\n  logout()\n", "", "suite/leak.lua:3: invariant 'leaks' violated after step 3"),
        ("", "after_each(function() logout() end)\n", "suite/leak.lua:4: invariant 'leaks' violated after step 3"),
        ("", "after_each(function() launch{} end)\n", "suite/leak.lua:4: invariant 'leaks' violated after step 3")
    ])
    func aLeakIsFoundAtItsStepWhateverThrowsItsAppAwayLater(inBody: String, hook: String, says: String) throws {
        let source =
            hook + Self.leaky.replacingOccurrences(of: "  back_swipe{}\n", with: "  back_swipe{}" + (inBody.isEmpty ? "\n" : inBody))
        let fixture = try Fixture(["suite/leak.lua": source])
        let (output, junit) = try fixture.runWithJUnit(["suite", "--fault", "no-pop-detection"])
        #expect(output.status == 1, "\(source)\n\(output)")
        #expect(junit.testcase("backs out of an order")?.child("failure")?["message"]?.hasPrefix(says) == true, "\(source)\n\(output)")
        #expect(try fixture.run(["run", "suite"]).status == 0, "the healthy app passes\n\(source)")
    }

    /// A step taken with `settle = false` that left nothing pending is judged like a settled
    /// one: a sign-out, an expiry or a closed window after it (with or without a `settle()`
    /// between) would release the leak unseen.
    @Test(arguments: [
        ("  settle()\n  logout()\n", "suite/s.lua:4"), ("  logout()\n", "suite/s.lua:4"),
        ("  expire_session()\n", "suite/s.lua:4"),
        ("  local _ = stack()\n  logout()\n", "suite/s.lua:4")
    ])
    func aLeakAfterAnUnsettledStepIsJudgedBeforeATeardown(after: String, place: String) throws {
        let source = """
            scenario("leaves a link unsettled, then tears down", { launch = { logged_in = true } }, function()
              select_tab("orders")
              tap("order", { id = 42 })
              deep_link("shop://orders", { settle = false })

            """ + after + "end)\n"
        let fixture = try Fixture(["suite/s.lua": source])
        let (output, junit) = try fixture.runWithJUnit(["suite", "--fault", "no-pop-detection"])
        #expect(output.status == 1, "\(source)\n\(output)")
        let message = junit.testcase("leaves a link unsettled, then tears down")?.child("failure")?["message"] ?? ""
        #expect(message.hasPrefix(place + ": invariant 'leaks' violated after step 4: 1 object leaked"), "\(source)\n\(message)")
        #expect(try fixture.run(["run", "suite"]).status == 0, "the healthy app passes\n\(source)")
    }

    /// A step that may tear flows or windows down — a host verb (a sign-out,
    /// an expiry) or `close_scene` — is preceded by the invariants, as a
    /// launch or restart is: a doubled coordinator or a gated screen the
    /// teardown threw away passed, from the body, a hook or a `pcall`.
    @Test func aViolationATeardownThrowsAwayIsFound() throws {
        let graft = """
            local function doubled()
              deep_link("shop://orders/239/track", { via = "widget" })
              deep_link("shop://orders/361/track", { via = "scheme" })
            end
            scenario("logged out", { launch = { logged_in = true } }, function() doubled() logout() end)
            scenario("expired in a pcall", { launch = { logged_in = true } }, function() doubled() pcall(expire_session) end)
            describe("hooked", function()
              before_each(function() doubled() end)
              scenario("logs out in the body", { launch = { logged_in = true } }, function() logout() end)
            end)
            scenario("closed the window", { launch = { logged_in = true } }, function()
              open_scene{}
              in_scene(2, doubled)
              close_scene(2)
            end)
            """
        let fixture = try Fixture([
            "suite/graft.lua": graft,
            "scenes/gated.lua": """
            scenario("signed out elsewhere, then closed", { launch = { logged_in = true } }, function()
              deep_link("shop://orders/42")
              open_scene{}
              in_scene(2, function() logout() end)
              close_scene(1)
            end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite", "--fault", "graft-external-link"])
        #expect(output.status == 1, "\(output)")
        for (name, step) in [
            ("logged out", "logout()"), ("expired in a pcall", "expire_session()"), ("hooked logs out in the body", "logout()"),
            ("closed the window", "close_scene(2)")
        ] {
            #expect(
                junit.testcase(name)?.child("failure")?["message"]?.contains(
                    "invariant 'unique_coordinators' violated before \(step): ") == true, "\(name): \(junit.raw)")
        }
        let gated = try fixture.run(["run", "scenes", "--fault", "sign-out-one-scene"])
        #expect(gated.stdout.contains("scenes/gated.lua:5: invariant 'gated_screens' violated before close_scene(1)"), "\(gated)")
        #expect(try fixture.run(["run", "suite", "scenes"]).status == 0, "the healthy app passes")
    }

    /// A launch{} (in a before_each, or as the body's first step) right after the scenario's
    /// launch option started the app would drop those options without a word: an error saying so.
    @Test func aLaunchThatDiscardsTheScenariosLaunchOptionIsAnError() throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            before_each(function() launch{} end)
            scenario("signed in", { launch = { logged_in = true } }, function() expect_tab("home") end)
            scenario("no option", function() expect_tab("home") end)
            scenario("empty option", { launch = {} }, function() expect_tab("home") end)
            """,
            "suite/c.lua": """
            scenario("relaunched at once", { launch = { logged_in = true } }, function()
              launch{ first_launch = true }
              expect_tab("home")
            end)
            scenario("printed, then relaunched", { launch = { logged_in = true } }, function()
              print("starting") local m = mark()
              launch{ first_launch = true }
            end)
            """,
            "suite/b.lua": """
            after_each(function() launch{} end)
            scenario("observes, then relaunches", { launch = { logged_in = true } }, function()
              assert(session().logged_in)
              launch{ logged_in = false }
              assert(not session().logged_in)
            end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        #expect(
            junit.testcase("signed in")?.child("error")?["message"]?.hasPrefix(
                "suite/a.lua:1: launch{} replaces the app the scenario's launch option started (logged_in = true) before any step")
                == true,
            "\(output)")
        // The body's first step too, whatever took no step and checked nothing before it (a print,
        // a mark): the header's options were dropped without a word.
        #expect(junit.testcase("printed, then relaunched")?.child("error")?["message"]?.contains("before any step") == true, "\(output)")
        #expect(
            junit.testcase("relaunched at once")?.child("error")?["message"]?.hasPrefix(
                "suite/c.lua:2: launch{} replaces the app the scenario's launch option started (logged_in = true) before any step")
                == true,
            "\(output)")
        for name in ["no option", "empty option", "observes, then relaunches"] {
            #expect(junit.outcome(name) == "passed", "a launch{} the scenario chose is its own: \(name)\n\(output)")
        }
    }

    /// A restart{} at the same place drops the option's cold-start link and the log it wrote (a
    /// restart delivers no link): every check of what the link did passed on the restarted app.
    @Test func aRestartThatDiscardsTheOptionsLinkIsAnError() throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            before_each(function() restart{ restore = false } end)
            scenario("hooked", { launch = { logged_in = true, url = "shop://settings" } }, function()
              expect_no_event("dismiss settings")
            end)
            scenario("no link in the option", { launch = { logged_in = true } }, function() expect_tab("home") end)
            """,
            "suite/b.lua": """
            scenario("first in the body", { launch = { logged_in = true, url = "shop://settings" } }, function()
              restart{}
              expect_no_event("dismiss settings")
            end)
            scenario("after a check", { launch = { logged_in = true, url = "shop://settings" } }, function()
              expect_modal("settings")
              restart{}
            end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        for name in ["hooked", "first in the body"] {
            #expect(
                junit.testcase(name)?.child("error")?["message"]?.contains(
                    "restart{} replaces the app the scenario's launch option started with the link shop://settings before any step")
                    == true, "\(name): \(output)")
        }
        for name in ["no link in the option", "after a check"] {
            #expect(junit.outcome(name) == "passed", "\(name): \(output)")
        }
    }

    /// An app replaced while a link is still in flight is the scenario's choice: its leaks are
    /// checked, not whether it was idle.
    @Test func anAppReplacedMidFlightIsNotAnIdleViolation() throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            scenario("restart mid-flight", function() deep_link("shop://orders/42", { settle = false }) restart{} end)
            scenario("launch mid-flight", function() deep_link("shop://orders/42", { settle = false }) launch{} end)
            """
        ])
        let output = try fixture.run(["run", "suite"])
        #expect(output.status == 0, "\(output)")
    }

    @Test func anInvariantCanBeAllowedByTheScenarioOrTheRun() throws {
        let allowed = Self.leaky.replacingOccurrences(
            of: "{ launch = { logged_in = true } }",
            with: #"{ launch = { logged_in = true }, allow = { leaks = "known bug #12" } }"#)
        let fixture = try Fixture(["suite/leak.lua": allowed, "other/leak.lua": Self.leaky])
        let (scenario, junit) = try fixture.runWithJUnit(["suite", "--fault", "no-pop-detection"])
        #expect(scenario.status == 0, "\(scenario)")
        #expect(
            junit.testcase("backs out of an order")?.child("system-out")?.text
                .contains("invariants allowed: leaks (known bug #12)") == true)
        let run = try fixture.run(["run", "other", "--fault", "no-pop-detection", "--allow", "leaks"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("invariants checked after every scenario: unique_coordinators, flow_ownership, idle, loop_guard"))
        let bad = try fixture.run(["run", "other", "--allow", "leak"])
        #expect(bad.status == 2 && bad.stderr.contains("--allow: unknown invariant 'leak'"), "\(bad)")
    }

    @Test func strictStepsReportsTheViolationAtTheStep() throws {
        let fixture = try Fixture(["suite/leak.lua": Self.leaky + "\n"])
        let output = try fixture.run(["run", "suite", "--fault", "no-pop-detection", "--strict-steps"])
        #expect(output.stdout.contains("invariants checked after every step: "), "the summary says when\n\(output)")
        #expect(output.status == 1, "\(output)")
        #expect(output.stdout.contains("suite/leak.lua:3: invariant 'leaks' violated after step 3"), "\(output)")
    }

    @Test func aLoopingGateBreaksItsInvariant() throws {
        let fixture = try Fixture([
            "suite/loop.lua": """
            scenario("a gate that loops", function()
              deep_link("shop://cart")
              login{}
            end)
            """
        ])
        let loop = try fixture.run(["run", "suite/loop.lua", "--fault", "commit-after-finish"])
        #expect(loop.stdout.contains("invariant 'loop_guard' violated after the scenario: a gate looped"), "\(loop)")
    }

    @Test func withEveryExpectNoLeaksDeletedTheLeakFaultsAreStillKilled() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scenarios")
        var files: [String: String] = [:]
        for case let url as URL in FileManager.default.enumerator(at: source, includingPropertiesForKeys: nil) ?? .init()
        where url.pathExtension == "lua" {
            let relative = String(url.standardizedFileURL.path.dropFirst(source.standardizedFileURL.path.count + 1))
            let text = try String(contentsOf: url, encoding: .utf8)
            files["scenarios/" + relative] = text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { $0.trimmingCharacters(in: .whitespaces) != "expect_no_leaks()" }.joined(separator: "\n")
        }
        #expect(
            !files.values.contains { $0.contains("expect_no_leaks()") && !$0.contains("expect_no_leaks() end") },
            "every expect_no_leaks() line was removed")
        let fixture = try Fixture(files)
        let output = try fixture.run([
            "mutate", "scenarios", "--only", "no-pop-detection", "--only", "strong-back-reference",
            "--only", "animated-pop-only", "--html", "mutate.html"
        ])
        #expect(output.status == 0, "\(output)")
        #expect(output.stdout.contains("mutation score: 3/3 faults killed (100%)"), "\(output)")
        // The matrix reaches the reports through the run-event stream: the healthy run and one case per fault.
        let html = try fixture.read("mutate.html")
        #expect(html.contains("<title>navscript mutate · ShopApp: 4 passed, 0 failed"), "\(html.prefix(400))")
    }

    // MARK: - Strict driving

    @Test func drivingIsAsStrictAsAThumb() throws {
        let fixture = try Fixture([
            "suite/d.lua": """
            scenario("a tap without its parameter", function() tap("product") end)
            scenario("a tap the destination refuses", function() tap("product", "shoe") end)
            scenario("a bare id fills the output's one parameter", function() tap("promo", "SALE10") end)
            scenario("a tab switch under a modal", function()
              deep_link("shop://settings")
              select_tab("home")
            end)
            scenario("a doubled coordinator is a mismatch", function()
              expect_coordinators{ "app", "app", "app/browse", "app/orders", "app/profile" }
            end)
            scenario("a parameter the output does not take", function() tap("product", { idd = "p2" }) end)
            scenario("a parameter for an output that takes none", function() tap("cart", { id = "5" }) end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(
            junit.testcase("a tap without its parameter")?.child("failure")?["message"]?
                .contains("output 'product' of 'home' takes id; missing id") == true, "\(output)")
        #expect(
            junit.testcase("a tap the destination refuses")?.child("failure")?["message"]?
                .contains("opens 'product', whose spec refuses it: validation_failed: product.id = shoe: does not match p[0-9]{1,8}")
                == true,
            "\(output)")
        #expect(junit.testcase("a bare id fills the output's one parameter")?.child("failure") == nil, "\(output)")
        #expect(
            junit.testcase("a tab switch under a modal")?.child("failure")?["message"]?
                .contains(
                    "the tab bar is covered by the modal 'settings'; close it first: tap one of its buttons (a close or cancel "
                        + "output; an alert's are its buttons), or dismiss() a sheet that can be swiped down") == true, "\(output)")
        #expect(junit.testcase("a doubled coordinator is a mismatch")?.child("failure") != nil)
        #expect(
            junit.testcase("a parameter the output does not take")?.child("failure")?["message"]?
                .contains("output 'product' of 'home' takes id; 'idd' is not one of them (did you mean 'id'?)") == true, "\(output)")
        #expect(
            junit.testcase("a parameter for an output that takes none")?.child("failure")?["message"]?
                .contains("output 'cart' of 'home' takes no parameters; 'id' is not one of them") == true, "\(output)")
    }

    // MARK: - Language details

    @Test func theDetailsAFirstTimeUserTrippedOn() throws {
        let fixture = try Fixture([
            "suite/support/helpers.lua": """
            local h = {}
            function h.declare(name) scenario(name, function() print("from " .. name) end) end
            return h
            """,
            "suite/deep/l.lua": """
            local h = require("helpers")
            h.declare("declared by a helper")
            scenario.each({ { flag = false }, { flag = true } }, "flag is $flag", function() end)
            scenario("marks and counts", function()
              tap("product", "p1")
              local m = mark()
              back()
              expect_events_since(m, { "pop product:p1" })
              expect_no_event("present")
              expect_event_count("push product", 1)
              expect_no_event("push product", m)
              expect_modals{}
              expect_snapshot{ root = "main", tab = "home", stacks = { home = { "home" } }, modals = {} }
            end)
            scenario("a snapshot that differs", function()
              expect_snapshot{ tab = "orders", modals = { "settings" } }
            end)
            """,
            "suite/dup.lua": "scenario(\"same\", function() end)\nscenario(\"same\", function() end)\n"
        ])
        let list = try fixture.run(["list", "suite/deep"])
        #expect(list.stdout.contains("suite/deep/l.lua:2  declared by a helper"), "\(list)")
        #expect(list.stdout.contains("flag is false") && list.stdout.contains("flag is true"), "\(list)")

        // support/ is found from the file's own suite, from another working directory.
        let elsewhere = try Fixture()
        let absolute = fixture.url("suite/deep/l.lua").path
        let run = try elsewhere.run(["run", absolute, "--show-output"])
        #expect(run.stdout.contains("PASS"), "\(run)")
        #expect(run.stdout.contains("from declared by a helper"), "--show-output shows passing output\n\(run)")
        #expect(run.stdout.contains("the navigation state differs in modals, tab"), "\(run)")
        #expect(run.stdout.contains("4 passed, 1 failed"), "\(run)")

        let duplicate = try fixture.run(["run", "suite/dup.lua"])
        #expect(duplicate.stdout.contains("duplicate scenario name \"same\""), "\(duplicate)")
        #expect(!duplicate.stdout.contains("navscript:"), "no prelude frames in the traceback\n\(duplicate)")
    }
}

/// Exit codes that catch mistakes, and the console's colour choice.
@Suite("exit codes and colour")
struct ExitCodeTests {
    @Test func aSelectionThatMatchesNothingIsAUsageError() throws {
        let fixture = try Fixture(["suite/a.lua": #"scenario("one", { tags = { "smoke" } }, function() end)"#])
        let filter = try fixture.run(["run", "suite", "--filter", "onee"])
        #expect(filter.status == 2 && filter.stderr.contains("--filter 'onee' selects no scenario in 1 file"), "\(filter)")
        let tags = try fixture.run(["run", "suite", "--tags", "smok"])
        #expect(tags.status == 2 && tags.stderr.contains("--tags smok selects no scenario"), "\(tags)")
        #expect(try fixture.run(["run", "suite", "--tags", "smoke"]).status == 0)
        let list = try fixture.run(["list", "suite", "--tags", "smok"])
        #expect(list.status == 2 && list.stderr.contains("--tags smok selects no scenario"), "list agrees\n\(list)")
        // A typo among tags that do select is said, and the run goes on.
        let partly = try fixture.run(["run", "suite", "--tags", "smoke,regresion", "--exclude-tags", "Smoke"])
        #expect(
            partly.stderr.contains("note: --tags regresion: no scenario has this tag (tags are case-sensitive; the suite's: smoke)")
                && partly.stderr.contains("note: --exclude-tags Smoke: no scenario has this tag; did you mean 'smoke'?"), "\(partly)")
        #expect(partly.status == 0, "\(partly)")
        let empty = try fixture.run(["run", "suite", "--tags", ""])
        #expect(empty.status == 2 && empty.stderr.contains("--tags '' names no tag (is a variable unset?)"), "\(empty)")
        let commas = try fixture.run(["run", "suite", "--exclude-tags", " , ,"])
        #expect(commas.status == 2 && commas.stderr.contains("--exclude-tags ' , ,' names no tag"), "\(commas)")
        let unsetFilter = try fixture.run(["run", "--filter", "", "suite"])
        #expect(
            unsetFilter.status == 2 && unsetFilter.stderr.contains("--filter '' selects every scenario (is a variable unset?)"),
            "\(unsetFilter)")
        let unsetAllow = try fixture.run(["run", "--allow", "", "suite"])
        #expect(unsetAllow.status == 2 && unsetAllow.stderr.contains("--allow '' names no invariant"), "\(unsetAllow)")
    }

    /// A suite whose scenarios are all commented out runs nothing: that is
    /// not a pass, in any shard of it (`--shard 1/1` ran it green). An empty
    /// shard of a suite that has scenarios is: more shards than files.
    @Test func aSuiteThatDeclaresNoScenarioIsAUsageError() throws {
        let fixture = try Fixture(["suite/a.lua": "-- scenario(\"one\", function() end)\nlocal x = 1\n", "suite/b.lua": ""])
        let run = try fixture.run(["run", "suite", "--junit", "report.xml"])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains("no scenario in 2 files: none declares one with scenario("), "\(run)")
        #expect(fixture.exists("report.xml"), "the report is still written")
        let report = try String(contentsOf: fixture.url("report.xml"), encoding: .utf8)
        #expect(report.contains(#"errors="1""#) && report.contains("no scenario ran"), "and it is not green: \(report)")
        #expect(try fixture.run(["run", "suite", "--in-process"]).status == 2)
        #expect(try fixture.run(["list", "suite"]).status == 2)
        #expect(try fixture.run(["run", "suite", "--shard", "1/1"]).status == 2, "a shard of a suite with none")
        #expect(try fixture.run(["run", "suite", "--shard", "2/2"]).status == 2, "a shard of a suite with none")
        try fixture.write("suite/c.lua", #"scenario("one", function() end)"#)
        let shards = try ["1/3", "2/3", "3/3"].map { try fixture.run(["run", "suite", "--shard", $0]) }
        #expect(shards.allSatisfy { $0.status == 0 }, "an empty shard of a suite with a scenario passes: \(shards)")
        #expect(shards.contains { CLI.summary($0.stdout)?.hasPrefix("0 passed, 0 failed, 0 errors, 0 skipped") == true }, "\(shards)")
        // A shard that got no file at all says so (it read like a shard whose scenarios vanished).
        let empty = try fixture.run(["run", "suite/c.lua", "--shard", "2/2"])
        #expect(
            empty.status == 0 && empty.stderr.contains("note: shard 2/2 got no file: the suite's 1 file went to the other shards"),
            "\(empty)")
    }

    /// A failure's place as the console prints it runs that scenario again.
    @Test func aFileAndLineSelectTheScenarioDeclaredThere() throws {
        let source = """
            scenario("first", function() end)

            describe("group", function()
              scenario("second (x)", function() -- @second
                expect_tab("orders") -- @inside
              end)
            end)
            """
        let fixture = try Fixture(["suite/a.lua": source, "suite/b.lua": #"scenario("second (x)", function() end)"#])
        let inside = try fixture.run(["run", "suite/a.lua:\(Lua.line(of: "@inside", in: source))"])
        #expect(inside.status == 1 && CLI.summary(inside.stdout)?.hasPrefix("0 passed, 1 failed") == true, "\(inside)")
        #expect(inside.stdout.contains("FAIL suite/a.lua:\(Lua.line(of: "@second", in: source))  group second (x)"), "\(inside)")
        let both = try fixture.run(["list", "suite/a.lua:1", "suite/a.lua:\(Lua.line(of: "@second", in: source))"])
        #expect(both.stdout.hasSuffix("2 scenarios in 1 file\n"), "\(both)")
        let none = try fixture.run(["run", "suite/b.lua:0"])
        #expect(none.status == 2, "line 0 is no line: \(none)")
        #expect(none.stderr.contains("suite/b.lua:0: there is no line 0 — lines start at 1"), "said as such: \(none)")
        let above = try fixture.run(["run", "suite/a.lua:99", "--filter", "x"])
        #expect(above.status == 2 && above.stderr.contains("selects a scenario by its line, and --filter by its name"), "\(above)")
        // A name filter must not reach beyond the lines given.
        let mixed = try fixture.run(["run", "suite/a.lua:1", "suite/b.lua"])
        #expect(mixed.status == 2 && mixed.stderr.contains("suite/b.lua has no line while suite/a.lua:1 has"), "\(mixed)")
        let same = try fixture.run(["run", "suite/a.lua:\(Lua.line(of: "@second", in: source))", "suite/b.lua:1"])
        #expect(same.status == 0 || same.status == 1, "both lines chosen: \(same)")
        let clash = try fixture.run(["run", "suite/a.lua:1", "suite/b.lua:1", "--in-process"])
        #expect(clash.status == 0, "different names: \(clash)")
        // Past the file's end: a typo, said as such (it used to run the last scenario).
        let past = try fixture.run(["run", "suite/a.lua:99"])
        #expect(past.status == 2 && past.stderr.contains("suite/a.lua:99: the file has 7 lines"), "\(past)")
        // A place as lint prints it (file:line:column) selects by its line.
        let column = try fixture.run(["run", "suite/a.lua:\(Lua.line(of: "@inside", in: source)):9"])
        #expect(column.status == 1 && column.stdout.contains("group second (x)"), "\(column)")
    }

    /// Lines are numbered as Lua numbers them (`list`, failures, reports): a bare `\r` ends one too.
    /// A file with classic Mac line ends was one line to `file:LINE` and lint, and a stray `\r` in
    /// a long string shifted every line after it — `file:LINE` ran the passing scenario above the
    /// failing one, and lint pointed at the wrong line.
    @Test func aLineIsWhatLuaCallsALine() throws {
        let fixture = try Fixture([
            "suite/cr.lua":
                "scenario(\"a\", function() end)\rscenario(\"b\", function() end)\rscenario(\"c\", function() expect_tab(\"ordrs\") end)\r",
            "suite/stray.lua":
                "local text = [[one\rtwo]]\nscenario(\"passes\", function() end)\nscenario(\"fails\", function() assert(false) end)\n"
        ])
        let listed = try fixture.run(["list", "suite/cr.lua"])
        #expect(listed.stdout.contains("suite/cr.lua:2"), "\(listed)")
        let second = try fixture.run(["run", "suite/cr.lua:2"])
        #expect(second.status == 0 && CLI.summary(second.stdout)?.hasPrefix("1 passed, 0 failed") == true, "\(second)")
        let lint = try fixture.run(["lint", "suite/cr.lua"])
        #expect(lint.stdout.contains("suite/cr.lua:3:"), "\(lint)")
        let failing = try fixture.run(["run", "suite/stray.lua:4"])
        #expect(failing.status == 1 && failing.stdout.contains("FAIL suite/stray.lua:4  fails"), "\(failing)")
    }

    /// Two lines of one file given through a hard link and its own name select both scenarios, as
    /// through a symbolic link: they were refused as two files with a scenario of the same name,
    /// naming a line nobody gave.
    @Test func linesOfOneFileGivenThroughAHardLinkAreOneFilesLines() throws {
        let fixture = try Fixture([
            "suite/a.lua": "describe(\"grp\", function()\n  scenario(\"one\", function() end)\n  scenario(\"two\", function() end)\nend)\n"
        ])
        #expect(link(fixture.url("suite/a.lua").path, fixture.url("suite/hard.lua").path) == 0)
        let output = try fixture.run(["run", "suite/hard.lua:3", "suite/a.lua:2"])
        #expect(output.status == 0 && CLI.summary(output.stdout)?.hasPrefix("2 passed") == true, "\(output)")
    }

    /// A `describe` line selects its group's scenarios: it ran the scenario above the group
    /// (another group's, green) in their place, the group's failing scenarios never run.
    @Test func aDescribeLineRunsItsGroup() throws {
        let source = """
            scenario("top one", function() launch{} expect_tab("home") end)

            describe("group", function() -- @group
              scenario("g1", function() launch{} expect_tab("profile") end)
              describe('inner', function() -- @inner
                scenario("g2", function() launch{} expect_tab("orders") end)
              end)
            end)
            scenario("after", function() end)
            describe(
              "spread", -- @spread
              function()
                scenario("s1", function() launch{} expect_tab("profile") end)
              end)
            _G.describe("global", function() -- @global
              scenario("gl", function() end)
            end)
            """
        let fixture = try Fixture(["suite/d.lua": source])
        // A header over several lines: its first line, or the one with the name.
        for line in [Lua.line(of: "@spread", in: source) - 1, Lua.line(of: "@spread", in: source)] {
            let spread = try fixture.run(["list", "suite/d.lua:\(line)"])
            #expect(spread.stdout.contains("spread s1") && spread.stdout.hasSuffix("1 scenario in 1 file\n"), "\(line): \(spread)")
        }
        let group = try fixture.run(["run", "suite/d.lua:\(Lua.line(of: "@group", in: source))"])
        #expect(group.status == 1 && CLI.summary(group.stdout)?.hasPrefix("0 passed, 2 failed") == true, "\(group)")
        let inner = try fixture.run(["list", "suite/d.lua:\(Lua.line(of: "@inner", in: source))"])
        #expect(inner.stdout.contains("group inner g2") && inner.stdout.hasSuffix("1 scenario in 1 file\n"), "\(inner)")
        let global = try fixture.run(["list", "suite/d.lua:\(Lua.line(of: "@global", in: source))"])
        #expect(global.stdout.contains("global gl") && global.stdout.hasSuffix("1 scenario in 1 file\n"), "\(global)")
        let blank = try fixture.run(["run", "suite/d.lua:2"])
        #expect(blank.status == 0 && blank.stdout.contains("1 passed"), "a line above the group is still the scenario above: \(blank)")
    }

    /// All rows of a scenario.each share its line: the line runs them all.
    @Test func aScenarioEachLineRunsEveryRow() throws {
        let fixture = try Fixture([
            "suite/rows.lua": """
            scenario("before", function() end)
            scenario.each({ { tab = "home" }, { tab = "orders" } }, "$tab", function(row) select_tab(row.tab) end)
            """, "suite/other.lua": #"scenario("home", function() end)"#
        ])
        let list = try fixture.run(["list", "suite/rows.lua:2"])
        #expect(list.stdout == "suite/rows.lua:2  home\nsuite/rows.lua:2  orders\n2 scenarios in 1 file\n", "\(list)")
        let clash = try fixture.run(["run", "suite/rows.lua:2", "suite/other.lua:1"])
        #expect(clash.status == 0, "both chosen by their lines: \(clash)")
        let leak = try fixture.run(["run", "suite/rows.lua:2", "suite/other.lua:1", "suite/rows.lua:1"])
        #expect(leak.status == 0, "\(leak)")
        let unchosen = try fixture.run(["run", "suite/rows.lua:1", "suite/other.lua:1"])
        #expect(unchosen.status == 2 && unchosen.stderr.contains("suite/rows.lua:2 has a scenario named 'home' too"), "\(unchosen)")
        // One file spelled two ways is one file, its lines together (it was "another file with a scenario named so").
        let spelled = try fixture.run(["run", "suite/rows.lua:1", "./suite/rows.lua:2"])
        #expect(spelled.status == 0 && spelled.stdout.contains("3 passed"), "\(spelled)")
    }

    /// Only pending scenarios selected: nothing was checked, which is not a pass either
    /// (mutate says the same). One written scenario beside them is a run.
    @Test func aSelectionOfPendingScenariosOnlyIsNotAPass() throws {
        let fixture = try Fixture([
            "suite/a.lua": "pending(\"one\")\npending(\"two\", function() end)\n",
            "suite/b.lua": #"scenario("written", { tags = { "smoke" } }, function() end)"#
        ])
        let pending = try fixture.run(["run", "suite/a.lua", "--junit", "report.xml"])
        #expect(
            pending.status == 2 && pending.stderr.contains("every scenario selected is pending (2), so nothing was checked"),
            "\(pending)")
        #expect(try fixture.read("report.xml").contains(#"name="no scenario ran""#))
        let excluded = try fixture.run(["run", "suite", "--exclude-tags", "smoke", "--in-process"])
        #expect(excluded.status == 2, "\(excluded)")
        #expect(try fixture.run(["run", "suite"]).status == 0)
    }

    @Test func listExitsTwoWhenAFileDoesNotLoad() throws {
        let fixture = try Fixture(["suite/a.lua": "scenario(\"ok\", function() end)", "suite/b.lua": "this is not lua"])
        let list = try fixture.run(["list", "suite"])
        #expect(list.status == 2, "\(list)")
        #expect(list.stdout.contains("suite/b.lua: does not load"), "\(list)")
    }

    @Test func mutateRefusesToScoreASuiteThatIsNotGreen() throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            scenario("green", function() end)
            scenario("red", function() expect_tab("orders") end)
            """
        ])
        let output = try fixture.run(["mutate", "suite", "--only", "graft-external-link", "--junit", "m.xml"])
        #expect(output.status == 2, "\(output)")
        #expect(output.stderr.contains("not green on the healthy app"), "\(output)")
        #expect(output.stderr.contains("suite/a.lua:2  red"), "\(output)")
        #expect(!output.stdout.contains("mutation score"), "\(output)")
        // The report still says why (CI uploads it).
        let junit = try JUnit(Data(fixture.read("m.xml").utf8))
        #expect(junit.testcase("healthy suite passes")?.child("failure")?.text.contains("suite/a.lua:2  red") == true, "\(junit.raw)")
        #expect(
            junit.testcase("healthy suite passes")?["file"] == nil && !junit.raw.contains("navscript.replay"),
            "no file named 'mutate' for CI to open, nothing to replay: \(junit.raw)")
        // A base fault is named as what the suite fails with.
        let based = try fixture.run(["mutate", "suite", "--only", "graft-external-link", "--fault", "cached-destination"])
        #expect(
            based.stderr.contains("not green with --fault cached-destination alone")
                && based.stderr.contains("navscript run --fault cached-destination shows why"), "\(based)")
    }

    /// A data file (or a scenario file) edited while mutate runs — a checkout, an editor — made every
    /// fault run after the edit fail for the edit's sake, each counted as a kill (24/25 from a suite
    /// that kills none): the change is said, no fault is scored, exit 2.
    @Test(arguments: ["suite/data.txt", "suite/a.lua"])
    func mutateRefusesToScoreASuiteEditedWhileItRan(edited: String) throws {
        let fixture = try Fixture([
            "suite/data.txt": "home",
            "suite/a.lua": """
            local function spin(s) local t = os.clock() while os.clock() - t < s do end end
            local function want() local f = assert(io.open("data.txt")) local v = f:read("l") f:close() return v end
            scenario("reads data", function() launch{} spin(0.3) expect_tab(want()) end)
            """
        ])
        let output = try fixture.run(
            [
                "mutate", "suite", "--jobs", "1", "--only", "graft-external-link,cached-destination,no-pop-detection",
                "--instruction-budget", "2000000000", "--junit", "m.xml"
            ]
        ) { pid in
            // Once its first worker runs, mutate has stamped the suite: the edit lands during some run of it.
            func hasAChild() -> Bool {
                let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
                return !children.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            }
            for _ in 0..<1000 where !hasAChild() { usleep(5_000) }
            let text = (try? fixture.read(edited)) ?? ""
            try? fixture.write(edited, edited.hasSuffix(".txt") ? "profile" : text.replacingOccurrences(of: "want()", with: "\"profile\""))
        }
        #expect(output.status == 2, "\(output)")
        #expect(output.stderr.contains("\(edited) changed while mutate ran"), "\(output)")
        #expect(!output.stdout.contains("mutation score"), "\(output)")
        let junit = try JUnit(Data(fixture.read("m.xml").utf8))
        #expect(junit.outcome("the suite stays as it was") == "error", "\(junit.raw)")
    }

    /// A suite whose every file fails to load is not green: that is the reason
    /// given (naming the files), not "all are pending or skipped".
    @Test func mutateNamesFilesThatDoNotLoad() throws {
        let fixture = try Fixture(["suite/broken.lua": "this is not lua", "suite/loops.lua": "while true do end"])
        let output = try fixture.run(["mutate", "suite", "--only", "graft-external-link", "--instruction-budget", "100000"])
        #expect(output.status == 2, "\(output)")
        #expect(output.stderr.contains("not green on the healthy app"), "\(output)")
        #expect(
            output.stderr.contains("  suite/broken.lua:1  suite/broken.lua (load)")
                && output.stderr.contains("  suite/loops.lua:1  suite/loops.lua (load)"), "\(output)")
        #expect(!output.stderr.contains("pending or skipped") && !output.stderr.contains(".lua:0"), "\(output)")
    }

    /// What mutate is given is checked like `run` checks it: a selection of
    /// nothing is not a score of zero, and fault names are suggested.
    @Test func mutateChecksWhatItIsGiven() throws {
        let fixture = try Fixture(["suite/a.lua": #"scenario("one", function() end)"#])
        let nothing = try fixture.run(["mutate", "suite", "--filter", "zzz", "--only", "graft-external-link"])
        #expect(nothing.status == 2 && nothing.stderr.contains("--filter 'zzz' selects no scenario"), "\(nothing)")
        let typo = try fixture.run(["mutate", "suite", "--only", "graft-external-lnk"])
        #expect(typo.status == 2 && typo.stderr.contains("did you mean 'graft-external-link'?"), "\(typo)")
        let listed = try fixture.run(["mutate", "suite", "--only", "graft-external-link,cached-destination", "--jobs", "1"])
        #expect(listed.stdout.contains("graft-external-link") && listed.stdout.contains("cached-destination"), "a comma list\n\(listed)")
        // A surviving fault comes with what to do about it.
        #expect(listed.status == 1 && listed.stdout.contains("cached-destination   SURVIVED"), "\(listed)")
        #expect(listed.stdout.contains("`navscript explore --fault cached-destination` looks for one"), "\(listed)")
    }

    /// A scenario that `graft-external-link` fails: one per file in the mutate tests.
    static let killer = """
        scenario("a link lands on the canonical stack", function()
          deep_link("shop://product/p1004")
          expect_stack{ "home", "product:p1004" }
        end)
        """

    /// Without --full-matrix each fault counts its first killing file only,
    /// so the report does not depend on how the jobs were scheduled.
    @Test func mutateCountsTheSameWhateverTheJobs() throws {
        let killer = Self.killer
        let fixture = try Fixture(["suite/a.lua": killer, "suite/b.lua": killer, "suite/c.lua": killer, "suite/d.lua": killer])
        let one = try fixture.run(["mutate", "suite", "--only", "graft-external-link", "--jobs", "1"])
        for _ in 1...2 {
            let two = try fixture.run(["mutate", "suite", "--only", "graft-external-link", "--jobs", "2"])
            #expect(two.stdout == one.stdout, "jobs 1:\n\(one.stdout)\njobs 2:\n\(two.stdout)")
        }
        #expect(one.stdout.contains("killed    by 1 scenario\n    suite/a.lua:1"), "the first file in run order\n\(one)")
    }

    @Test func mutateStopsAFaultAtItsFirstKillUnlessTheFullMatrixIsAsked() throws {
        let killer = Self.killer
        let fixture = try Fixture(["suite/a.lua": killer, "suite/b.lua": killer, "suite/c.lua": killer])
        let first = try fixture.run(["mutate", "suite", "--only", "graft-external-link", "--jobs", "1"])
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("graft-external-link  killed    by 1 scenario\n"), "\(first)")
        #expect(first.stdout.contains("--full-matrix runs every scenario under every fault"), "\(first)")
        let full = try fixture.run(["mutate", "suite", "--only", "graft-external-link", "--jobs", "1", "--full-matrix"])
        #expect(full.status == 0, "\(full)")
        #expect(full.stdout.contains("graft-external-link  killed    by 3 scenarios"), "\(full)")
        #expect(!full.stdout.contains("--full-matrix runs"), "\(full)")
    }

    @Test func colourCanBeForcedInAPipe() throws {
        let fixture = try Fixture(["suite/a.lua": #"scenario("one", function() end)"#])
        let always = try fixture.run(["run", "suite", "--color", "always"])
        #expect(always.stdout.contains("\u{1B}["), "\(always)")
        let never = try CLI.run(["run", "suite", "--color", "never"], in: fixture.root, environment: ["FORCE_COLOR": "1"])
        #expect(!never.stdout.contains("\u{1B}["), "\(never)")
        let forced = try CLI.run(["run", "suite"], in: fixture.root, noColor: false, environment: ["FORCE_COLOR": "1"])
        #expect(forced.stdout.contains("\u{1B}["), "\(forced)")
    }

    @Test func helpShowsEachDefaultOnceAndTheSignalStatuses() throws {
        let help = try CLI.run(["run", "--help"], in: URL(fileURLWithPath: NSTemporaryDirectory()))
        #expect(!help.stdout.contains("(default: the number of cores). (default:"), "\(help)")
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("130, 143 or 129"), "\(help)")
    }
}
