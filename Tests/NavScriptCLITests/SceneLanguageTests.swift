import Foundation
import TestSupport
import Testing

/// The language of several windows, end to end: on ShopApp (which has
/// them) and on the notes app (which has one).
@Suite("Scenes in the language")
struct SceneLanguageTests {
    @Test func scenesActAndObservePerWindow() throws {
        let fixture = try Fixture([
            "suite/scenes.lua": """
            scenario("two windows", function()
              local n = open_scene{}
              assert(n == 2)
              local list = scenes()
              assert(#list == 2 and list.foreground == 2, "scenes: " .. #list)
              in_scene(1, function() deep_link("shop://product/p1") end)
              expect_stack{ "home" }
              in_scene(1, function() expect_stack{ "home", "product:p1" } end)
              local ok = pcall(in_scene, 1, function() error("inside") end)
              assert(not ok)
              expect_stack{ "home" }
              focus_scene(1)
              expect_scenes{ 1, 2, foreground = 1 }
              close_scene(2)
            end)
            scenario("a push cannot name a window", function()
              open_scene{}
              deep_link({ route = "product/p1" }, { scene = 1 })
            end)
            scenario("no such window", function()
              in_scene(5, function() end)
            end)
            scenario("a wrong count of windows fails", function()
              expect_scenes{ 1, 2 }
            end)
            """
        ])
        let output = try fixture.run(["run", "suite"])
        #expect(output.status == 1, "\(output)")
        #expect(output.stdout.contains("1 passed, 1 failed, 2 errors"), "\(output)")
        #expect(output.stdout.contains("push input reaches the app, which picks the window in front"), "\(output)")
        #expect(output.stdout.contains("in_scene: there is no scene 5; the open scenes are 1"), "\(output)")
        #expect(output.stdout.contains("the open scenes are { 1 }, expected { 1, 2 }"), "\(output)")
        // With several windows, a timeline line names the window its screen and tab are of.
        #expect(output.stdout.contains("open_scene{} → scene 2  → home [tab home, scene 2]"), "\(output)")
        #expect(output.stdout.contains("launch{}  → home [tab home]\n"), "one window: no scene named")
    }

