import ArgumentParser

/// `navscript graph`: the flow graph as Graphviz DOT (`navscript graph | dot -Tpng`).
struct GraphCommand: HostedCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print the coordinator/flow graph as Graphviz DOT."
    )

    func run(in context: CommandContext) throws {
        print(try context.host().flowGraph(), terminator: "")
    }
}
