import Foundation
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

@Suite("Reporting: run event stream")
struct RunEventStreamTests {
    final class Recorder: RunReporter {
        let name: String
        let failOn: String?
        var kinds: [String] = []

        init(_ name: String, failOn: String? = nil) {
            self.name = name
            self.failOn = failOn
        }

        func receive(_ event: RunEvent) throws {
            if event.kind == failOn { throw ReportFile.WriteError(kind: "test report", path: "/x", reason: "disk full") }
            kinds.append(event.kind)
        }
    }

    @Test func everyReporterSeesEveryEventInOrder() {
        let first = Recorder("first")
        let second = Recorder("second")
        let stream = RunEventStream([first, second])
        stream.publish(ReportingFixtures.mixedRun(), plan: RunPlan(command: "mutate", app: "X", files: [], startedAt: 0))
        let expected =
            ["run_started"] + ["file_started"] + Array(repeating: "scenario_finished", count: 3) + ["file_finished"]
            + ["file_started"] + Array(repeating: "scenario_finished", count: 2) + ["file_finished", "run_finished"]
        #expect(first.kinds == expected)
        #expect(second.kinds == expected)
        #expect(stream.failures.isEmpty)
    }

    @Test func aReportFileSaysTheRunDidNotFinishUntilItDoes() throws {
        let folder = try ReportingTemporaryFolder()
        let path = folder.url.appendingPathComponent("report.xml").path
        try "<testsuites tests=\"1\" failures=\"0\"/>".write(toFile: path, atomically: true, encoding: .utf8)  // last run's, green
        let report = RunReportFile(kind: "JUnit report", path: path) {
            JUnitReport(.init(replayCommand: ["navscript", "run"])).render($0.result)
        }
        let plan = RunPlan(command: "run", app: "X", files: ["a.lua"], startedAt: 0)
        try report.receive(.runStarted(plan))
        // What a CI job killed now would publish: not the last run's green report.
        let unfinished = try String(contentsOfFile: path, encoding: .utf8)
        #expect(unfinished.contains(#"errors="1""#) && unfinished.contains("navscript run did not finish"), "\(unfinished)")
        #expect(unfinished.contains(#"type="interrupted""#), "\(unfinished)")
        #expect(!unfinished.contains("navscript.replay") && !unfinished.contains("file="), "nothing to replay: \(unfinished)")
        try report.receive(.runFinished(ReportingFixtures.mixedRun(), interruption: nil))
        let finished = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!finished.contains("did not finish"), "the real report replaced it")
    }

    /// A report path that is not a plain file is written, not replaced: a
    /// link's target (the link stays), a FIFO or a device as a stream.
    @Test func aReportPathThatIsALinkAFIFOOrADeviceIsWrittenNotReplaced() throws {
        let folder = try ReportingTemporaryFolder()
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        try "original".write(toFile: path("target.xml"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path("link.xml"), withDestinationPath: "target.xml")
        try ReportFile.write("<report/>", to: URL(fileURLWithPath: path("link.xml")), kind: "JUnit report")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path("link.xml")) == "target.xml", "the link stays")
        #expect(try String(contentsOfFile: path("target.xml"), encoding: .utf8) == "<report/>", "its target has the report")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["link.xml", "target.xml"],
            "no temporary left behind")

        #expect(mkfifo(path("events.fifo"), 0o600) == 0)
        // Nobody reads it yet: refused, not waited on for ever.
        #expect(throws: ReportFile.WriteError.self) { _ = try JSONLinesReport(path: path("events.fifo")) }
        // A reader (opened without waiting for a writer): the stream goes to it.
        let readDescriptor = open(path("events.fifo"), O_RDONLY | O_NONBLOCK)
        #expect(readDescriptor >= 0)
        do {  // the report closes the FIFO when it goes
            let stream = RunEventStream([try JSONLinesReport(path: path("events.fifo"))])
            stream.publish(ReportingFixtures.mixedRun(), plan: RunPlan(command: "run", app: "X", files: [], startedAt: 0))
        }
        _ = fcntl(readDescriptor, F_SETFL, fcntl(readDescriptor, F_GETFL) & ~O_NONBLOCK)
        let received = FileHandle(fileDescriptor: readDescriptor, closeOnDealloc: true).readDataToEndOfFile()
        #expect(String(decoding: received, as: UTF8.self).contains(#""event":"run_finished""#), "the reader got the stream")
        var status = stat()
        #expect(stat(path("events.fifo"), &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "still a FIFO")

        try ReportFile.write("<report/>", to: URL(fileURLWithPath: "/dev/null"), kind: "JUnit report")
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR, "a device stays a device")
    }

    @Test func aReporterThatFailsIsDroppedAndNamedWhileTheOthersGoOn() {
        let failing = Recorder("the HTML report x.html", failOn: "file_started")
        let healthy = Recorder("healthy")
        let stream = RunEventStream([failing, healthy])
        stream.publish(ReportingFixtures.mixedRun(), plan: RunPlan(command: "run", app: "X", files: [], startedAt: 0))
        #expect(failing.kinds == ["run_started"])
        #expect(healthy.kinds.last == "run_finished")
        #expect(stream.failures == ["cannot write the test report to /x: disk full"])
    }

    @Test func eventsEncodeAsOneJSONObjectEach() throws {
        let result = ReportingFixtures.mixedRun().files[0].scenarios[1]
        let line = try JSONLinesReport.line(.scenarioFinished(result))
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "scenario_finished")
        let scenario = try #require(object["scenario"] as? [String: Any])
        #expect(scenario["status"] as? String == "failed" && scenario["name"] as? String == result.name)
        #expect(scenario["warning"] == nil, "only a passed scenario's message is a warning")
        // A passed scenario that checked nothing: its warning keyed, not only in the message's English.
        let warned = ScenarioResult(name: "w", file: "a.lua", line: 1, outcome: .passed, message: "checked nothing: …")
        let warnedLine = try JSONLinesReport.line(.scenarioFinished(warned))
        #expect(warnedLine.contains(#""warning":true"#), "\(warnedLine)")
        #expect(
            !(try JSONLinesReport.line(.scenarioFinished(ScenarioResult(name: "p", file: "a.lua", line: 1, outcome: .passed)))).contains(
                "warning"))
        // A step as data: where, which verb, what it did, where the app ended up — and its line for people.
        let step = try JSONLinesReport.line(
            .step(
                file: "a.lua", scenario: "s", number: 2,
                step: TimelineStep(location: "suite/a.lua:12", action: "tap(\"x\", id=p1)", screen: "product:p1", tab: "home")))
        #expect(
            step == #"{"action":"tap(\"x\", id=p1)","event":"step","file":"a.lua","name":"s","number":2,"#
                + #""place":{"file":"suite/a.lua","line":12},"screen":"product:p1","tab":"home","#
                + #""text":"suite/a.lua:12  tap(\"x\", id=p1)  → product:p1 [tab home]","verb":"tap"}"#, "\(step)")
        // A note the run adds has no place, verb, screen or tab.
        let note = try JSONLinesReport.line(.step(file: "a.lua", scenario: "s", number: 3, step: .note("invariants allowed: leaks")))
        #expect(
            note == #"{"action":"invariants allowed: leaks","event":"step","file":"a.lua","name":"s","number":3,"#
                + #""text":"invariants allowed: leaks","verb":""}"#)
        let output = try JSONLinesReport.line(.output(file: "a.lua", scenario: "s", text: "cart has 2\n"))
        #expect(output == #"{"event":"output","file":"a.lua","name":"s","text":"cart has 2\n"}"#)
        let loaded = try JSONLinesReport.line(
            .fileLoaded(file: "a.lua", scenarios: [ScenarioListing(name: "s", groups: ["g"], file: "a.lua", line: 4, tags: [])]))
        #expect(
            loaded
                == #"{"event":"file_loaded","file":"a.lua","scenarios":[{"file":"a.lua","groups":["g"],"is_pending":false,"line":4,"name":"s","tags":[]}]}"#
        )
        // One key style at every level: a frame's keys are snake_case too.
        let framed = try JSONLinesReport.line(.scenarioFinished(HTMLReportTests.runWithFrames().files[0].scenarios[1]))
        #expect(framed.contains(#""selected_tab":"#) && !framed.contains("selectedTab"), "\(framed)")
        let finished = try JSONLinesReport.line(.runFinished(ReportingFixtures.mixedRun(), interruption: nil))
        #expect(finished.contains(#""success":false"#) && finished.contains(#""failed":1"#) && finished.contains(#""interrupted":null"#))
    }

    @Test func aScenarioResultWithFramesSurvivesTheWorkerEncoding() throws {
        let result = HTMLReportTests.runWithFrames().files[0].scenarios[1]
        let decoded = try JSONDecoder().decode(ScenarioResult.self, from: JSONEncoder().encode(result))
        #expect(decoded == result)
        #expect(decoded.frames.count == 3)
    }
}