    /// in_scene keeps to its window or says why it cannot: a yield inside it
    /// is an error; a restart inside it keeps acting on the same window; a
    /// window closed meanwhile is a failure, not another window checked.
    @Test func inSceneNeverQuietlyActsOnAnotherWindow() throws {
        let fixture = try Fixture([
            "suite/acting.lua": """
            scenario("a yield inside in_scene", function()
              open_scene{}
              local co = coroutine.wrap(function() in_scene(1, function() coroutine.yield() end) end)
              co()
            end)
            scenario("a restart inside in_scene keeps its window", function()
              in_scene(1, function() deep_link("shop://product/p1") end)
              open_scene{}
              in_scene(1, function()
                restart{}
                expect_stack{ "home", "product:p1" }
              end)
              expect_stack{ "home" }
            end)
            scenario("a restart keeps each window's number", function()
              local two = open_scene{}
              deep_link("shop://product/p2")
              local three = open_scene{}
              deep_link("shop://product/p3")
              close_scene(1)
              restart{}
              expect_scenes{ two, three, foreground = three }
              in_scene(two, function() expect_screen("product:p2") end)
              in_scene(three, function() expect_screen("product:p3") end)
              assert(open_scene{} == 4, "a new window after the restart takes a number no window had")
            end)
            scenario("a window closed inside in_scene", function()
              open_scene{}
              in_scene(2, function()
                close_scene(2)
                expect_stack{ "home" }
              end)
            end)
            scenario("a url that is no link", function() open_scene{ url = 5 } end)
            scenario("expect_scenes with a hole", function() expect_scenes{ 1, nil, 3 } end)
            scenario("expect_scenes with a misspelt key", function() open_scene{} expect_scenes{ 1, 2, foregrund = 1 } end)
            scenario("expect_scenes with a foreground that is no number", function()
              open_scene{}
              expect_scenes{ 1, 2, foreground = "1" }
            end)
            scenario("open_scene with a door and no link", function() open_scene{ via = "bogus" } end)
            scenario("a window's number that is no integer", function()
              open_scene{}
              deep_link("shop://product/p1", { scene = 1.5 })
            end)
            scenario("a failure says its window", function()
              open_scene{}
              in_scene(1, function() expect_tab("orders") end)
            end)
            scenario("focusing a closed window", function()
              open_scene{}
              close_scene(2)
              focus_scene(2)
            end)
            scenario("closing a window never opened", function() open_scene{} close_scene(3) end)
            scenario("closing the last window", function() close_scene(1) end)
            """
        ])
        let output = try fixture.run(["run", "suite"])
        // (The window closed inside in_scene is an error now too: the script closed the window it acts on.)
        #expect(output.stdout.contains("2 passed, 1 failed, 11 errors"), "\(output)")
        #expect(output.stdout.contains("close_scene: scene 1 is the app's last window and cannot be closed"), "\(output)")
        // A window that is not open is the script's mistake for focus_scene and close_scene too (an error,
        // as for in_scene): it was a failure, blaming the app.
        #expect(output.stdout.contains("focus_scene: there is no scene 2; the open scenes are 1"), "\(output)")
        #expect(output.stdout.contains("close_scene: there is no scene 3; the open scenes are 1, 2"), "\(output)")
        #expect(output.stdout.contains("expect_scenes: the scenes must be a list with no holes"), "\(output)")
        #expect(output.stdout.contains("expect_scenes has no field 'foregrund'"), "\(output)")
        #expect(output.stdout.contains("expect_scenes: foreground must be a scene number (an integer), got"), "\(output)")
        #expect(output.stdout.contains("open_scene: via names the door of url, and there is no url"), "\(output)")
        #expect(output.stdout.contains("scene must be a window's number (an integer from open_scene), got 1.5"), "\(output)")
        #expect(output.stdout.contains("the selected tab is 'home', expected 'orders' (in scene 1)"), "\(output)")
        #expect(output.stdout.contains("in_scene(1, fn): fn yielded"), "\(output)")
        #expect(output.stdout.contains("scene 2, which in_scene(2, …) acts on, is not open"), "\(output)")
        #expect(output.stdout.contains("open_scene: url is the link the window opens for"), "\(output)")
    }

