import Foundation
import Testing

@testable import NavigationCore

/// Small route tables shared by the tests. The Swift fixture and the JSON
/// fixture describe the same app so the two construction paths can be
/// compared; each test that needs a broken table derives it from these.
enum Fixture {
    static let auth: Precondition = "auth"
    static let payment: Precondition = "payment_method"

    static let home: TabID = "home"
    static let orders: TabID = "orders"
    static let profile: TabID = "profile"

    static let productID = ParamSpec("id", pattern: "p[0-9]+", maxLength: 12)
    static let orderID = ParamSpec("id", kind: .integer)

    /// home ─ category:slug
    ///      ─ product:id ─ reviews:id
    ///      ─ promo:code                (query-only link `?promo=`)
    ///      ─ cart (modal, auth) ─ checkout (push inside the modal, payment_method)
    /// orders (auth) ─ order:id ─ track:id
    /// profile ─ settings (modal) ─ address (modal on the modal)
    static var destinations: [RouteDefinition] {
        [
            RouteDefinition("home", tab: home, flow: "browse", patterns: [RoutePattern("home")]),
            RouteDefinition(
                "category", parent: "home", flow: "browse",
                params: [ParamSpec("slug", pattern: "[a-z][a-z-]*")],
                patterns: [RoutePattern("category/:slug")]),
            RouteDefinition(
                "product", parent: "home", flow: "browse", params: [productID],
                patterns: [
                    RoutePattern("product/:id"), RoutePattern("p/:id"),
                    RoutePattern("deeplink?product=:id"),
                    RoutePattern("products/:id", entries: [.universal])
                ]),
            RouteDefinition(
                "reviews", parent: "product", flow: "browse", params: [productID],
                patterns: [RoutePattern("product/:id/reviews")]),
            RouteDefinition(
                "promo", parent: "home", flow: "browse",
                params: [ParamSpec("code", pattern: "[A-Z0-9]+", minLength: 4, maxLength: 12)],
                patterns: [RoutePattern("?promo=:code")]),
            RouteDefinition(
                "cart", parent: "home", flow: "checkout", presentation: .modal,
                preconditions: [auth], patterns: [RoutePattern("cart")]),
            RouteDefinition(
                "checkout", parent: "cart", flow: "checkout",
                preconditions: [payment], patterns: [RoutePattern("checkout")]),
            RouteDefinition(
                "orders", tab: orders, flow: "orders", preconditions: [auth],
                patterns: [RoutePattern("orders")]),
            RouteDefinition(
                "order", parent: "orders", flow: "orders", params: [orderID],
                patterns: [RoutePattern("orders/:id"), RoutePattern("order?id=:id")]),
            RouteDefinition(
                "track", parent: "order", flow: "orders", params: [orderID],
                patterns: [RoutePattern("orders/:id/track")]),
            RouteDefinition("profile", tab: profile, flow: "profile", patterns: [RoutePattern("profile")]),
            RouteDefinition(
                "settings", parent: "profile", flow: "settings", presentation: .modal,
                patterns: [RoutePattern("settings")]),
            RouteDefinition(
                "address", parent: "settings", flow: "settings", presentation: .modal,
                patterns: [RoutePattern("settings/address")])
        ]
    }

    static func manifest(
        destinations: [RouteDefinition] = destinations,
        preconditions: [Precondition] = [auth, payment]
    ) -> RouteManifest {
        RouteManifest(
            scheme: "shop", universalHosts: ["shop.example.com"],
            tabs: [home, orders, profile], preconditions: preconditions,
            destinations: destinations)
    }

    /// The fixture manifest with one destination replaced (or appended when new).
    static func manifest(replacing definition: RouteDefinition) -> RouteManifest {
        var list = destinations
        if let index = list.firstIndex(where: { $0.id == definition.id }) {
            list[index] = definition
        } else {
            list.append(definition)
        }
        return manifest(destinations: list)
    }

    static func engine() throws -> RoutingEngine {
        try RoutingEngine(manifest: manifest())
    }

