import Foundation
import TestSupport
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("Reporting: JUnit XML")
struct ReportingJUnitTests {
    let report = JUnitReport(.init(hostname: "ci-runner"))

    private func parse(_ xml: String) throws -> XMLElement {
        let document = try XMLDocument(xmlString: xml, options: [.nodePreserveWhitespace])
        return try #require(document.rootElement())
    }

    private func attributes(_ element: XMLElement) -> [String: String] {
        var result: [String: String] = [:]
        for node in element.attributes ?? [] {
            if let name = node.name { result[name] = node.stringValue ?? "" }
        }
        return result
    }

    private func children(_ element: XMLElement, _ name: String) -> [XMLElement] {
        element.elements(forName: name)
    }

    @Test func structureAndCounts() throws {
        let xml = report.render(ReportingFixtures.mixedRun())
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "))
        #expect(xml.hasSuffix("</testsuites>\n"))

        let root = try parse(xml)
        #expect(root.name == "testsuites")
        #expect(
            attributes(root) == [
                "name": "navscript", "tests": "5", "failures": "1", "errors": "1", "skipped": "1", "time": "0.541"
            ])

        let suites = children(root, "testsuite")
        #expect(suites.count == 2)
        #expect(
            attributes(suites[0]) == [
                "name": "scenarios/gate_resume/login.lua", "tests": "3", "failures": "1", "errors": "0",
                "skipped": "1", "time": "0.020", "timestamp": "2026-11-21T05:44:57", "hostname": "ci-runner"
            ])
        #expect(attributes(suites[1])["tests"] == "2")
        #expect(attributes(suites[1])["errors"] == "1")
        #expect(attributes(suites[1])["time"] == "0.503")
        // Flat: no suite inside a suite.
        #expect(suites.allSatisfy { children($0, "testsuite").isEmpty })

        let cases = children(suites[0], "testcase")
        #expect(
            cases.map { attributes($0)["name"] } == [
                "login shows the form", "login cart gate resumes the cart", "login remembers the user"
            ])
        #expect(
            attributes(cases[0]) == [
                "name": "login shows the form", "classname": "scenarios.gate_resume.login.login",
                "time": "0.004", "file": "scenarios/gate_resume/login.lua", "line": "4"
            ])
        #expect(attributes(cases[1])["classname"] == "scenarios.gate_resume.login.login.cart_gate")
        #expect(attributes(children(suites[1], "testcase")[0])["classname"] == "scenarios.tabs")
    }

    @Test func failureErrorAndSkippedPlacement() throws {
        let root = try parse(report.render(ReportingFixtures.mixedRun()))
        let suites = children(root, "testsuite")
        let login = children(suites[0], "testcase")
        let tabs = children(suites[1], "testcase")

        // A passing scenario without timeline or output is an empty element.
        #expect(login[0].children == nil || login[0].children?.isEmpty == true)

        let failure = try #require(children(login[1], "failure").first)
        #expect(attributes(failure) == ["message": "expect_stack: stacks differ", "type": "expectation"])
        #expect(
            failure.stringValue == "expect_stack: stacks differ\nexpected: Home > Cart\n  actual: Home\n\n  - Cart (missing)"
                + "\n    at scenarios.gate_resume.Login.scenario(login.lua:12)"
                + "\ntimeline:\n" + (1...16).map { "  tap \"item\($0)\"\n" }.joined() + "  expect_stack {\"Home\", \"Cart\"}",
            "the body starts with the message (GitLab shows only the body), the timeline in it")
        #expect(children(login[1], "error").isEmpty)
        let systemOut = try #require(children(login[1], "system-out").first?.stringValue)
        #expect(systemOut == "output:\ncart has 2 items\n", "the timeline is in the failure's body, not again here")
        // <failure> comes before <system-out>.
        #expect(login[1].children?.compactMap(\.name) == ["failure", "system-out"])

        let skipped = try #require(children(login[2], "skipped").first)
        #expect(attributes(skipped) == ["message": "needs the keychain fake"])
        #expect(login[2].children?.compactMap(\.name) == ["skipped"])

        let error = try #require(children(tabs[1], "error").first)
        #expect(attributes(error) == ["message": "instruction budget exceeded (1000000)", "type": "budget"])
        #expect(
            error.stringValue
                == "instruction budget exceeded (1000000)\nstack traceback:\n\tscenarios/tabs.lua:11: in function <scenarios/tabs.lua:9>"
                + "\n    at scenarios.Tabs.scenario(tabs.lua:9)\ntimeline:\n  launch\n  deep_link shop://home")
        #expect(children(tabs[1], "failure").isEmpty)
        #expect(tabs[1].children?.compactMap(\.name) == ["error"], "nothing printed, the timeline in the body")
    }

    @Test func errorTypeIsTheKind() throws {
        for kind in ScenarioOutcome.ErrorKind.allCases {
            let run = RunResult(
                files: [
                    FileResult(
                        file: "s.lua",
                        scenarios: [
                            ScenarioResult(name: "x", file: "s.lua", line: 1, outcome: .errored(kind), message: "m")
                        ], duration: 0)
                ], duration: 0, startedAt: 0)
            #expect(report.render(run).contains(#"<error message="m" type="\#(kind.rawValue)">m"# + "\n    at S.scenario(s.lua:1)</error>"))
        }
    }

    @Test func fileAttributesCanBeLeftOut() throws {
        let run = ReportingFixtures.mixedRun()
        let with = report.render(run)
        #expect(with.contains(#" file="scenarios/tabs.lua" line="9""#))

        let without = JUnitReport(.init(strict: true, hostname: "h")).render(run)
        #expect(!without.contains(" file="))
        #expect(!without.contains(" line="))
        let root = try parse(without)
        for suite in children(root, "testsuite") {
            for testcase in children(suite, "testcase") {
                #expect(Set(attributes(testcase).keys) == ["name", "classname", "time"])
            }
        }
    }

    @Test func theRootNamesTheAppAndMergeKnowsItForNavscripts() throws {
        let run = ReportingFixtures.mixedRun()
        let root = try parse(report.render(run, app: "ShopApp"))
        #expect(attributes(root)["name"] == "ShopApp (navscript)")
        #expect(JUnitReport.isRootName("ShopApp (navscript)") && JUnitReport.isRootName("navscript"))
        #expect(!JUnitReport.isRootName("pytest") && !JUnitReport.isRootName("ShopApp"))
        #expect(JUnitReport.rootName(app: nil) == "navscript" && JUnitReport.rootName(app: "") == "navscript")
    }

    @Test func aFailureIsAnnotatedAtItsFailingLineAndAPassAtItsDeclaration() {
        let file = "scenarios/cart.lua"
        func line(_ outcome: ScenarioOutcome, _ message: String) -> String? {
            let run = RunResult(
                files: [
                    FileResult(
                        file: file,
                        scenarios: [ScenarioResult(name: "n", file: file, line: 3, outcome: outcome, message: message)],
                        duration: 0)
                ], duration: 0, startedAt: 0)
            return try? parse(report.render(run)).elements(forName: "testsuite").first?
                .elements(forName: "testcase").first?.attribute(forName: "line")?.stringValue
        }
        #expect(line(.failed(.expectation), "\(file):7: expected the cart") == "7")
        #expect(line(.errored(.luaError), "\(file):9: attempt to index a nil value") == "9")
        // Raised in a support module, or with no place: the declaration.
        #expect(line(.failed(.expectation), "scenarios/support/cart.lua:7: expected the cart") == "3")
        #expect(line(.errored(.luaError), "worker died") == "3")
        #expect(line(.passed, "") == "3")
        #expect(line(.skipped(.pending), "\(file):9: later") == "3", "a skip is not placed at a line it names")
    }

    @Test func aReplayOfAFileWhosePathStartsWithADashIsNotReadAsOptions() {
        let scenario = ScenarioResult(name: "a", file: "-dash.lua", line: 1, outcome: .passed)
        #expect(JUnitReport.replay(scenario, command: ["navscript", "run"], seed: nil) == "navscript run ./-dash.lua --filter '^a$'")
        let plain = ScenarioResult(name: "a", file: "suite/-dash.lua", line: 1, outcome: .passed)
        #expect(JUnitReport.replay(plain, command: ["navscript", "run"], seed: nil) == "navscript run suite/-dash.lua --filter '^a$'")
    }

    @Test func emptyRun() throws {
        let xml = report.render(RunResult(files: [], duration: 0, startedAt: 0))
        #expect(
            xml == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="navscript" tests="0" failures="0" errors="0" skipped="0" time="0.000"/>

                """)
        let emptyFile = report.render(
            RunResult(
                files: [FileResult(file: "e.lua", scenarios: [], duration: 0)],
                duration: 0, startedAt: 0))
        #expect(
            emptyFile.contains(
                #"<testsuite name="e.lua" tests="0" failures="0" errors="0" skipped="0" time="0.000" timestamp="1970-01-01T00:00:00" hostname="ci-runner"/>"#
            ))
    }

    @Test func everySpecialCharacterIsEscaped() throws {
        let nasty = #"a&b<c>d"e'f"#
        let run = RunResult(
            files: [
                FileResult(
                    file: "s/\(nasty).lua",
                    scenarios: [
                        ScenarioResult(
                            name: nasty, groups: [nasty], file: "s/\(nasty).lua", line: 2, outcome: .failed(.expectation),
                            message: nasty, details: nasty, output: nasty)
                    ], duration: 0)
            ], duration: 0, startedAt: 0)
        let xml = report.render(run)
        let escaped = "a&amp;b&lt;c&gt;d&quot;e&apos;f"
        #expect(xml.contains(#"<testcase name="\#(escaped)" classname="s.a_b_c_d_e_f.a_b_c_d_e_f""#))
        #expect(xml.contains(#"<testsuite name="s/\#(escaped).lua""#))
        #expect(xml.contains(#"file="s/\#(escaped).lua""#))
        #expect(xml.contains(#"<failure message="\#(escaped)" type="expectation">\#(escaped)"# + "\n"))
        #expect(xml.contains("<system-out>output:\n\(escaped)</system-out>"))
        #expect(!xml.contains(nasty))

        // And the parser gets the original text back.
        let testcase = try #require(children(children(try parse(xml), "testsuite")[0], "testcase").first)
        #expect(attributes(testcase)["name"] == nasty)
        #expect(children(testcase, "failure").first?.stringValue?.hasPrefix(nasty + "\n") == true)
    }

    @Test func whitespaceInAttributesIsEncoded() throws {
        let run = RunResult(
            files: [
                FileResult(
                    file: "s.lua",
                    scenarios: [
                        ScenarioResult(
                            name: "two\nlines\tand\rcr", file: "s.lua", line: 1, outcome: .failed(.expectation),
                            message: "line 1\nline 2\r\n\tindented", details: "a\r\nb\tc\nd")
                    ], duration: 0)
            ], duration: 0, startedAt: 0)
        let xml = report.render(run)
        #expect(xml.contains(#"name="two&#10;lines&#9;and&#13;cr""#))
        #expect(xml.contains(#"message="line 1&#10;line 2&#13;&#10;&#9;indented""#))
        #expect(xml.contains(">line 1\nline 2&#13;\n\tindented\na&#13;\nb\tc\nd\n    at S.scenario(s.lua:1)</failure>"))

        let testcase = try #require(children(children(try parse(xml), "testsuite")[0], "testcase").first)
        #expect(attributes(testcase)["name"] == "two\nlines\tand\rcr")
        let failure = try #require(children(testcase, "failure").first)
        #expect(attributes(failure)["message"] == "line 1\nline 2\r\n\tindented")
        #expect(failure.stringValue == "line 1\nline 2\r\n\tindented\na\r\nb\tc\nd\n    at S.scenario(s.lua:1)")
    }

    @Test func ansiEscapesAndForbiddenCharactersAreStripped() throws {
        let run = RunResult(
            files: [
                FileResult(
                    file: "s.lua",
                    scenarios: [
                        ScenarioResult(
                            name: "a\u{1}b \u{1B}[31mred\u{1B}[0m\u{FFFE}\u{FFFF}", file: "s.lua", line: 1,
                            outcome: .errored(.luaError),
                            message: "\u{1B}[1;31merror:\u{1B}[0m bad \u{0}byte \u{FFFD} kept",
                            details: "\u{1B}]8;;https://x\u{7}link\u{1B}]8;;\u{7}\u{1B}[2K\u{7F}\u{9B}1mz\u{1B}")
                    ], duration: 0)
            ], duration: 0, startedAt: 0)
        let xml = report.render(run)
        // Escape sequences go; a control that begins none is spelled (dropped, a value read as another).
        #expect(
            xml.contains(
                #"name="a\u{1}b red<U+FFFE><U+FFFF>""#.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
                    of: ">", with: "&gt;")), "\(xml)")
        #expect(xml.contains(#"message="error: bad \u{0}byte \#u{FFFD} kept""#), "\(xml)")
        #expect(
            xml.contains(">error: bad \\u{0}byte \u{FFFD} kept\nlink\\u{7F}\\u{9B}1mz\\u{1B}\n    at S.scenario(s.lua:1)</error>"), "\(xml)"
        )
        for scalar in xml.unicodeScalars {
            let value = scalar.value
            let allowed =
                value == 0x9 || value == 0xA || (0x20...0x7E).contains(value)
                || (0xA0...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value) || value >= 0x10000
            #expect(allowed, "U+\(String(value, radix: 16, uppercase: true)) in the output")
        }
        #expect(!xml.contains("[31m"))
        #expect(!xml.contains("[0m"))
    }

    @Test func classnamesAreDottedAndSafe() throws {
        func classname(_ file: String, _ groups: [String]) throws -> String? {
            let run = RunResult(
                files: [
                    FileResult(
                        file: file,
                        scenarios: [
                            ScenarioResult(name: "n", groups: groups, file: file, line: 1, outcome: .passed)
                        ], duration: 0)
                ], duration: 0, startedAt: 0)
            let suite = children(try parse(report.render(run)), "testsuite")[0]
            return attributes(children(suite, "testcase")[0])["classname"]
        }
        #expect(
            try classname("scenarios/gate_resume/login.lua", ["login", "cart gate"])
                == "scenarios.gate_resume.login.login.cart_gate")
        #expect(try classname("./scenarios/v1.2/a-b.lua", []) == "scenarios.v1_2.a_b")
        #expect(try classname("scenarios\\win\\x.lua", ["  spaced  out  "]) == "scenarios.win.x.spaced_out")
        #expect(try classname("s/Überweisung.lua", ["été", "😀 ok", "..."]) == "s.Überweisung.été.ok")
        #expect(try classname("", []) == "navscript")
        #expect(try classname("../x.LUA", ["\u{1B}[31mred\u{1B}[0m"]) == "x_LUA.red")
    }

    /// `a.b.lua`, `a b.lua` and `a_b.lua` reduce to the same name: the file whose path is that name
    /// keeps it, the others get `_2`, `_3` in path order, so reporters grouping by class keep them
    /// apart (and a shuffled run names them alike).
    @Test func filesWhosePathsReduceAlikeKeepDistinctClassnames() throws {
        let files = ["s/a.b.lua", "s/a_b.lua", "s/a b.lua", "s/other.lua"].map { file in
            FileResult(
                file: file, scenarios: [ScenarioResult(name: "n", groups: ["g"], file: file, line: 1, outcome: .passed)],
                duration: 0)
        }
        let suites = children(try parse(report.render(RunResult(files: files, duration: 0, startedAt: 0))), "testsuite")
        let classes = suites.map { attributes(children($0, "testcase")[0])["classname"] }
        #expect(classes == ["s.a_b_3.g", "s.a_b.g", "s.a_b_2.g", "s.other.g"], "a.b, a_b, a b")
    }

    @Test func namesAreNeverEmptyOrDuplicated() throws {
        let run = RunResult(
            files: [
                FileResult(
                    file: "s.lua",
                    scenarios: [
                        ScenarioResult(name: "same", file: "s.lua", line: 1, outcome: .passed),
                        ScenarioResult(name: "same", file: "s.lua", line: 2, outcome: .passed),
                        ScenarioResult(name: " \u{1B}[0m ", file: "s.lua", line: 3, outcome: .errored(.loadError))
                    ], duration: 0)
            ], duration: 0, startedAt: 0)
        let suite = children(try parse(report.render(run)), "testsuite")[0]
        #expect(children(suite, "testcase").map { attributes($0)["name"] } == ["same", "same (2)", "(unnamed)"])
        // The load error has a message and type even with no text.
        #expect(
            report.render(run).contains(
                #"<error message="load_error" type="load_error">load_error"# + "\n    at S.scenario(s.lua:3)</error>"))
    }

    @Test func aHugeMessageIsWholeInTheTextAndCutInTheAttribute() throws {
        let message = "s.lua:1: " + String(repeating: "é", count: 100_000)
        let run = RunResult(
            files: [
                FileResult(
                    file: "s.lua",
                    scenarios: [
                        ScenarioResult(name: "huge", file: "s.lua", line: 1, outcome: .failed(.expectation), message: message)
                    ], duration: 0)
            ], duration: 0, startedAt: 0)
        let failure = try #require(
            children(
                children(children(try parse(report.render(run)), "testsuite")[0], "testcase")[0],
                "failure"
            ).first)
        let attribute = try #require(attributes(failure)["message"])
        #expect(attribute.hasPrefix(String(message.prefix(JUnitReport.messageAttributeLimit))))
        #expect(
            attribute.hasSuffix(
                "… (\(message.count - JUnitReport.messageAttributeLimit) more characters: the whole message is the element's text)"))
        #expect(failure.stringValue?.hasPrefix(message) == true, "the text has all of it")
        let short = "s.lua:1: expected home"
        #expect(JUnitReport.messageAttribute(short) == short)
    }

    @Test func hugeOutputKeepsItsEndsAndSaysWhatWasLeftOut() throws {
        let lines = (1...200_000).map { "line \($0)" }
        let output = lines.joined(separator: "\n") + "\n"
        let capped = ReportText.capped(output)
        #expect(capped.utf8.count <= ReportText.outputLimit + 200, "\(capped.utf8.count)")
        #expect(capped.hasPrefix("line 1\nline 2\n") && capped.hasSuffix("line 200000\n"), "both ends kept")
        let note = try #require(capped.firstMatch(of: /… \(([0-9]+) bytes of output left out here\) …\n/))
        #expect(Int(note.1) == output.utf8.count - capped.utf8.count + note.0.utf8.count, "the count is exact")
        #expect(!capped.split(separator: "\n").contains { $0.hasPrefix("ine") || $0 == "line" }, "cut on whole lines")
        #expect(ReportText.capped("short\n") == "short\n")
        // One line of two-byte characters: cut between characters, the count still exact.
        let accents = String(repeating: "é", count: 700_000)
        let cut = ReportText.capped(accents)
        #expect(!cut.contains("\u{FFFD}"), "no character cut in two")
        let left = try #require(cut.firstMatch(of: /… \(([0-9]+) bytes/)).1
        #expect(Int(left) == accents.utf8.count - cut.replacing(#/… \([^)]*\) …\n/#, with: "").utf8.count)
    }

    /// Output capped as it was printed (``BoundedOutput``) keeps its count in
    /// the reports: cut a second time, its line saying "2 MB left out" was
    /// dropped and replaced by "66 bytes left out".
    @Test func outputCappedAsItWasPrintedKeepsItsCount() throws {
        var printed = BoundedOutput()
        var total = 0
        for index in 1...30_000 {
            let line = "line \(index) " + String(repeating: "x", count: 90) + "\n"
            total += line.utf8.count
            printed.append(line)
        }
        let once = printed.text
        #expect(ReportText.capped(once) == once, "a scenario's capped output is carried as it is")
        let note = try #require(once.firstMatch(of: /… \(([0-9]+) bytes of output left out here\) …\n/))
        #expect(Int(note.1) == total - once.utf8.count + note.0.utf8.count)
        // Cut again (the file's load output before it): what both cuts left out, counted.
        let joined = String(repeating: "loading\n", count: 100_000) + once
        let twice = ReportText.capped(joined)
        let left = try #require(twice.firstMatch(of: /… \(([0-9]+) bytes of output left out here\) …\n/))
        #expect(
            Int(left.1) == 800_000 + total - twice.utf8.count + left.0.utf8.count,
            "\(left.0) for \(800_000 + total - twice.utf8.count + left.0.utf8.count)")
    }

    /// A 200,000-step scenario wrote every step into system-out (16 MB that
    /// xmllint and merge tools refuse): the first and last steps are kept,
    /// with a line saying how many between were left out — in the HTML too.
    @Test func aLongTimelineKeepsItsEndsAndSaysWhatWasLeftOut() throws {
        let timeline = (1...200_000).map { "deep_link shop://product/\($0)" }
        let scenario = ScenarioResult(name: "long", file: "s.lua", line: 1, outcome: .passed, timeline: Timeline(timeline))
        let out = JUnitReport.systemOut(scenario)
        let lines = out.split(separator: "\n")
        #expect(lines.count == 1 + 100 + 1 + 400, "\(lines.count)")
        #expect(lines[1] == "  deep_link shop://product/1" && lines.last == "  deep_link shop://product/200000")
        #expect(
            lines[101]
                == "  … 199500 steps left out here (the report keeps the first 100 and the last 400; the --json stream has them all) …")
        let short = ScenarioResult(name: "short", file: "s.lua", line: 1, outcome: .passed, timeline: ["a", "b"])
        #expect(JUnitReport.systemOut(short) == "timeline:\n  a\n  b")

        let run = RunResult(files: [FileResult(file: "s.lua", scenarios: [scenario], duration: 0)], duration: 0, startedAt: 0)
        let html = HTMLReportTests.render(run)
        #expect(html.contains("<li class=\"cut\">… 199500 steps left out here"))
        #expect(html.contains("<li value=\"199601\">deep_link shop://product/199601</li>"), "numbered on from where it is")
        #expect(!html.contains("shop://product/100000<"))
    }

    @Test func namesThatDifferOnlyInWhatTheReportSpellsOrAReporterTrimsStayApart() throws {
        let names = ["x\u{1}", "x\u{2}", "y", "y ", "caf\u{E9}", "cafe\u{301}"]
        let run = RunResult(
            files: [
                FileResult(
                    file: "s.lua",
                    scenarios: names.enumerated().map { index, name in
                        ScenarioResult(name: name, file: "s.lua", line: index + 1, outcome: .passed)
                    }, duration: 0)
            ], duration: 0, startedAt: 0)
        let suite = children(try parse(report.render(run)), "testsuite")[0]
        let shown = children(suite, "testcase").compactMap { attributes($0)["name"] }
        #expect(shown == ["x\\u{1}", "x\\u{2}", "y", "y  (2)", "caf\u{E9}", "cafe\u{301} (2)"], "\(shown)")
        #expect(Set(shown.map { $0.trimmingCharacters(in: .whitespaces) }).count == names.count)
    }

    @Test func timesUseFixedDecimalsAndADot() throws {
        let cases: [(Double, String)] = [
            (0, "0.000"), (0.0004, "0.000"), (0.0005, "0.001"), (0.041, "0.041"), (1.5, "1.500"),
            (12.3456, "12.346"), (59.9999, "60.000"), (1234567.891, "1234567.891"),
            (-1, "0.000"), (.nan, "0.000"), (.infinity, "0.000")
        ]
        for (seconds, expected) in cases {
            let run = RunResult(
                files: [
                    FileResult(
                        file: "s.lua",
                        scenarios: [
                            ScenarioResult(name: "n", file: "s.lua", line: 1, outcome: .passed, duration: seconds)
                        ], duration: seconds)
                ], duration: seconds, startedAt: 0)
            let xml = report.render(run)
            #expect(xml.contains(#"<testcase name="n" classname="s" time="\#(expected)""#), "\(seconds)")
        }
    }

    /// The formatter is integer arithmetic only. Where the system has a
    /// comma-decimal locale, switch this thread to it (uselocale is
    /// per-thread, so other tests are unaffected) and check nothing changes.
    @Test func timeIsLocaleIndependent() throws {
        let run = ReportingFixtures.mixedRun()
        let expected = report.render(run)
        #expect(expected.contains(#"time="0.541""#))

        let candidates = ["de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "de_DE", "fr_FR"]
        let numericMask: Int32 = 1 << LC_NUMERIC  // LC_NUMERIC_MASK on glibc and Darwin
        guard let locale = candidates.lazy.compactMap({ newlocale(numericMask, $0, nil) }).first else {
            // No comma locale installed (typical in containers): the
            // integer-only formatter is covered by timesUseFixedDecimalsAndADot.
            return
        }
        defer { freelocale(locale) }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        var buffer = [CChar](repeating: 0, count: 32)
        _ = withVaList([1.5]) { vsnprintf(&buffer, buffer.count, "%.3f", $0) }
        let cFormatted = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        #expect(cFormatted == "1,500", "the comma locale is active on this thread")
        #expect(report.render(run) == expected)
    }

    @Test func timestampIsUTCWithoutZone() throws {
        let cases: [(Double, String)] = [
            (0, "1970-01-01T00:00:00"), (ReportingFixtures.startedAt, "2026-11-21T05:44:57"),
            (ReportingFixtures.startedAt + 0.999, "2026-11-21T05:44:57"), (951_782_400, "2000-02-29T00:00:00"),
            (-1, "1969-12-31T23:59:59"), (.nan, "1970-01-01T00:00:00"), (1e20, "9999-12-31T23:59:59"),
            (-1e20, "0001-01-01T00:00:00")
        ]
        for (seconds, expected) in cases {
            let run = RunResult(
                files: [FileResult(file: "s.lua", scenarios: [], duration: 0)],
                duration: 0, startedAt: seconds)
            #expect(report.render(run).contains(#"timestamp="\#(expected)""#), "\(seconds)")
        }
    }

    @Test func hostnameDefaultsToTheSystem() throws {
        let xml = JUnitReport().render(
            RunResult(
                files: [FileResult(file: "s.lua", scenarios: [], duration: 0)],
                duration: 0, startedAt: 0))
        let suite = children(try parse(xml), "testsuite")[0]
        #expect(attributes(suite)["hostname"]?.isEmpty == false)
    }

    @Test func writeIsAtomicAndCreatesFolders() throws {
        let folder = try ReportingTemporaryFolder()
        let url = folder.url.appendingPathComponent("reports/nested/junit.xml")
        let run = ReportingFixtures.mixedRun()
        try report.write(run, to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == report.render(run))

        // Overwrites in place, leaving no temporary file behind.
        let empty = RunResult(files: [], duration: 0, startedAt: 0)
        try report.write(empty, to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == report.render(empty))
        let names = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(names == ["junit.xml"])
    }

    @Test func writeFailureNamesTheFile() throws {
        let folder = try ReportingTemporaryFolder()
        let target = folder.url.appendingPathComponent("is-a-folder")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: target.appendingPathComponent("child"),
            withIntermediateDirectories: true)
        let error = try #require(throws: ReportFile.WriteError.self) {
            try report.write(ReportingFixtures.mixedRun(), to: target)
        }
        #expect(error.description.contains("is-a-folder"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["is-a-folder"])
    }
}
