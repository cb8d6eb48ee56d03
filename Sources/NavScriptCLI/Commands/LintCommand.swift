import ArgumentParser
import Foundation
import NavScriptRunner
import NavScriptRuntime

/// `navscript lint`: the suite's literal names checked against the app's
/// vocabulary without running a scenario — a thin frontend over
/// ``ScenarioLint``.
struct LintCommand: HostedCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check the suite's screen ids, tabs, outputs, events, options and doors against the app.",
        discussion: """
            Reads every scenario file without running it and reports each literal name the app does not have — a \
            misspelt expect_no_event item or expect_screen id would otherwise pass or mislead — as \
            file:line:col: error: message (gcc's form, which CI problem matchers and editors read), or with \
            --format luacheck as file:line:col: (W901) message (luacheck's plain formatter with codes: W901 screen, \
            W902 tab, W903 output, W904 event, W905 entry point, W906 error kind, W907 launch option, W908 \
            invariant, W909 a key of a function's option table, W910 a window function for an app with one window, \
            W911 a file that does not load: a duplicate scenario name, a scenario without its function — each file's \
            top level is run for that, as list runs it —, W912 a link a typo away from a route, which the app rejects \
            without a word, W913 a field of deep_link's outcome compared with a value it never has: \
            deep_link(url).status ~= "gatd"). Only literals are checked. Exit status: 0 clean, 1 problems found, 2 usage error.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case gcc
        case luacheck
    }

    @Option(help: "gcc (file:line:col: error: message) or luacheck (file:line:col: (W901) message).")
    var format: Format = .gcc

    @Argument(help: "Scenario files or folders (default: scenarios).", completion: ValueCompletion.scenarios)
    var paths: [String] = []

    /// Seconds a file's top level may run while lint loads it.
    static let loadTimeout = 10.0

    func validate() throws { try SuiteOptions.refuseEmptyPaths(paths) }

    func run(in context: CommandContext) throws {
        let host = try context.host()
        let files: [SuiteFile]
        do {
            files = try ScenarioDiscovery().discover(paths.isEmpty ? ["scenarios"] : paths)
        } catch {
            throw ValidationError("\(error)")
        }
        var problems = ScenarioLint(host: host).check(files)
        // What only loading shows (a duplicate scenario name, a scenario without its function): the run
        // would lose the whole file. Each file's top level runs under a time limit, as `list` runs it.
        var options = RunOptions()
        options.scenarioTimeout = Self.loadTimeout
        let listing = try ScenarioRunner(host: host, options: options).list(files) { path, _ in
            writeStandardError("\(NavScriptCLI.executableName) lint: \(path) did not finish loading within \(Int(Self.loadTimeout)) s\n")
            Foundation.exit(2)
        }
        let broken = Set(problems.filter { $0.kind == .syntax }.map(\.file))
        problems += ScenarioLint.loadProblems(listing.map { ($0.entry, $0.loadError) }, skipping: broken)
        problems.sort { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
        for problem in problems { print(format == .gcc ? problem.gccLine : problem.luacheckLine) }
        let count = problems.count
        let inFiles = Set(problems.map(\.file)).count
        writeStandardError(
            count == 0
                ? "no problem in \(files.count) file\(files.count == 1 ? "" : "s")\n"
                : "\(count) problem\(count == 1 ? "" : "s") in \(inFiles) of \(files.count) file\(files.count == 1 ? "" : "s")\n")
        if count > 0 { throw ExitCode(1) }
    }
}