    /// The same app, as a server would ship it.
    static let json = #"""
        {
          "scheme": "shop",
          "universal_hosts": ["shop.example.com"],
          "tabs": ["home", "orders", "profile"],
          "preconditions": ["auth", "payment_method"],
          "destinations": [
            { "id": "home", "tab": "home", "flow": "browse", "patterns": ["home"] },
            { "id": "category", "parent": "home", "flow": "browse",
              "params": [{ "name": "slug", "pattern": "[a-z][a-z-]*" }],
              "patterns": ["category/:slug"] },
            { "id": "product", "parent": "home", "flow": "browse",
              "params": [{ "name": "id", "pattern": "p[0-9]+", "max_length": 12 }],
              "patterns": ["product/:id", "p/:id", "deeplink?product=:id",
                           { "path": "products/:id", "entries": ["universal"] }] },
            { "id": "reviews", "parent": "product", "flow": "browse",
              "params": [{ "name": "id", "pattern": "p[0-9]+", "max_length": 12 }],
              "patterns": ["product/:id/reviews"] },
            { "id": "promo", "parent": "home", "flow": "browse",
              "params": [{ "name": "code", "pattern": "[A-Z0-9]+", "min_length": 4, "max_length": 12 }],
              "patterns": ["?promo=:code"] },
            { "id": "cart", "parent": "home", "flow": "checkout", "presentation": "modal",
              "preconditions": ["auth"], "patterns": ["cart"] },
            { "id": "checkout", "parent": "cart", "flow": "checkout",
              "preconditions": ["payment_method"], "patterns": ["checkout"] },
            { "id": "orders", "tab": "orders", "flow": "orders", "preconditions": ["auth"],
              "patterns": ["orders"] },
            { "id": "order", "parent": "orders", "flow": "orders",
              "params": [{ "name": "id", "kind": "integer" }],
              "patterns": ["orders/:id", "order?id=:id"] },
            { "id": "track", "parent": "order", "flow": "orders",
              "params": [{ "name": "id", "kind": "integer" }],
              "patterns": ["orders/:id/track"] },
            { "id": "profile", "tab": "profile", "flow": "profile", "patterns": ["profile"] },
            { "id": "settings", "parent": "profile", "flow": "settings", "presentation": "modal",
              "patterns": ["settings"] },
            { "id": "address", "parent": "settings", "flow": "settings", "presentation": "modal",
              "patterns": ["settings/address"] }
          ]
        }
        """#
}

/// `id` or `id:param` as a step, for terse expectations.
func step(_ id: DestinationID, _ params: RouteParams = [:]) -> RouteStep {
    RouteStep(id, params: params)
}

func step(_ id: DestinationID, id value: String) -> RouteStep {
    RouteStep(id, params: ["id": value])
}

/// A deterministic SplitMix64: every test that needs "random" input owns
/// its generator, so no run depends on global RNG state.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A tracked stand-in for a view model.
final class ViewModel: LifecycleTracked {
    var lifecycleToken: LifecycleToken?
    /// Lets a test build a retain cycle on purpose.
    var owner: AnyObject?
}

/// A real navigation world wired together: one log, tracker and scheduler.
struct World {
    let log = EventLog()
    let tracker: LifecycleTracker
    let scheduler = Scheduler()
    let nav: SimulatedNavigation

    init(tabs: [TabID] = [Fixture.home, Fixture.orders, Fixture.profile]) {
        tracker = LifecycleTracker(log: log)
        nav = SimulatedNavigation(tabs: tabs, log: log, tracker: tracker, scheduler: scheduler)
    }

    /// A tracked screen. Built inside a function so that no caller's local
    /// keeps it alive by accident.
    func screen(_ id: DestinationID, _ params: RouteParams = [:]) -> Screen {
        let screen = Screen(id, params: params)
        tracker.track(screen, label: screen.label, kind: .screen)
        return screen
    }

    /// Pushes tracked screens on `tab`'s stack without keeping references.
    func push(_ steps: [RouteStep], on tab: TabID, animated: Bool = true) {
        for step in steps { nav.stack(tab).push(screen(step.id, step.params), animated: animated) }
    }

    /// Events recorded since `index`.
    func events(since index: Int = 0) -> [String] {
        Array(log.texts.dropFirst(index))
    }
}

extension World {
    /// Events since `index` with deallocations set apart: the core decides
    /// the order of everything else, while the order in which ARC frees
    /// several objects at once (an array's elements) is not its decision.
    func decisions(since index: Int = 0) -> (events: [String], deallocated: Set<String>) {
        let all = events(since: index)
        let deallocs = all.filter { $0.hasPrefix("dealloc ") }
        // Every dealloc must come after that object's release, if it had one.
        for dealloc in deallocs {
            let label = dealloc.dropFirst("dealloc ".count)
            if let release = all.firstIndex(of: "release \(label)") {
                #expect(release < all.firstIndex(of: dealloc)!, "\(dealloc) before its release")
            }
        }
        return (all.filter { !$0.hasPrefix("dealloc ") }, Set(deallocs.map { String($0.dropFirst("dealloc ".count)) }))
    }
}
