import ArgumentParser
import NavigationCore

/// `navscript routes`: the route table and its URL vocabulary, so scenario
/// authors can see every destination, alias and gate at a glance.
struct RoutesCommand: HostedCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Print the app's route table: destinations, URL patterns, params and gates."
    )

    func run(in context: CommandContext) throws {
        let host = try context.host()
        let manifest = host.engine.manifest
        print("scheme \(manifest.scheme)://   universal https://\(manifest.universalHosts.joined(separator: ", "))")
        print("tabs: \(manifest.tabs.map(\.rawValue).joined(separator: ", "))")
        print("")
        for definition in manifest.destinations {
            let ancestry = host.engine.target(forDisplay: definition.id)
            var line = "\(definition.id)"
            line += "  [\(definition.presentation.rawValue), flow \(definition.flow)]"
            if !definition.params.isEmpty {
                line += "  params: " + definition.params.map { p in
                    p.name + (p.kind == .integer ? ":int" : "") + (p.pattern.map { " /\($0)/" } ?? "")
                }.joined(separator: ", ")
            }
            let gates = host.engine.preconditions(of: definition.id)
            if !gates.isEmpty { line += "  gates: " + gates.map(\.rawValue).joined(separator: ", ") }
            print(line)
            print("    path: \(ancestry)")
            for pattern in definition.patterns { print("    \(pattern)") }
        }
    }
}

extension RoutingEngine {
    /// The canonical path of a destination, spelled for people.
    func target(forDisplay id: DestinationID) -> String {
        guard let definition = definition(of: id) else { return "?" }
        var params: [String: String] = [:]
        for spec in definition.params { params[spec.name] = ":" + spec.name }
        var chain: [String] = []
        var current: RouteDefinition? = definition
        while let step = current {
            chain.insert((step.presentation == .modal ? "(modal) " : "") + step.id.rawValue, at: 0)
            current = step.parent.flatMap { self.definition(of: $0) }
        }
        return "\(chain.joined(separator: " > "))"
    }
}
