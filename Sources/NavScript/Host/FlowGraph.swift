import NavigationCore

/// An app's navigation as a graph, from its route manifest and its screen
/// declarations: one cluster per tab holding one cluster per flow
/// (coordinator) with its screens; ancestry edges (solid for a push,
/// dashed for a modal), labelled with the taps that open them; tap edges
/// from an output to any other destination it opens, once per pair of
/// screens; taps that open no destination listed on their screen; gated
/// screens marked with their preconditions; screens outside every tab
/// (onboarding, sign-in) in their own flows; a legend of the lines used.
/// Rendered as Graphviz DOT or Mermaid (which GitHub and GitLab draw
/// natively).
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

    /// The screen's name and its gates, then, on a second line, its taps
    /// that open no declared destination (a share sheet, a host verb):
    /// drawn on the screen, or the graph would hide them.
    func label(_ definition: RouteDefinition, lineBreak: String) -> String {
        let gates = definition.preconditions.map(\.rawValue).joined(separator: ", ")
        var label = gates.isEmpty ? definition.id.rawValue : "\(definition.id) [gate \(gates)]"
        let loose = screens.first { $0.id == definition.id }?.outputs.filter { $0.destination == nil }.map(\.name) ?? []
        if !loose.isEmpty { label += lineBreak + "taps: " + loose.joined(separator: ", ") }
        return label
    }

    var tapEdges: [(from: DestinationID, output: String, to: DestinationID)] {
        screens.flatMap { screen in screen.outputs.compactMap { output in output.destination.map { (screen.id, output.name, $0) } } }
    }

    /// An edge of the drawing, in drawing order: ancestry first (a modal's
    /// dashed), then root-flow swaps and gates. A tap that opens the
    /// destination above its screen is drawn on that ancestry edge, not as a
    /// second arrow beside it; the taps between one pair of screens share one
    /// edge.
    enum Edge: Equatable {
        /// `taps` empty: the canonical stack alone; `modal`: presented.
        case ancestry(from: String, to: String, modal: Bool, taps: [String])
        /// A tap to a destination that is not directly above its screen.
        case tap(from: String, to: String, outputs: [String])
        case swap(from: String, to: String, label: String)
        case gate(from: String, to: String, precondition: String)

        /// The legend's name for each kind of line, in legend order.
        enum Kind: CaseIterable { case push, modal, tap, swap, gate }

        var kinds: [Kind] {
            switch self {
            case .ancestry(_, _, let modal, let taps): return [modal ? .modal : .push] + (taps.isEmpty ? [] : [.tap])
            case .tap: return [.tap]
            case .swap: return [.swap]
            case .gate: return [.gate]
            }
        }
    }

    var edges: [Edge] {
        // Taps per (screen, destination), in declaration order.
        var taps: [String: [String]] = [:]
        var tapOrder: [(from: String, to: String)] = []
        for tap in tapEdges {
            let key = tap.from.rawValue + "\u{0}" + tap.to.rawValue
            if taps[key] == nil { tapOrder.append((tap.from.rawValue, tap.to.rawValue)) }
            if taps[key]?.contains(tap.output) != true { taps[key, default: []].append(tap.output) }
        }
        var drawn: Set<String> = []
        var edges: [Edge] = manifest.destinations.compactMap { definition in
            definition.parent.map { parent in
                let key = parent.rawValue + "\u{0}" + definition.id.rawValue
                drawn.insert(key)
                return .ancestry(
                    from: parent.rawValue, to: definition.id.rawValue, modal: definition.presentation == .modal,
                    taps: taps[key] ?? [])
            }
        }
        for (from, to) in tapOrder where !drawn.contains(from + "\u{0}" + to) {
            edges.append(.tap(from: from, to: to, outputs: taps[from + "\u{0}" + to] ?? []))
        }
        return edges + swaps.map { .swap(from: $0.from, to: $0.to, label: $0.label) }
            + gateEdges.map { .gate(from: $0.from.rawValue, to: $0.to.rawValue, precondition: $0.precondition.rawValue) }
    }

    /// The kinds of line the drawing uses, for its legend.
    var legendKinds: [Edge.Kind] {
        let used = Set(edges.flatMap(\.kinds))
        return Edge.Kind.allCases.filter(used.contains)
    }

    /// What each kind of line means, as the legend says it.
    static func meaning(_ kind: Edge.Kind) -> String {
        switch kind {
        case .push: return "push"
        case .modal: return "modal"
        case .tap: return "tap output"
        case .swap: return "root-flow swap"
        case .gate: return "gate, to its sign-in flow"
        }
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
        /// The legend: one sample line per kind the drawing uses.
        var legend: ([Edge.Kind]) -> [String]
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
        let kinds = legendKinds
        if !kinds.isEmpty { lines += syntax.legend(kinds) }
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
                    return "\(indent)\"\(definition.id)\" [label=\"\(label(definition, lineBreak: "\\n"))\"\(shape)];"
                },
                close: "}",
                edge: { edge in
                    switch edge {
                    case .ancestry(let from, let to, let modal, let taps):
                        var attributes = modal ? ["style=dashed"] : []
                        if taps.isEmpty {
                            if modal { attributes.append("label=\"modal\"") }
                        } else {
                            attributes += ["color=blue", "fontcolor=blue", "label=\"tap \(taps.joined(separator: ", "))\""]
                        }
                        return "  \"\(from)\" -> \"\(to)\"" + (attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]")
                            + ";"
                    case .tap(let from, let to, let outputs):
                        return "  \"\(from)\" -> \"\(to)\" [color=blue, fontcolor=blue, label=\"tap \(outputs.joined(separator: ", "))\"];"
                    case .swap(let from, let to, let label):
                        return "  \"\(from)\" -> \"\(to)\" [style=bold, color=gray40, label=\"\(label)\"];"
                    case .gate(let from, let to, let precondition):
                        return
                            "  \"\(from)\" -> \"\(to)\" [style=dotted, color=darkorange, fontcolor=darkorange, label=\"gate \(precondition)\"];"
                    }
                },
                legend: { kinds in
                    let style: [Edge.Kind: String] = [
                        .push: "", .modal: "style=dashed, ", .tap: "color=blue, fontcolor=blue, ",
                        .swap: "style=bold, color=gray40, ", .gate: "style=dotted, color=darkorange, fontcolor=darkorange, "
                    ]
                    var lines = [
                        "  subgraph \"cluster_legend\" {", "    label=\"legend\"; style=solid; color=gray60;",
                        "    node [shape=point, width=0.05, label=\"\"];"
                    ]
                    for (index, kind) in kinds.enumerated() {
                        lines.append(
                            "    \"legend_\(index)a\" -> \"legend_\(index)b\" [\(style[kind] ?? "")label=\"\(Self.meaning(kind))\"];")
                    }
                    lines.append("    \"legend_gated\" [shape=box, width=0.75, color=darkorange, label=\"gated screen\"];")
                    return lines + ["  }"]
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
                node: { definition, indent in
                    "\(indent)\(id(definition.id.rawValue))[\"\(label(definition, lineBreak: "<br/>"))\"]"
                },
                close: "end",
                edge: { edge in
                    switch edge {
                    case .ancestry(let from, let to, let modal, let taps):
                        let label = taps.isEmpty ? (modal ? "|modal| " : "") : "|tap \(taps.joined(separator: ", "))| "
                        return "  \(id(from))" + (modal ? " -.->" : " -->") + (label.isEmpty ? " " : label) + id(to)
                    case .tap(let from, let to, let outputs):
                        return "  \(id(from)) -->|tap \(outputs.joined(separator: ", "))| \(id(to))"
                    case .swap(let from, let to, let label): return "  \(id(from)) ==>|\(label)| \(id(to))"
                    case .gate(let from, let to, let precondition): return "  \(id(from)) -.->|gate \(precondition)| \(id(to))"
                    }
                },
                legend: { kinds in
                    let arrow: [Edge.Kind: String] = [.push: "-->", .modal: "-.->", .tap: "-->", .swap: "==>", .gate: "-.->"]
                    var lines = ["  subgraph legend[\"legend\"]"]
                    for (index, kind) in kinds.enumerated() {
                        lines.append(
                            "    legend_\(index)a[\" \"] \(arrow[kind] ?? "-->")|\(Self.meaning(kind))| legend_\(index)b[\" \"]")
                    }
                    return lines + ["  end"]
                },
                footer: [], untabbedFlowsAtTabLevel: false))
    }
}
