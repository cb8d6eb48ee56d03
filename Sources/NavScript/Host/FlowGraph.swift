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

    public init(
        manifest: RouteManifest, screens: [ScreenDeclaration] = [], swaps: [(from: String, to: String, label: String)] = [],
        gates: [Precondition: DestinationID] = [:]
    ) {
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

    /// An edge of the drawing, in drawing order: ancestry first (a modal's
    /// dashed), then taps, root-flow swaps and gates.
    enum Edge {
        case ancestry(from: String, to: String, modal: Bool)
        case tap(from: String, to: String, output: String)
        case swap(from: String, to: String, label: String)
        case gate(from: String, to: String, precondition: String)
    }

    var edges: [Edge] {
        manifest.destinations.compactMap { definition in
            definition.parent.map { .ancestry(from: $0.rawValue, to: definition.id.rawValue, modal: definition.presentation == .modal) }
        }
            + tapEdges.map { .tap(from: $0.from.rawValue, to: $0.to.rawValue, output: $0.output) }
            + swaps.map { .swap(from: $0.from, to: $0.to, label: $0.label) }
            + gateEdges.map { .gate(from: $0.from.rawValue, to: $0.to.rawValue, precondition: $0.precondition.rawValue) }
    }

    /// How one format writes the parts of the drawing; ``render(_:)`` walks
    /// the clusters and edges once for every format.
    struct Syntax {
        var header: [String]
        /// Opens a tab's cluster (at the outer level).
        var openTab: (TabID) -> String
        /// Opens a flow's cluster, as lines at the given indent.
        var openFlow: (_ name: String, _ indent: String) -> [String]
        var node: (RouteDefinition, _ indent: String) -> String
        var close: String
        var edge: (Edge) -> String
        var footer: [String]
        /// Whether a flow outside every tab sits at the tab level (DOT) or
        /// one level deeper, like every flow (Mermaid).
        var untabbedFlowsAtTabLevel: Bool
    }

    func render(_ syntax: Syntax) -> String {
        var lines = syntax.header
        for group in groups {
            if let tab = group.tab { lines.append(syntax.openTab(tab)) }
            let indent = group.tab == nil && syntax.untabbedFlowsAtTabLevel ? "  " : "    "
            for flow in group.flows {
                lines += syntax.openFlow(flow.name, indent)
                lines += flow.screens.map { syntax.node($0, indent + "  ") }
                lines.append(indent + syntax.close)
            }
            if group.tab != nil { lines.append("  " + syntax.close) }
        }
        lines += edges.map(syntax.edge)
        lines += syntax.footer
        return lines.joined(separator: "\n") + "\n"
    }

    /// Graphviz DOT: clusters for tabs and flows, edges styled by kind.
    public func dot() -> String {
        render(
            Syntax(
                header: [
                    "digraph navigation {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];",
                    "  edge [fontname=\"Helvetica\", fontsize=10];"
                ],
                openTab: { "  subgraph \"cluster_tab_\($0)\" {\n    label=\"tab \($0)\"; style=rounded;" },
                openFlow: { name, indent in ["\(indent)subgraph \"cluster_\(name)\" {", "\(indent)  label=\"flow \(name)\"; style=dashed;"]
                },
                node: { definition, indent in
                    let shape = definition.preconditions.isEmpty ? "" : ", color=darkorange"
                    return "\(indent)\"\(definition.id)\" [label=\"\(label(definition))\"\(shape)];"
                },
                close: "}",
                edge: { edge in
                    switch edge {
                    case .ancestry(let from, let to, let modal):
                        return "  \"\(from)\" -> \"\(to)\"" + (modal ? " [style=dashed, label=\"modal\"]" : "") + ";"
                    case .tap(let from, let to, let output):
                        return "  \"\(from)\" -> \"\(to)\" [color=blue, fontcolor=blue, label=\"tap \(output)\"];"
                    case .swap(let from, let to, let label):
                        return "  \"\(from)\" -> \"\(to)\" [style=bold, color=gray40, label=\"\(label)\"];"
                    case .gate(let from, let to, let precondition):
                        return
                            "  \"\(from)\" -> \"\(to)\" [style=dotted, color=darkorange, fontcolor=darkorange, label=\"gate \(precondition)\"];"
                    }
                },
                footer: ["}"], untabbedFlowsAtTabLevel: true))
    }

    /// Mermaid flowchart (GitHub and GitLab draw it in Markdown).
    public func mermaid() -> String {
        func id(_ name: String) -> String { name.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined() }
        return render(
            Syntax(
                header: ["flowchart LR"],
                openTab: { "  subgraph tab_\(id($0.rawValue))[\"tab \($0)\"]" },
                openFlow: { name, indent in ["\(indent)subgraph flow_\(id(name))[\"flow \(name)\"]"] },
                node: { definition, indent in "\(indent)\(id(definition.id.rawValue))[\"\(label(definition))\"]" },
                close: "end",
                edge: { edge in
                    switch edge {
                    case .ancestry(let from, let to, let modal): return "  \(id(from))" + (modal ? " -.->|modal| " : " --> ") + id(to)
                    case .tap(let from, let to, let output): return "  \(id(from)) -->|tap \(output)| \(id(to))"
                    case .swap(let from, let to, let label): return "  \(id(from)) ==>|\(label)| \(id(to))"
                    case .gate(let from, let to, let precondition): return "  \(id(from)) -.->|gate \(precondition)| \(id(to))"
                    }
                },
                footer: [], untabbedFlowsAtTabLevel: false))
    }
}
