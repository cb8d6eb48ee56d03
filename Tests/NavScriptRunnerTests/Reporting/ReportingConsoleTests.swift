import Foundation
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

@Suite("Reporting: console report")
struct ReportingConsoleTests {
    static let goldenFile = ReportingFixtures.folder.appendingPathComponent("console_report.golden.txt")

    /// Drives a report the way the runner does: progress per scenario and
    /// per file, then `finish`.
    private func render(_ run: RunResult, color: Bool = false) -> String {
        let capture = OutputCapture()
        let console = ConsoleReport(options: .init(color: color), write: capture.write)
        for file in run.files {
            console.fileStarted(file.file)
            for scenario in file.scenarios { console.scenarioFinished(scenario) }
            console.fileFinished(file)
        }
        console.finish(run)
        return capture.text
    }

    /// Set NAVSCRIPT_UPDATE_GOLDEN=1 to rewrite the fixture after an
    /// intended change, then review the diff.
    @Test func goldenReport() throws {
        let text = render(ReportingFixtures.mixedRun())
        if ProcessInfo.processInfo.environment["NAVSCRIPT_UPDATE_GOLDEN"] == "1" {
            try Data(text.utf8).write(to: Self.goldenFile)
        }
        let golden = try String(contentsOf: Self.goldenFile, encoding: .utf8)
        #expect(text == golden)
        if text != golden {
            // Line-level hint; the full strings are in the expectation above.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let expected = golden.split(separator: "\n", omittingEmptySubsequences: false)
            if let index = zip(lines, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                Issue.record("first difference at line \(index + 1): got \"\(lines[index])\", want \"\(expected[index])\"")
            }
        }
    }

