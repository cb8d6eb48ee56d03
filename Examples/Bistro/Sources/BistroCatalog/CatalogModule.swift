import NavigationCore

/// The catalog module: restaurants, a restaurant, its menu, search. It owns
/// its destinations and their URL vocabulary, and knows nothing of orders
/// or accounts: placing an order leaves the module through `placeOrder`.
public enum CatalogModule {
    public static let tab: TabID = "catalog"

    /// The module's destinations and links (`bistro://r/luigi`, `…/restaurants/luigi/menu`).
    public static var routes: [RouteDefinition] {
        let restaurant = ParamSpec("id", pattern: "[a-z][a-z0-9-]{1,23}")
        return [
            RouteDefinition("restaurants", tab: tab, flow: "catalog", patterns: [RoutePattern("restaurants"), RoutePattern("home")]),
            RouteDefinition(
                "search", parent: "restaurants", flow: "catalog",
                params: [ParamSpec("q", minLength: 1, maxLength: 40)], patterns: [RoutePattern("search?q=:q")]),
            RouteDefinition(
                "restaurant", parent: "restaurants", flow: "restaurant", params: [restaurant],
                patterns: [RoutePattern("restaurants/:id"), RoutePattern("r/:id")]),
            RouteDefinition(
                "menu", parent: "restaurant", flow: "restaurant", params: [restaurant],
                patterns: [RoutePattern("restaurants/:id/menu"), RoutePattern("r/:id/menu")])
        ]
    }

    /// The outputs each of the module's screens may offer, as its flows wire them.
    public static var screens: [ScreenDeclaration] {
        [
            ScreenDeclaration("restaurants", [.restaurant, .search]),
            ScreenDeclaration("search", [.restaurant]),
            ScreenDeclaration("restaurant", ["menu"]),
            ScreenDeclaration("menu", ["order"])
        ]
    }
}

extension ScreenOutput {
    static let restaurant = ScreenOutput("restaurant", parameters: ["id"], opens: "restaurant")
    static let search = ScreenOutput("search", parameters: ["q"], opens: "search")
}

/// The catalog tab: restaurants and search are its own screens; a
/// restaurant (and its menu) is a pushed flow of its own.
public final class CatalogFlow: TabFlow {
    let placeOrder: (String) -> Void
    let observersNeverRemoved: Bool
    let endsOnDisappear: Bool
    /// Flows that want to hear when a favourite changes.
    private var favouriteObservers: [AnyObject] = []

    /// `placeOrder` leaves the module with the restaurant's id.
    /// `observersNeverRemoved` is a bug switch: a restaurant flow registers
    /// for favourite changes and nobody unregisters it, so it outlives its
    /// screens.
    /// `endsOnDisappear` is a bug switch: a restaurant flow ends when its
    /// first screen starts to disappear, even if the swipe is cancelled.
    public init(
        navigation: SimulatedNavigation, placeOrder: @escaping (String) -> Void, observersNeverRemoved: Bool = false,
        endsOnDisappear: Bool = false
    ) {
        self.placeOrder = placeOrder
        self.observersNeverRemoved = observersNeverRemoved
        self.endsOnDisappear = endsOnDisappear
        super.init(name: "catalog", tab: CatalogModule.tab, root: "restaurants", navigation: navigation)
    }

    public override func makeOwnScreen(_ step: RouteStep) -> Screen? {
        guard step.id == "restaurants" || step.id == "search" else { return nil }
        let screen = Bistro.screen(step, navigation)
        screen.setOutput(.restaurant) { [weak self] args in self?.push(RouteStep("restaurant", params: ["id": args["id"] ?? ""])) }
        if step.id == "restaurants" {
            screen.setOutput(.search) { [weak self] args in self?.push(RouteStep("search", params: ["q": args["q"] ?? args["id"] ?? ""])) }
        }
        return screen
    }

    public override func makeChildFlow(for step: RouteStep) -> PushedFlow? {
        guard step.id == "restaurant" else { return nil }
        let flow = RestaurantFlow(navigation: navigation, placeOrder: placeOrder)
        if observersNeverRemoved { favouriteObservers.append(flow) }
        return flow
    }

    public override func didStartChildFlow(_ child: PushedFlow, rootScreen: Screen) {
        guard endsOnDisappear else { return }
        rootScreen.onWillDisappear = { [weak self, weak child] in
            if let self, let child { self.tearDown(child) }
        }
    }
}

/// One restaurant and its menu, pushed on the catalog tab.
final class RestaurantFlow: PushedFlow {
    let placeOrder: (String) -> Void

    init(navigation: SimulatedNavigation, placeOrder: @escaping (String) -> Void) {
        self.placeOrder = placeOrder
        super.init(name: "restaurant", tab: CatalogModule.tab, entry: "restaurant", destinations: ["menu"], navigation: navigation)
    }

    override func makeScreen(_ step: RouteStep) -> Screen {
        let screen = Bistro.screen(step, navigation)
        let id = step.params["id"] ?? ""
        if step.id == "restaurant" {
            screen.setOutput("menu") { [weak self] _ in self?.push(RouteStep("menu", params: ["id": id])) }
        } else {
            screen.setOutput("order") { [weak self] _ in self?.placeOrder(id) }
        }
        return screen
    }
}

/// Shared helpers of the module.
enum Bistro {
    /// A screen registered for leak tracking.
    static func screen(_ step: RouteStep, _ navigation: SimulatedNavigation) -> Screen {
        let screen = Screen(step.id, params: step.params)
        navigation.tracker.track(screen, label: screen.label, kind: .screen)
        return screen
    }
}
