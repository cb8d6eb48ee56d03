import ArgumentParser
import Foundation

/// `navscript`: runs Lua navigation scenarios against a headless app.
struct NavScriptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navscript",
        abstract: "Run Lua navigation scenarios against a headless iOS-style app.",
        discussion: """
            Scenarios are .lua files that drive the app (tap, back_swipe, deep_link, login…) \
            and assert on stack shape, leaks, gate-resume ordering and entry-point consistency.

            Exit status: 0 all passed, 1 a scenario failed or errored, 2 usage or load error.
            """,
        version: "0.1.0",
        subcommands: [RunCommand.self, ListCommand.self, MutateCommand.self, MergeJUnitCommand.self, RoutesCommand.self, GraphCommand.self, WorkerCommand.self]
    )
}

@main
enum Main {
    /// Parses and runs, mapping every usage error to exit status 2
    /// (swift-argument-parser's default is 64) so CI sees the documented codes.
    static func main() {
        var command: ParsableCommand?
        do {
            command = try NavScriptCommand.parseAsRoot()
            try command?.run()
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            let code = NavScriptCommand.exitCode(for: error)
            if code == .success { NavScriptCommand.exit(withError: error) }
            // Errors found while running name the subcommand's usage, not the root's.
            var message = NavScriptCommand.fullMessage(for: error)
            if let command, let name = type(of: command).configuration.commandName {
                message = "Error: \(NavScriptCommand.message(for: error))\nSee 'navscript \(name) --help'."
            }
            FileHandle.standardError.write(Data((message + "\n").utf8))
            Foundation.exit(2)
        }
    }
}

/// A command-line error that ends the run with status 2 and a message that
/// says what to do.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