    @Test func progressLines() {
        let text = render(ReportingFixtures.mixedRun())
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "scenarios/gate_resume/login.lua  .Fs  (3)")
        #expect(lines[1] == "scenarios/tabs.lua  .E  (2)")
    }

    @Test func marksStreamAsScenariosFinish() {
        let capture = OutputCapture()
        let console = ConsoleReport(write: capture.write)
        let run = ReportingFixtures.mixedRun()
        console.fileStarted(run.files[0].file)
        #expect(capture.text == "scenarios/gate_resume/login.lua  ")
        console.scenarioFinished(run.files[0].scenarios[0])
        console.scenarioFinished(run.files[0].scenarios[1])
        #expect(capture.text == "scenarios/gate_resume/login.lua  .F")
    }

    @Test func onATerminalEachFileLineEndsWithTheRunningTotals() {
        let capture = OutputCapture()
        let console = ConsoleReport(options: .init(runningTotals: true, formatDuration: { _ in "T" }), write: capture.write)
        for (file, count) in [("a.lua", 2), ("b.lua", 3)] {
            console.fileStarted(file)
            let results = (0..<count).map { ScenarioResult(name: "s\($0)", file: file, line: $0 + 1, outcome: .passed) }
            results.forEach(console.scenarioFinished)
            console.fileFinished(FileResult(file: file, scenarios: results, duration: 0))
        }
        #expect(capture.text == "a.lua  ..  (2)  [2 done, T]\nb.lua  ...  (3)  [5 done, T]\n")
    }

    /// A console over a capture, with the mixed run's two files (login, tabs) started in that order.
    private func twoFilesStarted(_ options: ConsoleReport.Options) -> (OutputCapture, ConsoleReport, FileResult, FileResult) {
        let capture = OutputCapture()
        let console = ConsoleReport(options: options, write: capture.write)
        let run = ReportingFixtures.mixedRun()
        console.fileStarted(run.files[0].file)
        console.fileStarted(run.files[1].file)
        return (capture, console, run.files[0], run.files[1])
    }

    @Test func concurrentFilesKeepTheirLinesWhole() {
        let (capture, console, login, tabs) = twoFilesStarted(.init())
        console.scenarioFinished(tabs.scenarios[0])
        console.scenarioFinished(login.scenarios[0])
        console.scenarioFinished(tabs.scenarios[1])
        console.fileFinished(tabs)
        console.scenarioFinished(login.scenarios[1])
        #expect(capture.text == "scenarios/gate_resume/login.lua  .F")
        console.scenarioFinished(login.scenarios[2])
        console.fileFinished(login)
        let third = FileResult(file: "scenarios/z.lua", scenarios: [], duration: 0)
        console.fileStarted(third.file)
        console.fileFinished(third)
        #expect(
            capture.text == """
                scenarios/gate_resume/login.lua  .Fs  (3)
                scenarios/tabs.lua  .E  (2)
                scenarios/z.lua  (0)

                """)
    }

    /// On a terminal a file another worker finished is shown at once, above
    /// the line still running (erased, then drawn again with its marks) —
    /// not held until that one ends, which for a hung scenario is its
    /// whole timeout.
    @Test func onATerminalAFinishedFileIsShownAboveTheOneStillRunning() {
        let (capture, console, login, tabs) = twoFilesStarted(.init(redrawsLines: true))
        console.scenarioFinished(login.scenarios[0])
        console.scenarioFinished(tabs.scenarios[0])
        console.scenarioFinished(tabs.scenarios[1])
        console.fileFinished(tabs)
        #expect(
            capture.text
                == "scenarios/gate_resume/login.lua  .\r\u{1B}[2Kscenarios/tabs.lua  .E  (2)\nscenarios/gate_resume/login.lua  .")
        console.scenarioFinished(login.scenarios[1])
        console.scenarioFinished(login.scenarios[2])
        console.fileFinished(login)
        #expect(capture.text.hasSuffix("\nscenarios/gate_resume/login.lua  .Fs  (3)\n"), "\(capture.text)")
    }

    /// In a pipe (a CI log) too, a file whose scenarios finish while the
    /// open line stands still takes the line: the still one is ended as it
    /// is and printed again, whole, when its turn comes — a hung file no
    /// longer holds another worker's results back until its timeout.
    @Test func aStillLineGivesWayToAFileWhoseScenariosFinish() {
        let (capture, console, login, tabs) = twoFilesStarted(.init(stallAfter: 0))
        console.scenarioFinished(login.scenarios[0])
        console.scenarioFinished(tabs.scenarios[0])
        #expect(capture.text == "scenarios/gate_resume/login.lua  .\nscenarios/tabs.lua  .", "the still line is ended where it is")
        console.scenarioFinished(tabs.scenarios[1])
        console.fileFinished(tabs)
        #expect(capture.text == "scenarios/gate_resume/login.lua  .\nscenarios/tabs.lua  .E  (2)\nscenarios/gate_resume/login.lua  .")
        console.scenarioFinished(login.scenarios[1])
        console.scenarioFinished(login.scenarios[2])
        console.fileFinished(login)
        #expect(
            capture.text == """
                scenarios/gate_resume/login.lua  .
                scenarios/tabs.lua  .E  (2)
                scenarios/gate_resume/login.lua  .Fs  (3)

                """)
        // Without a stall (the default wait, events back to back), lines stay in start order, whole.
        let steady = OutputCapture()
        let console2 = ConsoleReport(write: steady.write)
        console2.fileStarted(login.file)
        console2.fileStarted(tabs.file)
        console2.scenarioFinished(login.scenarios[0])
        console2.scenarioFinished(tabs.scenarios[0])
        console2.scenarioFinished(tabs.scenarios[1])
        console2.fileFinished(tabs)
        #expect(steady.text == "scenarios/gate_resume/login.lua  .")
    }

    /// The hand-over does not wait for another event: a file hung in one
    /// worker sends none until its timeout, and the marks of a file another
    /// worker finishes meanwhile are shown once the open line has stood
    /// still for the wait — on a terminal and in a pipe, finished or not.
    @Test(arguments: [false, true])
    func aStillLineGivesWayWithoutAnotherEvent(redraws: Bool) throws {
        let (capture, console, login, tabs) = twoFilesStarted(.init(redrawsLines: redraws, stallAfter: 0.05))
        console.scenarioFinished(login.scenarios[0])
        console.scenarioFinished(tabs.scenarios[0])
        #expect(capture.text == "scenarios/gate_resume/login.lua  .", "the open line moved just now")
        let deadline = Date().addingTimeInterval(5)
        while !capture.text.contains("tabs.lua  ."), Date() < deadline { usleep(10_000) }
        #expect(capture.text.hasSuffix("scenarios/tabs.lua  ."), "\(capture.text)")
        if !redraws {
            // A file that finishes while another is open is printed once the open one stands still.
            let (finished, console2, login2, tabs2) = twoFilesStarted(.init(stallAfter: 0.05))
            console2.scenarioFinished(login2.scenarios[0])
            for scenario in tabs2.scenarios { console2.scenarioFinished(scenario) }
            console2.fileFinished(tabs2)
            while !finished.text.contains("(2)"), Date() < deadline { usleep(10_000) }
            #expect(
                finished.text == "scenarios/gate_resume/login.lua  .\nscenarios/tabs.lua  .E  (2)\nscenarios/gate_resume/login.lua  .",
                "\(finished.text)")
        }
    }

    /// On a terminal the line changes hands per scenario (it is erased, not
    /// left cut): a file whose scenarios finish while the open one stands
    /// still shows each mark as it comes.
    @Test func onATerminalAStillLineGivesWayToAFileWhoseScenariosFinish() {
        let (capture, console, login, tabs) = twoFilesStarted(.init(redrawsLines: true, stallAfter: 0))
        console.scenarioFinished(login.scenarios[0])
        console.scenarioFinished(tabs.scenarios[0])
        #expect(capture.text == "scenarios/gate_resume/login.lua  .\r\u{1B}[2Kscenarios/tabs.lua  .")
    }

    /// A failure's lines lose their trailing blanks, and only those — on
    /// a line of 300,000 characters too (walking back Character by
    /// Character took a minute at the end of the run), and after a
    /// character of several code points.
    @Test func aFailuresLinesLoseTheirTrailingBlanksOnly() {
        let long = String(repeating: "z", count: 300_000)
        let result = ScenarioResult(
            name: "long", file: "a.lua", line: 1, outcome: .failed(.expectation), message: "expected \(long) \t ",
            details: "e\u{301} \nkept  inside  \n\n")
        let capture = OutputCapture()
        ConsoleReport(write: capture.write).finish(
            RunResult(files: [FileResult(file: "a.lua", scenarios: [result], duration: 0)], duration: 0, startedAt: 0))
        #expect(capture.text.contains("expected \(long)\n"))
        #expect(capture.text.contains("e\u{301}\n"))
        #expect(capture.text.contains("kept  inside\n"))
    }

    @Test func threadsInterleavingFilesNeverSplitALine() {
        let capture = OutputCapture()
        // Scheduling on a loaded machine can hold a thread past the stall wait: here lines must stay whole.
        let console = ConsoleReport(options: .init(stallAfter: .infinity), write: capture.write)
        let files = (0..<8).map { index in
            let path = "scenarios/f\(index).lua"
            return FileResult(
                file: path,
                scenarios: (0..<20).map { n in
                    ScenarioResult(name: "s\(n)", file: path, line: n + 1, outcome: n % 7 == 3 ? .failed(.expectation) : .passed)
                }, duration: 0)
        }
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            console.fileStarted(file.file)
            for scenario in file.scenarios { console.scenarioFinished(scenario) }
            console.fileFinished(file)
        }
        let lines = capture.text.split(separator: "\n").map(String.init)
        #expect(lines.count == files.count)
        #expect(Set(lines) == Set((0..<8).map { "scenarios/f\($0).lua  ...F......F......F..  (20)" }))
    }

    @Test func resultsReportedOnlyAtFileEndStillGetMarks() {
        let capture = OutputCapture()
        let console = ConsoleReport(write: capture.write)
        let run = ReportingFixtures.mixedRun()
        console.fileFinished(run.files[0])  // never started, no scenario reported
        console.fileStarted(run.files[1].file)
        console.scenarioFinished(run.files[1].scenarios[0])
        console.fileFinished(run.files[1])  // the error was not reported
        #expect(
            capture.text == """
                scenarios/gate_resume/login.lua  .Fs  (3)
                scenarios/tabs.lua  .E  (2)

                """)
    }

    /// A file never started is one entry (its scenarios were never listed):
    /// counted as a file, not as one scenario.
    @Test func filesNeverStartedAreCountedAsFiles() {
        let capture = OutputCapture()
        let console = ConsoleReport(write: capture.write)
        let files = ["a", "b", "c"].map { name in
            FileResult(
                file: "\(name).lua",
                scenarios: name == "a"
                    ? [
                        ScenarioResult(name: "x", file: "a.lua", line: 1, outcome: .failed(.expectation)),
                        ScenarioResult(name: "y", file: "a.lua", line: 2, outcome: .skipped(.interrupted))
                    ]
                    : [ScenarioResult(name: "\(name).lua (not run)", file: "\(name).lua", line: 0, outcome: .skipped(.notStarted))],
                duration: 0)
        }
        console.finish(RunResult(files: files, duration: 1, startedAt: 0))
        let why = "the run stopped early: a signal, --fail-fast, or a scenario that could not be stopped"
        #expect(capture.text.contains("1 scenario and 2 files not run (\(why))\n"), "\(capture.text)")
    }

    @Test func interruptedProgressIsClosedBeforeTheReport() {
        let capture = OutputCapture()
        let console = ConsoleReport(write: capture.write)
        let file = "scenarios/a.lua"
        console.fileStarted(file)
        console.scenarioFinished(ScenarioResult(name: "a", file: file, line: 1, outcome: .passed))
        console.fileStarted("scenarios/b.lua")
        let notRun = ScenarioResult(name: "b", file: file, line: 5, outcome: .skipped(.interrupted), message: "not run")
        console.finish(
            RunResult(
                files: [
                    FileResult(
                        file: file,
                        scenarios: [
                            ScenarioResult(name: "a", file: file, line: 1, outcome: .passed), notRun
                        ], duration: 0)
                ], duration: 1, startedAt: 0))
        #expect(
            capture.text == """
                scenarios/a.lua  .
                scenarios/b.lua  \n
                1 scenario not run (the run stopped early: a signal, --fail-fast, or a scenario that could not be stopped)

                1 passed, 0 failed, 0 errors, 1 skipped in 1.000s

                """)
    }

    @Test func summaryLine() {
        let run = ReportingFixtures.mixedRun(seed: nil)
        let lines = render(run).split(separator: "\n")
        #expect(lines.last == "2 passed, 1 failed, 1 errors, 1 skipped in 0.541s")
        #expect(!render(run).contains("seed:"))

        let seeded = render(ReportingFixtures.mixedRun(seed: 1234)).split(separator: "\n")
        #expect(Array(seeded.suffix(2)) == ["seed: 1234", "2 passed, 1 failed, 1 errors, 1 skipped in 0.541s"])

        let empty = render(RunResult(files: [], duration: 0, startedAt: 0))
        #expect(empty == "0 passed, 0 failed, 0 errors, 0 skipped in 0.000s\n")
    }

    @Test func durationFormatterCanBeInjected() {
        let capture = OutputCapture()
        let console = ConsoleReport(options: .init(formatDuration: { _ in "<time>" }), write: capture.write)
        console.finish(RunResult(files: [], duration: 3, startedAt: 0))
        #expect(capture.text == "0 passed, 0 failed, 0 errors, 0 skipped in <time>\n")
        #expect(ConsoleReport.formatSeconds(0.0415) == "0.042s")
        #expect(ConsoleReport.formatSeconds(62) == "62.000s")
    }

    @Test func noEscapeBytesWithoutColour() {
        var run = ReportingFixtures.mixedRun()
        run.files.append(ReportingFixtures.hostileRun().files[0])
        let text = render(run, color: false)
        #expect(!text.unicodeScalars.contains("\u{1B}"))
        #expect(!text.unicodeScalars.contains("\u{9B}"))
        #expect(!text.unicodeScalars.contains("\r"))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
        // A path's controls are written out, not dropped: the name is what the file is called.
        #expect(text.contains("FAIL scenarios/wé<ird> & \"odd\"/fi'le\\x{1b}[1m.lua:2  1 a&b <tag>"), "\(text)")
    }

    @Test func colourWhenEnabled() {
        let text = render(ReportingFixtures.mixedRun(), color: true)
        #expect(text.contains("\u{1B}[32m.\u{1B}[0m"))  // green pass
        #expect(text.contains("\u{1B}[31mF\u{1B}[0m"))  // red failure
        #expect(text.contains("\u{1B}[31mE\u{1B}[0m"))  // red error
        #expect(text.contains("\u{1B}[33ms\u{1B}[0m"))  // yellow skip
        #expect(text.contains("\u{1B}[1;31mFAIL\u{1B}[0m scenarios/gate_resume/login.lua:12"))
        #expect(text.contains("\u{1B}[1;31m2 passed, 1 failed, 1 errors, 1 skipped in 0.541s\u{1B}[0m\n"))

        let passing = RunResult(files: [], duration: 0, startedAt: 0)
        let capture = OutputCapture()
        ConsoleReport(options: .init(color: true), write: capture.write).finish(passing)
        #expect(capture.text == "\u{1B}[1;32m0 passed, 0 failed, 0 errors, 0 skipped in 0.000s\u{1B}[0m\n")
    }

    @Test func colourDecision() {
        #expect(ConsoleReport.shouldUseColor(environment: [:], isTTY: true))
        #expect(!ConsoleReport.shouldUseColor(environment: [:], isTTY: false))
        #expect(ConsoleReport.shouldUseColor(environment: ["TERM": "xterm-256color"], isTTY: true))
        #expect(!ConsoleReport.shouldUseColor(environment: ["NO_COLOR": "1"], isTTY: true))
        #expect(!ConsoleReport.shouldUseColor(environment: ["NO_COLOR": "0"], isTTY: true))
        #expect(!ConsoleReport.shouldUseColor(environment: ["NO_COLOR": "false"], isTTY: true))
        #expect(ConsoleReport.shouldUseColor(environment: ["NO_COLOR": ""], isTTY: true))
        #expect(!ConsoleReport.shouldUseColor(environment: ["TERM": "dumb"], isTTY: true))
        #expect(!ConsoleReport.shouldUseColor(environment: ["NO_COLOR": "1", "TERM": "xterm"], isTTY: false))
    }

    @Test func timelineShowsTheLastStepsNumbered() {
        let text = render(ReportingFixtures.mixedRun())
        #expect(text.contains("    timeline (last 15 of 17 steps):\n       3. tap \"item3\"\n"))
        #expect(text.contains("      17. expect_stack {\"Home\", \"Cart\"}\n    output:\n      cart has 2 items\n"))
        #expect(!text.contains("tap \"item2\""))

        let capture = OutputCapture()
        let console = ConsoleReport(options: .init(timelineLimit: 2), write: capture.write)
        console.finish(ReportingFixtures.mixedRun())
        #expect(capture.text.contains("    timeline (last 2 of 17 steps):\n      16. tap \"item16\"\n"))
        #expect(capture.text.contains("    timeline:\n      1. launch\n      2. deep_link shop://home\n"))
    }
}
