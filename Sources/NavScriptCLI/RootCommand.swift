import ArgumentParser
import NavScriptLua
import NavScriptRunner
import NavScriptRuntime

/// `navscript`: runs Lua navigation scenarios against a headless app.
struct RootCommand: ParsableCommand {
    /// navscript's release.
    static let release = "0.2.0"

    /// `--version`: the release, the Lua it embeds, and the build — what a
    /// bug report needs (a debug build behaves alike but runs several times
    /// slower; Lua releases word errors differently).
    static var version: String {
        #if DEBUG
            let build = "debug"
        #else
            let build = "release"
        #endif
        return "\(NavScriptCLI.executableName) \(release) (Lua \(LuaState.release), \(build) build)"
    }

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
            version: version,
            subcommands: [
                RunCommand.self, ListCommand.self, LintCommand.self, MutateCommand.self, MergeJUnitCommand.self,
                RoutesCommand.self, GraphCommand.self, TypesCommand.self, ExploreCommand.self, WorkerCommand.self
            ]
        )
    }
}
