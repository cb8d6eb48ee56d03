import NavigationCore

/// The orders module: the order list, an order, its live tracking (behind
/// sign-in). It parses its own links into requests and never imports the
/// catalog or the account module.
public enum OrdersModule {
    public static let tab: TabID = "orders"

    public static var routes: [RouteDefinition] {
        let order = ParamSpec("id", kind: .integer, maxLength: 9)
        return [
            RouteDefinition("orders", tab: tab, flow: "orders", patterns: [RoutePattern("orders")]),
            RouteDefinition(
                "order", parent: "orders", flow: "order", params: [order], preconditions: ["auth"],
                patterns: [RoutePattern("orders/:id"), RoutePattern("o/:id")]),
            RouteDefinition(
                "tracking", parent: "order", flow: "order", params: [order],
                patterns: [
                    RoutePattern("orders/:id/track"), RoutePattern("o/:id/track"),
                    RoutePattern("track?order=:id")
                ])
        ]
    }

    /// The outputs each of the module's screens may offer, as its flows wire them.
    public static var screens: [ScreenDeclaration] {
        [
            ScreenDeclaration("orders", [.order]),
            ScreenDeclaration("order", ["track"]),
            ScreenDeclaration("tracking", [])
        ]
    }

    /// The module's own quick parser for the courier's SMS links
    /// (`bistro://track?order=7`) — the shortcut a team takes around the
    /// engine. Used only by the `orders-parser-skips-gate` bug.
    public static func quickTrackingRequest(_ url: String) -> RouteRequest? {
        guard let range = url.range(of: "track?order=") else { return nil }
        let id = url[range.upperBound...].prefix { $0.isNumber }
        return id.isEmpty ? nil : RouteRequest("tracking", params: ["id": String(id)])
    }
}

extension ScreenOutput {
    static let order = ScreenOutput("order", parameters: ["id"], opens: "order")
}

/// The orders tab: the list is its own screen; each opened order is a
/// pushed flow (order → tracking). Opening an order asks the app (it needs
/// sign-in), so the engine's policy decides.
public final class OrdersFlow: TabFlow {
    let send: (RouteRequest) -> Void

    public init(navigation: SimulatedNavigation, send: @escaping (RouteRequest) -> Void) {
        self.send = send
        super.init(name: "orders", tab: OrdersModule.tab, root: "orders", navigation: navigation)
    }

    public override func makeOwnScreen(_ step: RouteStep) -> Screen? {
        guard step.id == "orders" else { return nil }
        let screen = Screen(step.id, params: step.params)
        navigation.tracker.track(screen, label: screen.label, kind: .screen)
        screen.setOutput(.order) { [weak self] args in self?.send(RouteRequest("order", params: ["id": args["id"] ?? ""])) }
        return screen
    }

    public override func makeChildFlow(for step: RouteStep) -> PushedFlow? {
        step.id == "order" ? OrderFlow(navigation: navigation, send: send) : nil
    }
}

/// One order and its tracking.
final class OrderFlow: PushedFlow {
    let send: (RouteRequest) -> Void

    init(navigation: SimulatedNavigation, send: @escaping (RouteRequest) -> Void) {
        self.send = send
        super.init(name: "order", tab: OrdersModule.tab, entry: "order", destinations: ["tracking"], navigation: navigation)
    }

    override func makeScreen(_ step: RouteStep) -> Screen {
        let screen = Screen(step.id, params: step.params)
        navigation.tracker.track(screen, label: screen.label, kind: .screen)
        if step.id == "order" {
            let id = step.params["id"] ?? ""
            screen.setOutput("track") { [weak self] _ in self?.send(RouteRequest("tracking", params: ["id": id])) }
        }
        return screen
    }
}
