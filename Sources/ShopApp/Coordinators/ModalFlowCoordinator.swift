import NavigationCore

/// A flow presented modally with a stack of its own (checkout, settings,
/// auth, onboarding…). It owns that stack strongly — which is exactly why
/// its screens must not own it back — and learns of a swipe-down only as
/// the presentation's delegate.
class ModalFlowCoordinator: FlowCoordinator, ModalPresentationDelegate {
    let env: ShopEnvironment
    let stack: NavigationStack
    private var isTracked = false

    init(name: String, env: ShopEnvironment) {
        self.env = env
        self.stack = env.navigation.makeStack(name: name)
        super.init(name: name, log: env.log)
    }

    /// Builds the screen for one of this flow's destinations; subclasses
    /// wire its outputs.
    func makeScreen(_ step: RouteStep) -> Screen {
        env.makeScreen(step, owner: self)
    }

    /// Sets the modal's stack to `steps`, reusing screens that already show
    /// the same step at the same position.
    func materialize(_ steps: [RouteStep]) {
        var screens: [Screen] = []
        for (index, step) in steps.enumerated() {
            if index < stack.screens.count, stack.screens[index].step == step, screens.count == index {
                screens.append(stack.screens[index])
            } else {
                screens.append(makeScreen(step))
            }
        }
        stack.setScreens(screens, animated: !stack.screens.isEmpty)
        trackIfNeeded()
    }

    func push(_ step: RouteStep) {
        stack.push(makeScreen(step))
    }

    /// Registers the flow for leak tracking, anchored to its first screen.
    func trackIfNeeded() {
        guard !isTracked, let root = stack.root else { return }
        isTracked = true
        env.track(self, anchoredTo: root)
    }

    func present(animated: Bool, completion: ((Bool) -> Void)? = nil) {
        env.navigation.present(stack, animated: animated, delegate: self, completion: completion)
    }

    /// The user swiped the modal down: the flow is over, cancelled.
    func modalDidDismissInteractively(_ stack: NavigationStack) {
        finish(.cancelled)
    }

    /// Wires the conventional `close` output: the user cancels the flow.
    func wireClose(_ screen: Screen) {
        screen.setOutput("close") { [weak self] _ in self?.finish(.cancelled) }
    }
}
