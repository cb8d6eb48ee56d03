import NavigationCore
import ShopApp

/// (1) and (2): the pure core.
enum CoreBenchmarks {
    /// A mix of inputs as the entry points see them: plain, aliased, query,
    /// nested, gated, modal, universal, and the three error kinds.
    static let urls: [(String, EntryPoint)] = [
        ("shop://home", .scheme),
        ("shop://category/shoes", .scheme),
        ("shop://product/p1004", .scheme),
        ("shop://p/p42", .scheme),
        ("shop://deeplink?product=p7", .scheme),
        ("shop://product/p1004/reviews", .scheme),
        ("shop://promo/SPRING24", .scheme),
        ("shop://cart", .scheme),
        ("shop://checkout", .scheme),
        ("shop://orders/42/track", .scheme),
        ("shop://settings/security", .scheme),
        ("https://shop.example.com/products/p9", .universal),
        ("https://shop.example.com/orders/7", .universal),
        ("shop://product/x1", .scheme),  // validation_failed
        ("shop://nowhere/at/all", .scheme),  // unknown_route
        ("not a url", .scheme)  // malformed
    ]

    /// The yardstick: one ordinary link of about 40 bytes that
    /// proceeds (a universal link to a product, signed in).
    static let typicalURL = ("https://shop.example.com/products/p1004", EntryPoint.universal)
    static let signedIn = RouteContext(satisfied: ["auth", "payment_method"])

    static func resolveTypical(engine: RoutingEngine) -> Measurement {
        var sink = 0
        let result = Bench.measure("RoutingEngine.resolve, one link", operations: 1) {
            if case .proceed(let target)? = try? engine.resolve(url: typicalURL.0, entry: typicalURL.1, context: signedIn) {
                sink &+= target.baseRun.count
            }
        }
        blackHole(sink)
        return result
    }

    static func resolve(engine: RoutingEngine) -> Measurement {
        let contexts = [RouteContext(), RouteContext(satisfied: ["auth", "payment_method"])]
        var sink = 0
        let result = Bench.measure("RoutingEngine.resolve", operations: urls.count * contexts.count) {
            for context in contexts {
                for (url, entry) in urls {
                    do {
                        switch try engine.resolve(url: url, entry: entry, context: context) {
                        case .proceed: sink &+= 1
                        case .gated: sink &+= 2
                        }
                    } catch {
                        sink &+= 3
                    }
                }
            }
        }
        blackHole(sink)
        return result
    }

    /// Plans covering the five stack decisions, tab switches and modals.
    static func planCases(engine: RoutingEngine) throws -> [(NavigationState, Target, RouteSource)] {
        func step(_ id: String, _ params: RouteParams = [:]) -> RouteStep { RouteStep(DestinationID(id), params: params) }
        func target(_ id: String, _ params: RouteParams = [:]) throws -> Target {
            try engine.target(for: RouteRequest(DestinationID(id), params: params))
        }
        let tabs: [TabID] = ["home", "orders", "profile"]
        func state(_ tab: TabID, home: [RouteStep], orders: [RouteStep] = [], modals: [[RouteStep]] = []) -> NavigationState {
            NavigationState(
                selectedTab: tab, tabs: tabs,
                stacks: [
                    "home": home, "orders": orders.isEmpty ? [step("orders")] : orders,
                    "profile": [step("profile")]
                ],
                modals: modals)
        }
        let deep = [step("home"), step("category", ["id": "shoes"]), step("product", ["id": "p1"]), step("reviews", ["id": "p1"])]
        return [
            // no-op: the leaf is on top
            (state("home", home: [step("home"), step("product", ["id": "p1004"])]), try target("product", ["id": "p1004"]), .external),
            // update in place
            (state("home", home: [step("home"), step("product", ["id": "p1"])]), try target("product", ["id": "p1004"]), .internal),
            // pop to
            (
                state("home", home: [step("home"), step("product", ["id": "p1"]), step("reviews", ["id": "p1"])]),
                try target("product", ["id": "p1"]), .internal
            ),
            // reset to canonical (external)
            (state("home", home: deep), try target("promo", ["code": "SPRING24"]), .external),
            // keep the shared prefix (internal)
            (state("home", home: deep), try target("cart"), .internal),
            // another tab, deep target
            (state("home", home: deep), try target("tracking", ["id": "42"]), .external),
            // under a modal: dismiss first
            (state("profile", home: [step("home")], modals: [[step("settings")]]), try target("product", ["id": "p1004"]), .external),
            // present a modal chain over a rebuilt stack
            (state("home", home: [step("home")]), try target("checkout_confirm"), .external),
            // same modal root, different modal stack
            (state("profile", home: [step("home")], modals: [[step("settings")]]), try target("settings_security"), .internal),
            // orders: parameter change below the leaf rebuilds
            (
                state(
                    "orders", home: [step("home")], orders: [step("orders"), step("order", ["id": "41"]), step("tracking", ["id": "41"])]),
                try target("tracking", ["id": "42"]), .internal
            )
        ]
    }

    static func plan(engine: RoutingEngine) throws -> Measurement {
        let cases = try planCases(engine: engine)
        var sink = 0
        let result = Bench.measure("Reconciler.plan", operations: cases.count) {
            for (current, target, source) in cases {
                sink &+= Reconciler.plan(current: current, target: target, source: source).count
            }
        }
        blackHole(sink)
        return result
    }
}
