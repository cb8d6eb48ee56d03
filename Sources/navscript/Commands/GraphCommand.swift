import ArgumentParser
import ShopHost

/// `navscript graph`: the flow graph as Graphviz DOT (`navscript graph | dot -Tpng`).
struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print the coordinator/flow graph as Graphviz DOT."
    )

    func run() throws {
        print(try ShopHost().flowGraph(), terminator: "")
    }
}
