import NavigationCore

/// An app's navigation as a graph, from its route manifest and its screen
/// declarations: one cluster per tab holding one cluster per flow
/// (coordinator) with its screens; ancestry edges (solid for a push,
/// dashed for a modal); tap edges from an output to the destination it
/// opens; gated screens marked with their preconditions; screens outside
/// every tab (onboarding, sign-in) in their own flows. Rendered as
/// Graphviz DOT or Mermaid (which GitHub and GitLab draw natively).
public struct FlowGraph: Sendable {
    public let manifest: RouteManifest
    public let screens: [ScreenDeclaration]
    /// Root-flow swaps and other app-level transitions a host describes
    /// (`onboarding → main`), drawn as labelled edges between flows.
    public let swaps: [(from: String, to: String, label: String)]
    /// The first screen of the flow that satisfies each precondition
    /// (`auth` → `login`): every gated screen gets a gate edge to it.
    public let gates: [Precondition: DestinationID]

    public init(manifest: RouteManifest, screens: [ScreenDeclaration] = [], swaps: [(from: String, to: String, label: String)] = [],
                gates: [Precondition: DestinationID] = [:]) {
        self.manifest = manifest
        self.screens = screens
        self.swaps = swaps
        self.gates = gates
    }

    /// Gated screen → the satisfying flow's first screen, per precondition.
    var gateEdges: [(from: DestinationID, precondition: Precondition, to: DestinationID)] {
        manifest.destinations.flatMap { definition in
            definition.preconditions.compactMap { precondition in gates[precondition].map { (definition.id, precondition, $0) } }
        }
    }

    /// The tab a destination lives under (through its ancestry), if any.
    func tab(of definition: RouteDefinition) -> TabID? {
        var current: RouteDefinition? = definition
        var seen: Set<DestinationID> = []
        while let step = current, seen.insert(step.id).inserted {
            if let tab = step.tab { return tab }
            current = step.parent.flatMap { manifest.definition($0) }
        }
        return nil
    }

    /// Flows in manifest order, grouped under their tab (nil: a flow
    /// presented over every tab).
    var groups: [(tab: TabID?, flows: [(name: String, screens: [RouteDefinition])])] {
        var order: [TabID?] = manifest.tabs.map { Optional($0) }
        var flows: [TabID?: [(name: String, screens: [RouteDefinition])]] = [:]
        for definition in manifest.destinations {
            // A modal flow is drawn on its own, not inside the tab it rises over.
            let tab = isModalFlow(definition.flow) ? nil : self.tab(of: definition)
            if !order.contains(tab) { order.append(tab) }
            var list = flows[tab] ?? []
            if let index = list.firstIndex(where: { $0.name == definition.flow }) {
                list[index].screens.append(definition)
            } else {
                list.append((definition.flow, [definition]))
            }
            flows[tab] = list
        }
        return order.compactMap { tab in flows[tab].map { (tab, $0) } }
    }

    func isModalFlow(_ flow: String) -> Bool {
        manifest.destinations.contains { $0.flow == flow && $0.presentation == .modal }
    }

    func label(_ definition: RouteDefinition) -> String {
        let gates = definition.preconditions.map(\.rawValue).joined(separator: ", ")
        return gates.isEmpty ? definition.id.rawValue : "\(definition.id) [gate \(gates)]"
    }

    var tapEdges: [(from: DestinationID, output: String, to: DestinationID)] {
        screens.flatMap { screen in screen.outputs.compactMap { output in output.destination.map { (screen.id, output.name, $0) } } }
    }

    // MARK: - DOT

    public func dot() -> String {
        var lines = ["digraph navigation {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];",
                     "  edge [fontname=\"Helvetica\", fontsize=10];"]
        for group in groups {
            let indent = group.tab == nil ? "  " : "    "
            if let tab = group.tab {
                lines.append("  subgraph \"cluster_tab_\(tab)\" {")
                lines.append("    label=\"tab \(tab)\"; style=rounded;")
            }
            for flow in group.flows {
                lines.append("\(indent)subgraph \"cluster_\(flow.name)\" {")
                lines.append("\(indent)  label=\"flow \(flow.name)\"; style=dashed;")
                for definition in flow.screens {
                    let shape = definition.preconditions.isEmpty ? "" : ", color=darkorange"
                    lines.append("\(indent)  \"\(definition.id)\" [label=\"\(label(definition))\"\(shape)];")
                }
                lines.append("\(indent)}")
            }
            if group.tab != nil { lines.append("  }") }
        }
        for definition in manifest.destinations {
            guard let parent = definition.parent else { continue }
            let style = definition.presentation == .modal ? " [style=dashed, label=\"modal\"]" : ""
            lines.append("  \"\(parent)\" -> \"\(definition.id)\"\(style);")
        }
        for edge in tapEdges {
            lines.append("  \"\(edge.from)\" -> \"\(edge.to)\" [color=blue, fontcolor=blue, label=\"tap \(edge.output)\"];")
        }
        for swap in swaps {
            lines.append("  \"\(swap.from)\" -> \"\(swap.to)\" [style=bold, color=gray40, label=\"\(swap.label)\"];")
        }
        for gate in gateEdges {
            lines.append("  \"\(gate.from)\" -> \"\(gate.to)\" [style=dotted, color=darkorange, fontcolor=darkorange, label=\"gate \(gate.precondition)\"];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Mermaid

    public func mermaid() -> String {
        func id(_ name: String) -> String { name.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined() }
        var lines = ["flowchart LR"]
        for group in groups {
            if let tab = group.tab { lines.append("  subgraph tab_\(id(tab.rawValue))[\"tab \(tab)\"]") }
            for flow in group.flows {
                lines.append("    subgraph flow_\(id(flow.name))[\"flow \(flow.name)\"]")
                for definition in flow.screens {
                    lines.append("      \(id(definition.id.rawValue))[\"\(label(definition))\"]")
                }
                lines.append("    end")
            }
            if group.tab != nil { lines.append("  end") }
        }
        for definition in manifest.destinations {
            guard let parent = definition.parent else { continue }
            let arrow = definition.presentation == .modal ? " -.->|modal| " : " --> "
            lines.append("  \(id(parent.rawValue))\(arrow)\(id(definition.id.rawValue))")
        }
        for edge in tapEdges {
            lines.append("  \(id(edge.from.rawValue)) -->|tap \(edge.output)| \(id(edge.to.rawValue))")
        }
        for swap in swaps {
            lines.append("  \(id(swap.from)) ==>|\(swap.label)| \(id(swap.to))")
        }
        for gate in gateEdges {
            lines.append("  \(id(gate.from.rawValue)) -.->|gate \(gate.precondition)| \(id(gate.to.rawValue))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
