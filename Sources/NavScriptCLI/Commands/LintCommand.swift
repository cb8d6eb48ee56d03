import ArgumentParser
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
            invariant, W909 a key of a function's option table, W910 a window function for an app with one window). Only literals are checked. Exit status: 0 clean, 1 problems found, 2 usage error.
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

    func run(in context: CommandContext) throws {
        let host = try context.host()
        let files: [SuiteFile]
        do {
            files = try ScenarioDiscovery().discover(paths.isEmpty ? ["scenarios"] : paths)
        } catch {
            throw ValidationError("\(error)")
        }
        let problems = ScenarioLint(host: host).check(files)
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
