import NavigationCore

/// The home tab: home → category → product → reviews, promos, related
/// products. Ungated pushes stay local; the cart (auth) goes through the
/// router so the engine's policy decides.
final class BrowseCoordinator: ShopTabFlow {
    init(env: ShopEnvironment) {
        super.init(name: "browse", tab: "home", root: "home", env: env)
    }

    override func makeOwnScreen(_ step: RouteStep) -> Screen? {
        let screen = env.makeScreen(step, owner: self)
        switch step.id {
        case "home":
            wireProduct(screen)
            screen.setOutput(.category) { [weak self] args in self?.push(RouteStep("category", params: ["id": args["id"] ?? ""])) }
            screen.setOutput(.promo) { [weak self] args in
                self?.push(RouteStep("promo", params: ["code": args["code"] ?? args["id"] ?? ""]))
            }
            wireCart(screen)
        case "category", "promo":
            wireProduct(screen)
            wireCart(screen)
        case "product":
            let id = step.params["id"] ?? ""
            screen.setOutput("reviews") { [weak self] _ in self?.push(RouteStep("reviews", params: ["id": id])) }
            wireProduct(screen)
            wireCart(screen)
        case "reviews":
            wireProduct(screen)
        default:
            return nil
        }
        return screen
    }

    override func makeChildFlow(for step: RouteStep) -> PushedFlow? {
        step.id == "cart" ? CartCoordinator(env: env) : nil
    }

    private func wireProduct(_ screen: Screen) {
        screen.setOutput(.product) { [weak self] args in self?.push(RouteStep("product", params: ["id": args["id"] ?? ""])) }
    }

    private func wireCart(_ screen: Screen) {
        screen.setOutput(.cart) { [weak self] _ in self?.env.sink(RouteRequest("cart")) }
    }
}

/// The cart, pushed on the home tab; its `checkout` output asks the router
/// for the checkout flow (gated by auth, then by a payment method).
final class CartCoordinator: ShopPushedFlow {
    init(env: ShopEnvironment) {
        super.init(name: "cart", tab: "home", entry: "cart", destinations: ["cart"], env: env)
    }

    override func makeScreen(_ step: RouteStep) -> Screen {
        let screen = super.makeScreen(step)
        screen.setOutput(.checkout) { [weak self] _ in self?.env.sink(RouteRequest("checkout_address")) }
        return screen
    }
}
