/// A flow presented modally with a stack of its own (settings, sign-in,
/// checkout). It owns that stack strongly — which is why its screens must
/// never own it back — and learns of a swipe-down only as the
/// presentation's delegate, which ends the flow as cancelled.
open class ModalFlow: FlowCoordinator, ModalPresentationDelegate {
    public let navigation: SimulatedNavigation
    public let stack: NavigationStack
    private var isTracked = false

    public init(name: String, navigation: SimulatedNavigation) {
        self.navigation = navigation
        self.stack = navigation.makeStack(name: name)
        super.init(name: name, log: navigation.log)
    }

    /// Builds one of this flow's screens. Override to wire outputs.
    open func makeScreen(_ step: RouteStep) -> Screen {
        Screen(step.id, params: step.params)
    }

    /// Sets the flow's stack to `steps`, reusing screens that already show
    /// the same step at the same position.
    public func materialize(_ steps: [RouteStep]) {
        var screens: [Screen] = []
        for (index, step) in steps.enumerated() {
            if index < stack.screens.count, stack.screens[index].step == step, screens.count == index {
                screens.append(stack.screens[index])
            } else {
                screens.append(ownScreen(step))
            }
        }
        stack.setScreens(screens, animated: !stack.screens.isEmpty)
        trackIfNeeded()
    }

    public func push(_ step: RouteStep) {
        stack.push(ownScreen(step))
    }

    /// A screen built by this flow and owned by it.
    private func ownScreen(_ step: RouteStep) -> Screen {
        let screen = makeScreen(step)
        screen.owner = screen.owner ?? self
        return screen
    }

    /// Registers the flow for leak tracking, anchored to its first screen:
    /// when that screen leaves (the modal is dismissed), so must the flow.
    public func trackIfNeeded() {
        guard !isTracked, let root = stack.root else { return }
        isTracked = true
        navigation.tracker.track(self, label: path, kind: .coordinator, anchoredTo: root)
    }

    /// Presents the stack; `completion(false)` when UIKit refused (another
    /// transition in flight).
    public func present(animated: Bool, completion: ((Bool) -> Void)? = nil) {
        navigation.present(stack, animated: animated, delegate: self, completion: completion)
    }

    /// The user swiped the modal down: the flow is over, cancelled.
    open func modalDidDismissInteractively(_ stack: NavigationStack) {
        finish(.cancelled)
    }

    /// Wires the conventional `close` output: the user cancels the flow.
    public func wireClose(_ screen: Screen) {
        screen.setOutput(.close) { [weak self] _ in self?.finish(.cancelled) }
    }
}
