import ArgumentParser
import NavScriptRunner
import NavScriptRuntime

/// `navscript graph`: the flow graph — tabs, flows, screens, pushes and
/// modals, taps, gates, root-flow swaps — as Graphviz DOT
/// (`navscript graph | dot -Tsvg`) or Mermaid.
struct GraphCommand: HostedCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print the flow graph (tabs, flows, screens, taps, gates, root-flow swaps) as Graphviz DOT or Mermaid."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case dot
        case mermaid
    }

    @Option(help: "dot (Graphviz) or mermaid (drawn natively by GitHub and GitLab).")
    var format: Format = .dot

    func run(in context: CommandContext) throws {
        let graph = try context.host().flowGraph()
        print(format == .dot ? graph.dot() : graph.mermaid(), terminator: "")
    }
}
