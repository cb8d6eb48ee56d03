import NavigationCore

/// Checkout as a modal flow: address → payment → confirm. Paying places
/// the order and completes the flow with its id, which the root hands
/// across flows to the orders tab.
final class CheckoutCoordinator: ShopModalFlow {
    private(set) var placedOrder: Int?

    init(env: ShopEnvironment) {
        super.init(name: "checkout", env: env)
    }

    override func makeScreen(_ step: RouteStep) -> Screen {
        let screen = super.makeScreen(step)
        wireClose(screen)
        switch step.id {
        case "checkout_address":
            screen.setOutput("continue") { [weak self] _ in self?.push(RouteStep("checkout_payment")) }
        case "checkout_payment":
            screen.setOutput("continue") { [weak self] _ in self?.push(RouteStep("checkout_confirm")) }
        case "checkout_confirm":
            screen.setOutput("pay") { [weak self] _ in
                guard let self else { return }
                self.placedOrder = self.env.account.placeOrder()
                self.finish(.completed)
            }
        default:
            break
        }
        return screen
    }
}

/// Adds a payment method; presented by the root to satisfy the
/// `payment_method` gate of checkout.
final class PaymentCoordinator: ShopModalFlow {
    init(env: ShopEnvironment) {
        super.init(name: "payment", env: env)
    }

    override func makeScreen(_ step: RouteStep) -> Screen {
        let screen = super.makeScreen(step)
        wireClose(screen)
        screen.setOutput("done") { [weak self] _ in
            guard let self else { return }
            self.env.account.hasPaymentMethod = true
            self.finish(.completed)
        }
        return screen
    }
}
