import ArgumentParser
import NavScriptRunner
import NavScriptRuntime

/// `navscript`: runs Lua navigation scenarios against a headless app.
struct RootCommand: ParsableCommand {
    /// Named as the executable was started (an app's runner is not called `navscript`).
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: NavScriptCLI.executableName,
            abstract: "Run Lua navigation scenarios against a headless iOS-style app.",
            discussion: """
                Scenarios are .lua files that drive the app (tap, back_swipe, deep_link…) \
                and assert on stack shape, leaks, gate-resume ordering and entry-point consistency.

                Exit status: 0 all passed, 1 a scenario failed or errored, 2 usage or load error, \
                130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP.
                """,
            version: "0.2.0",
            subcommands: [
                RunCommand.self, ListCommand.self, LintCommand.self, MutateCommand.self, MergeJUnitCommand.self,
                RoutesCommand.self, GraphCommand.self, TypesCommand.self, ExploreCommand.self, WorkerCommand.self
            ]
        )
    }
}
