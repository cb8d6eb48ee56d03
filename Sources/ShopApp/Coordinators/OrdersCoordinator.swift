import NavigationCore

/// The orders tab: the order list, and one pushed child flow per opened
/// order (detail → tracking). Orders need auth, so opening one goes
/// through the router.
final class OrdersCoordinator: ShopTabFlow {
    init(env: ShopEnvironment) {
        super.init(name: "orders", tab: "orders", root: "orders", env: env)
    }

    override func makeOwnScreen(_ step: RouteStep) -> Screen? {
        guard step.id == "orders" else { return nil }
        let screen = env.makeScreen(step, owner: self)
        screen.setOutput(.order) { [weak self] args in
            self?.env.sink(RouteRequest("order", params: ["id": args["id"] ?? ""]))
        }
        return screen
    }

    override func makeChildFlow(for step: RouteStep) -> PushedFlow? {
        step.id == "order" ? OrderCoordinator(env: env) : nil
    }
}

/// One order's detail and tracking, pushed on the orders tab.
final class OrderCoordinator: ShopPushedFlow {
    init(env: ShopEnvironment) {
        super.init(name: "order", tab: "orders", entry: "order", destinations: ["order", "tracking"], env: env)
    }

    override func makeScreen(_ step: RouteStep) -> Screen {
        let screen = super.makeScreen(step)
        if step.id == "order" {
            let id = step.params["id"] ?? ""
            screen.setOutput("tracking") { [weak self] _ in
                self?.env.sink(RouteRequest("tracking", params: ["id": id]))
            }
        }
        return screen
    }
}
