import NavScript
import NotesApp
import TestSupport

@testable import NavScriptRunner
@testable import NavScriptRuntime

/// Runs `source`, written as `file` in a fresh suite folder (with `support`
/// files beside it), in this process against `host` (NotesApp by default):
/// the results of its scenarios, or of its file entry when it does not load.
func runSource(
    _ source: String, file: String = "a.lua", support: [String: String] = [:], host: (any ScenarioHost)? = nil,
    options: RunOptions = RunOptions()
) throws -> (results: [ScenarioResult], path: String) {
    let suite = try TemporarySuite()
    for (name, text) in support { _ = try suite.write("support/" + name, text) }
    let url = try suite.write(file, source)
    let entry = SuiteFile(path: url.path, url: url, suiteRoot: suite.root)
    let runner = ScenarioRunner(host: try host ?? NotesHost(), options: options)
    return (runner.runFile(entry, filter: nil).scenarios, url.path)
}
