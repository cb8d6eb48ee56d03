import NavigationCore

/// ShopApp's tab flows on the shared ``TabFlow``: screens built through the
/// environment, and the place where a team gets pop handling wrong — the
/// pop-detection faults live in its delegate callback, the teardown fault
/// where it starts a child flow.
class ShopTabFlow: TabFlow {
    let env: ShopEnvironment

    init(name: String, tab: TabID, root: DestinationID, env: ShopEnvironment) {
        self.env = env
        super.init(name: name, tab: tab, root: root, navigation: env.navigation)
    }

    override func didStartChildFlow(_ child: PushedFlow, rootScreen: Screen) {
        guard env.has(.teardownOnDisappear) else { return }
        // The bug: teardown hangs off "will disappear", which a cancelled
        // back-swipe also fires.
        rootScreen.onWillDisappear = { [weak self, weak child] in
            guard let self, let child else { return }
            self.tearDown(child)
        }
    }

    override func navigationStack(_ stack: NavigationStack, didShow screen: Screen, from: Screen?) {
        if env.has(.noPopDetection) { return }
        if env.has(.animatedPopOnly) {
            // The textbook membership test alone: a non-animated pop has no
            // `from`, so the child it popped is never found.
            guard let from, !stack.screens.contains(where: { $0 === from }) else { return }
            for child in pushedFlows where child.rootScreen === from { tearDown(child) }
            return
        }
        super.navigationStack(stack, didShow: screen, from: from)
    }
}

/// A ShopApp flow pushed inside a tab (the cart, an order).
class ShopPushedFlow: PushedFlow {
    let env: ShopEnvironment

    init(name: String, tab: TabID, entry: DestinationID, destinations: Set<DestinationID>, env: ShopEnvironment) {
        self.env = env
        super.init(name: name, tab: tab, entry: entry, destinations: destinations, navigation: env.navigation)
    }

    override func makeScreen(_ step: RouteStep) -> Screen {
        env.makeScreen(step, owner: self)
    }
}

/// A ShopApp modal flow (checkout, settings, auth, onboarding…).
class ShopModalFlow: ModalFlow {
    let env: ShopEnvironment

    init(name: String, env: ShopEnvironment) {
        self.env = env
        super.init(name: name, navigation: env.navigation)
    }

    override func makeScreen(_ step: RouteStep) -> Screen {
        env.makeScreen(step, owner: self)
    }
}
