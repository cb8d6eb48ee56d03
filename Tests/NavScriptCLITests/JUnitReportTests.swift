import Foundation
import TestSupport
import Testing

/// The JUnit file `navscript run --junit` writes, read the way CI reporters
/// read it, and validated with xmllint against the schema.
@Suite("run --junit")
struct JUnitReportTests {
    static let mixed = #"""
        describe("cart", function()
          scenario("passes", function() -- @passes
            tap("product", "p1")
            expect_stack{ "home", "product:p1" }
          end)

          scenario("fails", function() -- @fails
            tap("product", "p1") -- @step
            expect_screen("cart") -- @expect
          end)
        end)

        scenario("errors", function() -- @errors
          error("broken script") -- @raise
        end)

        pending("later") -- @pending
        """#

    @Test func oneFlatSuitePerFileWithCountsAndOneCasePerScenario() throws {
        let fixture = try Fixture(["suite/mixed.lua": Self.mixed, "suite/other.lua": #"scenario("other", function() end)"#])
        let (output, junit) = try fixture.runWithJUnit(["suite"], junit: "reports/nested/junit.xml")
        #expect(output.status == 1, "\(output)")
        #expect(junit.raw.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#), "an XML declaration")
        #expect(junit.root.name == "testsuites")
        #expect(
            junit.root.int("tests") == 5 && junit.root.int("failures") == 1
                && junit.root.int("errors") == 1 && junit.root.int("skipped") == 1, "totals\n\(junit.raw)")

        #expect(junit.suites.map { $0["name"] ?? "" } == ["suite/mixed.lua", "suite/other.lua"])
        #expect(junit.suites.allSatisfy { $0.children("testsuite").isEmpty }, "flat: no nested suites")
        let suite = try #require(junit.suite("suite/mixed.lua"))
        #expect(suite.int("tests") == 4 && suite.int("failures") == 1 && suite.int("errors") == 1 && suite.int("skipped") == 1)
        #expect(suite["time"].map { $0.contains(try! Regex(#"^\d+\.\d+$"#)) } == true, "time with a '.'")
        #expect(
            suite["timestamp"].map { $0.contains(try! Regex(#"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$"#)) } == true,
            "UTC timestamp without zone: \(suite["timestamp"] ?? "none")")
        #expect(suite["hostname"]?.isEmpty == false)

        // `line` is where CI annotates: the declaration, or for a failure or an error the line that failed.
        for (name, marker) in [("cart passes", "@passes"), ("cart fails", "@expect"), ("errors", "@raise"), ("later", "@pending")] {
            let testcase = try #require(junit.testcase(name), "\(name)\n\(junit.raw)")
            #expect(testcase["file"] == "suite/mixed.lua", "\(name)")
            #expect(testcase["line"] == String(Lua.line(of: marker, in: Self.mixed)), "\(name)")
            #expect(testcase["time"].map { $0.contains(try! Regex(#"^\d+\.\d+$"#)) } == true, "\(name)")
        }
        #expect(junit.testcase("cart passes")?["classname"] == "suite.mixed.cart")
        #expect(junit.testcase("errors")?["classname"] == "suite.mixed")

        let failure = try #require(junit.testcase("cart fails")?.child("failure"))
        #expect(failure["type"] == "expectation")
        #expect(failure["message"]?.contains("suite/mixed.lua:\(Lua.line(of: "@expect", in: Self.mixed))") == true)
        #expect(failure["message"]?.contains("expected 'cart'") == true, "\(failure["message"] ?? "")")
        let error = try #require(junit.testcase("errors")?.child("error"))
        #expect(error["message"]?.contains("broken script") == true)
        #expect(error.text.contains("traceback"), "the traceback is the error's text: \(error.text)")
        #expect(junit.testcase("later")?.child("skipped") != nil)
        #expect(junit.testcase("cart passes")?.children.contains { ["failure", "error", "skipped"].contains($0.name) } == false)

        // A failure's step timeline is in its body (GitLab and the GitHub reporters show only
        // that); a passing scenario's in system-out.
        let step = #"suite/mixed.lua:\#(Lua.line(of: "@step", in: Self.mixed))  tap("product", id=p1)  → product:p1 [tab home]"#
        #expect(failure.text.contains("\ntimeline:\n") && failure.text.hasSuffix("\n  " + step), "\(failure.text)")
        #expect(junit.testcase("cart fails")?.child("system-out") == nil, "the timeline is not written twice")
        let passedOut = junit.testcase("cart passes")?.child("system-out")?.text ?? ""
        #expect(passedOut.hasPrefix("timeline:\n  suite/mixed.lua:"), "\(passedOut)")
        #expect(junit.root["name"] == "ShopApp (navscript)", "the root names the app: \(junit.root["name"] ?? "none")")
        XMLLint.expectValid(fixture.url("reports/nested/junit.xml"))
    }

    @Test func strictModeLeavesOutFileAndLine() throws {
        let fixture = try Fixture(["suite/mixed.lua": Self.mixed])
        let output = try fixture.run(["run", "--junit", "strict.xml", "--junit-strict", "suite"])
        #expect(output.status == 1, "\(output)")
        let junit = try JUnit(try Data(contentsOf: fixture.url("strict.xml")))
        #expect(junit.cases.count == 4)
        #expect(junit.cases.allSatisfy { $0["file"] == nil && $0["line"] == nil }, "\(junit.raw)")
        #expect(junit.cases.allSatisfy { $0["name"] != nil && $0["classname"] != nil && $0["time"] != nil })
        XMLLint.expectValid(fixture.url("strict.xml"))
        // No test-case properties in the schema: a failure's replay command opens its output instead
        // (it was dropped without a word).
        #expect(!junit.raw.contains("navscript.replay"), "\(junit.raw)")
        let failing = junit.cases.filter { $0.child("failure") != nil || $0.child("error") != nil }
        #expect(!failing.isEmpty && failing.allSatisfy { $0.child("system-out")?.text.hasPrefix("replay: ") == true }, "\(junit.raw)")
        #expect(
            junit.cases.filter { $0.child("failure") == nil && $0.child("error") == nil }.allSatisfy {
                $0.child("system-out")?.text.hasPrefix("replay: ") != true
            })
    }

    /// Everything the standard Lua runner's JUnit output breaks on: quotes,
    /// markup, newlines, ANSI escapes, control bytes, invalid UTF-8 — in
    /// names, describe blocks, messages, printed output and file names.
    static let hostile = #"""
        describe("group \"<&>' \27[1mbold\27[0m", function()
          scenario("quote \" apos ' <tag> & amp\nnew line \27[31mred\27[0m ctl\1\2\8 bell\7 tab\tend", function()
            print("printed <&> \"q\" \27[32mgreen\27[0m nul\0byte \1\2 bad\255utf8")
            error("bad \27[31m<&>\27[0m \"q\"\nsecond line \2\3 ]]> --> end")
          end)

          scenario("fails ]]> \27[31m<x>", function()
            expect_screen("nope & <> \" ' \27[31m")
          end)
        end)

