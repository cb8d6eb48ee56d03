import Foundation
import TestSupport
import Testing

/// `--json` and `--html`: the run's event stream as JSON lines, and the
/// HTML report with storyboards — the same from workers and in process.
@Suite("run --json and --html")
struct RunEventReportTests {
    static let suite: [String: String] = [
        "suite/a.lua": #"""
        scenario("passes", function() -- @smoke
          tap("product", "p1")
          expect_stack{ "home", "product:p1" }
        end)

        scenario("fails after two steps", function()
          tap("product", "p1")
          select_tab("orders")
          expect_stack("home", { "home", "cart" })
        end)
        """#,
        "suite/b.lua": #"""
        scenario("errors", function()
          tap("product", "p2")
          print("about to break")
          error("broken helper")
        end)

        pending("later")
        """#
    ]

    /// One JSON object per line, decoded loosely.
    static func events(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not an object: \(line)", sourceLocation: sourceLocation)
        }
    }

    /// `event file scenario …` per line, for comparing streams.
    static func shape(_ events: [[String: Any]]) -> [String] {
        events.map { event in
            let kind = event["event"] as? String ?? "?"
            let scenario =
                (event["scenario"] as? [String: Any]).map { "\($0["name"] ?? "") \($0["status"] ?? "")" }
                ?? (event["number"] != nil ? "\(event["name"] ?? "") #\(event["number"] ?? "") \(event["text"] ?? "")" : nil)
                ?? (event["name"] as? String) ?? ""
            return "\(kind) \(event["file"] as? String ?? "") \(scenario)"
        }
    }

    @Test(arguments: [["--jobs", "2"], ["--in-process"]])
    func theStreamHasEveryEventInOrder(mode: [String]) throws {
        let fixture = try Fixture(Self.suite)
        let output = try fixture.run(["run", "suite", "--json", "out/events.jsonl"] + mode)
        #expect(output.status == 1, "\(output)")
        let events = try Self.events(try fixture.read("out/events.jsonl"))
        let kinds = events.map { $0["event"] as? String ?? "?" }
        #expect(kinds.first == "run_started" && kinds.last == "run_finished")
        #expect(events.first?["files"] as? [String] == ["suite/a.lua", "suite/b.lua"])
        #expect(events.first?["schema"] as? Int == 2, "the format's version, for consumers to check: \(events.first ?? [:])")
        // Each file says how many scenarios it will run once it loaded, before the first starts.
        for (file, count) in [("suite/a.lua", 2), ("suite/b.lua", 2)] {
            let loaded = events.enumerated().filter {
                $0.element["event"] as? String == "file_loaded" && $0.element["file"] as? String == file
            }
            #expect(loaded.count == 1 && (loaded.first?.element["scenarios"] as? [Any])?.count == count, "\(file): \(loaded)")
            let firstStart = events.firstIndex { $0["event"] as? String == "scenario_started" && $0["file"] as? String == file }
            #expect((loaded.first?.offset ?? .max) < (firstStart ?? -1), "\(file): loaded before its first scenario starts")
        }
        // What a scenario printed, as it printed it, named by its scenario.
        let printed = events.filter { $0["event"] as? String == "output" }
        #expect(printed.count == 1 && printed.first?["name"] as? String == "errors", "\(printed)")
        #expect(printed.first?["text"] as? String == "about to break\n", "\(printed)")
        // A step as data: its verb, place and the screen it led to.
        let step = try #require(
            events.first { $0["event"] as? String == "step" && $0["verb"] as? String == "tap" && $0["file"] as? String == "suite/a.lua" })
        #expect((step["place"] as? [String: Any])?["line"] as? Int == 2 && step["screen"] as? String == "product:p1", "\(step)")
        #expect(kinds.filter { $0 == "scenario_finished" }.count == 4, "\(kinds)")
        #expect(kinds.filter { $0 == "scenario_started" }.count == 4, "\(kinds)")
        for file in ["suite/a.lua", "suite/b.lua"] {
            let mine = events.enumerated().filter { $0.element["file"] as? String == file }.map(\.offset)
            #expect(kinds[mine.first!] == "file_started" && kinds[mine.last!] == "file_finished", "\(file): \(kinds)")
        }
        // Steps come between their scenario's start and finish, numbered
        // from 1 (per file: two workers interleave their files).
        var open: [String: String] = [:]
        var next: [String: Int] = [:]
        for event in events {
            let file = event["file"] as? String ?? ""
            switch event["event"] as? String {
            case "scenario_started":
                open[file] = event["name"] as? String
                next[file] = 1
            case "step":
                #expect(event["name"] as? String == open[file], "\(event)")
                #expect(event["number"] as? Int == next[file], "\(event)")
                next[file, default: 1] += 1
            case "scenario_finished": open[file] = nil
            default: break
            }
        }
        let last = try #require(events.last)
        #expect(
            last["failed"] as? Int == 1 && last["errors"] as? Int == 1 && last["passed"] as? Int == 1
                && last["skipped"] as? Int == 1 && last["success"] as? Bool == false, "\(last)")
    }

    @Test func workersAndTheInProcessRunnerPublishTheSameEvents() throws {
        let fixture = try Fixture(Self.suite)
        _ = try fixture.run(["run", "suite", "--jobs", "1", "--json", "workers.jsonl"])
        _ = try fixture.run(["run", "suite", "--in-process", "--json", "in-process.jsonl"])
        let workers = Self.shape(try Self.events(try fixture.read("workers.jsonl")))
        let inProcess = Self.shape(try Self.events(try fixture.read("in-process.jsonl")))
        #expect(workers == inProcess)
    }

    @Test func withFailFastWorkersAndTheInProcessRunnerStillPublishTheSameEvents() throws {
        let fixture = try Fixture(Self.suite)
        _ = try fixture.run(["run", "suite", "--jobs", "1", "--fail-fast", "--json", "workers.jsonl"])
        _ = try fixture.run(["run", "suite", "--in-process", "--fail-fast", "--json", "in-process.jsonl"])
        let workers = Self.shape(try Self.events(try fixture.read("workers.jsonl")))
        let inProcess = Self.shape(try Self.events(try fixture.read("in-process.jsonl")))
        #expect(workers == inProcess)
        #expect(
            workers.contains { $0.hasPrefix("scenario_finished suite/b.lua suite/b.lua (not run) skipped") },
            "a file begun after the stop is one not-run entry, in either mode, whatever the timing\n\(workers)")
    }

    @Test func jsonOnStandardOutputSendsTheConsoleToStandardError() throws {
        let fixture = try Fixture(Self.suite)
        let output = try fixture.run(["run", "suite", "--json", "-"])
        #expect(output.status == 1)
        let events = try Self.events(output.stdout)
        #expect(events.count > 10 && events.last?["event"] as? String == "run_finished")
        #expect(output.stderr.contains("1 passed, 1 failed, 1 errors, 1 skipped"), "\(output)")
    }

    @Test(arguments: [["--jobs", "2"], ["--in-process"]])
    func theHTMLReportHasAStoryboardFrameForEveryStepOfAFailingScenario(mode: [String]) throws {
        let fixture = try Fixture(Self.suite)
        let output = try fixture.run(["run", "suite", "--html", "report.html", "--json", "events.jsonl"] + mode)
        #expect(output.status == 1, "\(output)")
        let html = try fixture.read("report.html")
        let failing = try #require(html.range(of: "</span> fails after two steps <span").map { String(html[$0.lowerBound...]) })
        let block = String(failing[..<failing.range(of: "</details>")!.lowerBound])
        // launch, tap, select_tab: three steps, three frames; the failure on the last.
        #expect(block.components(separatedBy: "<figure class=\"frame").count - 1 == 3, "\(block)")
        #expect(block.contains("<figure class=\"frame failing\" id=\"") && block.contains("Step 3"))
        #expect(block.contains("<span class=\"selected\">orders</span>"), "the tab bar shows the selected tab")
        #expect(block.contains("<div class=\"card top new\">product:p1</div>"), "the pushed product")
        #expect(block.contains("<span class=\"differs\">"), "expected vs actual")
        let erroring = try #require(html.range(of: "broken helper").map { String(html[$0.lowerBound...]) })
        #expect(erroring.contains("<div class=\"problem error\"><b>Error:</b>"), "an error marks its frame too")
        // Passing scenarios carry no frames: steps only.
        let passing = try #require(html.range(of: "</span> passes <span").map { String(html[$0.lowerBound...]) })
        let passingBlock = String(passing[..<passing.range(of: "</details>")!.lowerBound])
        #expect(!passingBlock.contains("<figure") && passingBlock.contains("<ol class=\"steps\">"))
        // Frames ride along in the JSON stream too.
        let events = try Self.events(try fixture.read("events.jsonl"))
        let finished = events.compactMap { $0["scenario"] as? [String: Any] }.first { $0["name"] as? String == "fails after two steps" }
        #expect((finished?["frames"] as? [Any])?.count == 3)
    }

    @Test func aReportThatCannotBeWrittenFailsTheRunButNotTheOtherReports() throws {
        let fixture = try Fixture(Self.suite)
        // A folder is refused before the run (a usage error); a path under a file fails only when written.
        try fixture.write("plain", "")
        let output = try fixture.run(["run", "suite", "--html", "plain/taken.html", "--junit", "report.xml"])
        #expect(output.status == 2, "\(output)")
        #expect(
            output.stderr.contains("navscript: cannot write the HTML report to ") && output.stderr.contains("taken.html: "),
            "\(output)")
        #expect(fixture.exists("report.xml"), "the JUnit report is still written")
        #expect(CLI.summary(output.stdout) != nil, "the console report is complete")
    }

    @Test func aJSONFileThatCannotBeCreatedIsAUsageErrorBeforeAnythingRuns() throws {
        let fixture = try Fixture(Self.suite)
        try fixture.write("file", "")
        let output = try fixture.run(["run", "suite", "--json", "file/events.jsonl"])
        #expect(output.status == 2, "\(output)")
        #expect(output.stderr.contains("--json: cannot write the JSON lines report to file/events.jsonl"), "\(output)")
        #expect(!output.stdout.contains("passed"), "nothing ran")
    }

    @Test func aCrashedScenarioIsFinishedInTheStreamWithItsSteps() throws {
        let fixture = try Fixture([
            "suite/crash.lua": #"""
            scenario("a widget link with a bad order id crashes the app", function()
              tap("product", "p1")
              deep_link("shop://orders/abc", { via = "widget" })
            end)
            scenario("after", function() end)
            """#
        ])
        let output = try fixture.run(["run", "suite", "--fault", "force-unwrap-crash", "--json", "events.jsonl", "--html", "r.html"])
        #expect(output.status == 1, "\(output)")
        let events = try Self.events(try fixture.read("events.jsonl"))
        let crashed = events.compactMap { $0["scenario"] as? [String: Any] }.first {
            ($0["name"] as? String)?.hasPrefix("a widget") == true
        }
        #expect(crashed?["kind"] as? String == "crash", "\(String(describing: crashed))")
        #expect(events.filter { $0["event"] as? String == "step" }.count >= 2, "the steps before the crash were streamed")
        #expect(
            events.compactMap { $0["scenario"] as? [String: Any] }.contains {
                $0["name"] as? String == "after" && $0["status"] as? String == "passed"
            })
        #expect(try fixture.read("r.html").contains("Fatal error"))
    }
}
