import ArgumentParser
import NavScript
import NavScriptRunner
import NavScriptRuntime

/// `navscript list`: every scenario with its `file:line` and tags, without
/// running anything — what a filter or a shard would select.
struct ListCommand: HostedCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List scenarios with file:line and tags."
    )

    @OptionGroup var suite: SuiteOptions

    func run(in context: CommandContext) throws {
        let host = try self.suite.host(in: context)
        let suite = try self.suite.selectingLines(host: host)
        let runner = ScenarioRunner(host: host, options: suite.runOptions())
        let listing: [(entry: SuiteFile, scenarios: [ScenarioListing], loadError: String?)]
        do { listing = try runner.list(try suite.discover()) } catch { throw ValidationError("\(error)") }
        var total = 0
        var broken = 0
        for file in listing {
            if let error = file.loadError {
                // On one line, its control characters written out (a name of ESC sequences cleared the screen).
                print("\(ReportText.pathForTerminal(file.entry.path)): does not load: \(ReportText.escapingControls(error))")
                broken += 1
            }
            for scenario in file.scenarios {
                var line = "\(ReportText.pathForTerminal(scenario.file)):\(scenario.line)  \(ReportText.escapingControls(scenario.name))"
                if !scenario.tags.isEmpty { line += "  [" + scenario.tags.map(ReportText.escapingControls).joined(separator: ", ") + "]" }
                if scenario.isPending { line += "  (pending)" }
                print(line)
                total += 1
            }
        }
        print("\(total) scenario\(total == 1 ? "" : "s") in \(listing.count) file\(listing.count == 1 ? "" : "s")")
        if broken > 0 { throw ExitCode(2) }
        if total == 0 { throw ValidationError(suite.nothingToRun(files: listing.count)) }
    }
}
