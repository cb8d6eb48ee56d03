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
            Reads every scenario file without running it and reports, as file:line:col: message, each literal name \
            the app does not have — a misspelt expect_no_event item or expect_screen id would otherwise pass or \
            mislead. Only literals are checked. Exit status: 0 clean, 1 problems found, 2 usage error.
            """
    )

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
        for problem in problems { print(problem.description) }
        let count = problems.count
        writeStandardError(
            "\(count) problem\(count == 1 ? "" : "s") in \(files.count) file\(files.count == 1 ? "" : "s")\n")
        if count > 0 { throw ExitCode(1) }
    }
}