    /// A failing scenario of two windows: its storyboard draws both.
    /// The event log holds every window's events: an event check inside `in_scene(1, …)` read as
    /// window 1's and passed on window 2's (a link that landed in the wrong window). It is refused
    /// there with what to do; outside `in_scene`, and in an app with one window, it is the app's.
    @Test func eventChecksInsideInSceneAreRefusedForSeveralWindows() throws {
        let fixture = try Fixture([
            "suite/events.lua": """
            scenario("window 2's link checked in window 1", { launch = { logged_in = true } }, function()
              open_scene{}
              deep_link("shop://orders/42")
              in_scene(1, function() expect_events{ "select-tab orders" } end)
            end)
            scenario("after window 2 closed, its events stay in the log", { launch = { logged_in = true } }, function()
              open_scene{}
              deep_link("shop://orders/42")
              close_scene(2)
              in_scene(1, function() expect_events{ "select-tab orders" } end)
            end)
            scenario("events() in window 1", { launch = { logged_in = true } }, function()
              open_scene{}
              in_scene(1, function() local _ = events() end)
            end)
            scenario("outside in_scene: the app's log", { launch = { logged_in = true } }, function()
              open_scene{}
              deep_link("shop://orders/42")
              expect_events{ "select-tab orders" }
            end)
            scenario("one window", { launch = { logged_in = true } }, function()
              deep_link("shop://orders/42")
              in_scene(1, function() expect_event_count("select-tab orders", 1) end)
            end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        let refused = junit.testcase("window 2's link checked in window 1")?.child("error")?["message"] ?? ""
        #expect(refused.contains("expect_events inside in_scene(1, …): the event log is the app's"), "\(junit.raw)")
        let closed = junit.testcase("after window 2 closed, its events stay in the log")?.child("error")?["message"] ?? ""
        #expect(closed.contains("expect_events inside in_scene(1, …)"), "\(junit.raw)")
        let listed = junit.testcase("events() in window 1")?.child("error")?["message"] ?? ""
        #expect(listed.contains("events inside in_scene(1, …)"), "\(junit.raw)")
        #expect(junit.outcome("outside in_scene: the app's log") == "passed", "\(junit.raw)")
        #expect(junit.outcome("one window") == "passed", "\(junit.raw)")
    }

    @Test func theStoryboardDrawsEveryWindow() throws {
        let fixture = try Fixture([
            "suite/two.lua": """
            scenario("two windows", function()
              open_scene{}
              deep_link("shop://product/p1")
              expect_stack{ "home" }
            end)
            """
        ])
        let output = try fixture.run(["run", "suite", "--html", "r.html"])
        #expect(output.status == 1, "\(output)")
        let html = try fixture.read("r.html")
        #expect(html.contains("scene 2 (in front)") && html.contains("scene 1</span>"), "\(html.count) bytes")
    }

    @Test func anAppWithOneWindowSaysSo() throws {
        let fixture = try OwnAppTests.fixture(extra: [
            "one.lua": """
            scenario("scene 1 is the window", function()
              in_scene(1, function() expect_tab("notes") end)
              expect_scenes{ 1, foreground = 1 }
            end)
            scenario("no second window", function() open_scene{} end)
            """
        ])
        let output = try CLI.run(["run", "one.lua"], in: fixture.root, binary: CLI.notesBinary)
        #expect(output.stdout.contains("1 passed, 0 failed, 1 error"), "\(output)")
        #expect(output.stdout.contains("open_scene: the app has one window"), "\(output)")
    }
}

/// `navscript lint`, end to end: file:line:col problems, exit 1; clean, exit 0.
@Suite("lint")
struct LintCommandTests {
    @Test func problemsAreListedAtTheirPlaceAndFailTheCommand() throws {
        let fixture = try Fixture([
            "suite/typos.lua": """
            scenario("typos", function()
              expect_tab("profil")
              expect_no_event("presnt login")
            end)
            """,
            "suite/fine.lua": "scenario(\"fine\", function() expect_tab(\"home\") end)\n"
        ])
        let output = try fixture.run(["lint", "suite"])
        #expect(output.status == 1, "\(output)")
        #expect(output.stdout.contains("suite/typos.lua:2:14: error: ShopApp has no tab 'profil'; did you mean 'profile'?"), "\(output)")
        #expect(output.stdout.contains("suite/typos.lua:3:19: error: event 'presnt login': no event starts with 'presnt'"), "\(output)")
        #expect(output.stderr.contains("2 problems in 1 of 2 files"), "\(output)")
        // luacheck's plain formatter with codes, for its problem matchers and editor integrations.
        let luacheck = try fixture.run(["lint", "suite", "--format", "luacheck"])
        #expect(luacheck.status == 1, "\(luacheck)")
        #expect(luacheck.stdout.contains("suite/typos.lua:2:14: (W902) ShopApp has no tab 'profil'"), "\(luacheck)")
        #expect(luacheck.stdout.contains("suite/typos.lua:3:19: (W904) event 'presnt login'"), "\(luacheck)")
        let clean = try fixture.run(["lint", "suite/fine.lua"])
        #expect(clean.status == 0 && clean.stdout.isEmpty && clean.stderr.contains("no problem in 1 file"), "\(clean)")
        // The same check before every run: a warning, the run goes on.
        let run = try fixture.run(["run", "suite"])
        #expect(run.stderr.contains("warning: suite/typos.lua:2:14: ShopApp has no tab 'profil'"), "\(run)")
        #expect(run.stdout.contains("failed"), "the run went on: \(run)")
    }

    /// A file that compiles and does not load — a duplicate scenario name, a scenario without its
    /// function — lost every scenario in it at run time, and lint said "no problem": it loads each file
    /// as `list` does, and names the line.
    @Test func aFileThatDoesNotLoadIsAProblem() throws {
        let fixture = try Fixture([
            "suite/dup.lua": "scenario(\"a\", function() end)\nscenario(\"a\", function() end)\n",
            "suite/nofn.lua": "scenario(\"no body yet\")\n",
            "suite/fine.lua": "scenario(\"fine\", function() end)\n"
        ])
        let output = try fixture.run(["lint", "suite", "--format", "luacheck"])
        #expect(output.status == 1, "\(output)")
        #expect(output.stdout.contains(#"suite/dup.lua:2:1: (W911) does not load: duplicate scenario name "a""#), "\(output)")
        #expect(output.stdout.contains("suite/nofn.lua:1:1: (W911) does not load: scenario(\"no body yet\""), "\(output)")
        #expect(output.stderr.contains("2 problems in 2 of 3 files"), "\(output)")
    }

    /// ShopApp's driver has windows: its window functions are no problem (an app with one window
    /// has them refused: ScenarioLintTests).
    @Test func windowFunctionsOfAnAppWithWindowsAreFine() throws {
        let fixture = try Fixture([
            "suite/w.lua": #"scenario("w", function() open_scene{} deep_link("shop://cart", { scene = 2 }) close_scene(2) end)"#
        ])
        let lint = try fixture.run(["lint", "suite"])
        #expect(lint.status == 0, "\(lint)")
    }

    /// A file that does not compile is a problem at its line (lint called it
    /// clean, so a CI lint step passed a broken file); a run says it once, as
    /// the file's load error, not as a warning too.
    @Test func aFileThatDoesNotCompileIsAProblem() throws {
        let fixture = try Fixture(["suite/broken.lua": "scenario(\"x\", function()\n  launch{\nend)\n"])
        let lint = try fixture.run(["lint", "suite"])
        #expect(lint.status == 1, "\(lint)")
        #expect(lint.stdout.contains("suite/broken.lua:3:1: error: does not compile: unexpected symbol near 'end'"), "\(lint)")
        let luacheck = try fixture.run(["lint", "suite", "--format", "luacheck"])
        #expect(luacheck.stdout.contains("suite/broken.lua:3:1: (E011) does not compile: "), "\(luacheck)")
        let run = try fixture.run(["run", "suite"])
        #expect(run.status == 2 && !run.stderr.contains("warning:"), "\(run)")
    }

    /// A literal of a megabyte is quoted by its ends, the cut said (the
    /// warning was one line of the whole literal).
    @Test func aHugeLiteralIsQuotedByItsEnds() throws {
        let fixture = try Fixture([
            "suite/long.lua": "scenario(\"l\", function() expect_tab(\"\(String(repeating: "o", count: 1_000_000))\") end)\n"
        ])
        let lint = try fixture.run(["lint", "suite"])
        #expect(
            lint.status == 1 && lint.stdout.utf8.count < 40_000 && lint.stdout.contains("characters left out"), "\(lint.stdout.prefix(300))"
        )
    }

    /// A run prints the first twenty lint warnings and counts the rest:
    /// a generated suite full of one typo must not bury the run.
    @Test func aRunPrintsTheFirstLintWarningsAndCountsTheRest() throws {
        let lines = (1...30).map { #"scenario("s\#($0)", function() select_tab("profil") end)"# }
        let fixture = try Fixture(["suite/typos.lua": lines.joined(separator: "\n")])
        let run = try fixture.run(["run", "suite"])
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains(": warning: ") }
        #expect(warnings.count == 21, "\(run.stderr)")
        #expect(warnings.last?.hasSuffix("warning: and 10 more; `navscript lint` lists them all") == true, "\(run.stderr)")
    }
}
