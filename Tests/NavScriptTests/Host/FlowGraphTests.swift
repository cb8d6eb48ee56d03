import NavigationCore
import Testing

@testable import NavScript

/// The drawing `navscript graph` prints: each edge once, every tap shown,
/// a legend of the lines it uses.
@Suite("FlowGraph")
struct FlowGraphTests {
    /// home → list (push), list → item (push), home → login (modal, gated
    /// screens point at it); taps on the ancestry edges, one elsewhere, two
    /// on one pair, one that opens no destination.
    static let graph: FlowGraph = {
        let manifest = RouteManifest(
            scheme: "t", universalHosts: [], tabs: ["main"], preconditions: ["auth"],
            destinations: [
                RouteDefinition("home", tab: "main", flow: "browse"),
                RouteDefinition("list", parent: "home", flow: "browse"),
                RouteDefinition("item", parent: "list", flow: "browse", preconditions: ["auth"]),
                RouteDefinition("login", parent: "home", flow: "auth", presentation: .modal)
            ])
        let screens = [
            ScreenDeclaration("home", [.init("list", opens: "list"), .init("sign_in", opens: "login"), .init("share")]),
            ScreenDeclaration("list", [.init("item", opens: "item"), .init("first", opens: "item"), .init("home", opens: "home")])
        ]
        return FlowGraph(manifest: manifest, screens: screens, gates: ["auth": "login"])
    }()

    @Test func aTapAlongTheStackIsDrawnOnItsAncestryEdgeNotBesideIt() {
        let dot = Self.graph.dot()
        #expect(dot.components(separatedBy: "\"home\" -> \"list\"").count == 2, "one edge home → list\n\(dot)")
        #expect(dot.contains(#""home" -> "list" [color=blue, fontcolor=blue, label="tap list"];"#), "\(dot)")
        // Along a modal: dashed and blue.
        #expect(dot.contains(#""home" -> "login" [style=dashed, color=blue, fontcolor=blue, label="tap sign_in"];"#), "\(dot)")
        // Two taps between one pair share one edge.
        #expect(dot.contains(#""list" -> "item" [color=blue, fontcolor=blue, label="tap item, first"];"#), "\(dot)")
        #expect(dot.components(separatedBy: "\"list\" -> \"item\"").count == 2, "\(dot)")
        // A tap elsewhere (back down the stack) is an edge of its own.
        #expect(dot.contains(#""list" -> "home" [color=blue, fontcolor=blue, label="tap home"];"#), "\(dot)")
        #expect(
            Self.graph.edges.filter { if case .tap = $0 { return true } else { return false } }.count == 1,
            "\(Self.graph.edges)")
    }

    @Test func aTapThatOpensNoDestinationIsListedOnItsScreen() {
        #expect(Self.graph.dot().contains(#""home" [label="home\ntaps: share"];"#), "\(Self.graph.dot())")
        #expect(Self.graph.mermaid().contains(#"home["home<br/>taps: share"]"#), "\(Self.graph.mermaid())")
        #expect(Self.graph.dot().contains(#""list" [label="list"];"#), "a screen whose taps all open something")
    }

    @Test func theLegendShowsTheLinesTheDrawingUses() {
        #expect(Self.graph.legendKinds == [.push, .modal, .tap, .gate], "no root-flow swap in this app")
        let dot = Self.graph.dot()
        #expect(dot.contains("subgraph \"cluster_legend\""), "\(dot)")
        #expect(dot.contains(#"[style=dotted, color=darkorange, fontcolor=darkorange, label="gate, to its sign-in flow"]"#), "\(dot)")
        #expect(!dot.contains("root-flow swap"), "\(dot)")
        #expect(Self.graph.mermaid().contains(#"legend_1a[" "] -.->|modal| legend_1b[" "]"#), "\(Self.graph.mermaid())")
        // An app of one screen draws no line, so no legend.
        let lone = FlowGraph(
            manifest: RouteManifest(
                scheme: "t", universalHosts: [], tabs: ["main"], preconditions: [],
                destinations: [RouteDefinition("home", tab: "main", flow: "browse")]))
        #expect(lone.legendKinds.isEmpty && !lone.dot().contains("legend"), "\(lone.dot())")
    }

    @Test func aModalWithoutTapsIsLabelledModal() {
        let graph = FlowGraph(manifest: Self.graph.manifest, screens: [], gates: [:])
        #expect(graph.dot().contains(#""home" -> "login" [style=dashed, label="modal"];"#), "\(graph.dot())")
        #expect(graph.dot().contains(#""home" -> "list";"#), "\(graph.dot())")
        #expect(graph.mermaid().contains("home -.->|modal| login"), "\(graph.mermaid())")
        #expect(graph.mermaid().contains("home --> list"), "\(graph.mermaid())")
    }
}