        scenario("invalid utf-8 \255\254 and a lone \192", function()
          print("\255\254")
        end)

        pending("pending <&> \"\27[33m\"\1")
        """#

    @Test(arguments: [false, true])
    func hostileNamesStillGiveWellFormedSchemaValidXML(strict: Bool) throws {
        let fixture = try Fixture([
            "suite/hostile.lua": Self.hostile,
            "suite/we'ird \"<&>\" näme.lua": #"scenario("plain", function() expect_tab("orders") end)"#
        ])
        let output = try fixture.run(["run", "--junit", "hostile.xml", "suite"] + (strict ? ["--junit-strict"] : []))
        #expect(output.status == 1, "\(output)")
        let file = fixture.url("hostile.xml")
        XMLLint.expectValid(file)
        let junit = try JUnit(try Data(contentsOf: file))
        #expect(junit.cases.count == 5, "\(junit.raw)")
        #expect(junit.root.int("failures") == 2 && junit.root.int("errors") == 1)
        // Jenkins xunit's schema forbids a skipped total on <testsuites>; each <testsuite> has it.
        #expect(junit.root.int("skipped") == (strict ? nil : 1))
        #expect(!junit.raw.contains("\u{1B}"), "no escape character survives")
        #expect(
            !junit.raw.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" },
            "no control character survives")
        let names = junit.caseNames
        #expect(names.contains { $0.hasPrefix("group \"<&>' ") && $0.contains("quote \" apos ' <tag> & amp") }, "\(names)")
        #expect(names.contains { $0.contains("fails ]]>") && $0.contains("<x>") }, "\(names)")
        let error = junit.cases.first { $0.child("error") != nil }
        #expect(error?.child("error")?["message"]?.contains("bad ") == true)
        #expect(error?.child("system-out")?.text.contains("printed <&> \"q\"") == true, "\(junit.raw)")
        #expect(junit.suite("suite/we'ird \"<&>\" näme.lua") != nil, "\(junit.suites.map { $0["name"] ?? "" })")
    }

    @Test func theReportIsWrittenEvenWhenAFileDoesNotLoad() throws {
        let fixture = try Fixture(["suite/broken.lua": "scenario(\n", "suite/ok.lua": #"scenario("ok", function() end)"#])
        let output = try fixture.run(["run", "--junit", "junit.xml", "suite"])
        #expect(output.status == 2, "\(output)")
        let junit = try JUnit(try Data(contentsOf: fixture.url("junit.xml")))
        let broken = try #require(junit.suite("suite/broken.lua")?.children("testcase").first, "\(junit.raw)")
        #expect(JUnit.outcome(broken) == "error")
        #expect(broken["file"] == "suite/broken.lua")
        #expect(junit.outcome("ok") == "passed")
        XMLLint.expectValid(fixture.url("junit.xml"))
    }

    @Test func anUnwritableReportPathIsAnError() throws {
        let fixture = try Fixture(["suite/ok.lua": #"scenario("ok", function() end)"#, "blocker": "a file, not a folder\n"])
        let output = try fixture.run(["run", "--junit", "blocker/junit.xml", "suite"])
        #expect(output.status == 2, "\(output)")
        #expect(output.stderr.contains("blocker/junit.xml"), "\(output)")
    }
}

/// Every test case's `navscript.replay` runs that scenario alone, whatever
/// its name holds — regex metacharacters, a tab, a control character XML
/// cannot carry — pasted into a shell as it stands.
@Suite("run --junit: replay commands")
struct JUnitReplayTests {
    @Test func eachReplayRunsItsScenarioAlone() throws {
        let fixture = try Fixture([
            "suite/odd.lua": #"""
            scenario("odd \1 name (a|b) [x]\tend", function() end)
            scenario("odd  name (a|b) [x]\tend", function() end)
            scenario("plain.*", function() end)
            scenario("plain", function() end)
            scenario("non-character \u{FFFF} end", function() end)
            scenario("non-character  end", function() end)
            """#
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 0, "\(output)")
        let navscript = try CLI.binary.get()
        let path = navscript.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        #expect(junit.cases.count == 6)
        for testcase in junit.cases {
            let replay = try #require(
                testcase.child("properties")?.children("property")
                    .first { $0["name"] == "navscript.replay" }?["value"], "\(junit.raw)")
            let rerun = try CLI.run(
                ["-c", replay + " --junit rerun.xml"], in: fixture.root, environment: ["PATH": path],
                binary: .success(URL(fileURLWithPath: "/bin/sh")))
            #expect(rerun.status == 0, "\(replay)\n\(rerun)")
            #expect(CLI.summary(rerun.stdout)?.hasPrefix("1 passed, 0 failed") == true, "\(replay)\n\(rerun)")
            // The same scenario, not one whose name looks the same once XML dropped a character.
            let ran = try JUnit(Data(fixture.read("rerun.xml").utf8)).cases.map { $0["line"] }
            #expect(ran == [testcase["line"]], "\(replay)")
        }
    }

    /// A file's own entry (it did not load) is replayed by running the file:
    /// a --filter on its name would select nothing.
    @Test func aFilesEntryIsReplayedByRunningTheFile() throws {
        let fixture = try Fixture(["suite/broken.lua": "scenario(\"x\", function() end\n"])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 2, "\(output)")
        let replay = try #require(
            junit.cases.first?.child("properties")?.children("property")
                .first { $0["name"] == "navscript.replay" }?["value"], "\(junit.raw)")
        #expect(replay.hasSuffix(" run suite/broken.lua") && !replay.contains("--filter"), "\(replay)")
    }

    /// A replay keeps every option that changes an outcome: without the manifest, a scenario
    /// that failed against it passes alone; without the budget, one that ran out does not.
    @Test func aReplayKeepsTheOptionsThatChangeTheOutcome() throws {
        let manifest = try String(contentsOf: ManifestCommandTests.shipped, encoding: .utf8)
        let fixture = try Fixture([
            "suite/a.lua": #"""
            scenario("cart is gated", function() assert(deep_link("shop://cart").status == "gated") end)
            scenario("counts", function() local n = 0 for i = 1, 50000 do n = n + i end end)
            """#, "nogate.json": manifest.replacingOccurrences(of: #""preconditions": ["auth"]"#, with: #""preconditions": []"#)
        ])
        let (output, junit) = try fixture.runWithJUnit([
            "suite", "--manifest", "nogate.json", "--instruction-budget", "100000",
            "--memory-limit", "33554432", "--timeout", "7.5"
        ])
        #expect(output.status == 1 && junit.outcome("cart is gated") == "failure", "\(output)")
        let replay = try #require(
            junit.testcase("cart is gated")?.child("properties")?.children("property")
                .first { $0["name"] == "navscript.replay" }?["value"])
        #expect(
            replay.contains(" --manifest nogate.json --instruction-budget 100000 --memory-limit 33554432 --timeout 7.5 "),
            "\(replay)")
        let path = try CLI.binary.get().deletingLastPathComponent().path + ":/usr/bin:/bin"
        let rerun = try CLI.run(
            ["-c", replay], in: fixture.root, environment: ["PATH": path], binary: .success(URL(fileURLWithPath: "/bin/sh")))
        #expect(rerun.status == 1, "fails alone as it failed in the run\n\(replay)\n\(rerun)")
    }
}
