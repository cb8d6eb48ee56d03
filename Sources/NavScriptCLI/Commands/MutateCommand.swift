import ArgumentParser
import Foundation
import NavScript

/// `navscript mutate`: proves the suite catches every fault in the app's
/// catalogue — a green healthy run, then one run per fault, and a kill matrix.
struct MutateCommand: HostedCommand {
    static let configuration = CommandConfiguration(
        commandName: "mutate",
        abstract: "Run the suite once healthy and once per fault; print the kill matrix and mutation score.",
        discussion: "Exit status: 0 every fault killed and the healthy run green, 1 otherwise, 2 usage error."
    )

    @OptionGroup var suite: SuiteOptions

    @Option(help: "Fault runs executed at once (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .customLong("only"), parsing: .singleValue, help: "Test only these faults (repeatable).")
    var only: [String] = []

    @Option(help: "Write a JUnit report with one test case per fault (a surviving fault fails).")
    var junit: String?

    @Flag(help: "Print the matrix as a Markdown table (for the README).")
    var markdown = false

    @Flag(help: "List every killing scenario, and the scenarios that kill nothing.")
    var verbose = false

    @Flag(help: "List the host's fault catalogue and exit.")
    var list = false

    @Option(help: "Seconds one scenario may run before its worker is killed (a hanging fault is killed this way).")
    var timeout: Double = 5

    @Flag(help: .hidden)
    var inProcess = false

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }

    func run(in context: CommandContext) throws {
        let host = try suite.host(in: context)
        if list {
            for fault in host.faults { print("\(fault.name)\n    \(fault.summary)") }
            return
        }
        var faults = host.faults
        if !only.isEmpty {
            let unknown = only.filter { name in !faults.contains { $0.name == name } }
            guard unknown.isEmpty else {
                throw ValidationError("unknown fault \(unknown.joined(separator: ", ")); the catalogue is: "
                    + faults.map(\.name).joined(separator: ", "))
            }
            faults = faults.filter { only.contains($0.name) }
        }
        let entries = try suite.discover()
        let plan = MutationRun(entries: entries, faults: faults, baseFaults: suite.faults)
        let options = suite.runOptions()
        let execution = SuiteExecution(suite: suite, options: options, jobs: jobs, timeout: timeout, inProcess: inProcess)
        let stop = StopSignal()
        stop.catchInterrupt()
        let started = Date()
        let results = try execution.execute(plan.tasks, host: host,
                                            entries: Dictionary(uniqueKeysWithValues: entries.map { ($0.path, $0) }),
                                            stop: stop) { _ in }
        if stop.wasInterrupted { throw ExitCode(130) }
        let report = plan.report(results: results, started: started)
        if !report.healthy.isSuccess {
            writeStandardError("navscript mutate: the suite is not green on the healthy app (\(report.healthy.summary)); "
                + "fix it first — run `navscript run` to see the failures\n")
        }
        print(markdown ? report.markdown() : report.text(verbose: verbose), terminator: "")
        if verbose {
            let idle = report.scenariosKillingNothing
            print("\n\(idle.count) scenario\(idle.count == 1 ? "" : "s") killing no fault\(idle.isEmpty ? "" : ":")")
            for scenario in idle { print("    \(scenario)") }
        }
        if let junit {
            try JUnitReport().write(report.junit(), to: URL(fileURLWithPath: junit))
        }
        throw ExitCode(report.isSuccess ? 0 : 1)
    }
}
