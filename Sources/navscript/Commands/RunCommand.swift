import ArgumentParser
import Foundation
import NavScript

/// `navscript run`: the main job — run the suite, report to the terminal
/// and (optionally) as JUnit XML, exit 0 / 1 / 2.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenarios and report to the terminal and as JUnit XML.",
        discussion: "Exit status: 0 all passed, 1 a scenario failed or errored, 2 usage error or a file that did not load."
    )

    @OptionGroup var suite: SuiteOptions

    @Option(help: "Write a JUnit XML report to this file.")
    var junit: String?

    @Flag(help: "Leave file/line attributes out of the JUnit report (for strict validators such as Jenkins xunit).")
    var junitStrict = false

    @Flag(help: "Stop at the first failure or error; the rest is reported as skipped.")
    var failFast = false

    @Flag(help: "Run files and scenarios in a shuffled order (see --seed).")
    var shuffle = false

    @Option(help: "Seed for --shuffle; the same seed gives the same order. Default: random, and printed.")
    var seed: UInt64?

    func run() throws {
        let host = try suite.makeHost()
        let entries = try suite.discover()
        let seed = self.seed ?? UInt64.random(in: 1...999_999)
        let color = ConsoleReport.shouldUseColor(environment: ProcessInfo.processInfo.environment,
                                                 isTTY: isatty(STDOUT_FILENO) == 1)
        let console = ConsoleReport(options: .init(color: color), write: writeStandardOutput)
        var runner = ScenarioRunner(host: host, options: suite.runOptions(failFast: failFast, shuffle: shuffle, seed: seed))
        runner.onFileStarted = console.fileStarted
        runner.onScenarioFinished = console.scenarioFinished
        runner.onFileFinished = console.fileFinished
        let result: RunResult
        do {
            result = try runner.run(entries)
        } catch {
            throw ValidationError(error.description)
        }
        console.finish(result)
        if let junit {
            do {
                try JUnitReport(.init(includeFileAttributes: !junitStrict)).write(result, to: URL(fileURLWithPath: junit))
            } catch {
                writeStandardError("navscript: could not write the JUnit report: \(error)\n")
                throw ExitCode(2)
            }
        }
        throw ExitCode(Self.exitStatus(result))
    }

    /// 2 when a file did not load, 1 when a scenario failed or errored, else 0.
    static func exitStatus(_ result: RunResult) -> Int32 {
        let loadKinds: Set<String> = ["load_error", "syntax"]
        if result.scenarios.contains(where: { loadKinds.contains($0.kind) }) { return 2 }
        return result.isSuccess ? 0 : 1
    }
}
