import ArgumentParser
import Foundation
import NavScript
import NavScriptRunner
import NavScriptRuntime
import NavigationCore

/// `navscript routes`: the route table, a manifest check before rollout,
/// and what a new manifest changes.
struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "The app's route table; check a manifest before rollout; diff two manifests.",
        subcommands: [RoutesListCommand.self, RoutesCheckCommand.self, RoutesDiffCommand.self],
        defaultSubcommand: RoutesListCommand.self
    )
}

/// `navscript routes [list]`: every destination with its URL patterns,
/// params, gates and the outputs its screen offers (the tap names).
struct RoutesListCommand: HostedCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print the route table: destinations, URL patterns, params, gates and tap outputs."
    )

    @Option(help: "A manifest to show instead of the app's own.")
    var manifest: String?

    /// Words after `routes` that name no subcommand: `list` is the default,
    /// so without this `routes chek x.json` was read as `routes list` with
    /// an unexpected argument and printed list's usage.
    @Argument(help: .hidden)
    var unknown: [String] = []

    func validate() throws {
        try SuiteOptions.refuseEmptyPath(manifest, of: "--manifest")
        guard let word = unknown.first else { return }
        throw ValidationError(
            "'\(word)' is not a routes subcommand; use list (the default), check FILE.json or "
                + "diff OLD.json NEW.json (\(NavScriptCLI.executableName) routes --help)")
    }

    func run(in context: CommandContext) throws {
        var host = try context.host()
        if let manifest { host = try ManifestOption.load(manifest, into: host) }
        let engine = host.engine
        let table = engine.manifest
        let outputs = Dictionary(host.screens.map { ($0.id, $0.outputs) }, uniquingKeysWith: { first, _ in first })
        print("scheme \(table.scheme)://   universal https://\(table.universalHosts.joined(separator: ", "))")
        print("tabs: \(table.tabs.map(\.rawValue).joined(separator: ", "))")
        print("")
        for definition in table.destinations {
            var line = "\(definition.id)"
            line += "  [\(definition.presentation.rawValue), flow \(definition.flow)]"
            if !definition.params.isEmpty {
                line +=
                    "  params: "
                    + definition.params.map { p in
                        p.name + (p.kind == .integer ? ":int" : "") + (p.pattern.map { " /\($0)/" } ?? "")
                    }.joined(separator: ", ")
            }
            let gates = engine.preconditions(of: definition.id)
            if !gates.isEmpty { line += "  gates: " + gates.map(\.rawValue).joined(separator: ", ") }
            print(line)
            print("    path: \(engine.target(forDisplay: definition.id))")
            for pattern in definition.patterns { print("    \(pattern)") }
            if let taps = outputs[definition.id] {
                let text = taps.map { output in
                    output.name + (output.parameters.isEmpty ? "" : "(" + output.parameters.joined(separator: ", ") + ")")
                        + (output.destination.map { " → \($0)" } ?? "")
                }
                print("    taps: " + (text.isEmpty ? "(none)" : text.joined(separator: ", ")))
            }
        }
    }
}

/// `navscript routes check FILE.json`: a manifest checked before rollout.
struct RoutesCheckCommand: HostedCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a route manifest before rollout: syntax, schema, rules, overlaps, reachability.",
        discussion: "Prints each problem as FILE:LINE:COL: error|warning: MESSAGE ($.json.path, destination \"id\"), at the "
            + "value that is wrong, as compilers do (editors and CI problem matchers read it). Exit status: 0 no problem "
            + "(warnings — screens the app shows that the manifest drops — are listed), 1 problems, 2 unreadable."
    )

    @Argument(help: "The manifest to check.")
    var file: String

    func validate() throws { try SuiteOptions.refuseEmptyPath(file, of: "the manifest") }

    func run(in context: CommandContext) throws {
        let host = try context.host()
        let problems: [ManifestProblem]
        do {
            problems = try ManifestOption.read(file, host: host).problems
        } catch .unreadable(let reason) {
            throw UsageError("cannot read \(file): \(reason)")
        } catch .notJSON(let error, let hint) {
            writeStandardError("\(file):\(error.line):\(error.column): error: not valid JSON: \(error.reason)\(hint)\n")
            throw ExitCode(2)
        }
        for problem in problems { print(problem.reported(in: file)) }
        let errors = problems.filter { !$0.isWarning }.count
        let warnings = problems.count - errors
        var summary = errors == 0 ? "no problem" : "\(errors) problem\(errors == 1 ? "" : "s")"
        if warnings > 0 { summary += ", \(warnings) warning\(warnings == 1 ? "" : "s") (what this rollout changes for the app)" }
        print("\(file): \(summary)")
        throw ExitCode(errors == 0 ? 0 : 1)
    }
}

extension RoutingEngine {
    /// The canonical path of a destination, spelled for people.
    func target(forDisplay id: DestinationID) -> String {
        guard let definition = definition(of: id) else { return "?" }
        var chain: [String] = []
        var current: RouteDefinition? = definition
        while let step = current {
            chain.insert((step.presentation == .modal ? "(modal) " : "") + step.id.rawValue, at: 0)
            current = step.parent.flatMap { self.definition(of: $0) }
        }
        return "\(chain.joined(separator: " > "))"
    }
}

/// `navscript routes diff OLD.json NEW.json`: what a rollout changes.
struct RoutesDiffCommand: HostedCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two manifests link by link: every pattern and suite link, every entry point, signed out and in.",
        discussion: "Prints a summary (how many links change, and how: newly gated, now rejected, …), then each link that "
            + "changes once, with the entry points and sessions where it does. Exit status: 0 no outcome changes, 1 some "
            + "do, 2 a manifest is unreadable or broken."
    )

    @Argument(help: "The manifest in production.")
    var old: String

    @Argument(help: "The manifest to roll out.")
    var new: String

    @Option(help: "Also compare every link string the scenarios in this folder use.")
    var suite: String?

    @Flag(help: "Print the summary and the changes as Markdown, a table row per link (for a pull request).")
    var markdown = false

    func validate() throws {
        try SuiteOptions.refuseEmptyPath(old, of: "the manifest in production")
        try SuiteOptions.refuseEmptyPath(new, of: "the manifest to roll out")
        try SuiteOptions.refuseEmptyPath(suite, of: "--suite")
    }

    func run(in context: CommandContext) throws {
        let host = try context.host()
        let before = try ManifestOption.load(old, into: host, option: nil).engine
        let after = try ManifestOption.load(new, into: host, option: nil).engine
        let diff = ManifestDiff(old: before, new: after, entries: host.entryPoints)
        let report = diff.report(extra: try suiteLinks(scheme: before.manifest.scheme))
        print(markdown ? report.markdown : report.text, terminator: "")
        throw ExitCode(report.links.isEmpty ? 0 : 1)
    }

    /// Every `scheme://…` string literal of the suite's files and support modules (``SuiteLinks``).
    func suiteLinks(scheme: String) throws -> [String] {
        guard let suite else { return [] }
        let entries: [SuiteFile]
        do { entries = try ScenarioDiscovery().discover([suite]) } catch { throw ValidationError("\(error)") }
        return SuiteLinks.literals(in: entries, scheme: scheme)
    }
}
