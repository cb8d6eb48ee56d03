import ArgumentParser
import NavScript
import NavScriptRunner
import NavScriptRuntime

/// `navscript worker`: the process a parallel run starts per job. Not for
/// people: it reads tasks on stdin and answers in JSON lines.
struct WorkerCommand: HostedCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run scenario files for a parent navscript process (internal).",
        shouldDisplay: false
    )

    @OptionGroup var suite: SuiteOptions
    @Flag var shuffle = false
    @Flag var failFast = false
    @Option var seed: UInt64 = 0
    @Flag var recordFrames = false
    /// The run's `--timeout`: the worker stops a scenario's Lua code at its line past it, before the
    /// parent would kill the worker (which it still does for a hang outside Lua).
    @Option var timeout: Double?

    func run(in context: CommandContext) throws {
        var options = suite.runOptions(failFast: failFast, shuffle: shuffle, seed: seed)
        options.recordsFrames = recordFrames
        options.scenarioTimeout = timeout
        let worker = ScenarioWorker(host: try suite.host(in: context), options: options)
        do { try worker.serve() } catch { throw ValidationError(error.description) }
    }
}
