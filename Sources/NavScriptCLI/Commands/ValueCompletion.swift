import ArgumentParser
import NavScript
import NavScriptRuntime

/// What the shell completes for each kind of value (`navscript
/// --generate-completion-script bash|zsh|fish` writes the script): files of
/// the right kind, the invariants, and the app's own fault names.
///
/// Why a task-local for the host: the shell asks a running `navscript`
/// (`---completion run -- --fault`), and ArgumentParser calls the
/// completion closure while it parses, before any command runs — the only
/// way the closure reaches the app's host is a value the entry point binds
/// around the parse (``NavScriptCLI/run(_:host:)``).
enum ValueCompletion {
    /// The host factory of the command line being parsed.
    @TaskLocal static var host: HostFactoryBox?

    /// The app's host factory, sendable for the task-local: it is called
    /// only on the parsing thread, once, for the fault names.
    struct HostFactoryBox: @unchecked Sendable {
        let make: NavScriptCLI.HostFactory
    }

    /// Scenario files and the folders that hold them.
    static let scenarios = CompletionKind.file(extensions: ["lua"])
    static let junit = CompletionKind.file(extensions: ["xml"])
    static let html = CompletionKind.file(extensions: ["html"])
    static let json = CompletionKind.file(extensions: ["json", "jsonl"])
    /// A route manifest.
    static let manifest = CompletionKind.file(extensions: ["json"])
    static let invariants = CompletionKind.list(Invariant.allCases.map(\.rawValue))

    /// The app's fault names (`--fault`, `mutate --only`); none when the
    /// app's host cannot be built (completion never prints an error).
    static let faults = CompletionKind.custom { _, _, _ in faultNames() }

    static func faultNames() -> [String] {
        guard let host = try? host?.make() else { return [] }
        return host.faults.map(\.name)
    }
}
