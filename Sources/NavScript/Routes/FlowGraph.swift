import NavigationCore

/// Renders an app's flows and destinations, from its route manifest, as
/// Graphviz DOT: one cluster per flow, destinations inside, edges for
/// declared ancestry (dashed for modal presentation), gated destinations
/// marked with their preconditions.
public struct FlowGraph: Sendable {
    public let manifest: RouteManifest

    public init(manifest: RouteManifest) {
        self.manifest = manifest
    }

    public func dot() -> String {
        var lines = ["digraph navigation {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
        let flows = manifest.destinations.reduce(into: [String: [RouteDefinition]]()) { $0[$1.flow, default: []].append($1) }
        for flow in flows.keys.sorted() {
            lines.append("  subgraph \"cluster_\(flow)\" {")
            lines.append("    label=\"\(flow)\";")
            for definition in flows[flow] ?? [] {
                let gates = definition.preconditions.map(\.rawValue).joined(separator: ", ")
                let label = gates.isEmpty ? definition.id.rawValue : "\(definition.id)\\n[\(gates)]"
                lines.append("    \"\(definition.id)\" [label=\"\(label)\"];")
            }
            lines.append("  }")
        }
        for definition in manifest.destinations {
            guard let parent = definition.parent else { continue }
            let style = definition.presentation == .modal ? " [style=dashed, label=\"modal\"]" : ""
            lines.append("  \"\(parent)\" -> \"\(definition.id)\"\(style);")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
